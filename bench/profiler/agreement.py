#!/usr/bin/env python3
"""How well the performance profiler's static predictions agree with the
hardware: for every kernel of the importer's corpus and of the profiler's own
ground-truth inputs, ks-bench measures the kernel as --kernelskill-lower
compiles it (CUPTI counters), and ks-perf-profiler, given those measurements,
compares each prediction with its counter.

  agreement.py prepare KS_TRANSLATE KS_OPT OUT_DIR        # here: MLIR + PTX per case
  agreement.py measure KS_BENCH CASE_DIR OUT_DIR          # GPU machine: ks-bench --json per case
  agreement.py compare KS_OPT CASE_DIR MEASURED_DIR OUT   # here: OUT.md (table) and OUT.json

KS_OPT_LEVEL=N (default: the lowering's, 3) sets the LLVM level of both the
PTX that prepare writes and the lowering compare's resources come from: the
two must describe one binary (measurements of 2026-11-29 are of -O2 PTX).

The sizes are the equivalence check's (not multiples of the block) for the
corpus, and larger ones for the profiler's inputs.
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

OPT_LEVEL_OPTION = f" opt-level={os.environ['KS_OPT_LEVEL']}" if os.environ.get("KS_OPT_LEVEL") else ""
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def corpus_cases():
    """The corpus cases of test/Integration/Frontend/equivalence.py."""
    path = os.path.join(ROOT, "test", "Integration", "Frontend", "equivalence.py")
    spec = importlib.util.spec_from_file_location("equivalence", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = []
    for kernel, (source, params, grid, block, workload, extra) in module.CASES.items():
        cases.append(dict(case=kernel, file=os.path.join("test", "Frontend", "corpus", source),
                          kernel=kernel, params=params, grid=grid, block=block,
                          workload=workload, extra=extra))
    return cases


def input_cases():
    """The profiler's ground-truth kernels (test/Analysis/Inputs)."""
    one_d = "ceildiv(n,256)"
    table = [
        ("gemm_naive", "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
         "ceildiv(N,16),ceildiv(M,16)", "16,16", "M=1024,N=1024,K=1024"),
        ("transpose_naive", "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
         "ceildiv(cols,32),ceildiv(rows,8)", "32,8", "rows=4096,cols=4096"),
        ("row_sum_per_thread", "a:f32[rows*cols]:in,out:f32[rows]:out,rows:i32,cols:i32",
         "ceildiv(rows,256)", "256", "rows=16384,cols=1024"),
        ("col_sum_per_thread", "a:f32[rows*cols]:in,out:f32[cols]:out,rows:i32,cols:i32",
         "ceildiv(cols,256)", "256", "rows=1024,cols=16384"),
        ("smem_column_conflict", "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
         "ceildiv(cols,32),ceildiv(rows,32)", "32,32", "rows=4096,cols=4096"),
        ("smem_column_padded", "in:f32[rows*cols]:in,out:f32[rows*cols]:out,rows:i32,cols:i32",
         "ceildiv(cols,32),ceildiv(rows,32)", "32,32", "rows=4096,cols=4096"),
        ("branch_tid_mod2", "a:f32[n]:in,b:f32[n]:in,out:f32[n]:out,n:i32", one_d, "256", "n=16777216"),
        ("branch_warp_uniform", "a:f32[n]:in,b:f32[n]:in,out:f32[n]:out,n:i32", one_d, "256", "n=16777216"),
        ("reduce_interleaved", "in:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:i32", one_d, "256", "n=16777216"),
        ("reduce_strided_index", "in:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:i32", one_d, "256", "n=16777216"),
        ("reduce_sequential", "in:f32[n]:in,out:f32[ceildiv(n,256)]:out,n:i32", one_d, "256", "n=16777216"),
        ("spill_local_array", "x:f32[n]:in,idx:i32[n]:in,out:f32[n]:out,n:i32", one_d, "256", "n=1048576"),
        ("smem_limited", "in:f32[n]:in,out:f32[n]:out,n:i32", "ceildiv(n,12288)", "128", "n=16777216"),
        ("gather_index", "x:f32[n]:in,idx:i32[n]:in,out:f32[n]:out,n:i32", one_d, "256", "n=16777216"),
        ("vector_float4", "in:f32[4*n4]:in,out:f32[4*n4]:out,n4:i32", "ceildiv(n4,256)", "256", "n4=4194304"),
        ("stride2_loads", "in:f32[2*n]:in,out:f32[n]:out,n:i32", one_d, "256", "n=16777216"),
        ("broadcast_scalar", "scale:f32[1]:in,x:f32[n]:in,y:f32[n]:out,n:i32", one_d, "256", "n=16777216"),
        ("many_registers_unrolled", "x:f32[n*m]:in,out:f32[n]:out,n:i32,m:i32", one_d, "256", "n=1048576,m=16"),
        ("loop_invariant", "x:f32[rows*cols]:in,scale:f32[cols]:in,out:f32[cols]:out,rows:i32,cols:i32",
         "ceildiv(cols,128)", "128", "rows=256,cols=65536"),
    ]
    return [dict(case="a_" + k, file=os.path.join("test", "Analysis", "Inputs", k + ".cu"), kernel=k,
                 params=p, grid=g, block=b, workload=w, extra=[]) for k, p, g, b, w in table]


