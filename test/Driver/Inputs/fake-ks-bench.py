#!/usr/bin/env python3
"""A stand-in for ks-bench in the driver's measure=cuda tests (CI has no GPU).

It checks what the driver hands ks-bench -- every variant's PTX has the
kernel's .entry, every manifest is a JSON list of launches, the spec gives
every buffer an extent -- and reports times from FAKE_BENCH_MODE:
  fast    candidate cN takes 1 + N/10 ms, the original 10 ms
  slow    every candidate takes 20 + N ms, the original 10 ms
  close   candidate cN takes 1 - N/1000 ms (all within the noise), the original 10 ms
  band    candidate cN takes 1 - 15N/1000 ms (1.5% apart: within the noise, not the
          simpler-candidate band), the original 10 ms
  wrong   as fast, but the first candidate fails verification when a size is odd
  nogpu   no GPU: exit 3 with every variant in error
With --time-only every variant that would pass is "timed" (nothing is
verified) and takes 0.05 ms longer (so a test sees which run a decision
used); a --reference must name a PTX with the kernel's .entry. FAKE_BENCH_FAIL_FULL=c0,c1 makes those candidates fail verification
at a workload of even sizes (the full one) when verifying; FAKE_BENCH_FAST=c5,c6
makes those candidates take 0.5 ms (0.55 with --time-only). FAKE_BENCH_SCALE=F multiplies every
time by F (a test of the roofline target needs times a GPU could reach). With --streams N (waves
of concurrent launches) FAKE_BENCH_STREAMS_FAST=c3 makes those candidates take 0.4 ms and the
original 5 ms. With --energy S every passing variant gets an energy reading of
0.3 mJ per ms of its time (300 W), but FAKE_BENCH_ENERGY_LOW=c2 gives those 0.1 mJ and
FAKE_BENCH_ENERGY_LOW=original the original 0.05 mJ, FAKE_BENCH_ENERGY_NEAR=c1 gives those
0.102 mJ (within 3% of 0.1); FAKE_BENCH_NO_ENERGY=1 makes every
reading an error (no NVML).
Each call is appended to FAKE_BENCH_LOG (when set).
"""
import json
import os
import sys

args = sys.argv[1:]
variants, launches, opts = [], {}, {}
i = 0
while i < len(args):
    a = args[i]
    if a in ("--spec", "--workload", "--reps", "--warmup", "--timeout", "--json", "--baseline",
             "--flops", "--bytes", "--reference", "--streams", "--energy"):
        opts[a] = args[i + 1]
        i += 2
    elif a == "--launches":
        name, path = args[i + 1].split("=", 1)
        launches[name] = path
        i += 2
    elif a.startswith("--"):
        i += 1
    else:
        name, rest = a.split("=", 1)
        path, kernel = rest.rsplit("@", 1)
        variants.append((name, path, kernel))
        i += 1

if os.environ.get("FAKE_BENCH_LOG"):
    with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
        log.write("ks-bench " + " ".join(os.path.basename(a) for a in args) + "\n")

mode = os.environ.get("FAKE_BENCH_MODE", "fast")
spec = json.load(open(opts["--spec"]))
# A buffer has a role (in, out, inout); a scalar (float ones too) has none.
problems = [f"buffer {p['name']} has no extent" for p in spec["params"]
            if "role" in p and "extent" not in p]
workload = dict(kv.split("=") for kv in opts.get("--workload", "").split(",") if kv)
odd = any(int(v) % 2 for v in workload.values())
time_only = "--time-only" in args
fail_full = [n for n in os.environ.get("FAKE_BENCH_FAIL_FULL", "").split(",") if n]
fast = [n for n in os.environ.get("FAKE_BENCH_FAST", "").split(",") if n]
results = []
first = next((name for name, _, _ in variants if name != "original"), None)
if "--reference" in opts:
    ref_path, ref_kernel = opts["--reference"].split("=", 1)[1].rsplit("@", 1)
    if f".entry {ref_kernel}" not in open(ref_path).read():
        problems.append(f"{ref_path} has no .entry {ref_kernel}")
for name, path, kernel in variants:
    r = {"name": name, "status": "pass", "timing": {"median_ms": 10.0}}
    why = list(problems)
    if f".entry {kernel}" not in open(path).read():
        why.append(f"{path} has no .entry {kernel}")
    if name in launches and not isinstance(json.load(open(launches[name])), list):
        why.append(f"{launches[name]} is not a list of launches")
    if name != "original":
        n = int(name[1:])
        r["timing"]["median_ms"] = {"slow": 20.0 + n, "close": 1.0 - n / 1000, "band": 1.0 - 15 * n / 1000}.get(mode, 1.0 + n / 10)
        if name in fast:
            r["timing"]["median_ms"] = 0.5
        if "--streams" in opts and name in os.environ.get("FAKE_BENCH_STREAMS_FAST", "").split(","):
            r["timing"]["median_ms"] = 0.4
        if not time_only and ((mode == "wrong" and name == first and odd) or
                              (name in fail_full and not odd)):
            r["status"] = "fail"
            r["verification"] = {"C": {"pass": False, "reason": "rel_l2 0.5 > 1e-5"}}
    elif "--streams" in opts:
        r["timing"]["median_ms"] = 5.0
    if time_only and r["status"] == "pass":
        r["status"] = "timed"
        r["timing"]["median_ms"] += 0.05
    if "timing" in r:
        r["timing"]["median_ms"] *= float(os.environ.get("FAKE_BENCH_SCALE", "1"))
    if "--energy" in opts and r["status"] in ("pass", "timed"):
        low = os.environ.get("FAKE_BENCH_ENERGY_LOW", "").split(",")
        joules = r["timing"]["median_ms"] * 0.3e-3
        if name in low:
            joules = 0.05e-3 if name == "original" else 0.1e-3
        if name in os.environ.get("FAKE_BENCH_ENERGY_NEAR", "").split(","):
            joules = 0.102e-3
        r["energy"] = {"joules_per_launch": joules, "watts": 300.0, "seconds": 0.5, "launches": 100}
        if os.environ.get("FAKE_BENCH_NO_ENERGY"):
            r["energy"] = {"error": "NVML not found (libnvidia-ml.so.1)"}
    if mode == "nogpu":
        r = {"name": name, "status": "error", "error": "no usable CUDA GPU"}
    elif why:
        r = {"name": name, "status": "error", "error": "; ".join(why)}
    results.append(r)
json.dump({"variants": results, "baselines": []}, open(opts["--json"], "w"))
print(f"fake ks-bench: {len(results)} variants at {opts.get('--workload')}")
sys.exit(3 if mode == "nogpu" else 0)
