#!/usr/bin/env python3
"""A stand-in for `ptxas -v --gpu-name=CHIP FILE.ptx -o FILE.cubin` (the
driver's call, lib/Target/PTXAS.cpp) for tests that need ptxas to spill where
the real one does not, or on a machine without it. It writes a placeholder
cubin and, for every .entry of the PTX, the report lines the driver parses
(lib/Analysis/PtxasReport.cpp): 32 registers and no spill, or, when the PTX
matches the regular expression FAKE_PTXAS_SPILL, 40 registers and 8 bytes
of spill stores and loads. FAKE_PTXAS_SLEEP makes each call take that many
seconds."""
import os
import re
import sys
import time

# FAKE_PTXAS_SLEEP: seconds each call takes (a slow compile, for the
# driver's search-seconds=).
time.sleep(float(os.environ.get("FAKE_PTXAS_SLEEP", "0")))
args = sys.argv[1:]
ptx_file = next(a for a in args if a.endswith(".ptx"))
cubin = args[args.index("-o") + 1]
chip = next((a.split("=", 1)[1] for a in args if a.startswith("--gpu-name=")), "sm_90")
ptx = open(ptx_file).read()
spill_if = os.environ.get("FAKE_PTXAS_SPILL")
spills = bool(spill_if) and re.search(spill_if, ptx) is not None
registers, spill = (40, 8) if spills else (32, 0)
for entry in re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", ptx):
    print(f"ptxas info    : Compiling entry function '{entry}' for '{chip}'")
    print(f"ptxas info    : Function properties for {entry}")
    print(f"    {spill} bytes stack frame, {spill} bytes spill stores, {spill} bytes spill loads")
    print(f"ptxas info    : Used {registers} registers, used 0 barriers")
with open(cubin, "wb") as out:
    out.write(b"fake cubin\n")
