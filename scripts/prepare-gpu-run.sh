#!/usr/bin/env bash
# Here (the build machine): gathers into .deps/ what the GPU machine lacks for
# scripts/gpu-run.sh: the bundle (static ks-opt, ks-bench), lit (pure Python)
# and sqlite3.h (that machine has libsqlite3.so.0 but no header). Pass .deps
# in the device call's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/include
scripts/bundle.sh .deps/kernelskill-bundle.tar.xz
cp /usr/include/sqlite3.h .deps/include/
rm -rf .deps/lit && cp -r /usr/lib/llvm-22/utils/lit .deps/lit
printf 'import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\nfrom lit.main import main\nmain()\n' > .deps/lit/lit.py
# The importer's corpus and the programs' kernels, lifted, lowered and
# exported here (the GPU machine has no ks-translate: clang does not fit the
# bundle), for the equivalence check.
rm -rf .deps/equiv
python3 test/Integration/Frontend/equivalence.py prepare build/bin/ks-translate build/bin/ks-opt \
  test/Frontend/corpus .deps/equiv 2>/dev/null
# The performance profiler's agreement cases: lifted MLIR and lowered PTX.
rm -rf .deps/profiler
python3 bench/profiler/agreement.py prepare build/bin/ks-translate build/bin/ks-opt .deps/profiler
git rev-parse --short HEAD > .deps/commit.txt
du -sh .deps
