#!/usr/bin/env python3
"""The cuDNN baseline for the 3x3 convolution benchmark: PyTorch's conv2d in
fp32 with TF32 off (cuDNN's fp32 kernels), NCHW, valid padding, stride 1, the
same shape as bench/contraction/conv2d_nchw.cu's benchmark workload, timed
with CUDA events (median of 50 after 10 warm-ups, L2 flushed before each).

  torch_conv.py [batch C H W K] [--json FILE]
"""
import json
import sys

import torch

argv = sys.argv[1:]
out = None
if "--json" in argv:
    at = argv.index("--json")
    out = argv[at + 1]
    del argv[at:at + 2]
batch, C, H, W, K = (int(a) for a in (argv or [8, 64, 128, 128, 64]))
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.benchmark = True
x = torch.rand(batch, C, H, W, device="cuda") * 2 - 1
w = torch.rand(K, C, 3, 3, device="cuda") * 2 - 1
flush = torch.empty(2 * 60 * 1024 * 1024, dtype=torch.uint8, device="cuda")
for _ in range(10):
    y = torch.nn.functional.conv2d(x, w)
torch.cuda.synchronize()
times = []
for i in range(50):
    flush.fill_(i & 0xFF)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    y = torch.nn.functional.conv2d(x, w)
    stop.record()
    torch.cuda.synchronize()
    times.append(start.elapsed_time(stop))
times.sort()
median = times[len(times) // 2]
flops = 2 * batch * K * (H - 2) * (W - 2) * C * 9
result = {"name": "cudnn_fp32", "workload": dict(batch=batch, C=C, H=H, W=W, K=K),
          "median_ms": median, "tflops": flops / (median * 1e-3) / 1e12,
          "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
          "tf32": False, "device": torch.cuda.get_device_name()}
print(json.dumps(result))
if out:
    json.dump(result, open(out, "w"), indent=1)
