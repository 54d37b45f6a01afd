#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for KernelSkill and builds it.
# Idempotent: installs only missing packages, reconfigures only when needed.
#
#   scripts/setup.sh            # packages + configure + build (into build/)
#   KS_BUILD_DIR=out scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${KS_BUILD_DIR:-build}
PACKAGES=(
  cmake ninja-build g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools   # LLVM/MLIR 22, FileCheck, lit
  clang-22 libclang-22-dev libclang-cpp22-dev              # the CUDA importer (ks-translate)
  libgtest-dev libsqlite3-dev nlohmann-json3-dev           # unit tests, tuning database, JSON
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "ks setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR"
