#!/usr/bin/env bash
# Is the 3-D register window's gap to nvcc (0.64 against 0.80 of the copy)
# the lowering's 64-bit index arithmetic? One ks-bench run, on the GPU
# machine, from the repository root: the naive kernel, our window through
# MLIR's lowering (ours.ptx; ours_narrow.ptx with ks-narrow-offsets), the same window exported as CUDA and compiled
# by nvcc (ours.cu), that CUDA with its index arithmetic in 32-bit int
# (ours_int32.cu: `long long` -> `int`, by sed), and the probe's column
# kernel with and without __restrict__ (column.cu, column_plain.cu); with the
# copy baseline.
set -euo pipefail
D=$(dirname "$0")
OUT=${OUT:-/tmp}
KSB=${KSB:-.deps/bin/ks-bench}
for f in ours column column_plain ours_int32; do
  nvcc -arch=sm_90 -O3 -ptx "$D/$f.cu" -o "$OUT/$f.nvcc.ptx"
done
common=("$KSB" "naive=$D/naive.ptx@stencil3d" "ours=$D/ours.ptx@stencil3d"
  "ours_narrow=$D/ours_narrow.ptx@stencil3d" "ours_nvcc=$OUT/ours.nvcc.ptx@stencil3d" "ours_int32=$OUT/ours_int32.nvcc.ptx@stencil3d"
  "column=$OUT/column.nvcc.ptx@stencil3d" "column_plain=$OUT/column_plain.nvcc.ptx@stencil3d"
  --params "in:f32[n*n*n]:in,out:f32[n*n*n]:out,n:i32"
  --grid "ceildivu(n,8),ceildivu(n,8),ceildivu(n,8)" --block 8,8,8
  --launches "ours=$D/ours.json" --launches "ours_narrow=$D/ours.json" --launches "ours_nvcc=$D/ours.json"
  --launches "ours_int32=$D/ours.json" --launches "column=$D/ours.json"
  --launches "column_plain=$D/ours.json" --no-db --no-counters)
"${common[@]}" --workload n=301 --reps 3 --warmup 1 --json "$OUT/odd.json"
"${common[@]}" --workload n=512 --reps 20 --warmup 3 --bytes "8*n*n*n" --baseline copy \
  --json "$OUT/bench.json"
