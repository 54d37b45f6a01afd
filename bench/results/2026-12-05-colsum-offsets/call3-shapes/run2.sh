#!/bin/bash
# ks-bench (L2 flushed): naive, our PTX and the probe's shapes (nvcc) in one run.
cd "$(dirname "$0")"
B=../bin/ks-bench
vs=""; ls=""; is=""; ils=""
for v in $(cat variants.txt); do
  vs="$vs $v=variants.ptx@$v"; ls="$ls --launches $v=$v.json"
  case $v in i_*) is="$is $v=variants.ptx@$v"; ils="$ils --launches $v=$v.json";; esac
done
P="--params x:f32[rows*cols]:in,y:f32[cols]:out,rows:i32,cols:i32 --grid ceildivu(cols,128),1,1 --block 128,1,1 --no-db"
$B naive=lifted.ptx@col_sum ours=ours.ptx@col_sum $vs --launches ours=ours.json $ls $P --workload rows=1000,cols=1000 --reps 3 --warmup 1 --no-counters | grep -v "^ *$" | tail -16
$B naive=lifted.ptx@col_sum $is $ils $P --workload rows=1023,cols=1023 --reps 3 --warmup 1 --no-counters | grep -v "^ *$" | tail -9
for i in 1 2; do
$B naive=lifted.ptx@col_sum ours=ours.ptx@col_sum probe=probe.ptx@col_sum $vs --launches ours=ours.json --launches probe=ours.json $ls $P --workload rows=16384,cols=4096 --reps 20 --warmup 3 --no-counters --bytes "4*rows*cols+4*cols" --baseline copy --json $OUT/colsum_v$i.json | grep -v "^ *$" | tail -17
done
