#!/usr/bin/env python3
"""`ks optimize` over the lifter's corpus (test/Frontend/corpus), measured on the GPU.

  optimize.py prepare KS_TRANSLATE OUT_DIR          here: lift every corpus kernel (the GPU
                                                     machine has no clang)
  optimize.py run KS_OPT KS_BENCH OUT_DIR RESULTS   on the GPU machine: the pipeline with
                                                     measure=cuda on each lifted file (what
                                                     ks optimize runs between lifting and
                                                     exporting), one transcript per file
  optimize.py report RESULTS                         the table and the geometric-mean speedup

Files of kernels alone get a launcher per kernel (synthesize-launchers=true, as ks optimize
does): the original is measured through it too. Each file is optimized at the sizes of its
kernels' GPU equivalence cases (test/Integration/Frontend/equivalence.py).

A kernel the driver changed was verified against its lifted original and timed by ks-bench in
the same run (the transcript's measured_before_ms and the chosen candidate's measured_ms); a
kernel it left unchanged is the lifted kernel itself (speedup 1 by construction, with the
driver's reason).
"""
import glob
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(ROOT, "test", "Frontend", "corpus")
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Frontend"))
from equivalence import CASES  # noqa: E402


def workload_of(name):
    """The sizes a corpus file is optimized and measured at: those of its
    kernels' GPU equivalence cases (test/Integration/Frontend/equivalence.py),
    merged; none for a file no case names (the profiler's assumption then)."""
    sizes = {}
    for source, _, _, _, workload, _ in CASES.values():
        if source == name + ".cu":
            for item in workload.split(","):
                key, value = item.split("=")
                if value.lstrip("-").isdigit():
                    sizes.setdefault(key, value)
    return ",".join(f"{k}={v}" for k, v in sorted(sizes.items()))


def prepare(ks_translate, out):
    os.makedirs(out, exist_ok=True)
    for cu in sorted(glob.glob(os.path.join(CORPUS, "*.cu"))):
        name = os.path.basename(cu)[:-3]
        subprocess.run([ks_translate, "--import-cuda", cu, "-o", os.path.join(out, name + ".mlir")],
                       check=True, capture_output=True)
    print(f"lifted {len(glob.glob(os.path.join(out, '*.mlir')))} corpus files into {out}")


def run(ks_opt, ks_bench, out, results, budget="8"):
    os.makedirs(results, exist_ok=True)
    status = 0
    for mlir in sorted(glob.glob(os.path.join(out, "*.mlir"))):
        name = os.path.basename(mlir)[:-5]
        base = os.path.join(results, name)
        t0 = time.time()
        workload = workload_of(name)
        proc = subprocess.run([ks_opt, mlir, f"--kernelskill-pipeline=measure=cuda synthesize-launchers=true bench={ks_bench} "
                               f"budget={budget} db={results}/tuning.db transcript={base}.json "
                               f"ptx={base}.ptx" + (f" workload={workload}" if workload else ""),
                               "-o", os.devnull],
                              capture_output=True, text=True, timeout=300)
        print(f"== {name} rc={proc.returncode} {time.time() - t0:.1f} s\n{proc.stderr[-600:]}")
        sys.stdout.flush()
        status |= proc.returncode != 0
    return status


def report(results):
    rows = ["| file | kernel | decision | original ms | ours ms | speedup | candidates | search s |",
            "|---|---|---|---|---|---|---|---|"]
    speedups = []
    measured = 0
    for f in sorted(glob.glob(os.path.join(results, "*.json"))):
        doc = json.load(open(f))
        for k in doc.get("kernels", []):
            chosen = k.get("chosen")
            before = k.get("measured_before_ms")
            after = k["candidates"][chosen].get("measured_ms") if chosen is not None else None
            speedup = before / after if k.get("changed") and before and after else 1.0
            measured += bool(before)
            speedups.append(speedup)
            seconds = k.get("compile_seconds", 0) + k.get("measure_seconds", 0)
            rows.append("| {} | {} | {} | {} | {} | {:.2f} | {} | {:.1f} |".format(
                os.path.basename(f)[:-5], k["kernel"], k["decision"][:110].replace("|", "/"),
                f"{before:.4f}" if before else "-", f"{after:.4f}" if after else "-", speedup,
                len(k.get("candidates", [])), seconds))
    print("\n".join(rows))
    if speedups:
        geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        changed = [s for s in speedups if s != 1.0]
        print(f"\n{len(speedups)} kernels, {measured} measured on the GPU (the others: not "
              f"raised, or no launch to measure: counted as 1.00), {len(changed)} changed, "
              f"geometric-mean speedup {geo:.3f} (of the changed: "
              f"{math.exp(sum(math.log(s) for s in changed) / max(1, len(changed))):.3f}), "
              f"slowest {min(speedups):.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    mode = sys.argv[1]
    if mode == "prepare":
        prepare(*sys.argv[2:4])
    elif mode == "run":
        sys.exit(run(*sys.argv[2:]))
    elif mode == "report":
        report(sys.argv[2])
    else:
        raise SystemExit(__doc__)
