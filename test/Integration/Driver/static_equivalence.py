#!/usr/bin/env python3
"""GPU equivalence of what `ks optimize --measure static` writes (issue 44):
every kernel the static decision changed, against its source, on the GPU.

  static_equivalence.py prepare KS_TRANSLATE KS_OPT OUT_DIR     here (clang, LLVM)
  static_equivalence.py run KS_BENCH NVCC OUT_DIR RESULTS.md    on the GPU machine

prepare: each case's source is lifted, given launchers where it has none, and
run through the pipeline as `ks optimize --measure static` runs it
(measure=static verify=emulate: the CPU check before a change is kept), at the
case's sizes. A kernel the driver changed is lowered to PTX and exported to
CUDA, and the launcher that runs it is written as a launch manifest; the
sources are copied. OUT_DIR/cases.json lists every case with the decision.

run: for each changed kernel, ks-bench runs nvcc's compilation of the source
(the reference, launched as its program launches it), the pipeline's PTX and
nvcc's compilation of the exported CUDA (both through the optimized launcher's
manifest) on seeded random inputs with poisoned outputs, at sizes that are no
multiple of any tile, and verifies both against the reference; the median of
STATIC_REPS (50) timed runs of the source and the PTX goes in the table. Exit 0 when
every changed kernel matches, 1 otherwise, 77 without a GPU.

The cases: the lifter's corpus at its GPU equivalence sizes
(test/Integration/Frontend/equivalence.py), kernels of the benches, and the
kernels written for issue 44 (guarded stencils, halves).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Frontend"))
sys.path.insert(0, os.path.join(ROOT, "test", "Driver"))
from equivalence import CASES as CORPUS_CASES, mangled_entry  # noqa: E402
from optimize_corpus import SKIP, find_launcher  # noqa: E402

CORPUS = os.path.join(ROOT, "test", "Frontend", "corpus")

# kernel -> (source relative to the repository, params, grid, block, workload, extra ks-bench args)
EXTRA_CASES = {
    # The benches' kernels, launched as their launchers launch them.
    "softmax": ("bench/memory/softmax.cu", "x:f32[rows*cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32",
                "ceildiv(rows,128)", "128", "rows=1000,cols=1023", []),
    "rmsnorm_bench": ("bench/memory/rmsnorm.cu",
                      "x:f32[rows*cols]:in,weight:f32[cols]:in,y:f32[rows*cols]:out,rows:i32,cols:i32,eps:f32",
                      "ceildiv(rows,128)", "128", "rows=1000,cols=1023,eps=1", []),
    "col_sum": ("bench/memory/col_sum.cu", "x:f32[rows*cols]:in,y:f32[cols]:out,rows:i32,cols:i32",
                "ceildiv(cols,128)", "128", "rows=1000,cols=1023", []),
    "gemm_nn": ("bench/contraction/gemm_nn.cu",
                "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
                "ceildiv(N,16),ceildiv(M,16)", "16,16", "M=1000,N=1023,K=257", []),
    "gemv_cols_bench": ("bench/contraction/gemv_cols.cu", "A:f32[m*n]:in,x:f32[m]:in,y:f32[n]:out,m:i32,n:i32",
                        "ceildiv(n,128)", "128", "m=1000,n=1023", []),
    "conv2d_nchw": ("bench/contraction/conv2d_nchw.cu",
                    "in:f32[batch*C*H*W]:in,w:f32[K*C*9]:in,out:f32[batch*K*(H-2)*(W-2)]:out,"
                    "batch:i32,C:i32,H:i32,W:i32,K:i32",
                    "ceildiv(W-2,32),ceildiv(H-2,8),batch*K", "32,8,1", "batch=2,C=3,H=67,W=61,K=5", []),
    # Issue 44's kernels: guarded stencils (register_window) and halves.
    "jac": ("test/Transforms/Inputs/jacobi_guarded.cu", "n:i32,A:f32[n*n]:in,B:f32[n*n]:inout",
            "ceildiv(n,32),ceildiv(n,8)", "32,8", "n=1000", []),
    "conv3": ("test/Transforms/Inputs/conv3x3_guarded.cu", "ni:i32,nj:i32,A:f32[ni*nj]:in,B:f32[ni*nj]:inout",
              "ceildiv(nj,32),ceildiv(ni,8)", "32,8", "ni=1000,nj=1023", []),
    "hrow": ("test/Target/Inputs/half_rows.cu", "rows:i32,cols:i32,x:f16[rows*cols]:in,y:f16[rows*cols]:out",
             "ceildiv(rows,256)", "256", "rows=1000,cols=1023", ["--tolerance", "1e-2"]),
}

# The names the bench kernels have in their sources (the case names above
# keep them apart from the corpus's).
KERNEL_NAMES = {"rmsnorm_bench": "rmsnorm", "gemv_cols_bench": "gemv_cols"}


def all_cases():
    cases = {}
    for kernel, (source, *rest) in CORPUS_CASES.items():
        if kernel not in SKIP:
            cases[kernel] = (os.path.join(CORPUS, source), *rest)
    for kernel, (source, *rest) in EXTRA_CASES.items():
        cases[kernel] = (os.path.join(ROOT, source), *rest)
    return cases


def run_checked(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    if proc.returncode:
        raise RuntimeError(f"{os.path.basename(cmd[0])} failed: {proc.stderr.strip()[-600:]}")
    return proc


def prepare_case(case, value, tools, out):
    ks_translate, ks_opt, emulator = tools
    source, params, grid, block, workload, extra = value
    kernel = KERNEL_NAMES.get(case, case)
    base = os.path.join(out, case)
    names = {p.split(":")[0] for p in params.split(",")}
    scalars = ",".join(w for w in workload.split(",") if w.split("=")[0] in names)
    # As tools/ks/ks runs it for --measure static (its verify=emulate included).
    pipeline = (f"synthesize-launchers=true lower=false measure=static budget=4 verify=emulate ptxas=auto "
                f"emulator={emulator} db=none kernels={kernel} workload={scalars} "
                f"transcript={base}.json")
    run_checked([ks_translate, "--import-cuda", source, "-o", base + ".mlir"])
    run_checked([ks_opt, base + ".mlir", f"--kernelskill-pipeline={pipeline}", "-o", base + ".opt.mlir"])
    doc = json.load(open(base + ".json"))
    entry = next((k for k in doc["kernels"] if k["kernel"] == kernel), None)
    decision = entry["decision"] if entry else "not in the transcript"
    record = {"case": case, "kernel": kernel, "source": os.path.basename(source), "params": params,
              "grid": grid, "block": block, "workload": workload, "extra": extra,
              "decision": decision, "changed": not decision.startswith("unchanged")}
    shutil.copy(source, os.path.join(out, case + ".src.cu"))
    if not record["changed"]:
        return record
    run_checked([ks_opt, base + ".opt.mlir", f"--kernelskill-lower=ptx={base}.opt.ptx", "-o", os.devnull])
    # The export's manifest: every launch of the module, extents left out
    # where the optimized kernel's accesses do not give them (--params does).
    run_checked([ks_translate, "--export-cuda", base + ".opt.mlir", "-o", base + ".opt.cu",
                 "--manifest", base + ".launches.json"])
    launcher, why = find_launcher(base + ".opt.mlir", kernel)
    if why:
        record["error"] = why
    elif launcher:
        # The launches of this kernel (and of a split-K init kernel) alone.
        launches = [l for l in json.load(open(base + ".launches.json"))
                    if l.get("kernel") in (kernel, kernel + "_split_init")]
        json.dump(launches, open(base + ".manifest.json", "w"), indent=1)
        record["launcher"] = launcher
    return record


def prepare(ks_translate, ks_opt, out):
    os.makedirs(out, exist_ok=True)
    emulator = os.path.join(ROOT, "tools", "ks-emulate", "ks-emulate.py")
    records = []
    for case, value in sorted(all_cases().items()):
        try:
            records.append(prepare_case(case, value, (ks_translate, ks_opt, emulator), out))
        except Exception as e:  # a failing step is reported, not fatal
            records.append({"case": case, "changed": True, "error": str(e)})
        r = records[-1]
        print(f"{case}: {r.get('decision', '')[:110]}{' ERROR ' + r['error'][:300] if 'error' in r else ''}")
    json.dump(records, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"{sum(r['changed'] for r in records)} of {len(records)} kernels changed")
    return 0


def run(ks_bench, nvcc, out, results_md):
    if subprocess.run(["sh", "-c", "nvidia-smi -L"], capture_output=True).returncode != 0:
        print("no GPU: skipping")
        return 77
    records = json.load(open(os.path.join(out, "cases.json")))
    # STATIC_ONLY=case,... runs some cases; STATIC_WORKLOAD=name=value,...
    # overrides the sizes of the cases that have them (the same kernels timed
    # elsewhere than where they were decided); STATIC_REPS timed runs each.
    only = [c for c in os.environ.get("STATIC_ONLY", "").split(",") if c]
    if only:
        records = [r for r in records if r["case"] in only]
    override = dict(w.split("=", 1) for w in os.environ.get("STATIC_WORKLOAD", "").split(",") if w)
    reps = os.environ.get("STATIC_REPS", "50")
    work = tempfile.mkdtemp(prefix="ks-static-equiv-")
    rows, all_ok = [], True
    for r in records:
        if not r["changed"]:
            rows.append((r["case"], "unchanged", r["decision"][:90], None, None))
            continue
        if "error" in r:
            rows.append((r["case"], "ERROR", r["error"][:300], None, None))
            all_ok = False
            continue
        case, kernel, base = r["case"], r["kernel"], os.path.join(out, r["case"])
        try:
            src_ptx = os.path.join(work, case + ".src.ptx")
            run_checked([nvcc, "-ptx", "-arch=sm_90", "-o", src_ptx, base + ".src.cu"])
            entry = mangled_entry(src_ptx, kernel)
            export_ptx = os.path.join(work, case + ".export.ptx")
            run_checked([nvcc, "-ptx", "-arch=sm_90", "-o", export_ptx, base + ".opt.cu"])
            result = os.path.join(work, case + ".json")
            sizes = dict(w.split("=", 1) for w in r["workload"].split(","))
            workload = ",".join(f"{k}={override.get(k, v)}" for k, v in sizes.items())
            cmd = [ks_bench, f"source={src_ptx}@{entry}", f"ks={base}.opt.ptx@{kernel}",
                   f"export={export_ptx}@{kernel}", "--params", r["params"], "--grid", r["grid"],
                   "--block", r["block"], "--workload", workload, "--reps", reps, "--warmup", "5",
                   "--no-db", "--no-counters", "--json", result, *r["extra"]]
            if r.get("launcher"):
                cmd += ["--launches", f"ks={base}.manifest.json",
                        "--launches", f"export={base}.manifest.json"]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            variants = json.load(open(result))["variants"]
            ref, ks, exported = variants[0:3]
            ok = proc.returncode == 0 and ks["status"] == "pass" and exported["status"] == "pass"
            errs = [f"{k}: rel {v['rel_l2']:.1e}" for k, v in ks.get("verification", {}).items()]
            verdict = ("match" if ks["status"] == "pass" else "MISMATCH") + " / " + \
                      ("match" if exported["status"] == "pass" else "MISMATCH")
            rows.append((case + ("" if workload == r["workload"] else f" ({workload})"), verdict,
                         "; ".join(errs) or ks.get("error", "") or exported.get("error", ""),
                         ref.get("timing", {}).get("median_ms"), ks.get("timing", {}).get("median_ms")))
        except Exception as e:  # a crashed run is a mismatch, with its output
            ok = False
            rows.append((case, "ERROR", str(e)[:400], None, None))
        all_ok &= ok
    with open(results_md, "w") as f:
        f.write("| kernel | PTX / exported CUDA vs the source (nvcc) | detail | source ms | ks ms |\n"
                "|---|---|---|---|---|\n")
        for case, verdict, detail, a, b in rows:
            fa = f"{a:.4f}" if a else "-"
            fb = f"{b:.4f}" if b else "-"
            f.write(f"| {case} | {verdict} | {detail} | {fa} | {fb} |\n")
    print(open(results_md).read())
    changed = [row for row in rows if row[1] != "unchanged"]
    print(f"{sum(row[1] == 'match / match' for row in changed)} of {len(changed)} changed kernels "
          f"match (PTX and exported CUDA); {len(rows) - len(changed)} unchanged")
    return 0 if all_ok else 1


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "prepare":
        return prepare(*sys.argv[2:5])
    if len(sys.argv) == 6 and sys.argv[1] == "run":
        return run(*sys.argv[2:6])
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
