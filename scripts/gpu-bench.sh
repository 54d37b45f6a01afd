#!/usr/bin/env bash
# On the GPU machine: the contraction benchmarks (bench/contraction) and the
# lowering's comparison with nvcc (bench/lowering), measured with the ks-bench
# built on the build machine (carried in .deps/bin; rebuilt here from source
# with CUDA alone if it does not run). Logs and results go to
# $OUT/results.tar.gz.
#
#   scripts/prepare-gpu-bench.sh              # here
#   (device, carry .deps) scripts/gpu-bench.sh [contraction] [memory] [auto] [measured] [measured-memory] [screen-ab] [refine-ab] [search-ab] [exhaustive] [seeds] [agents-ab] [energy] [objective] [corpus] [static] [idioms] [lowering] [conv-baseline] [sass]
#
# memory: the memory-bound benchmarks (bench/memory): naive vs ours vs the
# copy bandwidth in one ks-bench run per size, then PyTorch's ops
# (MEMORY_ONLY=name,... to run some cases).
#
# static: every kernel that ks optimize --measure static changed (.deps/static
# from prepare-gpu-bench.sh static), verified against its source here.
#
# idioms: the idiom suite (bench/idioms/suite.py run, .deps/idioms from
# prepare-gpu-bench.sh idioms): each case's source, the static path's output
# and the measured search's, verified and timed in one ks-bench run, and
# torch's op; IDIOM_ONLY, IDIOM_SECONDS (default 480), IDIOM_BUDGET and
# IDIOM_MEASURED=0 as suite.py reads them. Per-case JSON and the table in
# $OUT/idioms/.
#
# measured: the agent driver measuring on this GPU (measure=cuda) with the
# bundle's ks-opt, per case: the search, the repeat from the tuning database,
# then naive vs the result vs the baselines (MEASURED_BUDGET candidates,
# default 16; MEASURED_ONLY=name,... to run some cases). Its tables and log
# are copied to $OUT as they are written. corpus: the pipeline with
# measure=cuda on every kernel of the lifter's corpus (bench/corpus/optimize.py).
# screen-ab: the measured-memory search of SCREEN_ONLY cases with screen=false,
# then screen=true (the driver's screening of candidates), side by side
# (SCREEN_MODES=true or false runs one of them). refine-ab: the same with
# refine=0 and refine=4 (REFINE_MODES, REFINE_ONLY; target=REFINE_TARGET,
# default 0: what the rounds find, not where the target stops them; each
# transcript's "reprofiled" says where it would have), each with its own
# tuning database. objective: bench/objective/run.sh
# (latency vs throughput for a small GEMM; .deps/objective from
# bench/objective/prepare.sh; its files in results.tar.gz, under objective/).
set -uo pipefail
cd "$(dirname "$0")/.."
STEPS=${*:-contraction conv-baseline lowering}
want() { [[ " $STEPS " == *" $1 "* ]]; }
FINAL=${OUT:-/tmp/ks-gpu-out}
W=/tmp/ks-gpu-bench
rm -rf "$W" && mkdir -p "$W" "$FINAL"
trap 'tar -C "$W" -czf "$FINAL/results.tar.gz" .' EXIT
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$W/gpu.txt"
cat .deps/commit.txt 2>/dev/null | tee -a "$W/gpu.txt"
KSB=.deps/bin/ks-bench
if ! "$KSB" --version >/dev/null 2>&1; then
  echo "the carried ks-bench does not run here: building the runtime from source"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DKS_RUNTIME_ONLY=ON \
    -DSQLite3_INCLUDE_DIR="$PWD/.deps/include" \
    -DSQLite3_LIBRARY="$(ls /lib/x86_64-linux-gnu/libsqlite3.so.0 /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 2>/dev/null | head -1)" \
    > "$W/configure.log" 2>&1 && cmake --build build-gpu > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; exit 1; }
  KSB=build-gpu/bin/ks-bench
fi
"$KSB" --version | tee -a "$W/gpu.txt"
export PYTHONUNBUFFERED=1
if want contraction; then
  python3 bench/contraction/cases.py measure "$KSB" .deps/contraction "$W/contraction" > "$W/contraction.log" 2>&1 || status=1
  python3 bench/contraction/cases.py report "$W/contraction" | tee "$W/contraction.md"
  grep -E "^== |rc=[1-9]" "$W/contraction.log" | grep -v "rc=0" | head -20
