#!/usr/bin/env python3
"""The contraction benchmarks: naive one-thread-per-output kernels (bench/
contraction/*.cu), the hand-written schedules that make them fast
(schedules/*.mlir), and the baselines they are compared with in the same run.

  cases.py prepare KS_TRANSLATE KS_OPT OUT_DIR     here: lift, raise, schedule, lower to
                                                    PTX (both), manifests, exported CUDA,
                                                    ptxas -v, CPU equivalence (ks-emulate);
                                                    ONLY=name,... in the environment: those cases
  cases.py measure KS_BENCH OUT_DIR RESULTS_DIR     on the GPU machine: ks-bench, naive vs
                                                    ours, odd sizes and benchmark sizes
  cases.py report RESULTS_DIR                       the table (markdown) from the results
  cases.py prepare-auto KS_TRANSLATE KS_OPT OUT_DIR as prepare, but the schedules are the agent
                                                    driver's (--kernelskill-pipeline at each
                                                    benchmark size), not the hand-written ones
  cases.py prepare-measured KS_TRANSLATE OUT_DIR    here: only lift (the GPU machine has no clang)
  cases.py measured KS_OPT KS_BENCH OUT_DIR RESULTS_DIR [BUDGET]
                                                    on the GPU machine: the pipeline with
                                                    measure=cuda per case (the search timed),
                                                    again from the tuning database (timed), then
                                                    ks-bench: naive vs the result vs baselines
  cases.py search-report RESULTS_DIR                the search cost table

Every case is one naive kernel, one schedule, the launcher's parameters, the
odd sizes verified on the CPU and the GPU, the benchmark sizes and the
baseline. Nothing in a schedule names a benchmark: the same transform ops
apply to any kernel that raises to the same contraction.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

GEMM = "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32"
CASES = [
    # name, source, schedule, kernel params (ks-bench), launcher params (emulation),
    # odd workloads, benchmark workloads, flops, bytes, baseline(s)
    dict(name="gemm_nn", source="gemm_nn.cu", schedule="gemm_nn.mlir", params=GEMM, launcher=GEMM,
         odd=["M=130,N=67,K=33", "M=1,N=1,K=1"], gpu_odd=["M=1000,N=1023,K=1001", "M=4097,N=255,K=1"],
         bench=["M=4096,N=4096,K=4096", "M=1000,N=1000,K=1000", "M=2048,N=2048,K=2048",
                "M=8192,N=8192,K=8192", "M=256,N=256,K=65536"],
         flops="2*M*N*K", baseline=["sgemm:M,N,K"]),
    dict(name="gemm_nn_small", source="gemm_nn.cu", schedule="gemm_nn_small.mlir", params=GEMM,
         launcher=GEMM, odd=["M=130,N=67,K=33"], gpu_odd=["M=1000,N=1023,K=1001"],
         bench=["M=1000,N=1000,K=1000", "M=2048,N=2048,K=2048"], flops="2*M*N*K",
         baseline=["sgemm:M,N,K"]),
    dict(name="gemm_nn_async", source="gemm_nn.cu", schedule="gemm_nn_async.mlir", params=GEMM,
         launcher=GEMM, odd=["M=130,N=67,K=33", "M=129,N=130,K=13"],
         gpu_odd=["M=1000,N=1023,K=1001", "M=4097,N=255,K=1"],
         bench=["M=4096,N=4096,K=4096"], flops="2*M*N*K", baseline=["sgemm:M,N,K"]),
    dict(name="gemm_nn_splitk", source="gemm_nn.cu", schedule="gemm_nn_splitk.mlir", params=GEMM,
         launcher=GEMM, odd=["M=130,N=67,K=333", "M=1,N=1,K=1"],
         gpu_odd=["M=1000,N=1023,K=1001", "M=255,N=257,K=65537"],
         bench=["M=256,N=256,K=65536"], flops="2*M*N*K", baseline=["sgemm:M,N,K"],
         tolerance="1e-5"),
    dict(name="gemm_nt", source="gemm_nt.cu", schedule="gemm_nt.mlir",
         params="A:f32[M*K]:in,B:f32[N*K]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
         launcher="A:f32[M*K]:in,B:f32[N*K]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
         odd=["M=130,N=67,K=33"], gpu_odd=["M=1000,N=1023,K=1001"],
         bench=["M=4096,N=4096,K=4096"], flops="2*M*N*K", baseline=["sgemm:M,N,K:nt"]),
    dict(name="gemm_tn", source="gemm_tn.cu", schedule="gemm_tn.mlir",
         params="A:f32[K*M]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
         launcher="A:f32[K*M]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32",
         odd=["M=130,N=67,K=33"], gpu_odd=["M=1000,N=1023,K=1001"],
         bench=["M=4096,N=4096,K=4096"], flops="2*M*N*K", baseline=["sgemm:M,N,K:tn"]),
    dict(name="sgemm_colmajor", source="sgemm_colmajor.cu", schedule="sgemm_colmajor.mlir",
         params="M:i32,N:i32,K:i32,alpha:f32,A:f32[lda*K]:in,lda:i32,B:f32[ldb*N]:in,ldb:i32,"
                "beta:f32,C:f32[ldc*N]:inout,ldc:i32",
         launcher="M:i32,N:i32,K:i32,alpha:f32,A:f32[lda*K]:in,lda:i32,B:f32[ldb*N]:in,ldb:i32,"
                  "beta:f32,C:f32[ldc*N]:inout,ldc:i32",
         odd=["M=130,N=67,K=33,alpha=2,beta=3,lda=131,ldb=33,ldc=130"],
         gpu_odd=["M=1000,N=1023,K=1001,alpha=2,beta=3,lda=1003,ldb=1001,ldc=1000"],
         bench=["M=4096,N=4096,K=4096,alpha=2,beta=3,lda=4096,ldb=4096,ldc=4096"],
         flops="2*M*N*K", baseline=["sgemm:N,M,K"]),
    dict(name="sgemm_colmajor_splitk", source="sgemm_colmajor.cu",
         schedule="sgemm_colmajor_splitk.mlir",
         params="M:i32,N:i32,K:i32,alpha:f32,A:f32[lda*K]:in,lda:i32,B:f32[ldb*N]:in,ldb:i32,"
                "beta:f32,C:f32[ldc*N]:inout,ldc:i32",
         launcher="M:i32,N:i32,K:i32,alpha:f32,A:f32[lda*K]:in,lda:i32,B:f32[ldb*N]:in,ldb:i32,"
                  "beta:f32,C:f32[ldc*N]:inout,ldc:i32",
         odd=["M=130,N=67,K=333,alpha=2,beta=3,lda=131,ldb=333,ldc=130"],
         gpu_odd=["M=1000,N=1023,K=1001,alpha=2,beta=3,lda=1003,ldb=1001,ldc=1000"],
         bench=["M=256,N=256,K=65536,alpha=2,beta=3,lda=256,ldb=65536,ldc=256"],
         flops="2*M*N*K", baseline=["sgemm:N,M,K"]),
    dict(name="batched_gemm", source="batched_gemm.cu", schedule="batched_gemm.mlir",
         params="A:f32[batches*M*K]:in,B:f32[batches*K*N]:in,C:f32[batches*M*N]:out,M:i32,N:i32,K:i32",
         launcher="A:f32[batches*M*K]:in,B:f32[batches*K*N]:in,C:f32[batches*M*N]:out,M:i32,N:i32,"
                  "K:i32,batches:i32",
         odd=["M=67,N=130,K=33,batches=3"], gpu_odd=["M=1000,N=1023,K=257,batches=3"],
         bench=["M=1024,N=1024,K=1024,batches=16"], flops="2*M*N*K*batches",
         baseline=["sgemm:M,N,K,batches"]),
    dict(name="gemv_rows", source="gemv_rows.cu", schedule="gemv_rows.mlir",
         params="A:f32[m*n]:in,x:f32[n]:in,y:f32[m]:out,m:i32,n:i32",
         launcher="A:f32[m*n]:in,x:f32[n]:in,y:f32[m]:out,m:i32,n:i32",
         odd=["m=130,n=1023", "m=1,n=5"], gpu_odd=["m=1000,n=1023", "m=4097,n=1"],
         bench=["m=16384,n=16384"], bytes="4*(m*n+n+m)", baseline=["copy"]),
    dict(name="gemv_cols", source="gemv_cols.cu", schedule="gemv_cols.mlir",
         params="A:f32[m*n]:in,x:f32[m]:in,y:f32[n]:out,m:i32,n:i32",
         launcher="A:f32[m*n]:in,x:f32[m]:in,y:f32[n]:out,m:i32,n:i32",
         odd=["m=1023,n=130", "m=5,n=1"], gpu_odd=["m=1000,n=1023", "m=1,n=4097"],
         bench=["m=16384,n=16384"], bytes="4*(m*n+n+m)", baseline=["copy"]),
    dict(name="conv2d_nchw", source="conv2d_nchw.cu", schedule="conv2d_nchw.mlir",
         params="in:f32[batch*C*H*W]:in,w:f32[K*C*9]:in,out:f32[batch*K*(H-2)*(W-2)]:out,"
                "batch:i32,C:i32,H:i32,W:i32,K:i32",
         launcher="in:f32[batch*C*H*W]:in,w:f32[K*C*9]:in,out:f32[batch*K*(H-2)*(W-2)]:out,"
                  "batch:i32,C:i32,H:i32,W:i32,K:i32",
         odd=["batch=2,C=3,H=19,W=21,K=5"], gpu_odd=["batch=3,C=7,H=61,W=67,K=9"],
         bench=["batch=8,C=64,H=128,W=128,K=64"], flops="2*batch*K*(H-2)*(W-2)*C*9",
         baseline=[]),
]


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stdout[-2000:]}{proc.stderr[-4000:]}")
    return proc


def launcher_name(mlir_path):
    return re.search(r"func\.func @(\w+)", open(mlir_path).read()).group(1)


def automatic_cases(cases=None):
    """One case per source and benchmark size (the driver decides per size);
    the hand-written variants of a source (small tiles, cp.async, split-K)
    are the driver's choice to make, so each source and size appears once."""
    cases_out, seen = [], set()
    for case in cases or CASES:
        for w in case["bench"]:
            if (case["source"], w) in seen:
                continue
            seen.add((case["source"], w))
            auto = dict(case, bench=[w], schedule=None)
            auto["name"] = "{}_auto_{}".format(case["source"][:-3],
                                               "_".join(x.split("=")[1] for x in w.split(",")))
            cases_out.append(auto)
    return cases_out


