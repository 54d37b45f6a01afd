#!/usr/bin/env bash
# On the GPU machine (CUDA 13, no LLVM): build the runtime from these sources
# with CUDA alone, run every GPU test, unpack the bundle and run ks-opt and the
# GPU lit tests with it, then run the benchmarks. Logs and results go to $OUT.
#
#   scripts/prepare-gpu-run.sh            # here, once per change
#   (device) scripts/gpu-run.sh [STEP...] # there, with .deps carried
#
# Steps (default: all): tests (ctest -L gpu), lit (GPU lit tests with the
# bundle's ks-opt), equivalence, gemm (benchmark), profiler (the performance
# profiler's agreement measurements; compare them here with
# bench/profiler/agreement.py compare).
set -uo pipefail
STEPS=${*:-tests lit equivalence gemm profiler}
want() { [[ " $STEPS " == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
# The device tool brings back at most 8 files: work in a scratch folder and
# pack it into $OUT/results.tar.gz at the end.
FINAL=${OUT:-/tmp/ks-gpu-out}
OUT=/tmp/ks-gpu-results
rm -rf "$OUT" && mkdir -p "$OUT" "$FINAL"
trap 'tar -C "$OUT" -czf "$FINAL/results.tar.gz" .' EXIT
status=0
step() { echo; echo "=== $*"; }

step "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/gpu.txt"
# The device's copy of the tree may carry a stale .git: the commit the
# sources are from is the one prepare-gpu-run.sh's caller wrote down.
if [ -f .deps/commit.txt ]; then
  echo "tree: $(cat .deps/commit.txt) (.deps/commit.txt)" | tee -a "$OUT/gpu.txt"
else
  echo "tree: $(git rev-parse HEAD 2>/dev/null) (git HEAD of the copy)" | tee -a "$OUT/gpu.txt"
fi

step "runtime-only build (CUDA alone)"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DKS_RUNTIME_ONLY=ON \
  -DSQLite3_INCLUDE_DIR="$PWD/.deps/include" \
  -DSQLite3_LIBRARY="$(ls /lib/x86_64-linux-gnu/libsqlite3.so.0 /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 2>/dev/null | head -1)" \
  > "$OUT/configure.log" 2>&1 && cmake --build build-gpu > "$OUT/build.log" 2>&1 \
  || { echo "build failed"; tail -30 "$OUT/configure.log" "$OUT/build.log"; exit 1; }
echo "built: $(ls build-gpu/bin)"

if want tests; then
  step "GPU tests (ctest -L gpu)"
  ctest --test-dir build-gpu -L gpu --output-on-failure 2>&1 | tee "$OUT/ctest-gpu.log" | tail -40
  grep -q "100% tests passed" "$OUT/ctest-gpu.log" || status=1
fi

if want profiler; then
  step "performance profiler: CUPTI counters of every case (bench/profiler/agreement.py)"
  if [ -f .deps/profiler/cases.json ]; then
    python3 bench/profiler/agreement.py measure build-gpu/bin/ks-bench .deps/profiler "$OUT/profiler" \
      2>&1 | tee "$OUT/profiler.log" | tail -60 || status=1
  else
    echo "no .deps/profiler: run scripts/prepare-gpu-run.sh here"; status=1
  fi
fi

BUNDLE=.deps/kernelskill-bundle.tar.xz
if ! want lit && ! want equivalence && ! want gemm; then
  exit $status
fi
if [ -f "$BUNDLE" ]; then
  step "bundle: $(stat -c %s "$BUNDLE") bytes"
  rm -rf /tmp/ksb && mkdir -p /tmp/ksb && tar -C /tmp/ksb -xJf "$BUNDLE"
  KSB=/tmp/ksb/kernelskill-bundle/bin
  "$KSB/ks-opt" --version | tee "$OUT/ks-opt-version.txt"
  "$KSB/ks-bench" --version | tee -a "$OUT/ks-opt-version.txt"

  if want lit; then
  step "GPU lit tests with the bundle's ks-opt"
  mkdir -p /tmp/ksobj/test
  cat > /tmp/ksobj/test/lit.site.cfg.py <<EOT
import os
config.ks_src_root = "$PWD"
config.ks_obj_root = "/tmp/ksobj"
config.ks_tools_dir = "$KSB"
config.llvm_tools_dir = "$KSB"
config.ks_cuda_toolkit_dir = "/usr/local/cuda"
config.ks_have_cuda_toolkit = 1
lit_config.load_config(config, os.path.join(config.ks_src_root, "test", "lit.cfg.py"))
EOT
  python3 .deps/lit/lit.py -sv /tmp/ksobj/test/Integration 2>&1 | tee "$OUT/lit-integration.log" | tail -20
  grep -q "Failed" "$OUT/lit-integration.log" && status=1
  fi

  if want equivalence; then
  step "importer equivalence: lifted+lowered PTX vs nvcc, on the GPU"
  python3 test/Integration/Frontend/equivalence.py build-gpu/bin/ks-bench "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    test/Frontend/corpus .deps/equiv "$OUT/equivalence.md" 2>&1 | tail -25 || status=1
  fi

  if want gemm; then
  step "benchmark: naive GEMM vs cuBLAS"
  bench/gemm/run.sh "$KSB/ks-opt" build-gpu/bin/ks-bench "$OUT" 2>&1 | tee "$OUT/bench-gemm.log" || status=1
  fi
else
  echo "no bundle in .deps: skipping the ks-opt steps (run scripts/prepare-gpu-run.sh here)"
fi
exit $status
