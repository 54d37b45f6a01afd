#!/bin/bash
# ks-bench: naive vs ours (our PTX) vs nvcc's compile of our exported CUDA vs the probe's kernel.
cd "$(dirname "$0")"
B=../bin/ks-bench
common="naive=lifted.ptx@col_sum ours=ours.ptx@col_sum nv=ours_nvcc.ptx@col_sum probe=probe.ptx@col_sum --params x:f32[rows*cols]:in,y:f32[cols]:out,rows:i32,cols:i32 --grid ceildivu(cols,128),1,1 --block 128,1,1 --launches ours=ours.json --launches nv=ours.json --launches probe=ours.json --no-db"
$B $common --workload rows=1000,cols=1023 --reps 3 --warmup 1 --no-counters || exit 1
for i in 1 2 3; do
$B $common --workload rows=16384,cols=4096 --reps 20 --warmup 3 --no-counters --bytes "4*rows*cols+4*cols" --baseline copy --json $OUT/colsum$i.json | tail -8
done
