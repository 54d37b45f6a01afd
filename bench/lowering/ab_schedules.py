#!/usr/bin/env python3
"""Two lowerings of every hand schedule, side by side: which schedules does a
change to the lowering (a pass of --kernelskill-lower) touch, and is each
faster or slower? The hand schedules are bench/memory's and
bench/contraction's (their CASES); each is lifted, raised and scheduled once,
then lowered by an OLD and a NEW ks-opt. Only the cases whose PTX differs are
kept; on the GPU machine ks-bench runs naive, old and new in one process per
size (verified at the case's first odd GPU size, timed at its benchmark sizes
with its baseline), so the two lowerings share the run's conditions.

  ab_schedules.py prepare OLD_KS_OPT NEW_KS_OPT KS_TRANSLATE OUT   here
  ab_schedules.py measure KS_BENCH OUT RESULTS [REPS]              on the GPU machine
  ab_schedules.py report RESULTS_LOG                               new / old per case

OLD_KS_OPT: a copy of build/bin/ks-opt before the change (cp it aside, then
rebuild). Used for the 32-bit loop offsets of 2026-12-05
(bench/results/2026-12-05-colsum-offsets).
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(BENCH, "contraction"))
import cases as contraction  # noqa: E402


def memory_cases():
    import importlib.util
    spec = importlib.util.spec_from_file_location("memory_cases",
                                                  os.path.join(BENCH, "memory", "cases.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


def prepare(old, new, ks_translate, out):
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    run = contraction.run
    changed = []
    for here, cases in ((os.path.join(BENCH, "memory"), memory_cases()),
                        (os.path.join(BENCH, "contraction"), contraction.CASES)):
        for case in cases:
            if not case.get("schedule"):
                continue
            name = case["name"]
            b = os.path.join(work, name)
            run([ks_translate, "--import-cuda", os.path.join(here, case["source"]), "-o",
                 b + ".lifted.mlir"])
            run([new, b + ".lifted.mlir", "--ks-raise", "-o", b + ".raised.mlir"])
            run([new, b + ".raised.mlir", "--transform-preload-library=transform-library-paths=" +
                 os.path.join(here, "schedules", case["schedule"]), "--transform-interpreter",
                 "--canonicalize", "--cse", "-o", b + ".ours.mlir"])
            for tag, ks_opt in (("old", old), ("new", new)):
                run([ks_opt, b + ".ours.mlir", f"--kernelskill-lower=ptx={b}.{tag}.ptx", "-o",
                     os.devnull])
            same = open(b + ".old.ptx").read() == open(b + ".new.ptx").read()
            print(f"{name}: {'same PTX' if same else 'changed'}", flush=True)
            if same:
                continue
            run([new, b + ".lifted.mlir", f"--kernelskill-lower=ptx={b}.lifted.ptx", "-o",
                 os.devnull])
            run([ks_translate, "--export-cuda", b + ".lifted.mlir", "-o", b + ".lifted.cu",
                 "--manifest", b + ".lifted.json"])
            run([ks_translate, "--export-cuda", b + ".ours.mlir", "-o", b + ".ours.cu",
                 "--manifest", b + ".ours.json"])
            for suffix in ("lifted.ptx", "lifted.json", "old.ptx", "new.ptx", "ours.json"):
                shutil.copy(f"{b}.{suffix}", os.path.join(out, f"{name}.{suffix}"))
            changed.append(case)
    shutil.rmtree(work)
    json.dump(changed, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"{len(changed)} cases changed")


def measure(ks_bench, out, results, reps=2):
    os.makedirs(results, exist_ok=True)
    status = 0
    for case in json.load(open(os.path.join(out, "cases.json"))):
        name = case["name"]
        b = os.path.join(out, name)
        launches = json.load(open(b + ".lifted.json"))
        naive = launches[0] if isinstance(launches, list) else launches
        common = [ks_bench, f"naive={b}.lifted.ptx@{naive['kernel']}",
                  f"old={b}.old.ptx@{naive['kernel']}", f"new={b}.new.ptx@{naive['kernel']}",
                  "--params", case["params"], "--grid", ",".join(naive["grid"]),
                  "--block", ",".join(naive["block"]), "--launches", f"old={b}.ours.json",
                  "--launches", f"new={b}.ours.json", "--no-db"]
        if isinstance(launches, list) and len(launches) > 1:
            common += ["--launches", f"naive={b}.lifted.json"]
        odd = case["gpu_odd"][0]
        proc = subprocess.run(common + ["--workload", odd, "--reps", "3", "--warmup", "1",
                                        "--no-counters"], capture_output=True, text=True)
        print(f"== {name} odd [{odd}] rc={proc.returncode}\n{proc.stdout[-1500:]}{proc.stderr[-500:]}",
              flush=True)
        status |= proc.returncode != 0
        for i, w in enumerate(case["bench"]):
            for r in range(reps):
                json_path = os.path.join(results, f"{name}.bench{i}.rep{r}.json")
                proc = subprocess.run(common + contraction.bench_args(case, w, json_path),
                                      capture_output=True, text=True)
                print(f"== {name} [{w}] rep {r} rc={proc.returncode}\n{proc.stdout[-2500:]}"
                      f"{proc.stderr[-500:]}", flush=True)
                status |= proc.returncode != 0
    return status


def report(log):
    """new / old per case and size: the medians of the reps' medians."""
    times = {}
    for block in re.split(r"^== ", open(log).read(), flags=re.M)[1:]:
        head = block.splitlines()[0]
        m = re.match(r"(\S+) \[(.*?)\] rep", head)
        if not m:
            continue
        for line in block.splitlines()[1:]:
            f = line.split()
            if len(f) > 2 and f[0] in ("old", "new") and f[1] == "pass":
                times.setdefault((m.group(1), m.group(2)), {}).setdefault(f[0], []).append(
                    float(f[2]))
    print("| case | workload | old ms | new ms | new / old |\n|---|---|---|---|---|")
    for (name, w), t in times.items():
        old, new = sorted(t.get("old", [0]))[len(t.get("old", [0])) // 2], \
            sorted(t.get("new", [0]))[len(t.get("new", [0])) // 2]
        ratio = f"{new / old:.3f}" if old and new else "-"
        print(f"| {name} | {w} | {old:.4f} | {new:.4f} | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "prepare":
        prepare(*sys.argv[2:6])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "measure":
        sys.exit(measure(sys.argv[2], sys.argv[3], sys.argv[4],
                         int(sys.argv[5]) if len(sys.argv) == 6 else 2))
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