def prepare(ks_translate, ks_opt, out, automatic=False, cases=None, here=HERE):
    """Everything that needs LLVM, done here; the GPU machine only measures.
    `cases` and `here` (their sources and schedules/) default to this file's
    (bench/memory/cases.py passes its own)."""
    os.makedirs(out, exist_ok=True)
    emulate = os.path.join(ROOT, "tools", "ks-emulate", "ks-emulate.py")
    ptxas = os.environ.get("KS_PTXAS", "/usr/local/cuda/bin/ptxas")
    summary = []
    cases = cases or (automatic_cases() if automatic else CASES)
    # ONLY=name,name,... prepares a subset (a quick device call).
    only = [n for n in os.environ.get("ONLY", "").split(",") if n]
    if only:
        cases = [c for c in cases if c["name"] in only]
    for case in cases:
        name, src = case["name"], os.path.join(here, case["source"])
        base = os.path.join(out, name)
        run([ks_translate, "--import-cuda", src, "-o", base + ".lifted.mlir"])
        if automatic:
            # What ks optimize ships: the pipeline's optimized IR, decided at
            # the benchmark size; the transcript and schedule beside it.
            run([ks_opt, base + ".lifted.mlir",
                 f"--kernelskill-pipeline=lower=false workload={case['bench'][0]} "
                 f"transcript={base}.transcript.json schedule={base}.schedule.mlir",
                 "-o", base + ".ours.mlir"])
            decision = json.load(open(base + ".transcript.json"))["kernels"]
            print(f"{name}: " + "; ".join(d["decision"] for d in decision))
        else:
            run([ks_opt, base + ".lifted.mlir", "--ks-raise", "-o", base + ".raised.mlir"])
            run([ks_opt, base + ".raised.mlir",
                 "--transform-preload-library=transform-library-paths=" +
                 os.path.join(here, "schedules", case["schedule"]),
                 "--transform-interpreter", "--canonicalize", "--cse", "-o", base + ".ours.mlir"])
        for variant in ("lifted", "ours"):
            mlir = f"{base}.{variant}.mlir"
            run([ks_opt, mlir, f"--kernelskill-lower=ptx={base}.{variant}.ptx", "-o", os.devnull])
            run([ks_translate, "--export-cuda", mlir, "-o", f"{base}.{variant}.cu",
                 "--manifest", f"{base}.{variant}.json"])
        resources = ""
        if os.path.exists(ptxas):
            info = run([ptxas, "-v", "--gpu-name=sm_90", base + ".ours.ptx", "-o", os.devnull]).stderr
            regs = re.findall(r"Used (\d+) registers", info)
            spills = re.findall(r"(\d+) bytes spill stores", info)
            smem = re.findall(r"(\d+) bytes smem", info)
            resources = f"regs {','.join(regs)}, spill stores {','.join(spills)}, smem {','.join(smem) or '0'}"
            if any(int(s) for s in spills):
                raise SystemExit(f"{name}: ptxas reports spills: {info}")
        launcher = launcher_name(base + ".lifted.mlir")
        for workload in case["odd"]:
            proc = subprocess.run([sys.executable, emulate, base + ".lifted.cu", base + ".ours.cu",
                                   "--launcher", launcher, "--params", case["launcher"],
                                   "--workload", workload], capture_output=True, text=True)
            verdict = proc.stdout.strip().replace("\n", "; ")
            print(f"{name} [{workload}] CPU: {verdict}")
            if proc.returncode != 0:
                raise SystemExit(f"{name}: CPU equivalence failed at {workload}\n{proc.stdout}{proc.stderr}")
        summary.append(f"{name}: {resources}")
    json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print("\n".join(summary))