fi
if want memory; then
  python3 bench/memory/cases.py measure "$KSB" .deps/memory "$W/memory" ${MEMORY_ONLY:-} > "$W/memory.log" 2>&1 || status=1
  python3 bench/memory/torch_ops.py --json "$W/memory/torch_ops.json" >> "$W/memory.log" 2>&1 || status=1
  python3 bench/memory/cases.py report "$W/memory" "$W/memory/torch_ops.json" | tee "$W/memory.md"
  grep -E "^== " "$W/memory.log" | grep -v "rc=0" | head -20
  cp "$W/memory.md" "$W/memory.log" "$FINAL/"
fi
# The bundle's static ks-opt (the measured and corpus steps run the pipeline here).
KSO=/tmp/ksb/kernelskill-bundle/bin/ks-opt
unpacked=""
unpack_bundle() { # once per run, fresh (a warm machine may hold an older one)
  [ -n "$unpacked" ] || { rm -rf /tmp/ksb && mkdir -p /tmp/ksb && \
    tar -C /tmp/ksb -xJf .deps/kernelskill-bundle.tar.xz && unpacked=1; }
}
if want measured; then
  unpack_bundle
  "$KSO" --version | head -2
  timeout "${MEASURED_TIMEOUT:-540}" python3 bench/contraction/cases.py measured "$KSO" "$PWD/$KSB" \
    .deps/measured "$W/measured" "${MEASURED_BUDGET:-16}" ${MEASURED_ONLY:-} > "$W/measured.log" 2>&1 || status=1
  python3 bench/contraction/cases.py report "$W/measured" > "$W/measured.md"
  python3 bench/contraction/cases.py search-report "$W/measured" > "$W/measured-search.md"
  cat "$W/measured.md" "$W/measured-search.md"
  grep -E "^== " "$W/measured.log" | grep -v "rc=0" | head -20
  cp "$W/measured.md" "$W/measured-search.md" "$W/measured.log" "$FINAL/"
  cp "$W"/measured/gemm_nn_auto_4096*.transcript.json "$FINAL/" 2>/dev/null
fi
if want measured-memory; then
  # The row kernels of bench/memory with no hand schedule: the agents'
  # row_reduction candidates measured by the driver.
  unpack_bundle
  timeout "${MEASURED_TIMEOUT:-540}" python3 bench/contraction/cases.py measured "$KSO" "$PWD/$KSB" \
    .deps/measured-memory "$W/measured-memory" "${MEASURED_BUDGET:-16}" ${MEASURED_ONLY:-} \
    > "$W/measured-memory.log" 2>&1 || status=1
  python3 bench/contraction/cases.py report "$W/measured-memory" > "$W/measured-memory.md"
  python3 bench/contraction/cases.py search-report "$W/measured-memory" > "$W/measured-memory-search.md"
  cat "$W/measured-memory.md" "$W/measured-memory-search.md"
  cp "$W/measured-memory.md" "$W/measured-memory-search.md" "$W/measured-memory.log" "$FINAL/"
fi
# ab NAME OPTION "VALUES" ONLY BUDGET [EXTRA]: the measured search of the
# cases ONLY names (measured and measured-memory sets), once per value of
# the pipeline option OPTION, each with its own tuning database; tables
# side by side in $FINAL/NAME-VALUE.md.
ab() {
  local name=$1 option=$2 values=$3 only=$4 budget=$5 extra=${6:-} value set
  unpack_bundle
  for value in $values; do
    : > "$W/$name-$value.md"
    for set in measured measured-memory; do
      [ -f ".deps/$set/cases.json" ] || continue
      MEASURED_EXTRA="$option=$value $extra" timeout "${MEASURED_TIMEOUT:-540}" python3 bench/contraction/cases.py \
        measured "$KSO" "$PWD/$KSB" ".deps/$set" "$W/$name-$value/$set" "$budget" "$only" \
        >> "$W/$name-$value.log" 2>&1 || status=1
      python3 bench/contraction/cases.py report "$W/$name-$value/$set" >> "$W/$name-$value.md"
      python3 bench/contraction/cases.py search-report "$W/$name-$value/$set" >> "$W/$name-$value.md"
    done
    echo "== $option=$value"; cat "$W/$name-$value.md"
    cp "$W/$name-$value.md" "$W/$name-$value.log" "$FINAL/"
  done
}
if want screen-ab; then
  # The driver's measured search with and without screening (screen=false:
  # every candidate verified at the workload) on the same cases (SCREEN_ONLY,
  # names of the measured and measured-memory cases). SCREEN_MODES
  # ("true", "false") runs one side, so that the two can take two calls of
  # one warm machine when together they pass the per-call limit.
  ab screen screen "${SCREEN_MODES:-false true}" "${SCREEN_ONLY:-transpose,stencil2d,rmsnorm_auto_16384}" \
    "${MEASURED_BUDGET:-16}"
