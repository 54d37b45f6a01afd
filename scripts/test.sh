#!/usr/bin/env bash
# Builds KernelSkill if needed and runs every test: the lit suite (which
# reports tests needing ptxas or a GPU as UNSUPPORTED where those are missing)
# and the GoogleTest unit tests, through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${KS_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR"
ctest --test-dir "$BUILD_DIR" --output-on-failure
