#!/usr/bin/env bash
# On the GPU machine, after run.sh: the naive input and each objective's
# choice, exported here as CUDA C++ (ks-translate --export-cuda of run.sh's
# optimized MLIR into DIR/{latency,throughput}.cu), launched from 1, 2, 4, 8
# and 16 host threads at once, each on its per-thread default stream
# (bench/objective/concurrent.cu, which verifies first): a check of the
# ks-bench --streams figures by other means. Writes $OUT/objective.jsonl.
#   OUT=$OUT bash bench/objective/concurrent.sh DIR
set -euo pipefail
src=${1:?the directory with latency.cu and throughput.cu}
out=${OUT:-/tmp}/objective.jsonl
: > "$out"
cp bench/contraction/gemm_nn.cu /tmp/objective-original.cu # the naive input, the baseline
for objective in original latency throughput; do
  file=$src/$objective.cu
  [[ $objective == original ]] && file=/tmp/objective-original.cu
  nvcc -O3 -arch=sm_90 --default-stream per-thread -std=c++17 \
    -include "$file" bench/objective/concurrent.cu -o "/tmp/objective-$objective"
done
for streams in 1 2 4 8 16; do
  for objective in original latency throughput; do
    line=$("/tmp/objective-$objective" 256 256 16384 "$streams" 20)
    echo "{\"objective\": \"$objective\", ${line#\{}" | tee -a "$out"
  done
done