fi
if want refine-ab; then
  # The measured search with part of the budget kept for refinement rounds
  # around the fastest measured candidate (refine=N) against none, same
  # budget, same cases; target=REFINE_TARGET (default 0: what the rounds
  # find, not where the target would stop them; each transcript's
  # "reprofiled" says where it would have).
  ab refine refine "${REFINE_MODES:-0 4}" "${REFINE_ONLY:-gemm_nn_auto_4096,col_sum,stencil2d}" \
    "${MEASURED_BUDGET:-12}" "target=${REFINE_TARGET:-0}"
fi
if want search-ab; then
  # The negotiation benchmark's comparison at equal budget (issue 40): the
  # measured search ordered by the negotiation (the model's best of each
  # structure and the agents' agreed point), by the cost model alone (top-k)
  # and at random (SEARCH_MODES; SEARCH_ONLY cases; MEASURED_BUDGET, default
  # 8), each with its own tuning database.
  ab search search "${SEARCH_MODES:-negotiated model random}" \
    "${SEARCH_ONLY:-gemm_nn_auto_4096,gemm_nn_auto_1000,softmax_auto_16384_4096,rmsnorm_auto_16384_4096,stencil2d}" \
    "${MEASURED_BUDGET:-8}"
fi
if want exhaustive; then
  # The negotiation benchmark's reference: every admissible point of the same
  # knob space compiled, screened and the finalists verified, SEARCH_ONLY
  # cases; the searches at budget 8 are judged against its best.
  # EXHAUSTIVE_MODE=model (budget EXHAUSTIVE_BUDGET, default 2048) compiles
  # the points the model rates alike once, as the 2026-12-07 sweep did;
  # exhaustive (the default) compiles every one.
  ab exhaustive search "${EXHAUSTIVE_MODE:-exhaustive}" \
    "${SEARCH_ONLY:-gemm_nn_auto_4096,gemm_nn_auto_1000,softmax_auto_16384_4096,rmsnorm_auto_16384_4096,stencil2d}" \
    "${EXHAUSTIVE_BUDGET:-2048}"
fi
if want seeds; then
  # search=random at SEEDS (default 1 2 3), the random autotuner's spread.
  ab seed search-seed "${SEEDS:-1 2 3}" \
    "${SEARCH_ONLY:-gemm_nn_auto_4096,gemm_nn_auto_1000,softmax_auto_16384_4096,rmsnorm_auto_16384_4096,stencil2d}" \
    "${MEASURED_BUDGET:-8}" search=random
fi
if want agents-ab; then
  # Each agent alone (agents=): the same measured search over one agent's
  # proposal, the other knobs at the family's defaults (AGENTS_MODES).
  ab agents agents "${AGENTS_MODES:-memory compute resource}" \
    "${SEARCH_ONLY:-gemm_nn_auto_4096,gemm_nn_auto_1000,softmax_auto_16384_4096,rmsnorm_auto_16384_4096,stencil2d}" \
    "${MEASURED_BUDGET:-8}"
