#!/bin/bash
# ncu of the chosen softmax / causal softmax schedules at 4096x16384 (ours only).
cd "$(dirname "$0")"
P="x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32"
for k in softmax causal; do
  name=$([ $k = causal ] && echo causal_softmax || echo softmax)
  args=(ours=$k.ours.ptx@$name --params "$P" --grid "rows,1,1" --block 512,1,1
        --launches ours=$k.ours.json --no-db --workload rows=4096,cols=16384 --reps 2 --warmup 1 --no-counters)
  echo "== $k"
  ncu --launch-count 1 -k regex:$name --section SpeedOfLight --section WarpStateStats --section Occupancy --section SchedulerStats --section InstructionStats \
    ../bin/ks-bench "${args[@]}" 2>&1 | grep -vE "^\s*(INF|OPT|WRN)|^\s*$|----" | tail -45
done
