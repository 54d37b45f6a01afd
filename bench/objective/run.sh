#!/usr/bin/env bash
# On the GPU machine: objective=latency vs objective=throughput for the GEMM
# of bench/contraction/gemm_nn.cu at 256 x 256 x 16384 (a grid too small for
# the GPU alone: where the objectives can disagree), lifted here by
# bench/objective/prepare.sh into .deps/objective. Each objective is searched
# and measured on the GPU by the driver (measure=cuda, BUDGET candidates,
# its own tuning database), then the naive input and both choices are timed
# by ks-bench in one run per concurrency (--streams 1, 2, 4, 8, 16: waves of
# that many launches, each on its own stream and buffers; per launch), every
# one verified. Writes under $OUT/objective: each objective's optimized MLIR
# (for ks-translate --export-cuda here, then concurrent.sh), PTX, transcript
# and log, and streams-S.json per concurrency.
#   OUT=$OUT bash bench/objective/run.sh [.deps/objective] [KS_OPT] [KS_BENCH]
set -euo pipefail
src=${1:-.deps/objective}
KSO=${2:-/tmp/ksb/kernelskill-bundle/bin/ks-opt}
KSB=${3:-$PWD/.deps/bin/ks-bench}
BUDGET=${BUDGET:-12}
out=${OUT:-/tmp}/objective
work=/tmp/objective-work
rm -rf "$work" && mkdir -p "$out" "$work"
if [[ ! -x $KSO ]]; then # the bundle's static ks-opt (scripts/prepare-gpu-bench.sh objective)
  mkdir -p /tmp/ksb && tar -C /tmp/ksb -xJf .deps/kernelskill-bundle.tar.xz
fi
workload=M=256,N=256,K=16384
for objective in latency throughput; do
  start=$EPOCHREALTIME
  "$KSO" "$src/gemm_nn.lifted.mlir" --kernelskill-pipeline="lower=false measure=cuda \
bench=$KSB budget=$BUDGET workload=$workload objective=$objective db=$work/$objective.db \
workdir=$work/$objective timeout=60 explain=true transcript=$out/$objective.transcript.json" \
    -o "$out/$objective.optimized.mlir" 2> "$out/$objective.log"
  echo "== $objective: search $(python3 -c "print(round($EPOCHREALTIME - $start, 1))") s"
  grep -E "chosen|measured|decision" "$out/$objective.log" | cut -c1-600 || true
  "$KSO" "$out/$objective.optimized.mlir" --kernelskill-lower="ptx=$out/$objective.ptx" -o /dev/null
done
# The chosen candidate's launches (grid, block, an init kernel for split-K).
launches() {
  python3 - "$out/$1.transcript.json" "$work/$1" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
if k.get("chosen") is not None and not k.get("restored_original"):
    print(f"{sys.argv[2]}/{k['kernel']}.c{k['chosen']}.launch.json")
PY
}
args=("naive=$work/latency/original.ptx@gemm_nn" "latency=$out/latency.ptx@gemm_nn"
      "throughput=$out/throughput.ptx@gemm_nn")
for objective in latency throughput; do
  m=$(launches $objective)
  [[ -n $m ]] && args+=(--launches "$objective=$m")
done
for streams in 1 2 4 8 16; do
  "$KSB" "${args[@]}" --spec "$work/latency/gemm_nn.spec.json" --workload $workload \
    --streams $streams --reps 20 --no-counters --no-db --json "$out/streams-$streams.json" \
    > "$out/streams-$streams.log" 2>&1 || echo "== streams $streams: ks-bench rc=$?"
  python3 - "$out/streams-$streams.json" $streams <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
print(f"streams {sys.argv[2]}: " + ", ".join(
    f"{v['name']} {v.get('timing', {}).get('median_ms', -1):.4f} ms ({v['status']})"
    for v in r["variants"]))
PY
done
