#!/usr/bin/env python3
"""The lowering against nvcc: every kernel of the importer's corpus
(test/Frontend/corpus), compiled twice from the same source with the same
launch: by nvcc -O3 -arch=sm_90, and by ks-translate --import-cuda +
ks-opt --kernelskill-lower. ks-bench verifies the lowered PTX against nvcc's
and times both at sizes where the kernel runs well past its launch overhead.

  compare.py prepare KS_TRANSLATE KS_OPT OUT_DIR      here: lift and lower the corpus, and
                                                      optimize it (--kernelskill-pipeline)
  compare.py measure KS_BENCH NVCC OUT_DIR RESULTS    on the GPU machine
  compare.py report RESULTS                           the table and the geometric mean

The launches are those of the GPU equivalence test (test/Integration/
Frontend/equivalence.py); only the sizes differ (SIZES below).
"""
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Frontend"))
from equivalence import CASES, mangled_entry  # noqa: E402

# Benchmark sizes: each kernel moves hundreds of MB or does GFLOPs.
SIZES = {
    "naive_gemm": "M=2048,N=2048,K=2048",
    "reduce_sum": "n=67108864",
    "row_max_4": "rows=65536,cols=1024",
    "first_negative": "n=1048576,m=64",
    "saxpy": "n=67108864,a=2",
    "transpose_naive": "rows=8192,cols=8192",
    "transpose_tiled": "rows=8192,cols=8192",
    "gemv_rows": "m=16384,n=16384",
    "gemv_cols": "m=16384,n=16384",
    "softmax_rows": "rows=65536,cols=1024",
    "rmsnorm": "rows=65536,cols=1024,eps=1",
    "gelu_like": "n=67108864,shift=4",
    "stencil2d": "h=8192,w=8192",
    "histogram": "n=67108864",
    "block_scan": "n=16777216",
    "batched_gemm": "M=512,N=512,K=512,Bt=16",
    "scale_f16": "n=67108864,a=2",
    "axpy_bf16": "n=67108864,a=2",
    "layernorm": "rows=65536,cols=1024",
    "column_sum": "rows=16384,cols=16384",
    "conv2d": "h=8192,w=8192,k=5",
    "stencil3d": "nx=512,ny=512,nz=256",
    "tril_matvec": "n=16384",
    "row_argmax": "rows=65536,cols=1024",
    "block_max": "n=67108864",
    "scale4": "n4=16777216,a=3",
    "argmax": "n=67108864",
}


# Experiments, measured beside the lowering as extra variants (the same
# source and launch). The lowering puts the leftover iterations of LLVM's
# runtime-unrolled loops before the unrolled loop (a prolog); `epilog` is
# LLVM's default, after it (the lowering's default before 2026-12-02).
EXPERIMENTS = {
    "epilog": (["--unroll-runtime-epilog=true"], None),
}


