#!/usr/bin/env bash
# Packs the ks tools, with everything they need, into one archive for the GPU
# machine (which has the NVIDIA driver and the CUDA 13 toolkit but no
# LLVM/MLIR): a statically linked, stripped ks-opt (LLVM/MLIR/ks inside) and
# ks-bench (which uses that machine's cuBLAS and SQLite).
#
#   scripts/bundle.sh [OUT.tar.xz]      (default: build/kernelskill-bundle.tar.xz)
#
# Unpack there with `tar -xJf kernelskill-bundle.tar.xz` and run
# `kernelskill-bundle/bin/ks-opt --version`. The archive must stay under
# 56 MiB: a GPU-machine call carries at most 64 MiB, the repository included.
#
# Why a manual link: Debian's MLIR static libraries name the LLVM *shared*
# library as their dependency (LLVM was built with LLVM_LINK_LLVM_DYLIB), so
# CMake cannot produce a static tool from them; linking every MLIR and LLVM
# archive in one group with --gc-sections can, in seconds with lld.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KS_BUILD_DIR:-build}
OUT=${1:-$BUILD_DIR/kernelskill-bundle.tar.xz}
LIMIT=$((56 * 1024 * 1024))
LLVM_LIB=/usr/lib/llvm-22/lib

[ -f "$BUILD_DIR/build.ninja" ] || cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" --target ks-opt ks-bench

STAGE="$BUILD_DIR/bundle/kernelskill-bundle"
rm -rf "$BUILD_DIR/bundle"
mkdir -p "$STAGE/bin"

LINKER=()
command -v ld.lld >/dev/null && LINKER=(-fuse-ld=lld)
mapfile -t MLIR_LIBS < <(ls "$LLVM_LIB"/libMLIR*.a | grep -v -E 'Test|Python|CAPI')
mapfile -t LLVM_LIBS < <(ls "$LLVM_LIB"/libLLVM*.a | grep -v -E 'TableGen|Test')
KS_ARCHIVES=()
for lib in KSPipelines KSDriver KSAgents KSAnalysis KSCostModel KSTarget KSTransformOps KSTransforms \
           KSDialect KSSupport KSStdSupport; do
  KS_ARCHIVES+=("$BUILD_DIR/lib/lib$lib.a")
done
# The driver's tuning database (SQLite, the GPU machine's libsqlite3.so.0).
KS_ARCHIVES+=("$(find "$BUILD_DIR/lib" -name libKSRuntimeCore.a | head -1)")
echo "bundle: linking a static ks-opt (${#MLIR_LIBS[@]} MLIR and ${#LLVM_LIBS[@]} LLVM archives)"
g++ "${LINKER[@]}" -o "$STAGE/bin/ks-opt" \
  "$BUILD_DIR/tools/ks-opt/CMakeFiles/ks-opt.dir/ks-opt.cpp.o" \
  -Wl,--start-group "${KS_ARCHIVES[@]}" "${MLIR_LIBS[@]}" "${LLVM_LIBS[@]}" -Wl,--end-group \
  -Wl,--gc-sections -s -static-libstdc++ -static-libgcc \
  -lz "$(ls /usr/lib/x86_64-linux-gnu/libzstd.so.1)" "$(ls /usr/lib/x86_64-linux-gnu/libsqlite3.so.0)" \
  -lpthread -ldl -lrt -lm
cp "$BUILD_DIR/bin/ks-bench" "$STAGE/bin/"
strip "$STAGE/bin/ks-bench"
cat > "$STAGE/README" <<EOT
KernelSkill tools for a machine with the NVIDIA driver and CUDA 13 but no LLVM.
ks-opt: static (LLVM/MLIR $(llvm-config-22 --version 2>/dev/null || echo 22) inside). ks-bench: needs the
machine's libcublas.so.13 (/usr/local/cuda/lib64) and libsqlite3.so.0.
Built from commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown) on $(date -u +%Y-%m-%d).
EOT

"$STAGE/bin/ks-opt" --version >/dev/null
echo "bundle: compressing"
tar -C "$BUILD_DIR/bundle" -cf - kernelskill-bundle | xz -9 -T2 > "$OUT"
SIZE=$(stat -c %s "$OUT")
echo "bundle: $OUT is $((SIZE / 1024 / 1024)) MiB ($SIZE bytes; limit 56 MiB)"
if [ "$SIZE" -gt "$LIMIT" ]; then
  echo "bundle: error: over the 56 MiB limit" >&2
  exit 1
fi
