#!/usr/bin/env python3
"""The idiom suite (issue 45): naive kernels in the styles people write
(bench/idioms/<idiom>/*.cu, listed in cases_*.py), each timed as written (nvcc),
as `ks optimize --measure static` writes it, as the measured search
(measure=cuda) leaves it, and against the PyTorch op a user would call instead.

  suite.py list                                     the cases, by idiom
  suite.py check [KS_BENCH]                         each case well-formed (CPU only: its source and
                                                    launcher exist, its parameters parse, its
                                                    workloads give every scalar an integer; with
                                                    KS_BENCH, ks-bench accepts its launch spec
                                                    and manifest)
  suite.py prepare KS_TRANSLATE KS_OPT OUT_DIR      here (clang, LLVM): each case lifted; the
                                                    static path of `ks optimize` (measure=static
                                                    verify=emulate, at the case's timing sizes),
                                                    lowered to PTX and exported with its launch
                                                    manifest; OUT_DIR/cases.json
  suite.py run KS_OPT KS_BENCH NVCC OUT_DIR RESULTS on the GPU machine: per case, the source
                                                    compiled by nvcc, the static PTX and the
                                                    measured search's PTX, verified against the
                                                    source at the `check` sizes (no multiple of
                                                    any tile) and timed at the `time` sizes in
                                                    one ks-bench run; torch's op timed the same
                                                    way; one RESULTS/<case>.json each (cases
                                                    with one are skipped: calls can resume)
  suite.py report RESULTS [OUT.md]                  the table and the summary figures

Environment for run: IDIOM_ONLY=case-or-idiom,... ; IDIOM_SECONDS (stop starting
cases after this many seconds, default 480); IDIOM_BUDGET (the measured search's
budget, default 4); IDIOM_MEASURED=0 skips the measured search.

A case's `launches` (a launcher that runs several kernels) gives the source its
manifest; the measured figure of such a case is the driver's own (its transcript's
measured times against the lifted original, verified in the same ks-bench run).
"""
import glob
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Frontend"))
sys.path.insert(0, os.path.join(ROOT, "test", "Driver"))
from equivalence import mangled_entry  # noqa: E402


def load_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(HERE, "cases_*.py"))):
        name = os.path.basename(path)[:-3]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cases += module.CASES
    names = [c["name"] for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"duplicate case names: {sorted(dup)}")
    return cases


def selected(cases):
    only = [o for o in os.environ.get("IDIOM_ONLY", "").split(",") if o]
    return [c for c in cases if not only or c["name"] in only or c["idiom"] in only]


def scalars(case, workload):
    """The workload's values of the case's scalar parameters."""
    names = {p.split(":")[0] for p in split_top(case["params"]) if "[" not in p}
    return ",".join(w for w in workload.split(",")
                    if w.split("=")[0] in names and w.split("=")[1].lstrip("-").isdigit())


