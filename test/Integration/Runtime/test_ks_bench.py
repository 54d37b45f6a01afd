#!/usr/bin/env python3
"""GPU tests of ks-bench (ctest label `gpu`): measures a known kernel (a short one
by a replayed graph), catches a planted wrong kernel, one that leaves elements unwritten, one that only passes
on zeros, one that goes wrong after the timed runs (and passes one whose bytes
change within the tolerance), times without verifying with --time-only, times waves of concurrent launches
(--streams), reads each variant's energy per launch (--energy), survives a faulting and a hanging kernel, and runs the cuBLAS and
copy baselines. Exits 77 (skipped) without a GPU or nvcc.

usage: test_ks_bench.py KS_BENCH [NVCC]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ks_bench = os.path.abspath(sys.argv[1])
    nvcc = sys.argv[2] if len(sys.argv) > 2 else shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if subprocess.run(["sh", "-c", "nvidia-smi -L"], capture_output=True).returncode != 0:
        print("no GPU: skipping the ks-bench GPU tests")
        return 77
    if not os.path.exists(nvcc):
        print("no nvcc: skipping the ks-bench GPU tests")
        return 77
    work = tempfile.mkdtemp(prefix="ks-bench-test-")
    ptx = os.path.join(work, "kernels.ptx")
    subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-o", ptx, os.path.join(HERE, "Inputs", "kernels.cu")],
                   check=True)
    db = os.path.join(work, "tuning.db")
    failures = []

    def bench(*args, expect_rc, name):
        out = os.path.join(work, name + ".json")
        cmd = [ks_bench, "--params", "x:f32[n]:in,y0:f32[n]:in,y:f32[n]:out,a:f32,n:i32",
               "--grid", "ceildiv(n,256)", "--block", "256", "--workload", "n=1000,a=2",
               "--reps", "20", "--db", db, "--json", out, *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        print(f"--- {name}: rc={proc.returncode}\n{proc.stdout}{proc.stderr}")
        if proc.returncode != expect_rc:
            failures.append(f"{name}: exit {proc.returncode}, expected {expect_rc}")
        with open(out) as f:
            return json.load(f)

    def check(cond, what):
        if not cond:
            failures.append(what)

    # A known kernel against itself and a different correct version, at odd sizes.
    for n in (1000, 1023, 1 << 20):
        r = bench(f"ref={ptx}@saxpy", f"stride={ptx}@saxpy_stride", "--workload", f"n={n}",
                  "--bytes", "12*n", expect_rc=0, name=f"known-{n}")
        for v in r["variants"]:
            check(v["status"] == "pass", f"known-{n}: {v['name']} did not pass: {v.get('error')}")
            check(v["timing"]["median_ms"] > 0, f"known-{n}: no timing")
            check(v["verification"]["y"]["rel_l2"] <= 1e-6, f"known-{n}: error too large")
            check(v["verification_after_timing"] is True, f"known-{n}: not re-verified")
            check(v["attributes"]["registers"] > 0, f"known-{n}: no register count")
            # A few microseconds: too short for one pair of events, so the
            # time is a replayed graph of many launches.
            if n < 1 << 20:
                check(v["timing"].get("method", "").startswith("CUDA graph of"),
                      f"known-{n}: method {v['timing'].get('method')!r}")
            counters = v.get("counters", {})
            check(counters.get("available") is True, f"known-{n}: no counters: {counters}")
            m = counters.get("metrics", {})
            # saxpy reads and writes whole 128-byte lines per warp: 4 sectors.
            check(3.9 <= m.get("global_load_sectors_per_request", 0) <= 4.1,
                  f"known-{n}: load sectors/request {m.get('global_load_sectors_per_request')}")
            check(m.get("dram__bytes_read.sum", -1) >= 0, f"known-{n}: no DRAM bytes")
        check(r["device"]["name"] != "", "no device name")

    # Planted failures: each must fail verification with the right reason.
    for kernel, reason in (("saxpy_wrong", "exceeds tolerance"),
                           ("saxpy_unwritten", "never written"),
                           ("saxpy_zeros", "exceeds tolerance")):
        r = bench(f"ref={ptx}@saxpy", f"bad={ptx}@{kernel}", expect_rc=1, name=kernel)
        bad = r["variants"][1]
        check(bad["status"] == "fail", f"{kernel}: status {bad['status']}")
        check(reason in bad["verification"]["y"].get("reason", ""),
              f"{kernel}: reason {bad['verification']['y'].get('reason')!r} lacks {reason!r}")
        check("timing" not in bad, f"{kernel}: a failing variant was timed")

    # The check after the timed runs: outputs that changed since the verified
    # ones are compared with the reference again, and fail when wrong.
    r = bench(f"ref={ptx}@saxpy", f"drift={ptx}@saxpy_drift", expect_rc=1, name="saxpy_drift")
    drift = r["variants"][1]
    check(drift["status"] == "fail" and drift.get("verification_after_timing") is False and
          "after the timed runs" in drift.get("error", ""), f"saxpy_drift: {drift}")
    r = bench(f"ref={ptx}@saxpy", f"jitter={ptx}@saxpy_jitter", expect_rc=0, name="saxpy_jitter")
    jitter = r["variants"][1]
    check(jitter["status"] == "pass" and jitter.get("verification_after_timing") is True,
          f"saxpy_jitter: {jitter}")

    # --time-only times without verifying: a wrong kernel is "timed", not
    # failed, nothing is compared, the reference is not run, nothing is
    # recorded in the database (its own, checked empty below).
    only_db = os.path.join(work, "time-only.db")
    r = bench(f"ref={ptx}@saxpy", f"bad={ptx}@saxpy_wrong", "--time-only", "--db", only_db,
              "--workload", "n=1048576", expect_rc=0, name="time-only")
    for v in r["variants"]:
        check(v["status"] == "timed", f"time-only: {v['name']} status {v['status']}")
        check(v.get("timing", {}).get("median_ms", 0) > 0, f"time-only: {v['name']} not timed")
        check("verification" not in v and "verification_after_timing" not in v,
              f"time-only: {v['name']} was verified")
        check("reference" not in v.get("seconds", {}), f"time-only: {v['name']} ran the reference")
    proc = subprocess.run([ks_bench, "db", "export", "--db", only_db], capture_output=True,
                          text=True)
    check(not proc.stdout.strip(), f"time-only: recorded {proc.stdout[:200]!r}")

    # --streams 8: waves of 8 concurrent launches, each on its own buffers;
    # the variant is verified as usual, the time is per launch, and nothing
    # is recorded. A saxpy of 2^24 elements (192 MB moved, about 0.1 ms: timed
    # by events either way) is bandwidth-bound, so 8 at once take about as
    # long per launch as one alone: within 2x (a wave's time not divided by
    # 8, or launches serialized behind the host, would be far outside).
    streams_db = os.path.join(work, "streams.db")
    big = ["--workload", f"n={1 << 24}"]
    alone = bench(f"ref={ptx}@saxpy", *big, "--no-db", expect_rc=0, name="alone")
    r = bench(f"ref={ptx}@saxpy", f"stride={ptx}@saxpy_stride", *big, "--streams", "8", "--db",
              streams_db, expect_rc=0, name="streams")
    for v in r["variants"]:
        check(v["status"] == "pass", f"streams: {v['name']} status {v['status']}")
        check("8 concurrent launches" in v["timing"].get("method", ""),
              f"streams: method {v['timing'].get('method')!r}")
        check(v["verification_after_timing"] is True, f"streams: {v['name']} not re-verified")
    one, eight = alone["variants"][0]["timing"]["median_ms"], r["variants"][0]["timing"]["median_ms"]
    check(0.5 * one < eight < 2 * one, f"streams: {eight} ms per launch with 8 at once, {one} ms alone")
    proc = subprocess.run([ks_bench, "db", "export", "--db", streams_db], capture_output=True,
                          text=True)
    check(not proc.stdout.strip(), f"streams: recorded {proc.stdout[:200]!r}")

    # --energy 0.5: each variant's energy per launch from NVML's counter over
    # half a second of back-to-back launches. The board draws between 30 and
    # 1500 W, and a launch's energy is about the power times its time (within
    # 2x: the runs are back to back, the timing's L2 flushed).
    r = bench(f"ref={ptx}@saxpy", f"stride={ptx}@saxpy_stride", *big, "--energy", "0.5",
              "--no-db", expect_rc=0, name="energy")
    for v in r["variants"]:
        e = v.get("energy", {})
        check("error" not in e and e.get("joules_per_launch", 0) > 0,
              f"energy: {v['name']}: {e}")
        if "error" in e or "watts" not in e:
            continue
        check(30 < e["watts"] < 1500, f"energy: {v['name']}: {e['watts']} W")
        check(e["seconds"] >= 0.5 and e["launches"] > 0, f"energy: {v['name']}: {e}")
        per_launch = e["watts"] * v["timing"]["median_ms"] * 1e-3
        check(0.5 * per_launch < e["joules_per_launch"] < 2 * per_launch,
              f"energy: {v['name']}: {e['joules_per_launch']} J per launch, "
              f"{e['watts']} W x {v['timing']['median_ms']} ms")

    # A faulting kernel is reported, and the next variant is still measured.
    r = bench(f"ref={ptx}@saxpy", f"fault={ptx}@saxpy_fault", f"after={ptx}@saxpy_stride",
              expect_rc=1, name="fault")
    fault, after = r["variants"][1], r["variants"][2]
    check(fault["status"] == "error" and "launch failed: cudaError" in fault.get("error", ""),
          f"fault: {fault}")
    check(after["status"] == "pass", f"after a fault: {after.get('error')}")

    # A hanging kernel is killed at the time limit.
    r = bench(f"ref={ptx}@saxpy", f"hang={ptx}@saxpy_hang", "--timeout", "20",
              expect_rc=1, name="hang")
    check("timed out" in r["variants"][1].get("error", ""), f"hang: {r['variants'][1]}")

    # Unknown kernel names and bad PTX are explained.
    r = bench(f"ref={ptx}@saxpy", f"missing={ptx}@nope", expect_rc=1, name="missing-kernel")
    check("no kernel 'nope'" in r["variants"][1].get("error", "") and
          "saxpy_stride" in r["variants"][1].get("error", ""), f"missing: {r['variants'][1]}")
    bad_ptx = os.path.join(work, "bad.ptx")
    with open(bad_ptx, "w") as f:
        f.write(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry saxpy()\n{\nbogus;\n}\n")
    r = bench(f"ref={ptx}@saxpy", f"bad={bad_ptx}@saxpy", expect_rc=1, name="bad-ptx")
    check("JIT log" in r["variants"][1].get("error", ""), f"bad ptx: {r['variants'][1]}")

    # A spec that does not match the kernel's signature is refused before launching.
    r = bench(f"ref={ptx}@saxpy", "--params", "x:f32[n]:in,y:f32[n]:out,n:i32", expect_rc=1,
              name="signature")
    check("takes 5 parameters of (8, 8, 8, 4, 4) bytes, but the spec gives 3"
          in r["variants"][0].get("error", ""), f"signature: {r['variants'][0]}")

    # Baselines.
    r = bench("--baseline", "sgemm:1024,1024,1024", "--baseline", "tf32:1024,1024,1024",
              "--baseline", "hgemm:1024,1024,1024", "--baseline", "bgemm:1024,1024,1024",
              "--baseline", "copy:256*1024*1024", expect_rc=0, name="baselines")
    for b in r["baselines"]:
        check(b["status"] == "pass", f"baseline {b.get('name')}: {b.get('error')}")
        check(b.get("tflops", b.get("gbps", 0)) > 0, f"baseline {b.get('name')}: no rate")

    # Every measurement was recorded.
    proc = subprocess.run([ks_bench, "db", "check", "--db", db], capture_output=True, text=True)
    check(proc.returncode == 0 and proc.stdout.strip().endswith("ok"), f"db check: {proc.stdout}")
    proc = subprocess.run([ks_bench, "db", "export", "--db", db], capture_output=True, text=True)
    lines = [json.loads(l) for l in proc.stdout.splitlines() if l.strip()]
    check(len(lines) >= 20, f"db export: only {len(lines)} records")

    shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("ks-bench GPU tests: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
