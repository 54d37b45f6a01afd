#!/usr/bin/env bash
# Here (the build machine): everything scripts/gpu-bench.sh needs that takes
# LLVM, into .deps/: the contraction cases lifted, raised, scheduled, lowered
# to PTX and checked on the CPU (bench/contraction/cases.py prepare; with the
# agent driver's schedules: prepare-auto), the
# corpus lowered (bench/lowering/compare.py prepare), ks-bench and sqlite3.h;
# for the measured step, the bundle (a static ks-opt) and the cases lifted.
# Pass .deps in the device call's `carry`.
#
# The memory-bound cases likewise (bench/memory/cases.py prepare).
#
# objective: the bundle and the GEMM lifted for gpu-bench.sh objective
# (bench/objective/prepare.sh); refine-ab needs measured and measured-memory.
#
#   scripts/prepare-gpu-bench.sh [contraction] [memory] [auto] [measured] [measured-memory] [objective] [static] [idioms] [lowering]   (default: all but objective, static and idioms)
#
# static: the corpus, bench and issue-44 kernels through ks optimize's static
# path (measure=static verify=emulate) for gpu-bench.sh static.
# idioms: the idiom suite (bench/idioms/suite.py prepare: lifted, the static
# path's output lowered and exported) and the bundle, for gpu-bench.sh idioms.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target ks-opt ks-translate ks-bench
mkdir -p .deps/bin .deps/include
cp build/bin/ks-bench .deps/bin/
cp /usr/include/sqlite3.h .deps/include/
git rev-parse HEAD > .deps/commit.txt
git status --short | head -20 >> .deps/commit.txt
STEPS=${*:-contraction memory auto measured measured-memory lowering}
want() { [[ " $STEPS " == *" $1 "* ]]; }
if want contraction; then
  python3 bench/contraction/cases.py prepare build/bin/ks-translate build/bin/ks-opt .deps/contraction
fi
if want memory; then
  python3 bench/memory/cases.py prepare build/bin/ks-translate build/bin/ks-opt .deps/memory
fi
if want auto; then
  python3 bench/contraction/cases.py prepare-auto build/bin/ks-translate build/bin/ks-opt .deps/auto
fi
bundled=false
if want measured; then
  scripts/bundle.sh .deps/kernelskill-bundle.tar.xz
  bundled=true
  python3 bench/contraction/cases.py prepare-measured build/bin/ks-translate .deps/measured
  python3 bench/corpus/optimize.py prepare build/bin/ks-translate .deps/corpus
fi
if want measured-memory; then
  # Built again unless the measured step just did: a bundle left by an
  # earlier preparation carries an earlier commit's ks-opt.
  $bundled || scripts/bundle.sh .deps/kernelskill-bundle.tar.xz
  python3 bench/memory/cases.py prepare-measured build/bin/ks-translate .deps/measured-memory
  bundled=true
fi
if want objective; then
  $bundled || scripts/bundle.sh .deps/kernelskill-bundle.tar.xz
  bash bench/objective/prepare.sh .deps/objective
fi
if want static; then
  # What ks optimize --measure static writes, for the GPU equivalence of every
  # changed kernel (test/Integration/Driver/static_equivalence.py).
  rm -rf .deps/static
  python3 test/Integration/Driver/static_equivalence.py prepare build/bin/ks-translate build/bin/ks-opt .deps/static
fi
if want idioms; then
  $bundled || scripts/bundle.sh .deps/kernelskill-bundle.tar.xz
  bundled=true
  rm -rf .deps/idioms
  python3 bench/idioms/suite.py prepare build/bin/ks-translate build/bin/ks-opt .deps/idioms
fi
if want lowering; then
  python3 bench/lowering/compare.py prepare build/bin/ks-translate build/bin/ks-opt .deps/lowering
fi
du -sh .deps
