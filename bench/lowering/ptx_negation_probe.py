"""Which PTX half-precision negations compute the right result on this GPU?

ks-patch-ptx rewrites `neg.bf16`/`neg.bf16x2` as sign-bit xors because the
H200 gave +b for `neg.bf16` in a lowered kernel (docs/Frontend.md). This probe
runs the pattern of that kernel (a bf16 pair {b, -b} built with neg.bf16 and
added with add.bf16x2), with neg.bf16 and with the xor, and each negation
(and abs) on its own, through the driver's PTX compiler
(CuPy RawModule, as ks-bench loads PTX) and through ptxas, on values of both
signs, zeros, infinities and NaN, and compares the bits with the exact answer
(the sign bit flipped, or cleared for abs). Run on the GPU machine:
  python3 bench/lowering/ptx_negation_probe.py
"""
import os, subprocess, sys, tempfile
import cupy as cp
import numpy as np

# (name, instruction, bits per lane, lanes per register, sign mask op)
CASES = [
    ("neg.bf16",   "neg.bf16",   16, 1, "neg"),
    ("neg.bf16x2", "neg.bf16x2", 16, 2, "neg"),
    ("neg.f16",    "neg.f16",    16, 1, "neg"),
    ("neg.f16x2",  "neg.f16x2",  16, 2, "neg"),
    ("abs.bf16",   "abs.bf16",   16, 1, "abs"),
    ("abs.bf16x2", "abs.bf16x2", 16, 2, "abs"),
]

def kernel(name, instr, lanes):
    reg, width = ("%rs", "b16") if lanes == 1 else ("%r", "b32")
    decl = ".reg .b16 %rs<3>;" if lanes == 1 else ".reg .b32 %r<3>;"
    return f"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 in, .param .u64 out, .param .u32 n)
{{
  .reg .pred %p<2>; {decl} .reg .b32 %t<4>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u32 %t1, [n];
  mov.u32 %t2, %tid.x; setp.ge.u32 %p1, %t2, %t1; @%p1 bra DONE;
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %t2, {2 * lanes}; add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;
  ld.global.{width} {reg}1, [%rd4];
  {instr} {reg}2, {reg}1;
  st.global.{width} [%rd5], {reg}2;
DONE:
  ret;
}}
"""

# bf16 and f16 bit patterns: +-1, +-2.5, +-0, +-inf, a NaN, tiny (subnormal).
BF16 = [0x3F80, 0xBF80, 0x4020, 0xC020, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x0001]
F16 = [0x3C00, 0xBC00, 0x4100, 0xC100, 0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001]

def expected(bits, op):
    return bits ^ 0x8000 if op == "neg" else bits & 0x7FFF

def load(src, how):
    """The kernel `probe`, compiled by the driver's JIT (as ks-bench and CuPy
    load PTX) or by ptxas (as ks-assemble-ptx does)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(src)
    if how == "driver":
        return cp.RawModule(path=f.name).get_function("probe")
    subprocess.run(["ptxas", "-arch=sm_90", "-o", f.name + ".cubin", f.name], check=True)
    return cp.RawModule(path=f.name + ".cubin").get_function("probe")

def bf16_to_float(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)

# The failing kernel's pattern: y = x + {b, -b} on bf16 pairs.
PAIR = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry probe(.param .u64 x, .param .u64 y, .param .f32 b)
{
  .reg .b16 %rs<5>; .reg .b32 %r<10>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y]; ld.param.b32 %r2, [b];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;
  ld.global.b32 %r7, [%rd1];
  cvt.rn.bf16.f32 %rs3, %r2;
  NEGATE
  mov.b32 %r8, {%rs3, %rs4};
  add.bf16x2 %r9, %r8, %r7;
  st.global.b32 [%rd2], %r9;
  ret;
}
"""
failures = 0
for negate in ("neg.bf16 %rs4, %rs3;", "xor.b16 %rs4, %rs3, 0x8000;"):
    for how in ("driver", "ptxas"):
        fn = load(PAIR.replace("NEGATE", negate), how)
        d_x = cp.asarray(np.array([0x3F80, 0x4000], np.uint16))  # (1, 2)
        d_y = cp.zeros(2, cp.uint16)
        fn((1,), (1,), (d_x, d_y, np.float32(3.0)))
        got = bf16_to_float(d_y.get())
        ok = list(got) == [4.0, -1.0]
        failures += not ok
        print(f"pair x + {{b, -b}} with {negate.split()[0]:8s} {how:6s} {'ok' if ok else 'WRONG'}: "
              f"(1, 2) + {{3, -3}} = {tuple(float(v) for v in got)}, want (4.0, -1.0)")

for name, instr, _, lanes, op in CASES:
    values = np.array(F16 if "f16" in name and "bf16" not in name else BF16, np.uint16)
    n = len(values) // lanes
    src = kernel(name, instr, lanes)
    results = {}
    d_in = cp.asarray(values)
    for how in ("driver", "ptxas"):
        fn = load(src, how)
        d_out = cp.full(len(values), 0xDEAD, cp.uint16)
        fn((1,), (32,), (d_in, d_out, np.uint32(n)))
        results[how] = d_out.get()
    want = np.array([expected(int(v), op) for v in values], np.uint16)
    for how, got in results.items():
        # PTX leaves the NaN a NaN input gives unspecified: any NaN will do.
        inf = 0x7F80 if "bf16" in name else 0x7C00
        is_nan = lambda b: (int(b) & 0x7FFF) > inf
        ok = all(g == w or (is_nan(v) and is_nan(g)) for v, g, w in zip(values, got, want))
        failures += not ok
        print(f"{name:12s} {how:6s} {'ok' if ok else 'WRONG'}  in {[hex(v) for v in values]}\n"
              f"{'':20s}got {[hex(g) for g in got]}\n{'':20s}want {[hex(w) for w in want]}")
print("failures:", failures)