def cases():
    return corpus_cases() + input_cases()


def sizes(workload):
    return {k: int(v) for k, v in (kv.split("=") for kv in workload.split(","))}


def split_top(text):
    """Splits at the commas outside parentheses: "ceildiv(N,16),4" -> 2 parts."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def evaluate(formula, values):
    def ceildiv(a, b):
        return -(-a // b)
    dims = [int(eval(f, {"ceildiv": ceildiv, "min": min, "max": max}, dict(values)))
            for f in split_top(formula)]
    return dims + [1] * (3 - len(dims))


def prepare(ks_translate, ks_opt, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for c in cases():
        mlir = os.path.join(out_dir, c["case"] + ".mlir")
        subprocess.run([ks_translate, "--import-cuda", os.path.join(ROOT, c["file"]), "-o", mlir], check=True)
        subprocess.run([ks_opt, mlir, "--kernelskill-lower=ptx=" + os.path.join(out_dir, c["case"] + ".ptx") +
                        OPT_LEVEL_OPTION,
                        "-o", os.devnull], check=True, stderr=subprocess.DEVNULL)
    json.dump(cases(), open(os.path.join(out_dir, "cases.json"), "w"), indent=1)
    return 0


def measure(ks_bench, case_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    failures = 0
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    for c in json.load(open(os.path.join(case_dir, "cases.json"))):
        # This machine's ptxas on the same PTX: does it allocate like the
        # driver's JIT (which ks-bench's register count comes from)?
        if os.path.exists(ptxas):
            proc = subprocess.run([ptxas, "-v", "--gpu-name=sm_90", "-o", os.devnull,
                                   os.path.join(case_dir, c["case"] + ".ptx")],
                                  capture_output=True, text=True)
            with open(os.path.join(out_dir, c["case"] + ".ptxas.txt"), "w") as f:
                f.write(proc.stderr)
        out = os.path.join(out_dir, c["case"] + ".json")
        cmd = [ks_bench, f"ks={os.path.join(case_dir, c['case'] + '.ptx')}@{c['kernel']}",
               "--params", c["params"], "--grid", c["grid"], "--block", c["block"],
               "--workload", c["workload"], "--reps", "5", "--warmup", "1", "--no-db",
               "--json", out, *c["extra"]]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
        print(f"{c['case']}: {status}", flush=True)
        if proc.returncode != 0:
            failures += 1
            print(proc.stdout[-600:], proc.stderr[-600:])
        if c["case"] in FLUSH_CHECK:
            # The same counters without ks-bench's L2 flush (a memset that
            # leaves dirty lines): do the unexplained DRAM writes go away?
            subprocess.run(cmd[:-len(c["extra"]) or None] + ["--no-flush-l2"] + c["extra"],
                           capture_output=True, text=True, timeout=600)
            os.replace(out, os.path.join(out_dir, c["case"] + ".noflush.json.txt"))
            subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return 1 if failures else 0


# Cases measured a second time without the L2 flush.
FLUSH_CHECK = {"a_reduce_sequential", "a_col_sum_per_thread"}


METRICS = ["global_load_sectors_per_request", "global_store_sectors_per_request",
           "shared_load_bank_conflicts", "shared_store_bank_conflicts", "occupancy",
           "branch_uniformity", "dram_read_bytes", "dram_write_bytes", "registers"]
SHORT = {"global_load_sectors_per_request": "ld sect/req", "global_store_sectors_per_request": "st sect/req",
         "shared_load_bank_conflicts": "smem ld conflicts", "shared_store_bank_conflicts": "smem st conflicts",
         "occupancy": "achieved occupancy", "branch_uniformity": "branch uniformity",
         "dram_read_bytes": "DRAM read MB", "dram_write_bytes": "DRAM write MB",
         "registers": "registers"}


def fmt(metric, value):
    if metric.startswith("dram_"):
        return f"{value / 1e6:.1f}"
    if metric in ("shared_load_bank_conflicts", "shared_store_bank_conflicts", "registers"):
        return f"{value:.0f}"
    return f"{value:.2f}"


def compare(ks_opt, case_dir, measured_dir, out):
    rows, results = [], []
    totals = {m: [0, 0] for m in METRICS}
    profiler_seconds = 0.0
    for c in json.load(open(os.path.join(case_dir, "cases.json"))):
        measured = os.path.join(measured_dir, c["case"] + ".json")
        if not os.path.exists(measured):
            continue
        values = sizes(c["workload"])
        grid, block = evaluate(c["grid"], values), evaluate(c["block"], values)
        shape = [f"grid.{d}={v}" for d, v in zip("xyz", grid)] + [f"block.{d}={v}" for d, v in zip("xyz", block)]
        workload = ",".join([c["workload"]] + shape)
        report = os.path.join(case_dir, c["case"] + ".diagnosis.json")
        # Registers from ptxas as the pipeline compiles the kernel
        # (ks-collect-resources) unless KS_NO_PTXAS is set.
        resources = [] if os.environ.get("KS_NO_PTXAS") else ["--ks-collect-resources" +
                                                              ("=" + OPT_LEVEL_OPTION.strip() if OPT_LEVEL_OPTION else "")]
        start = time.monotonic()
        proc = subprocess.run([ks_opt, os.path.join(case_dir, c["case"] + ".mlir"), *resources,
                               f"--ks-perf-profiler=format=json report={report} workload={workload} "
                               f"measurements={measured}",
                               "-o", os.devnull], capture_output=True, text=True)
        profiler_seconds += time.monotonic() - start
        if proc.returncode != 0:
            print(f"{c['case']}: ks-opt failed: {proc.stderr[-400:]}")
            continue
        doc = json.load(open(report))
        kernel = next((k for k in doc["kernels"] if k["kernel"] == c["kernel"]), None)
        if kernel is None or "comparisons" not in kernel:
            print(f"{c['case']}: no measurement merged")
            continue
        by_metric = {x["metric"]: x for x in kernel["comparisons"]}
        cells = []
        for m in METRICS:
            x = by_metric.get(m)
            if x is None:
                cells.append("-")
                continue
            totals[m][0] += 1
            totals[m][1] += x["agrees"]
            mark = "" if x["agrees"] else " **≠**"
            cells.append(f"{fmt(m, x['predicted'])} / {fmt(m, x['measured'])}{mark}")
        top = kernel["findings"][0] if kernel["findings"] else None
        there = os.path.join(measured_dir, c["case"] + ".ptxas.txt")
        if os.path.exists(there):
            used = re.findall(r"Used (\d+) registers", open(there).read())
            cells.append(used[0] if used else "-")
        else:
            cells.append("-")
        results.append(dict(case=c["case"], kernel=c["kernel"], workload=c["workload"],
                            measured_ms=kernel.get("measured_ms"),
                            model_ms=kernel["predictions"]["model_ms"],
                            floor_ms=kernel["predictions"]["floor_ms"],
                            comparisons=kernel["comparisons"],
                            top_finding=top))
        rows.append([c["case"], c["workload"]] + cells +
                    [f"{kernel['predictions']['model_ms']:.3f} / {kernel.get('measured_ms', 0):.3f}",
                     f"{top['kind']} ({top['headroom']:.2f})" if top else "-"])
    with open(out + ".md", "w") as f:
        f.write("Each cell: predicted / measured; **≠** where the profiler's tolerance says they disagree.\n\n")
        f.write("| case | sizes | " + " | ".join(SHORT[m] for m in METRICS) +
                " | registers (GPU machine's ptxas) | model / measured ms | top finding (headroom) |\n")
        f.write("|" + "---|" * (len(METRICS) + 5) + "\n")
        for r in rows:
            f.write("| " + " | ".join(r) + " |\n")
        f.write("\n| metric | kernels compared | agree |\n|---|---|---|\n")
        for m in METRICS:
            f.write(f"| {SHORT[m]} | {totals[m][0]} | {totals[m][1]} |\n")
    json.dump(results, open(out + ".json", "w"), indent=1)
    print(open(out + ".md").read())
    print(f"profiler time over {len(results)} kernels: {profiler_seconds:.2f} s")
    return 0


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "prepare":
        return prepare(*args)
    if command == "measure":
        return measure(*args)
    if command == "compare":
        return compare(*args)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
