#!/usr/bin/env python3
"""The exporter checked on the CPU (issue 13): every corpus kernel's source and
the CUDA that ks-translate --import-cuda | --export-cuda writes back are run
side by side through tools/ks-emulate (one host thread per CUDA thread) on the
same seeded random inputs with poisoned outputs, at small sizes that are no
multiple of the block, and must match. A wrong operator, signedness or
loop bound in the exporter fails here, without a GPU.

  emulate_corpus.py KS_TRANSLATE KS_EMULATE CORPUS_DIR [KERNEL ...]

The kernels, their parameters and launches are those of the GPU equivalence
run (test/Integration/Frontend/equivalence.py); only the sizes are smaller.
Prints one line per kernel; exit 1 when one does not match.
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Integration",
                                "Frontend"))
from equivalence import CASES  # noqa: E402

# Kernels the host emulation cannot run, with why (none today: halves run
# through tools/ks-emulate/include/ks_cuda_half.h).
SKIP = {}

# Sizes a few blocks large (one host thread per CUDA thread), none a multiple of the block.
WORKLOADS = {
    "naive_gemm": "M=37,N=45,K=19",
    "reduce_sum": "n=3001",
    "row_max_4": "rows=13,cols=77",
    "first_negative": "n=301,m=7",
    "saxpy": "n=3001,a=2",
    "transpose_naive": "rows=37,cols=45",
    "transpose_tiled": "rows=37,cols=45",
    "gemv_rows": "m=301,n=33",
    "gemv_cols": "m=33,n=301",
    "softmax_rows": "rows=301,cols=17",
    "rmsnorm": "rows=301,cols=17,eps=1",
    "gelu_like": "n=3001,shift=4",
    "stencil2d": "h=37,w=45",
    "histogram": "n=3001",
    "block_scan": "n=1500",
    "batched_gemm": "M=19,N=23,K=7,Bt=2",
    "layernorm": "rows=301,cols=17",
    "column_sum": "rows=33,cols=301",
    "conv2d": "h=37,w=45,k=5",
    "stencil3d": "nx=37,ny=9,nz=5",
    "tril_matvec": "n=301",
    "row_argmax": "rows=301,cols=33",
    "block_max": "n=3001",
    "scale4": "n4=701,a=3",
    "argmax": "n=3001",
    "tile_row_sum": "rows=37,cols=45",
    "tile_max": "n=3001",
    "conv1d_const": "n=3001",
    "bucket_count": "n=3001",
    "warp_count": "n=3001",
    "block_sum_float": "n=3001",
    "block_sum_double": "n=3001",
    "tile_votes": "n=3001",
    "scale_f16": "n=3001,a=2",
    "axpy_bf16": "n=3001,a=2",
    "axpy_half2": "n2=1501,a=2",
    "mix_bf16x2": "n2=1501,b=3",
    "half_select": "n=3001",
    "bf16_pair_select": "n2=1501",
}
# The source's name of kernels the importer names apart (template instances).
SOURCE_KERNELS = {"row_max_4": "row_max<4>", "block_sum_float": "block_sum<float>",
                  "block_sum_double": "block_sum<double>"}
# Launches whose grid the GPU run fixes to fill the GPU.
GRIDS = {"reduce_sum": "4", "saxpy": "3", "histogram": "4"}


def run_case(kernel, ks_translate, ks_emulate, corpus, work):
    source, params, grid, block, _, extra = CASES[kernel]
    src = os.path.join(corpus, source)
    mlir = os.path.join(work, kernel + ".mlir")
    exported = os.path.join(work, kernel + ".out.cu")
    for cmd in ([ks_translate, "--import-cuda", src, "-o", mlir],
                [ks_translate, "--export-cuda", mlir, "-o", exported]):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode and "cooperative_groups.h' file not found" in proc.stderr:
            return True, f"{kernel}: skipped (no CUDA toolkit headers for cooperative_groups.h)"
        if proc.returncode:
            return False, f"{kernel}: {' '.join(cmd[:2])} failed: {proc.stderr.strip()[-500:]}"
    cmd = [sys.executable, ks_emulate, src, exported, "--kernel", kernel,
           "--ref-kernel", SOURCE_KERNELS.get(kernel, kernel),
           "--params", params, "--grid", GRIDS.get(kernel, grid), "--block", block,
           "--workload", WORKLOADS[kernel]]
    if "--smem" in extra:
        cmd += ["--smem", extra[extra.index("--smem") + 1]]
    if "--tolerance" in extra:
        cmd += ["--tolerance", extra[extra.index("--tolerance") + 1]]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    verdicts = "; ".join(line for line in proc.stdout.splitlines() if ": rel_l2" in line
                         or "written" in line)
    if proc.returncode:
        return False, f"{kernel}: MISMATCH {verdicts} {proc.stdout.strip()[-300:]} {proc.stderr.strip()[-1500:]}"
    return True, f"{kernel}: match ({verdicts})"


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    ks_translate, ks_emulate, corpus = sys.argv[1:4]
    kernels = sys.argv[4:] or sorted(CASES)
    work = tempfile.mkdtemp(prefix="ks-emulate-corpus-")
    return run_all(kernels, SKIP, lambda k: run_case(k, ks_translate, ks_emulate, corpus, work))


def run_all(kernels, skip, run):
    """Runs `run(kernel)` -> (ok, line) two at a time, printing the lines in
    order (and why for the kernels in `skip`); 0 when every one is ok."""
    ok = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {k: pool.submit(run, k) for k in kernels if k not in skip}
        for k in kernels:
            if k in skip:
                print(f"{k}: skipped ({skip[k]})")
                continue
            good, text = jobs[k].result()
            ok &= good
            print(text)
            sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
