"""Checks ks-perf-profiler's JSON for the measured naive GEMM (see the .mlir)."""
import json
import sys

kernel = json.load(open(sys.argv[1]))["kernels"][0]
comparisons = {c["metric"]: c for c in kernel["comparisons"]}
for metric in ("global_load_sectors_per_request", "global_store_sectors_per_request",
               "shared_load_bank_conflicts", "registers"):
    assert comparisons[metric]["agrees"], comparisons[metric]
assert kernel["resources"]["source"] == "ptxas", kernel["resources"]
assert kernel["measured_ms"] > 0
top = kernel["findings"][0]
assert top["evidence"] == "measured" and top["kind"] == "compute_bound", top
print("profiler agrees with the counters:", {m: (c["predicted"], c["measured"]) for m, c in comparisons.items()})