def optimize(ks_translate, ks_opt, out, stem, kernel, mlir):
    """The kernel as --kernelskill-pipeline optimizes it at its benchmark size
    (what ks optimize ships): PTX and launch manifest as variant `opt`, or
    nothing when the driver left it unchanged (the transcript says why)."""
    base = os.path.join(out, stem)
    proc = subprocess.run([ks_opt, mlir, f"--kernelskill-pipeline=lower=false workload={SIZES[kernel]} "
                           f"transcript={base}.transcript.json", "-o", base + ".opt.mlir"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"{stem}: the pipeline failed: {proc.stderr[-600:]}")
        return
    decisions = json.load(open(base + ".transcript.json"))["kernels"]
    print(f"{stem}: " + ("; ".join(d["kernel"] + ": " + d["decision"] for d in decisions) or
                         "no kernel raised"))
    if not any(d["changed"] for d in decisions):
        return
    subprocess.run([ks_opt, base + ".opt.mlir", f"--kernelskill-lower=ptx={base}.opt.ptx", "-o",
                    os.devnull], check=True, capture_output=True)
    subprocess.run([ks_translate, "--export-cuda", base + ".opt.mlir", "-o", base + ".opt.cu",
                    "--manifest", base + ".opt.json"], check=True, capture_output=True)


def prepare(ks_translate, ks_opt, out, experiments=True):
    os.makedirs(out, exist_ok=True)
    corpus = os.path.join(ROOT, "test", "Frontend", "corpus")
    kernels = {}
    for kernel, case in CASES.items():
        kernels.setdefault(case[0], kernel)
    for source in sorted({c[0] for c in CASES.values()}):
        stem = os.path.splitext(source)[0]
        mlir = os.path.join(out, stem + ".mlir")
        subprocess.run([ks_translate, "--import-cuda", os.path.join(corpus, source), "-o", mlir],
                       check=True)
        subprocess.run([ks_opt, mlir, f"--kernelskill-lower=ptx={os.path.join(out, stem)}.ptx",
                        "-o", os.devnull], check=True, capture_output=True)
        optimize(ks_translate, ks_opt, out, stem, kernels[source], mlir)
        if not experiments:
            continue
        for name, (flags, edit) in EXPERIMENTS.items():
            ptx = os.path.join(out, f"{stem}.{name}.ptx")
            if flags:
                subprocess.run([ks_opt, mlir, *flags, f"--kernelskill-lower=ptx={ptx}", "-o",
                                os.devnull], check=True, capture_output=True)
            else:
                text = open(os.path.join(out, stem + ".ptx")).read()
                open(ptx, "w").write(text.replace(*edit))


def measure(ks_bench, nvcc, out, results):
    os.makedirs(results, exist_ok=True)
    corpus = os.path.join(ROOT, "test", "Frontend", "corpus")
    status = 0
    for kernel, (source, params, grid, block, _, extra) in CASES.items():
        stem = os.path.splitext(source)[0]
        nvcc_ptx = os.path.join(results, kernel + ".nvcc.ptx")
        subprocess.run([nvcc, "-ptx", "-O3", "-arch=sm_90", "-o", nvcc_ptx,
                        os.path.join(corpus, source)], check=True)
        entry = mangled_entry(nvcc_ptx, kernel)
        extra_variants = [f"ks_{name}={os.path.join(out, stem)}.{name}.ptx@{kernel}"
                          for name in EXPERIMENTS
                          if os.path.exists(os.path.join(out, f"{stem}.{name}.ptx"))]
        opt = os.path.join(out, stem + ".opt")
        if os.path.exists(opt + ".ptx"):
            extra_variants += [f"ks_opt={opt}.ptx@{kernel}", "--launches", f"ks_opt={opt}.json"]
        cmd = [ks_bench, f"nvcc={nvcc_ptx}@{entry}", f"ks={os.path.join(out, stem)}.ptx@{kernel}",
               *extra_variants, "--params", params, "--grid", grid, "--block", block, "--workload", SIZES[kernel],
               "--reps", "20", "--warmup", "3", "--no-db", "--no-counters",
               "--json", os.path.join(results, kernel + ".json"), *extra]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        print(f"== {kernel} rc={proc.returncode}\n{proc.stdout[-900:]}{proc.stderr[-400:]}")
        status |= proc.returncode != 0
    return status


def report(results):
    rows = ["| kernel | workload | nvcc ms | ks ms | nvcc / ks | verified | experiments (nvcc / variant) |",
            "|---|---|---|---|---|---|---|"]
    ratios, opt_speedups = [], []
    for kernel in CASES:
        path = os.path.join(results, kernel + ".json")
        if not os.path.exists(path):
            rows.append(f"| {kernel} | - | - | - | - | not run |")
            continue
        doc = json.load(open(path))
        v = {x["name"]: x for x in doc["variants"]}
        a = v["nvcc"].get("timing", {}).get("median_ms")
        b = v["ks"].get("timing", {}).get("median_ms")
        ratio = a / b if a and b else None
        if ratio:
            ratios.append(ratio)
        exps = []
        o = v.get("ks_opt", {}).get("timing", {}).get("median_ms")
        if b and o:
            opt_speedups.append(b / o)
            exps.append(f"**optimized: {b / o:.2f}x faster than ks, {v['ks_opt'].get('status')}**")
        elif "ks_opt" in v:
            exps.append(f"optimized: {v['ks_opt'].get('status')} {v['ks_opt'].get('error', '')}")
        for name in EXPERIMENTS:
            e = v.get("ks_" + name, {}).get("timing", {}).get("median_ms")
            if a and e:
                exps.append(f"{name} {a / e:.2f}")
        rows.append(f"| {kernel} | {SIZES[kernel]} | {a:.4f} | {b:.4f} | {ratio:.2f} | "
                    f"{v['ks'].get('status')} | {', '.join(exps)} |" if ratio else
                    f"| {kernel} | {SIZES[kernel]} | - | - | - | "
                    f"{v['ks'].get('status')}: {v['ks'].get('error', '')} | |")
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    print("\n".join(rows))
    print(f"\ngeometric mean nvcc / ks: {geo:.3f} over {len(ratios)} kernels; "
          f"lowest {min(ratios):.2f}" if ratios else "no results")
    # The optimized kernels against their input (ks's lowering of the naive
    # kernel); the kernels the driver left unchanged count as 1.0.
    unchanged = len(ratios) - len(opt_speedups)
    logs = [math.log(x) for x in opt_speedups]
    if ratios:
        print(f"optimized (--kernelskill-pipeline) / input: geometric mean "
              f"{math.exp(sum(logs) / len(ratios)):.3f} over {len(ratios)} kernels "
              f"({len(opt_speedups)} changed, {unchanged} unchanged = 1.0); over the changed "
              f"ones {math.exp(sum(logs) / len(logs)) if logs else float('nan'):.3f}, lowest "
              f"{min(opt_speedups) if opt_speedups else float('nan'):.2f}")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "prepare":
        prepare(*sys.argv[2:5])
    elif mode == "measure":
        sys.exit(measure(*sys.argv[2:6]))
    elif mode == "report":
        report(sys.argv[2])
    else:
        raise SystemExit(__doc__)
