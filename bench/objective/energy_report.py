#!/usr/bin/env python3
"""objective=energy on the GPU (scripts/gpu-bench.sh energy): from the
transcripts of the measured searches, per case, the original, the fastest
finalist (the latency objective's pick among them) and the candidate chosen
for its energy, each with its median time and energy per launch, all read in
the same ks-bench run (the decision's: ks-bench --energy).

usage: energy_report.py RESULTS_DIR   (the ab step's folder, e.g. energy-energy)
"""
import glob
import json
import os
import sys


def row(name, d):
    cands = [c for c in d.get("candidates", []) if "measured_energy_mj" in c]
    before_ms, before_mj = d.get("measured_before_ms"), d.get("measured_before_energy_mj")
    if not cands or not before_mj:
        return f"| {name} | - | - | - | no energy readings: {d.get('decision', '')[:120]} |"
    fastest = min(cands, key=lambda c: c["measured_ms"])
    chosen = d["candidates"][d["chosen"]] if d.get("chosen") is not None and d["chosen"] >= 0 \
        else None
    def cell(c):
        return f"{c['measured_ms']:.4f} ms, {c['measured_energy_mj']:.3f} mJ"
    picked = cell(chosen) if chosen and "measured_energy_mj" in chosen else "the original"
    saving = (f"{fastest['measured_energy_mj'] / chosen['measured_energy_mj']:.3f}"
              if chosen and "measured_energy_mj" in chosen else "-")
    return (f"| {name} | {before_ms:.4f} ms, {before_mj:.3f} mJ | {cell(fastest)} | {picked} | "
            f"{saving} |")


def main(results):
    rows = ["| case | original | fastest finalist (latency's pick) | chosen for energy | "
            "fastest's energy / chosen's |", "|---|---|---|---|---|"]
    for path in sorted(glob.glob(os.path.join(results, "*", "*.transcript.json"))):
        name = os.path.basename(path)[: -len(".transcript.json")]
        for d in json.load(open(path))["kernels"]:
            rows.append(row(name, d))
    print("\n".join(rows))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