def bench_args(case, workload, json_path):
    """ks-bench's arguments for a case's benchmark run: timing, work, baselines."""
    args = ["--workload", workload, "--reps", "10", "--warmup", "2", "--no-counters",
            "--json", json_path]
    if case.get("flops"):
        args += ["--flops", case["flops"]]
    if case.get("bytes"):
        args += ["--bytes", case["bytes"]]
    for b in case["baseline"]:
        args += ["--baseline", b]
    return args


def measure(ks_bench, out, results, only=None):
    os.makedirs(results, exist_ok=True)
    cases = json.load(open(os.path.join(out, "cases.json")))
    if only:
        cases = [c for c in cases if c["name"] in only.split(",")]
    status = 0
    for case in cases:
        name = case["name"]
        base = os.path.join(out, name)
        launches = json.load(open(base + ".lifted.json"))
        naive = launches[0] if isinstance(launches, list) else launches
        common = [ks_bench, f"naive={base}.lifted.ptx@{naive['kernel']}",
                  f"ours={base}.ours.ptx@{naive['kernel']}", "--params", case["params"],
                  "--grid", ",".join(naive["grid"]), "--block", ",".join(naive["block"]),
                  "--launches", f"ours={base}.ours.json", "--no-db"]
        if isinstance(launches, list) and len(launches) > 1:
            # A launcher of several kernels (a launch chain): the naive runs them all.
            common += ["--launches", f"naive={base}.lifted.json"]
        for i, w in enumerate(case["gpu_odd"]):
            cmd = common + ["--workload", w, "--reps", "3", "--warmup", "1", "--no-counters",
                            "--json", os.path.join(results, f"{name}.odd{i}.json")]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            print(f"== {name} odd [{w}] rc={proc.returncode}\n{proc.stdout[-1500:]}{proc.stderr[-800:]}")
            status |= proc.returncode != 0
        for i, w in enumerate(case["bench"]):
            cmd = common + bench_args(case, w, os.path.join(results, f"{name}.bench{i}.json"))
            proc = subprocess.run(cmd, capture_output=True, text=True)
            print(f"== {name} bench [{w}] rc={proc.returncode}\n{proc.stdout[-2500:]}{proc.stderr[-800:]}")
            status |= proc.returncode != 0
    return status


