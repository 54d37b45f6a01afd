#!/usr/bin/env python3
"""Run two CUDA C++ files that ks-translate --export-cuda wrote on the CPU and
compare their outputs: the reference (the lifted kernel, exported) and a
candidate (the same after raising and a schedule). Each file's host launcher
is called with the same seeded random inputs; outputs are poisoned first (NaN
for floats), so an element the candidate leaves unwritten fails.

  ks-emulate.py REF.cu CAND.cu --launcher NAME \\
      --params "A:f32[M*K]:in,B:f32[K*N]:in,C:f32[M*N]:out,M:i32,N:i32,K:i32" \\
      --workload M=130,N=67,K=33 [--tolerance 1e-5] [--seed 1]
  ks-emulate.py REF.cu CAND.cu --kernel NAME [--ref-kernel 'row_max<4>'] \\
      --grid "ceildiv(N,16),ceildiv(M,16)" --block 16,16 [--smem 1024] --params ... --workload ...

With --launcher both files' host launcher of that name is called; with --kernel
the kernel itself is launched with --grid/--block/--smem (expressions of the
workload's scalars), which compares a source file that has no launcher with
its export (--ref-kernel: the reference's C++ name, e.g. a template instance;
--cand-launcher NAME: the candidate is called through its host launcher NAME
instead, e.g. the one ks-synthesize-launchers wrote for a kernel without one).

--params lists the launcher's parameters in order (buffers TYPE[EXTENT]:ROLE
with an optional :LO..HI range of their random inputs, scalars TYPE); extents are Python expressions of the workload's scalars.
ROLE: in (random, must stay unchanged), out (poisoned, compared), inout
(random, compared), scratch (poisoned, neither compared nor checked: a
launcher's own intermediate, ks.scratch, which fusion may stop writing).
A buffer named @NAME is the files' __constant__ or __device__ variable NAME
(as for ks-bench): copied in before the launches and out after them.
The kernels run through tools/ks-emulate/include/ks_cuda_host.h (one std::thread
per CUDA thread, one block at a time), compiled with the host C++ compiler
(KS_CXX, default g++). Exit 0 when every output matches, 1 when one does not,
2 on bad input or a compile error.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CTYPES = {"f32": "float", "f64": "double", "i32": "int", "u32": "unsigned", "i64": "long long",
          "u64": "unsigned long long",
          "u8": "unsigned char", "i8": "signed char", "f16": "__half", "bf16": "__nv_bfloat16"}
FLOATS = ("f32", "f64", "f16", "bf16")


def parse_params(text):
    params = []
    for item in split_top(text):
        m = re.fullmatch(r"\s*(@?\w+):(\w+)(?:\[(.+)\])?(?::(in|out|inout|scratch))?"
                         r"(?::(-?[\d.]+)\.\.(-?[\d.]+))?\s*", item)
        if not m or m.group(2) not in CTYPES:
            raise SystemExit(f"ks-emulate: bad parameter '{item}'")
        name, ty, extent, role, lo, hi = m.groups()
        floating = ty in FLOATS
        if name.startswith("@") and not extent:
            raise SystemExit(f"ks-emulate: module variable '{item}' needs TYPE[EXTENT]")
        # ks-bench's default ranges: [-1, 1) for floats, [0, 16) for integers.
        params.append({"name": name, "type": ty, "extent": extent,
                       "role": role or ("in" if extent else None),
                       "lo": float(lo) if lo else (-1.0 if floating else 0.0),
                       "hi": float(hi) if hi else (1.0 if floating else 16.0)})
    return params


def split_top(text):
    """Splits on commas outside parentheses, brackets and braces."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def dynamic_shared(text):
    """extern __shared__ arrays as the block's buffer that ks_emu::launch sizes."""
    return re.sub(r"extern\s+__shared__\s+(?:__align__\(\d+\)\s+)?([\w:<> ]+?)\s+(\w+)\s*\[\s*\]\s*;",
                  r"\1 *\2 = reinterpret_cast<\1 *>(ks_emu::dynamic_shared());", text)


