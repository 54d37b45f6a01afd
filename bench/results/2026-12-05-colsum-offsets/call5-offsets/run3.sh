#!/bin/bash
# ks-bench (L2 flushed): our PTX with 64-bit loop offsets (ks64) and narrowed (ks32), per point.
cd "$(dirname "$0")"
B=../bin/ks-bench
vs=""; ls=""
for n in $(cat sv.txt); do for w in 64 32; do vs="$vs k${w}_$n=ks${w}_$n.ptx@col_sum"; ls="$ls --launches k${w}_$n=ks_$n.json"; done; done
P="--params x:f32[rows*cols]:in,y:f32[cols]:out,rows:i32,cols:i32 --grid ceildivu(cols,128),1,1 --block 128,1,1 --no-db"
$B naive=lifted.ptx@col_sum $vs $ls $P --workload rows=1000,cols=1023 --reps 3 --warmup 1 --no-counters | grep -v "^ *$" | tail -12
for i in 1 2; do
$B naive=lifted.ptx@col_sum probe=probe.ptx@col_sum v_T16_R16_U4_S8=variants.ptx@v_T16_R16_U4_S8 --launches v_T16_R16_U4_S8=v_T16_R16_U4_S8.json --launches probe=ours.json $vs $ls $P --workload rows=16384,cols=4096 --reps 20 --warmup 3 --no-counters --bytes "4*rows*cols+4*cols" --baseline copy --json $OUT/colsum_k$i.json | grep -v "^ *$" | tail -15
done