def prepare_measured(ks_translate, out, cases=None, here=HERE):
    """Only lifts (the GPU machine has no clang): `cases` and `here` default
    to this file's (bench/memory/cases.py passes its own)."""
    os.makedirs(out, exist_ok=True)
    cases = automatic_cases(cases)
    for case in cases:
        run([ks_translate, "--import-cuda", os.path.join(here, case["source"]), "-o",
             os.path.join(out, case["name"] + ".lifted.mlir")])
    json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"lifted {len(cases)} cases into {out}")


def measured(ks_opt, ks_bench, out, results, budget="16", only=None):
    """The driver measures on this GPU (measure=cuda); what it ships is then
    compared with the naive kernel and the baselines in one ks-bench run."""
    import time
    os.makedirs(results, exist_ok=True)
    cases = json.load(open(os.path.join(out, "cases.json")))
    db = os.path.join(results, "tuning.db")
    status = 0
    for case in cases:
        name = case["name"]
        if only and not any(o in name for o in only.split(",")):
            continue
        lifted = os.path.join(out, name + ".lifted.mlir")
        base, work = os.path.join(results, name), os.path.join(results, name + ".work")
        w = case["bench"][0]
        opts = f"measure=cuda bench={ks_bench} budget={budget} workload={w} db={db} timeout=60"
        # More pipeline options (screen=false for scripts/gpu-bench.sh screen-ab).
        opts += " " + os.environ.get("MEASURED_EXTRA", "")
        t0 = time.time()
        first = subprocess.run([ks_opt, lifted, f"--kernelskill-pipeline={opts} workdir={work} "
                                f"ptx={base}.ours.ptx "
                                f"transcript={base}.transcript.json schedule={base}.schedule.mlir",
                                "-o", base + ".ours.mlir"], capture_output=True, text=True,
                               timeout=int(os.environ.get("MEASURED_CASE_TIMEOUT", "400")))
        t1 = time.time()
        repeat = subprocess.run([ks_opt, lifted, f"--kernelskill-pipeline={opts} "
                                 f"ptx={base}.repeat.ptx transcript={base}.repeat.json",
                                 "-o", os.devnull],
                                capture_output=True, text=True, timeout=400)
        t2 = time.time()
        print(f"== {name} search rc={first.returncode} {t1 - t0:.1f} s, repeat rc="
              f"{repeat.returncode} {t2 - t1:.1f} s\n{first.stderr[-1500:]}{repeat.stderr[-500:]}")
        if first.returncode or repeat.returncode:
            status = 1
            continue
        decision = json.load(open(base + ".transcript.json"))["kernels"][0]
        again = json.load(open(base + ".repeat.json"))["kernels"][0]
        cands = decision["candidates"]
        search = dict(case=name, workload=w, seconds=round(t1 - t0, 1),
                      repeat_seconds=round(t2 - t1, 1), compiled=len(cands),
                      measured=sum(1 for c in cands if "measured_ms" in c),
                      failed_verification=sum(1 for c in cands if "verification" in c["status"]),
                      decision=decision["decision"], repeat_decision=again["decision"],
                      same_ptx=open(base + ".ours.ptx").read() == open(base + ".repeat.ptx").read(),
                      measured_with=decision.get("measured_with", ""))
        json.dump(search, open(base + ".search.json", "w"), indent=1)
        kernel = decision["kernel"]
        ours = [f"ours={base}.ours.ptx@{kernel}"]
        if decision.get("chosen") is not None and not decision.get("restored_original"):
            ours += ["--launches", f"ours={work}/{kernel}.c{decision['chosen']}.launch.json"]
        common = [ks_bench, f"naive={work}/original.ptx@{kernel}"] + ours + [
            "--spec", f"{work}/{kernel}.spec.json", "--no-db"]
        for i, odd in enumerate(case["gpu_odd"]):
            proc = subprocess.run(common + ["--workload", odd, "--reps", "3", "--warmup", "1",
                                            "--no-counters", "--json", f"{base}.odd{i}.json"],
                                  capture_output=True, text=True)
            print(f"== {name} odd [{odd}] rc={proc.returncode}\n{proc.stdout[-800:]}")
            status |= proc.returncode != 0
        cmd = common + bench_args(case, w, f"{base}.bench0.json")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        print(f"== {name} bench [{w}] rc={proc.returncode}\n{proc.stdout[-1500:]}{proc.stderr[-500:]}")
        status |= proc.returncode != 0
        sys.stdout.flush()
    return status


