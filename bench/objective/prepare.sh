#!/usr/bin/env bash
# Here: export the GEMM of bench/contraction/gemm_nn.cu at 256 x 256 x 16384
# with each objective (static decisions, no GPU) into .deps/objective for
# bench/objective/run.sh on the GPU machine.
set -euo pipefail
dir=${1:-.deps/objective}
mkdir -p "$dir"
for objective in latency throughput; do
  build/bin/ks optimize bench/contraction/gemm_nn.cu --measure static \
    --workload M=256,N=256,K=16384 --objective "$objective" -o "$dir/$objective.cu" \
    2> "$dir/$objective.log"
  grep -E "chosen|decision" "$dir/$objective.log"
done
