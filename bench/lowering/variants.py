#!/usr/bin/env python3
"""Lowering experiments: several PTX variants of one corpus kernel measured
against nvcc's compilation of the source in one ks-bench run, with the machine
code of each variant (ptxas + cuobjdump) beside the timings.

A variant is any PTX file named STEM.NAME.ptx in DIR (STEM: the corpus file's
stem, e.g. gemv_cols or conv2d_direct) whose entry is the kernel, mangled or
not. Variants are made here (the lowering with other options, clang's CUDA
compilation, hand-edited LLVM IR through llc); this script only measures them.

  variants.py measure KS_BENCH NVCC DIR RESULTS [KERNEL ...]   on the GPU machine
  variants.py report RESULTS                                   the table

Each ks-bench run verifies every variant against nvcc's PTX first (the kernel's
odd size from test/Integration/Frontend/equivalence.py, then the benchmark
size of bench/lowering/compare.py) and times all of them in one process; it is
run twice so the spread between the two runs is visible beside the ratios.
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Frontend"))
from compare import SIZES  # noqa: E402
from equivalence import CASES, mangled_entry  # noqa: E402


def entry_of(ptx, kernel):
    """The PTX's entry for `kernel`: itself, or its C++ mangling."""
    text = open(ptx).read()
    if f".entry {kernel}(" in text:
        return kernel
    return mangled_entry(ptx, kernel)


def measure(ks_bench, nvcc, folder, results, kernels):
    os.makedirs(results, exist_ok=True)
    corpus = os.path.join(ROOT, "test", "Frontend", "corpus")
    status = 0
    for kernel in kernels or [k for k in CASES if glob.glob(os.path.join(folder, CASES[k][0][:-3] + ".*.ptx"))]:
        source, params, grid, block, odd, extra = CASES[kernel]
        stem = source[:-3]
        nvcc_ptx = os.path.join(results, f"{stem}.nvcc.ptx")
        subprocess.run([nvcc, "-ptx", "-O3", "-arch=sm_90", "-o", nvcc_ptx, os.path.join(corpus, source)],
                       check=True)
        variants = [f"nvcc={nvcc_ptx}@{entry_of(nvcc_ptx, kernel)}"]
        for ptx in sorted(glob.glob(os.path.join(folder, stem + ".*.ptx"))):
            name = os.path.basename(ptx)[len(stem) + 1:-4]
            variants.append(f"{name}={ptx}@{entry_of(ptx, kernel)}")
        for ptx in [nvcc_ptx] + sorted(glob.glob(os.path.join(folder, stem + ".*.ptx"))):
            base = os.path.join(results, os.path.basename(ptx)[:-4])
            if subprocess.run(["ptxas", "--gpu-name=sm_90", "-v", ptx, "-o", base + ".cubin"],
                              capture_output=True, text=True).returncode == 0:
                with open(base + ".sass", "w") as f:
                    subprocess.run(["cuobjdump", "-sass", base + ".cubin"], stdout=f)
        for run in (1, 2):
            for label, workload in (("odd", odd), ("bench", SIZES[kernel])):
                if label == "odd" and run == 2:
                    continue
                cmd = [ks_bench, *variants, "--params", params, "--grid", grid, "--block", block,
                       "--workload", workload, "--reps", "20", "--warmup", "3", "--no-db",
                       "--no-counters", "--json", os.path.join(results, f"{kernel}.{label}{run}.json"),
                       *extra]
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                print(f"== {kernel} {label} run {run} rc={proc.returncode}\n{proc.stdout[-1500:]}"
                      f"{proc.stderr[-400:]}", flush=True)
                status |= proc.returncode != 0
    return status


def report(results):
    print("| kernel | variant | run 1 ms | run 2 ms | nvcc / variant (run 1, run 2) | status |")
    print("|---|---|---|---|---|---|")
    for kernel in CASES:
        runs = [os.path.join(results, f"{kernel}.bench{r}.json") for r in (1, 2)]
        if not os.path.exists(runs[0]):
            continue
        docs = [{v["name"]: v for v in json.load(open(p))["variants"]} if os.path.exists(p) else {}
                for p in runs]
        for name, v in docs[0].items():
            t = [d.get(name, {}).get("timing", {}).get("median_ms") for d in docs]
            n = [d.get("nvcc", {}).get("timing", {}).get("median_ms") for d in docs]
            ratio = ", ".join(f"{a / b:.3f}" for a, b in zip(n, t) if a and b)
            cells = " | ".join(f"{x:.4f}" if x else "-" for x in t)
            print(f"| {kernel} | {name} | {cells} | {ratio} | {v.get('status')} |")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "measure":
        sys.exit(measure(*sys.argv[2:6], sys.argv[6:]))
    elif mode == "report":
        report(sys.argv[2])
    else:
        raise SystemExit(__doc__)