def search_report(results):
    rows = ["| case | workload | compiled | measured | failed verification | search s | "
            "repeat (tuning DB) s | same PTX | decision |", "|---|---|---|---|---|---|---|---|---|"]
    for f in sorted(os.listdir(results)):
        if not f.endswith(".search.json"):
            continue
        s = json.load(open(os.path.join(results, f)))
        rows.append("| {case} | {workload} | {compiled} | {measured} | {failed_verification} | "
                    "{seconds} | {repeat_seconds} | {same} | {decision} |".format(
                        **s, same="yes" if s["same_ptx"] else "NO"))
    print("\n".join(rows))


def report(results):
    rows = ["| case | workload | naive ms | ours ms | baseline | baseline ms | ours / baseline | "
            "verified | regs | smem B |", "|---|---|---|---|---|---|---|---|---|---|"]
    for f in sorted(os.listdir(results)):
        if ".bench" not in f:
            continue
        doc = json.load(open(os.path.join(results, f)))
        v = {x["name"]: x for x in doc["variants"]}
        naive, ours = v.get("naive", {}), v.get("ours", {})
        for b in doc["baselines"] or [{}]:
            ms = lambda r: r.get("timing", {}).get("median_ms")
            rate = lambda r: r.get("tflops") or r.get("gbps")
            ratio = (rate(ours) / rate(b)) if rate(ours) and rate(b) else None
            rows.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                f.split(".")[0], ",".join(f"{k}={x}" for k, x in doc["workload"].items()),
                f"{ms(naive):.3f}" if ms(naive) else "-", f"{ms(ours):.3f}" if ms(ours) else "-",
                b.get("name", "-"), f"{ms(b):.3f}" if ms(b) else "-",
                f"{ratio:.2f}" if ratio else "-", ours.get("status", "-"),
                ours.get("attributes", {}).get("registers", "-"),
                ours.get("attributes", {}).get("static_smem_bytes", "-")))
    print("\n".join(rows))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    mode = sys.argv[1]
    if mode == "prepare":
        prepare(*sys.argv[2:5])
    elif mode == "prepare-auto":
        prepare(*sys.argv[2:5], automatic=True)
    elif mode == "measure":
        sys.exit(measure(*sys.argv[2:5]))
    elif mode == "report":
        report(sys.argv[2])
    elif mode == "prepare-measured":
        prepare_measured(*sys.argv[2:4])
    elif mode == "measured":
        sys.exit(measured(*sys.argv[2:]))
    elif mode == "search-report":
        search_report(sys.argv[2])
    else:
        raise SystemExit(__doc__)
