#!/usr/bin/env bash
# The naive fp32 GEMM, as --kernelskill-lower emits it, measured by ks-bench
# next to cuBLAS (fp32 and tf32) in the same run; verified at 4096^3 and at
# sizes that are not multiples of the 16x16 block.
#
#   bench/gemm/run.sh KS_OPT KS_BENCH OUT_DIR
set -euo pipefail
KS_OPT=$1 KS_BENCH=$2 OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
"$KS_OPT" --kernelskill-lower="ptx=$OUT/naive_gemm.ptx" "$HERE/../../examples/naive_gemm.mlir" -o /dev/null
# Odd sizes: correctness only (few repetitions).
"$KS_BENCH" "$OUT/naive_gemm.ptx" --spec "$HERE/naive_gemm.json" --workload M=1000,N=1023,K=1001 \
  --reps 5 --no-db --json "$OUT/naive_gemm_odd.json"
# 4096^3, with the launch spec and workload read off the IR (#ks.workload):
# the baseline every later optimization is compared with.
"$KS_OPT" "$HERE/../../examples/naive_gemm.mlir" --ks-emit-launch-spec="path=$OUT/naive_gemm.spec.json" -o /dev/null
"$KS_BENCH" "$OUT/naive_gemm.ptx" --spec "$OUT/naive_gemm.spec.json" \
  --flops "2*M*N*K" --bytes "4*(M*K+K*N+M*N)" \
  --reps 20 --baseline sgemm:M,N,K --baseline tf32:M,N,K --baseline copy:1024*1024*1024 \
  --json "$OUT/naive_gemm_4096.json"
