"""Prints a driver transcript's search order and agents, then each
candidate's changed knobs and status (driver-search-order.test)."""
import json
import sys

doc = json.load(open(sys.argv[1]))
print("search", doc.get("search"))
if "agents" in doc:
    print("agents", ",".join(doc["agents"]))
for kernel in doc["kernels"]:
    for c in kernel["candidates"]:
        print("candidate", c["changed_knobs"], c["status"].split(":")[0])
