"""Diagnostic of the mix_bf16x2 mismatch (bench/results/2026-12-03-h200-export-equivalence):
runs KernelSkill's lowered PTX, the same PTX with `neg.bf16` replaced by a sign-bit xor, and
nvcc's build of the source on a small input, with CuPy. Prepare here, run on the GPU machine:
  sed 's/neg.bf16 \t%rs4, %rs3;/xor.b16 \t%rs4, %rs3, 0x8000;/' .deps/equiv/half2_pairs.ptx \
      > .deps/half2_pairs.xorneg.ptx
  (device) python3 bench/frontend/diag_bf16_pairs.py
"""
import cupy as cp, numpy as np, subprocess, sys
def bf16(a):  # float32 -> bf16 bits (round to nearest even)
    u = np.asarray(a, np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
def f32(h): return (np.asarray(h, np.uint16).astype(np.uint32) << 16).view(np.float32)
subprocess.run(["nvcc", "-ptx", "-arch=sm_90", "-o", "/tmp/orig.ptx", "test/Frontend/corpus/half2_pairs.cu"], check=True)
x = np.array([1.0, 2.0, 0.5, -0.25], np.float32)
for label, path, name in (("ks", ".deps/equiv/half2_pairs.ptx", "mix_bf16x2"), ("ks-xor", ".deps/half2_pairs.xorneg.ptx", "mix_bf16x2"), ("nvcc", "/tmp/orig.ptx", None)):
    src = open(path).read()
    if name is None:
        import re; name = re.search(r"\.entry\s+(_Z\w*mix_bf16x2\w*)", src).group(1)
    k = cp.RawModule(code=src, backend="nvcc" if False else "nvrtc") if False else cp.RawModule(path=path)
    f = k.get_function(name)
    dx = cp.asarray(bf16(x)); dy = cp.zeros(4, cp.uint16); ds = cp.zeros(2, cp.float32)
    f((1,), (32,), (dx, dy, ds, np.float32(3.0), np.int32(2)))
    print(label, "y", f32(dy.get()), "sums", ds.get())