def run_checked(cmd, timeout=600, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if proc.returncode:
        raise RuntimeError(f"{os.path.basename(cmd[0])} failed: {proc.stderr.strip()[-600:]}")
    return proc


def decisions_of(transcript):
    try:
        doc = json.load(open(transcript))
    except (OSError, ValueError):
        return {}
    return {k["kernel"]: k["decision"] for k in doc.get("kernels", [])}


def launches_of(case):
    """The kernels a case's launcher runs, in order (one unless `launches`)."""
    return [l["kernel"] for l in case.get("launches", [])] or [case["kernel"]]


def lifted_name(mlir, kernel):
    """The kernel's name in the lifted module: a template's instance is
    named after its arguments (`reduce_sum_double_512`)."""
    names = re.findall(r"gpu\.func @(\w+)\(", open(mlir).read())
    if kernel in names:
        return kernel
    instances = [n for n in names if n.startswith(kernel + "_")]
    return instances[0] if len(instances) == 1 else kernel


def prepare_case(case, tools, out):
    ks_translate, ks_opt, emulator = tools
    name = case["name"]
    base = os.path.join(out, name)
    source = os.path.join(HERE, case["source"])
    shutil.copy(source, base + ".src.cu")
    record = dict(name=name)
    try:
        run_checked([ks_translate, "--import-cuda", source, "-o", base + ".mlir"])
    except Exception as e:  # a kernel the lifter refuses stays as written
        record.update(lifted=False, error=str(e)[:400])
        return record
    record["lifted"] = True
    record["lifted_kernel"] = lifted_name(base + ".mlir", case["kernel"])
    # As tools/ks/ks runs `ks optimize --measure static` (verify=emulate), at
    # the sizes the case is timed at.
    kernels = "" if case.get("launches") else f" kernels={record['lifted_kernel']}"
    pipeline = (f"synthesize-launchers=true lower=false measure=static budget=4 verify=emulate "
                f"ptxas=auto emulator={emulator} db=none workload={scalars(case, case['time'])}"
                f"{kernels} transcript={base}.static.json")
    try:
        run_checked([ks_opt, base + ".mlir", f"--kernelskill-pipeline={pipeline}",
                     "-o", base + ".static.mlir"])
    except Exception as e:
        record.update(static_error=str(e)[:400])
        return record
    record["static_decisions"] = decisions_of(base + ".static.json")
    changed = [k for k, d in record["static_decisions"].items() if not d.startswith("unchanged")]
    record["static_changed"] = bool(changed)
    if not changed:
        return record
    try:
        run_checked([ks_opt, base + ".static.mlir", f"--kernelskill-lower=ptx={base}.static.ptx",
                     "-o", os.devnull])
        run_checked([ks_translate, "--export-cuda", base + ".static.mlir", "-o", base + ".static.cu",
                     "--manifest", base + ".static.launches.json"])
    except Exception as e:
        record.update(static_error=str(e)[:400])
    return record


def prepare(ks_translate, ks_opt, out):
    os.makedirs(out, exist_ok=True)
    emulator = os.path.join(ROOT, "tools", "ks-emulate", "ks-emulate.py")
    records = []
    for case in selected(load_cases()):
        t0 = time.time()
        r = prepare_case(case, (ks_translate, ks_opt, emulator), out)
        records.append(r)
        what = ("lift error" if not r["lifted"] else
                "static error" if "static_error" in r else
                "changed" if r.get("static_changed") else "unchanged")
        print(f"{case['name']}: {what} ({time.time() - t0:.1f} s) "
              f"{r.get('error', r.get('static_error', ''))[:200]}", flush=True)
    json.dump(records, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"{sum(r.get('static_changed', False) for r in records)} of {len(records)} cases "
          f"changed by the static path; {sum(not r['lifted'] for r in records)} not lifted")
    return 0


def split_top(text):
    """`text` split at the commas outside parentheses and brackets."""
    items, depth, current = [], 0, ""
    for ch in str(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    return items + [current.strip()] if current.strip() else items


def parse_params(text):
    """ks-bench's --params syntax as launch-spec entries (docs/Runtime.md)."""
    params = []
    for item in split_top(text):
        parts = item.split(":")
        m = re.match(r"(\w+)\[(.*)\]$", parts[1])
        if not m:
            params.append({"name": parts[0], "type": parts[1]})
            continue
        p = {"name": parts[0], "type": m.group(1), "extent": m.group(2), "role": parts[2]}
        if len(parts) > 3 and ".." in parts[3]:
            p["range"] = [int(x) for x in parts[3].split("..")]
        params.append(p)
    return params


def sizes(formula):
    return split_top(formula)


def launch_spec(case, entries, work):
    """The case's launch spec, and for a launcher of several kernels the
    source's manifest: each launch's arguments by name, the launcher's own
    intermediates added as scratch buffers (of its first output's type and
    extent) and arguments computed from its scalars (`rows*cols`) as scalars
    with that value."""
    params = parse_params(case["params"])
    spec = {"kernel": entries[case["kernel"]], "params": params, "grid": sizes(case["grid"]),
            "block": sizes(case["block"]), "smem": str(case.get("smem", "0") or "0")}
    name = case["name"]
    path = os.path.join(work, name + ".spec.json")
    if not case.get("launches"):
        json.dump(spec, open(path, "w"), indent=1)
        return path, None
    known = {p["name"] for p in params}
    first_out = next(p for p in params if p.get("role") in ("out", "inout"))
    first_scalar = next((p for p in params if "extent" not in p and p["type"][0] in "iu"),
                        {"type": "i32"})
    manifest = []
    for step in case["launches"]:
        args = []
        for a in step["params"]:
            if a not in known:
                if re.fullmatch(r"[A-Za-z_]\w*", a):
                    params.append({"name": a, "type": first_out["type"],
                                   "extent": first_out["extent"], "role": "scratch"})
                else:
                    expr, a = a, f"arg_{len(params)}"
                    params.append({"name": a, "type": first_scalar["type"], "value": expr})
                known.add(a)
            args.append(a)
        # ks-bench's manifests name each argument and give its type.
        types = {p["name"]: p["type"] for p in params}
        manifest.append({"kernel": entries[step["kernel"]],
                         "params": [{"name": a, "type": types[a]} for a in args],
                         "grid": sizes(step["grid"]), "block": sizes(step["block"]),
                         "smem": str(step.get("smem", "0"))})
    json.dump(spec, open(path, "w"), indent=1)
    manifest_path = os.path.join(work, name + ".src.launches.json")
    json.dump(manifest, open(manifest_path, "w"), indent=1)
    return path, manifest_path


def measured_search(case, record, tools, out, work):
    """measure=cuda on the lifted case at its timing sizes: the driver's
    decisions, and the PTX and manifest of what it ships (single kernels)."""
    ks_opt, ks_bench = tools
    name = case["name"]
    src = os.path.join(out, name + ".mlir")
    base = os.path.join(work, name)
    kernel = record["lifted_kernel"]
    kernels = "" if case.get("launches") else f" kernels={kernel}"
    budget = os.environ.get("IDIOM_BUDGET", "4")
    opts = (f"synthesize-launchers=true measure=cuda bench={ks_bench} budget={budget} db=none "
            f"timeout=60 workload={scalars(case, case['time'])}{kernels} workdir={base}.work "
            f"ptx={base}.measured.ptx transcript={base}.measured.json")
    t0 = time.time()
    proc = subprocess.run([ks_opt, src, f"--kernelskill-pipeline={opts}", "-o",
                           base + ".measured.mlir"], capture_output=True, text=True, timeout=300)
    result = dict(seconds=round(time.time() - t0, 1), rc=proc.returncode)
    if proc.returncode:
        result["error"] = proc.stderr.strip()[-400:]
        return result
    doc = json.load(open(base + ".measured.json"))
    result["decisions"] = {k["kernel"]: k["decision"] for k in doc.get("kernels", [])}
    for k in doc.get("kernels", []):
        chosen = k.get("chosen")
        if k["kernel"] == kernel and chosen is not None and not k.get("restored_original"):
            c = k["candidates"][chosen]
            result.update(driver_before_ms=k.get("measured_before_ms"),
                          driver_ms=c.get("measured_ms"),
                          manifest=f"{base}.work/{k['kernel']}.c{chosen}.launch.json")
    result["changed"] = any(not d.startswith("unchanged") for d in result["decisions"].values())
    return result


def bench_variants(case, record, out, work, nvcc):
    """The ks-bench variants of a case (the source, compiled by nvcc, then
    ours), their launches, and the launch spec."""
    name, kernel = case["name"], record.get("lifted_kernel", case["kernel"])
    src_ptx = os.path.join(work, name + ".src.ptx")
    run_checked([nvcc, "-ptx", "-arch=sm_90", "-o", src_ptx, os.path.join(out, name + ".src.cu")])
    entries = {k: mangled_entry(src_ptx, k) for k in launches_of(case)}
    if None in entries.values():
        raise RuntimeError(f"no entry for {entries} in nvcc's PTX")
    spec, src_manifest = launch_spec(case, entries, work)
    variants = [f"source={src_ptx}@{entries[case['kernel']]}"]
    launches = ["--launches", f"source={src_manifest}"] if src_manifest else []
    if record.get("static_changed") and "static_error" not in record:
        variants.append(f"static={out}/{name}.static.ptx@{kernel}")
        launches += ["--launches", f"static={out}/{name}.static.launches.json"]
    measured = record.get("measured", {})
    if measured.get("manifest") and os.path.exists(measured["manifest"]):
        variants.append(f"measured={work}/{name}.measured.ptx@{kernel}")
        launches += ["--launches", f"measured={measured['manifest']}"]
    return variants, launches, spec


def run_case(case, record, tools, out, work):
    ks_opt, ks_bench, nvcc = tools
    name = case["name"]
    if record.get("lifted") and os.environ.get("IDIOM_MEASURED", "1") != "0":
        try:
            record["measured"] = measured_search(case, record, (ks_opt, ks_bench), out, work)
        except Exception as e:
            record["measured"] = dict(error=str(e)[:400])
    variants, launches, spec = bench_variants(case, record, out, work, nvcc)
    common = [ks_bench, *variants, *launches, "--spec", spec, "--no-db", "--no-counters",
              *case.get("extra", [])]
    for stage, workload, reps in (("check", case["check"], "3"), ("time", case["time"], "20")):
        result = os.path.join(work, f"{name}.{stage}.json")
        proc = subprocess.run(common + ["--workload", workload, "--reps", reps, "--warmup", "2",
                                        "--json", result], capture_output=True, text=True,
                              timeout=600)
        try:
            doc = json.load(open(result))
        except (OSError, ValueError):
            record[stage] = dict(error=(proc.stderr or proc.stdout).strip()[-400:])
            continue
        record[stage] = {v["name"]: dict(status=v.get("status"), error=v.get("error"),
                                         ms=v.get("timing", {}).get("median_ms"))
                         for v in doc["variants"]}
    if case.get("torch"):
        record["torch"] = time_torch(case)
    return record


def time_torch(case):
    """The torch op at the timing sizes: CUDA events, median of 20 after 3
    warm-ups, L2 flushed before each (as ks-bench times)."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        return dict(error=str(e))
    dtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
              "f64": torch.float64, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8,
              "i8": torch.int8, "u32": torch.int32, "u64": torch.int64}
    values = {}
    for item in case["time"].split(","):
        k, v = item.split("=")
        values[k] = float(v) if "." in v or "e" in v else int(v)
    env = {"torch": torch, "F": F, "math": math, **values}
    try:
        for p in split_top(case["params"]):
            parts = p.split(":")
            pname, ptype = parts[0].lstrip("@"), parts[1]
            m = re.match(r"(\w+)\[(.*)\]", ptype)
            if not m:
                continue
            extent = int(eval(m.group(2).replace("ceildiv", "_cd"), {"_cd": lambda a, b: -(-a // b)},
                              values))
            dtype = dtypes[m.group(1)]
            lo, hi = 0, 16
            if len(parts) > 3 and ".." in parts[3]:
                lo, hi = (int(x) for x in parts[3].split(".."))
            if dtype.is_floating_point:
                env[pname] = torch.rand(extent, device="cuda", dtype=dtype) * 2 - 1
            else:
                env[pname] = torch.randint(lo, hi, (extent,), device="cuda", dtype=dtype)
        fn = eval("lambda: " + case["torch"], env)
        flush = torch.empty(2 * 60 * 1024 * 1024, dtype=torch.uint8, device="cuda")
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        times = []
        for i in range(20):
            flush.fill_(i & 0xFF)
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(stop))
        times.sort()
        return dict(ms=times[len(times) // 2], version=torch.__version__)
    except Exception as e:  # an op that does not run is reported, not fatal
        return dict(error=f"{type(e).__name__}: {str(e)[:300]}")


def run(ks_opt, ks_bench, nvcc, out, results):
    if subprocess.run(["sh", "-c", "nvidia-smi -L"], capture_output=True).returncode != 0:
        print("no GPU: skipping")
        return 77
    os.makedirs(results, exist_ok=True)
    work = os.path.join(results, "work")
    os.makedirs(work, exist_ok=True)
    prepared = {r["name"]: r for r in json.load(open(os.path.join(out, "cases.json")))}
    deadline = time.time() + float(os.environ.get("IDIOM_SECONDS", "480"))
    done = 0
    for case in selected(load_cases()):
        path = os.path.join(results, case["name"] + ".json")
        if os.path.exists(path) or case["name"] not in prepared:
            continue
        if time.time() > deadline:
            print("out of time: the remaining cases in a later call")
            break
        t0 = time.time()
        record = dict(prepared[case["name"]], idiom=case["idiom"])
        try:
            run_case(case, record, (ks_opt, ks_bench, nvcc), out, work)
        except Exception as e:
            record["error"] = str(e)[:400]
        record["seconds"] = round(time.time() - t0, 1)
        json.dump(record, open(path, "w"), indent=1)
        done += 1
        print(f"{case['name']}: {record['seconds']} s {summary_line(record)}", flush=True)
    print(f"{done} cases this call")
    return 0


def summary_line(r):
    t = r.get("time", {})
    parts = [f"{k} {v['ms']:.4f}" for k, v in t.items() if isinstance(v, dict) and v.get("ms")]
    if r.get("torch", {}).get("ms"):
        parts.append(f"torch {r['torch']['ms']:.4f}")
    bad = [f"{k}:{v['status']}" for k, v in r.get("check", {}).items()
           if isinstance(v, dict) and v.get("status") not in ("pass", "reference")]
    return " ".join(parts) + (" CHECK " + " ".join(bad) if bad else "")


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def report(results, out_md=None):
    cases = {c["name"]: c for c in load_cases()}
    rows = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(results, "*.json")))]
    rows = [r for r in rows if r.get("name") in cases]
    rows.sort(key=lambda r: (r["idiom"], r["name"]))
    lines = ["| idiom | case | source ms | static | measured | torch | static decision / measured "
             "decision |", "|---|---|---|---|---|---|---|"]
    speed_static, speed_measured, vs_torch, slower, changed, failures = [], [], [], [], 0, []
    for r in rows:
        t = r.get("time", {}) if isinstance(r.get("time"), dict) else {}
        chk = r.get("check", {}) if isinstance(r.get("check"), dict) else {}
        src = (t.get("source") or {}).get("ms")
        for stage, doc in (("check", chk), ("time", t)):
            if doc.get("error"):  # ks-bench itself failed: no variant ran
                failures.append(f"{r['name']} {stage}: ks-bench: {doc['error']}"[:200])
        def speed(variant):
            ms = (t.get(variant) or {}).get("ms")
            ok = (chk.get(variant) or {}).get("status") == "pass"
            if variant in t and not ok:
                failures.append(f"{r['name']} {variant}: {(chk.get(variant) or {}).get('status')} "
                                f"{(chk.get(variant) or {}).get('error') or ''}"[:160])
            return src / ms if src and ms and ok else None
        s, m = speed("static"), speed("measured")
        meas = r.get("measured", {})
        if m is None and meas.get("driver_ms") and meas.get("driver_before_ms") and \
                not meas.get("manifest"):
            m = meas["driver_before_ms"] / meas["driver_ms"]  # the driver's own run
        best = max([x for x in (s, m) if x] or [1.0])
        speed_static.append(s or 1.0)
        speed_measured.append(m or s or 1.0)
        changed += bool(s or m)
        if best < 0.98:
            slower.append(r["name"])
        tms = (r.get("torch") or {}).get("ms")
        if tms and src:
            vs_torch.append((tms / src) * (m or s or 1.0))
        sd = "; ".join(d[:60] for d in (r.get("static_decisions") or {}).values()) or \
            (r.get("error") or r.get("static_error") or "not lifted")[:80]
        md = "; ".join(d[:60] for d in (meas.get("decisions") or {}).values()) or \
            (meas.get("error") or "")[:80]
        fmt = lambda x: f"{x:.2f}x" if x else "-"  # noqa: E731
        src_text = f"{src:.4f}" if src else ("error" if chk.get("error") or t.get("error") else "-")
        lines.append(f"| {r['idiom']} | {r['name']} | {src_text} | {fmt(s)} | {fmt(m)} | "
                     f"{f'{tms:.4f}' if tms else '-'} | {sd} / {md} |".replace("\n", " "))
    n = len(rows)
    summary = [
        f"{n} cases; changed (verified, either mode) {changed} ({100 * changed / max(n, 1):.0f}%); "
        f"geometric-mean speedup over the source: static {geomean(speed_static):.2f}x, "
        f"measured {geomean(speed_measured):.2f}x; ours against torch eager over the {len(vs_torch)} "
        f"cases with a torch op: {geomean(vs_torch):.2f}x (torch ms / ours ms)",
        f"slower than the source (< 0.98x): {', '.join(slower) or 'none'}",
        f"verification failures or errors: {'; '.join(failures) or 'none'}"]
    text = "\n".join(lines + [""] + summary) + "\n"
    if out_md:
        open(out_md, "w").write(text)
    print(text)
    return 0


def check_spec_parses(case, ks_bench):
    """ks-bench reads the case's launch spec and launch manifest (the
    source's, for launchers of several kernels): what `run` hands it. Its
    usage errors (exit 2) come before it looks for a GPU (exit 3 without
    one), so a spec or manifest it would refuse is found here."""
    with tempfile.TemporaryDirectory() as work:
        entries = {k: k for k in launches_of(case)}
        spec, manifest = launch_spec(case, entries, work)
        ptx = os.path.join(work, "empty.ptx")
        open(ptx, "w").close()
        cmd = [ks_bench, f"source={ptx}@{case['kernel']}", "--spec", spec, "--no-db",
               "--workload", case["check"], "--json", os.path.join(work, "out.json")]
        if manifest:
            cmd += ["--launches", f"source={manifest}"]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if proc.returncode == 2:
        return [f"{case['name']}: ks-bench refuses its spec: {proc.stderr.strip()[:200]}"]
    return []


def check_cases(ks_bench=None):
    """What the GPU run relies on, checked without a GPU: exit 1 and a line
    per problem, else the count by idiom. With KS_BENCH, also that ks-bench
    accepts every case's launch spec and manifest."""
    problems, by_idiom = [], {}
    keys = {"name", "idiom", "source", "kernel", "params", "grid", "block", "check", "time",
            "torch", "extra", "note"}
    for c in load_cases():
        name = c.get("name", "?")
        missing = keys - set(c)
        if missing:
            problems.append(f"{name}: no {sorted(missing)}")
            continue
        by_idiom[c["idiom"]] = by_idiom.get(c["idiom"], 0) + 1
        path = os.path.join(HERE, c["source"])
        if not os.path.exists(path):
            problems.append(f"{name}: no file {c['source']}")
            continue
        text = open(path).read()
        for kernel in launches_of(c):
            if not re.search(rf"__global__[^;{{]*\b{kernel}\s*\(", text):
                problems.append(f"{name}: no __global__ {kernel} in {c['source']}")
        if not re.search(rf"\bvoid\s+launch_{name}\s*\(", text):
            problems.append(f"{name}: no launcher launch_{name}")
        params = parse_params(c["params"])
        scalars_ = {p["name"] for p in params if "extent" not in p}
        for stage in ("check", "time"):
            values = dict(item.split("=", 1) for item in c[stage].split(","))
            if set(values) != scalars_:
                problems.append(f"{name}: {stage} gives {sorted(values)}, the scalars are "
                                f"{sorted(scalars_)}")
            bad = [k for k, v in values.items() if not v.lstrip("-").isdigit()]
            if bad:
                problems.append(f"{name}: {stage}'s {bad} not integers (ks-bench's workloads are)")
        if ks_bench:
            problems += check_spec_parses(c, ks_bench)
    for p in problems:
        print(p)
    print(" ".join(f"{k}={v}" for k, v in sorted(by_idiom.items())))
    print(f"{sum(by_idiom.values())} cases, {len(by_idiom)} idioms, {len(problems)} problems")
    return 1 if problems else 0


def main():
    args = sys.argv[1:]
    if args[:1] == ["list"]:
        for c in load_cases():
            print(f"{c['idiom']:24} {c['name']:28} {c['note']}")
        return 0
    if args[:1] == ["check"] and len(args) <= 2:
        return check_cases(*args[1:])
    if len(args) == 4 and args[0] == "prepare":
        return prepare(*args[1:])
    if len(args) == 6 and args[0] == "run":
        return run(*args[1:])
    if len(args) in (2, 3) and args[0] == "report":
        return report(*args[1:])
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
