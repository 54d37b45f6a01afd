#!/usr/bin/env python3
"""PyTorch's ops for the memory-bound benchmarks, in fp32 on the same shapes
(bench/memory/cases.py): x.sum(1), x.amax(1), softmax(x, 1), layer_norm with
weight and bias, rms_norm with weight, softmax on rows of 65536 and 16384; x.t().contiguous() (16384²) and
x.sum(0) (16384×4096); torch.bincount of 256 MiB of bytes. Each timed with CUDA events, median of
50 after 10 warm-ups, L2 flushed before each; GB/s for the bytes the op must
move (read x once, write the result once), as ks-bench counts ours.

  torch_ops.py [--json FILE]
"""
import json
import sys

import torch
import torch.nn.functional as F


def timed(fn):
    flush = torch.empty(2 * 60 * 1024 * 1024, dtype=torch.uint8, device="cuda")
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for i in range(50):
        flush.fill_(i & 0xFF)
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


results = []
for rows, cols in ((16384, 4096), (65536, 1024)):
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    w = torch.rand(cols, device="cuda")
    b = torch.rand(cols, device="cuda")
    ops = {
        "sum": (lambda: x.sum(1), 4 * (rows * cols + rows)),
        "amax": (lambda: x.amax(1), 4 * (rows * cols + rows)),
        "softmax": (lambda: torch.softmax(x, 1), 8 * rows * cols),
        "layer_norm": (lambda: F.layer_norm(x, (cols,), w, b, 1e-5), 8 * rows * cols + 8 * cols),
        "rms_norm": (lambda: F.rms_norm(x, (cols,), w, 1e-5), 8 * rows * cols + 4 * cols),
    }
    for op, (fn, nbytes) in ops.items():
        ms = timed(fn)
        results.append(dict(op=op, workload=f"rows={rows},cols={cols}", median_ms=ms,
                            gbps=nbytes / (ms * 1e-3) / 1e9, torch=torch.__version__,
                            device=torch.cuda.get_device_name()))
        print(json.dumps(results[-1]), flush=True)
# Softmax on long rows (bench/memory/cases.py LONG).
for rows, cols in ((1024, 65536), (4096, 16384)):
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    ms = timed(lambda: torch.softmax(x, 1))
    results.append(dict(op="softmax", workload=f"rows={rows},cols={cols}", median_ms=ms,
                        gbps=8 * rows * cols / (ms * 1e-3) / 1e9, torch=torch.__version__,
                        device=torch.cuda.get_device_name()))
    print(json.dumps(results[-1]), flush=True)
    del x
# The transpose, column sum (same call).
for (rows, cols), op, fn_of, nbytes in (
        ((16384, 16384), "t().contiguous()", lambda x: (lambda: x.t().contiguous()), 8 * 16384 * 16384),
        ((16384, 4096), "sum(0)", lambda x: (lambda: x.sum(0)), 4 * (16384 * 4096 + 4096))):
    x = torch.rand(rows, cols, device="cuda")
    ms = timed(fn_of(x))
    results.append(dict(op=op, workload=f"rows={rows},cols={cols}", median_ms=ms,
                        gbps=nbytes / (ms * 1e-3) / 1e9, torch=torch.__version__,
                        device=torch.cuda.get_device_name()))
    print(json.dumps(results[-1]), flush=True)
    del x
# The histogram: 256 MiB of bytes into 256 bins; skewed: every byte 0 or 1.
for values, op in ((256, "bincount"), (2, "bincount (bytes 0..1)")):
    x = torch.randint(0, values, (256 * 1024 * 1024,), dtype=torch.uint8, device="cuda")
    ms = timed(lambda: torch.bincount(x, minlength=256))
    results.append(dict(op=op, workload="n=268435456", median_ms=ms,
                        gbps=x.numel() / (ms * 1e-3) / 1e9, torch=torch.__version__,
                        device=torch.cuda.get_device_name()))
    print(json.dumps(results[-1]), flush=True)
if "--json" in sys.argv:
    json.dump(results, open(sys.argv[sys.argv.index("--json") + 1], "w"), indent=1)
