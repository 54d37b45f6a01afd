#!/usr/bin/env python3
"""`ks optimize`'s path over the lifter's corpus, checked on the CPU: every
corpus kernel is lifted, given a launcher where its file has none
(synthesize-launchers=true, as ks optimize does), optimized by the pipeline
with measure=static at the GPU equivalence run's sizes, exported to CUDA, and
run against its source through tools/ks-emulate on seeded random inputs with
poisoned outputs, at small sizes that are no multiple of any block or tile.
The source is launched as the GPU equivalence run launches it; the optimized
kernel through the launcher the output carries.

  optimize_corpus.py KS_TRANSLATE KS_OPT KS_EMULATE CORPUS_DIR [KERNEL ...]

Prints one line per kernel: the driver's decision, then 'match' or
'MISMATCH'; exit 1 when one does not match or a step fails.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Frontend"))
sys.path.insert(0, os.path.join(HERE, "..", "Integration", "Frontend"))
from emulate_corpus import GRIDS, SOURCE_KERNELS, WORKLOADS, run_all  # noqa: E402
from equivalence import CASES  # noqa: E402


# Kernels this check cannot run, with why.
SKIP = {"conv1d_const": "its launcher fills __constant__ memory with cudaMemcpyToSymbol, which "
                        "the importer skips (docs/Frontend.md), so no lifted launcher can be "
                        "called in the source's stead"}


def param_names(line):
    return re.findall(r'ks\.name = "(\w+)"', line.split(")")[0] if ") kernel" not in line
                      else line.split(") kernel")[0])


def find_launcher(path, kernel):
    """The host function of the optimized module that launches `kernel` (a
    raised kernel runs only through it), or None when the kernel is launched
    as the source is; with why it cannot be called in the kernel's stead."""
    lines = open(path).read().splitlines()
    kernel_params, current, launcher = None, None, None
    for line in lines:
        if re.search(rf"gpu\.func @{kernel}\(", line):
            kernel_params = param_names(line)
        m = re.search(r"func\.func @(\w+)\(", line)
        if m:
            current = (m.group(1), param_names(line))
        if re.search(rf"gpu\.launch_func\s+@\w+::@{kernel}\s", line) and current:
            launcher = current
    if not launcher:
        return None, None
    if launcher[1] != kernel_params:
        return None, (f"its launcher @{launcher[0]} takes ({', '.join(launcher[1])}), not the "
                      f"kernel's parameters ({', '.join(kernel_params or [])})")
    return launcher[0], None


def run_case(kernel, tools, corpus, work):
    ks_translate, ks_opt, ks_emulate = tools
    source, params, grid, block, workload, extra = CASES[kernel]
    src = os.path.join(corpus, source)
    base = os.path.join(work, kernel)
    # Only this kernel is optimized; the file's others come back as lifted.
    # The driver takes the workload's names of the kernel's scalars (others,
    # such as a batch count only the grid uses, are an error there).
    names = {p.split(":")[0] for p in params.split(",")}
    scalars = ",".join(w for w in workload.split(",") if w.split("=")[0] in names)
    pipeline = (f"synthesize-launchers=true lower=false measure=static budget=2 "
                f"kernels={kernel} workload={scalars} transcript={base}.json")
    steps = [[ks_translate, "--import-cuda", src, "-o", base + ".mlir"],
             [ks_opt, base + ".mlir", f"--kernelskill-pipeline={pipeline}", "-o", base + ".opt.mlir"],
             [ks_translate, "--export-cuda", base + ".opt.mlir", "-o", base + ".opt.cu"]]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode:
            return False, f"{kernel}: {os.path.basename(cmd[0])} failed: {proc.stderr.strip()[-800:]}"
    doc = json.load(open(base + ".json"))
    entry = next((k for k in doc["kernels"] if k["kernel"] == kernel), None)
    decision = entry["decision"] if entry else "not in the transcript"
    # A kernel the driver left as lifted runs as the source launches it; a
    # raised one only through its launcher.
    launcher, why = (None, None) if decision.startswith("unchanged") else \
        find_launcher(base + ".opt.mlir", kernel)
    if why:
        return False, f"{kernel}: {decision}: {why}"
    cmd = [sys.executable, ks_emulate, src, base + ".opt.cu", "--kernel", kernel,
           "--ref-kernel", SOURCE_KERNELS.get(kernel, kernel), "--params", params,
           "--grid", GRIDS.get(kernel, grid), "--block", block, "--workload", WORKLOADS[kernel]]
    if launcher:
        cmd += ["--cand-launcher", launcher]
    if "--smem" in extra:
        cmd += ["--smem", extra[extra.index("--smem") + 1]]
    if "--tolerance" in extra:
        cmd += ["--tolerance", extra[extra.index("--tolerance") + 1]]
    return finish(kernel, decision, f"through {launcher}" if launcher else
                  "launched as the source is", cmd)


def finish(kernel, decision, how, cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode:
        return False, (f"{kernel}: {decision}: MISMATCH ({how}) {proc.stdout.strip()[-400:]} "
                       f"{proc.stderr.strip()[-1500:]}")
    return True, f"{kernel}: {decision}: match ({how})"


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    tools, corpus = sys.argv[1:4], sys.argv[4]
    kernels = sys.argv[5:] or sorted(CASES)
    unknown = [k for k in kernels if k not in CASES]
    if unknown:
        raise SystemExit(f"optimize_corpus.py: no case for {', '.join(unknown)} "
                         "(test/Integration/Frontend/equivalence.py)")
    work = tempfile.mkdtemp(prefix="ks-optimize-corpus-")
    return run_all(kernels, SKIP, lambda k: run_case(k, tools, corpus, work))

if __name__ == "__main__":
    sys.exit(main())
