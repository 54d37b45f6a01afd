#!/usr/bin/env bash
# Here: lift bench/contraction/gemm_nn.cu into .deps/objective for
# bench/objective/run.sh on the GPU machine (which has no clang).
set -euo pipefail
dir=${1:-.deps/objective}
mkdir -p "$dir"
build/bin/ks-translate --import-cuda bench/contraction/gemm_nn.cu -o "$dir/gemm_nn.lifted.mlir"
