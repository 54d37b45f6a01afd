#!/usr/bin/env bash
# Here (the build machine): everything scripts/gpu-bench.sh needs that takes
# LLVM, into .deps/: the contraction cases lifted, raised, scheduled, lowered
# to PTX and checked on the CPU (bench/contraction/cases.py prepare; with the
# agent driver's schedules: prepare-auto), the
# corpus lowered (bench/lowering/compare.py prepare), ks-bench and sqlite3.h.
# Pass .deps in the device call's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target ks-opt ks-translate ks-bench
mkdir -p .deps/bin .deps/include
cp build/bin/ks-bench .deps/bin/
cp /usr/include/sqlite3.h .deps/include/
git rev-parse HEAD > .deps/commit.txt
git status --short | head -20 >> .deps/commit.txt
python3 bench/contraction/cases.py prepare build/bin/ks-translate build/bin/ks-opt .deps/contraction
python3 bench/contraction/cases.py prepare-auto build/bin/ks-translate build/bin/ks-opt .deps/auto
python3 bench/lowering/compare.py prepare build/bin/ks-translate build/bin/ks-opt .deps/lowering
du -sh .deps