def host_cxx(text):
    """An exported file's text made host C++, launches aside: no includes, no
    C linkage (two variants share kernel names), dynamic shared memory."""
    text = re.sub(r"^#include.*$", "", text, flags=re.M)
    return dynamic_shared(text.replace('extern "C" ', ""))


def host_source(path):
    """The exported file as host C++ (host_cxx), launches as calls of
    ks_emu::launch."""
    def launch(m):
        dims = split_top(m.group(2))
        smem = dims[2] if len(dims) > 2 else "0"
        return (f"ks_emu::launch({m.group(1)}, dim3({dims[0]}), dim3({dims[1]}), {smem}"
                + (", " + m.group(3) if m.group(3).strip() else "") + ");")

    return re.sub(r"([\w:]+(?:<[^<>;]*>)?)<<<(.*?)>>>\((.*?)\);", launch,
                  host_cxx(open(path).read()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference")
    ap.add_argument("candidate")
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--launcher")
    how.add_argument("--kernel")
    ap.add_argument("--ref-kernel", help="the reference's name of --kernel (default: the same)")
    ap.add_argument("--cand-launcher",
                    help="with --kernel: call the candidate's host launcher of this name (one "
                         "ks-synthesize-launchers wrote) instead of launching its kernel")
    ap.add_argument("--grid", default="1")
    ap.add_argument("--block", default="1")
    ap.add_argument("--smem", default="0")
    ap.add_argument("--params", required=True)
    ap.add_argument("--workload", required=True)
    ap.add_argument("--tolerance", type=float, default=1e-5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write the generated program here")
    args = ap.parse_args()
    if args.cand_launcher and not args.kernel:
        ap.error("--cand-launcher goes with --kernel (with --launcher both files' launcher is called)")

    scalars = {}
    for item in args.workload.split(","):
        k, v = item.split("=")
        scalars[k.strip()] = v.strip()
    env = {k: eval(v, {}, dict((a, int(b) if b.lstrip("-").isdigit() else float(b))
                                 for a, b in scalars.items())) for k, v in scalars.items()}
    params = parse_params(args.params)
    lines = ['#include "ks_cuda_host.h"', "#include <algorithm>", "#include <cstdio>", "#include <cmath>",
             "#include <cstring>", ""]
    for ns, path in (("ref", args.reference), ("cand", args.candidate)):
        lines += [f"namespace {ns} {{", host_source(path), "}", ""]
    lines += ["static unsigned long long state;",
              "static double next() { state = state * 6364136223846793005ULL + 1442695040888963407ULL;"
              " return double(state >> 11) / 9007199254740992.0; }",
              "int main() {", "  int failed = 0;"]
    call_ref, call_cand = [], []
    copy_in, copy_out = [], []
    for i, p in enumerate(params):
        ct = CTYPES[p["type"]]
        if p["extent"] is None:
            if p["name"] not in env:
                raise SystemExit(f"ks-emulate: no value for scalar '{p['name']}' in --workload")
            lines.append(f"  {ct} s{i} = ({ct})({env[p['name']]});")
            call_ref.append(f"s{i}")
            call_cand.append(f"s{i}")
            continue
        n = int(eval(p["extent"], {"ceildiv": lambda a, b: -(-a // b)}, env))
        lines.append(f"  std::vector<{ct}> r{i}({n}), c{i}({n});")
        if p["role"] in ("in", "inout"):
            span = p["hi"] - p["lo"]
            if p["type"] in FLOATS:
                gen = f"({p['lo']!r} + next() * {span!r})"
            else:
                gen = f"(long long)std::floor({p['lo']!r} + next() * {span!r})"
            lines.append(f"  state = {args.seed * 1000 + i}ULL; for (auto &x : r{i}) {{ x = ({ct}){gen};"
                         + (" if (std::fabs((double)x) < 1e-3) x = 0.5;" if p["type"] in FLOATS else "")
                         + " }")
        if p["role"] in ("out", "scratch"):
            lines.append(f"  std::memset(r{i}.data(), 0xff, r{i}.size() * sizeof({ct}));")
        lines.append(f"  c{i} = r{i};")
        if p["name"].startswith("@"):
            # A module variable: &ref::taps is the array's (or scalar's) address.
            var = p["name"][1:]
            for ns, buf in (("ref", f"r{i}"), ("cand", f"c{i}")):
                size = f"std::min(sizeof({ns}::{var}), {buf}.size() * sizeof({ct}))"
                copy_in.append(f"  std::memcpy((void *)&{ns}::{var}, {buf}.data(), {size});")
                copy_out.append(f"  std::memcpy({buf}.data(), (const void *)&{ns}::{var}, {size});")
            continue
        call_ref.append(f"r{i}.data()")
        call_cand.append(f"c{i}.data()")
    lines += copy_in
    if args.launcher:
        lines.append(f"  ref::{args.launcher}({', '.join(call_ref)});")
        lines.append(f"  cand::{args.launcher}({', '.join(call_cand)});")
    else:
        def dims(text):
            values = [int(eval(e, {"ceildiv": lambda a, b: -(-a // b)}, env)) for e in split_top(text)]
            return "dim3(" + ", ".join(str(v) for v in values) + ")"
        smem = int(eval(args.smem, {"ceildiv": lambda a, b: -(-a // b)}, env))
        launch = f"{dims(args.grid)}, {dims(args.block)}, {smem}ULL"
        lines.append(f"  ks_emu::launch(ref::{args.ref_kernel or args.kernel}, {launch}, {', '.join(call_ref)});")
        if args.cand_launcher:
            # Through ks_emu::call: the launcher may type a buffer as the
            # kernel does (__half2 *) where --params says f16[2 * n].
            lines.append(f"  ks_emu::call(cand::{args.cand_launcher}{''.join(', ' + a for a in call_cand)});")
        else:
            lines.append(f"  ks_emu::launch(cand::{args.kernel}, {launch}, {', '.join(call_cand)});")
    lines += copy_out
    for i, p in enumerate(params):
        # scratch: a buffer only the kernels see (a launcher's own
        # intermediate, ks.scratch), poisoned like an output; a fused
        # launcher may stop writing it, so it is neither compared nor
        # checked.
        if p["role"] == "scratch":
            continue
        if p["extent"] is None or p["role"] == "in":
            if p["extent"] is not None:
                lines.append(f"  if (r{i} != c{i}) {{ std::printf(\"{p['name']}: an input buffer was written\\n\"); failed = 1; }}")
            continue
        lines += [
            "  {",
            "    double num = 0, den = 0; long long bad = 0, unwritten = 0;",
            f"    for (size_t j = 0; j < r{i}.size(); ++j) {{",
            f"      double a = (double)r{i}[j], b = (double)c{i}[j];",
            "      if (std::isnan(a)) continue;",
            "      if (std::isnan(b)) { ++unwritten; continue; }",
            "      if (!std::isfinite(b) && std::isfinite(a)) ++bad;",
            "      num += (a - b) * (a - b); den += a * a;",
            "    }",
            "    double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);",
            f"    bool ok = unwritten == 0 && bad == 0 && rel <= {args.tolerance};",
            f"    std::printf(\"{p['name']}: rel_l2 %.3g, unwritten %lld, non-finite %lld: %s\\n\", rel, unwritten, bad, ok ? \"match\" : \"MISMATCH\");",
            "    failed |= !ok;",
            "  }"]
    lines += ["  return failed;", "}"]
    program = "\n".join(lines) + "\n"
    work = tempfile.mkdtemp(prefix="ks-emulate-")
    src = args.keep or os.path.join(work, "main.cpp")
    open(src, "w").write(program)
    exe = os.path.join(work, "main")
    cxx = os.environ.get("KS_CXX", "g++")
    compile_cmd = [cxx, "-std=c++20", "-O1", "-pthread", "-w", "-I", os.path.join(HERE, "include"),
                   src, "-o", exe]
    proc = subprocess.run(compile_cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        print(f"ks-emulate: the program does not compile ({src})")
        return 2
    run = subprocess.run([exe], capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