fi
if want energy; then
  # objective=energy (issue 40): the measured search of ENERGY_ONLY cases with
  # the finalists' energy per launch read from NVML; energy.md: per case the
  # original, the fastest finalist and the candidate chosen for its energy,
  # all from the decision's one ks-bench run.
  ab energy objective energy "${ENERGY_ONLY:-gemm_nn_auto_4096,softmax_auto_16384_4096,stencil2d}" \
    "${MEASURED_BUDGET:-8}"
  python3 bench/objective/energy_report.py "$W/energy-energy" | tee "$W/energy.md"
  cp "$W/energy.md" "$FINAL/"
fi
if want objective; then
  unpack_bundle
  # Into the working folder (results.tar.gz), not $FINAL: the run writes
  # about twenty files, more than a device call brings back one by one.
  OUT="$W" timeout "${OBJECTIVE_TIMEOUT:-400}" bash bench/objective/run.sh .deps/objective "$KSO" \
    "$PWD/$KSB" || status=1
fi
if want corpus; then
  unpack_bundle
  timeout "${CORPUS_TIMEOUT:-300}" python3 bench/corpus/optimize.py run \
    "$KSO" "$PWD/$KSB" .deps/corpus "$W/corpus" > "$W/corpus.log" 2>&1 || status=1
  python3 bench/corpus/optimize.py report "$W/corpus" | tee "$W/corpus.md"
  cp "$W/corpus.md" "$W/corpus.log" "$FINAL/"
fi
if want static; then
  # Every kernel ks optimize --measure static changed, against its source
  # (nvcc), on this GPU: the pipeline's PTX and the exported CUDA.
  python3 test/Integration/Driver/static_equivalence.py run "$KSB" \
    "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" .deps/static "$W/static.md" \
    > "$W/static.log" 2>&1 || status=1
  tail -60 "$W/static.log"
  cp "$W/static.md" "$W/static.log" "$FINAL/"
fi
if want idioms; then
  # The idiom suite: resumable (cases with a result in $FINAL/idioms are
  # skipped), so a later call with the same $OUT contents goes on.
  unpack_bundle
  mkdir -p "$FINAL/idioms"
  python3 bench/idioms/suite.py run "$KSO" "$PWD/$KSB" "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    .deps/idioms "$FINAL/idioms" > "$W/idioms.log" 2>&1 || status=1
  tail -40 "$W/idioms.log"
  python3 bench/idioms/suite.py report "$FINAL/idioms" "$FINAL/idioms.md" | tail -5
  rm -rf "$FINAL/idioms/work"
  cp "$W/idioms.log" "$FINAL/"
fi
if want auto; then
  # The agent driver's schedules (cases.py prepare-auto), against the same baselines.
  python3 bench/contraction/cases.py measure "$KSB" .deps/auto "$W/auto" > "$W/auto.log" 2>&1 || status=1
  python3 bench/contraction/cases.py report "$W/auto" | tee "$W/auto.md"
  grep -E "^== |rc=[1-9]" "$W/auto.log" | grep -v "rc=0" | head -20
fi
if want conv-baseline; then
  python3 bench/contraction/torch_conv.py 8 64 128 128 64 --json "$W/cudnn_conv.json" || status=1
fi
if want lowering; then
  python3 bench/lowering/compare.py measure "$KSB" "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    .deps/lowering "$W/lowering" > "$W/lowering.log" 2>&1 || status=1
  python3 bench/lowering/compare.py report "$W/lowering" | tee "$W/lowering.md"
fi
if want sass; then
  # The machine code of the kernels whose lowering is compared (ptxas here).
  mkdir -p "$W/sass"
  for ptx in .deps/lowering/gemv_cols*.ptx .deps/lowering/conv2d_direct*.ptx .deps/contraction/gemm_nn.ours.ptx; do
    base=$(basename "$ptx" .ptx)
    ptxas --gpu-name=sm_90 "$ptx" -o "/tmp/$base.cubin" && cuobjdump -sass "/tmp/$base.cubin" > "$W/sass/$base.sass"
  done
  for cu in gemv_cols conv2d_direct; do
    nvcc -cubin -O3 -arch=sm_90 "test/Frontend/corpus/$cu.cu" -o "/tmp/$cu.nvcc.cubin" &&
      cuobjdump -sass "/tmp/$cu.nvcc.cubin" > "$W/sass/$cu.nvcc.sass"
  done
  ls "$W/sass"
fi
exit $status
