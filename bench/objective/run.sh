#!/usr/bin/env bash
# On the GPU machine: objective=latency vs objective=throughput for a GEMM
# of 256 x 256 x 16384, each exported by `ks optimize` (prepared here with
# bench/objective/prepare.sh into .deps/objective), launched from 1, 2, 4,
# 8 and 16 host threads at once, beside the naive input (bench/objective/concurrent.cu). Writes
# $OUT/objective.jsonl and prints it.
set -euo pipefail
src=${1:-.deps/objective}
out=${OUT:-/tmp}/objective.jsonl
: > "$out"
cp bench/contraction/gemm_nn.cu "/tmp/objective-original.cu" # the naive input, the baseline
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
