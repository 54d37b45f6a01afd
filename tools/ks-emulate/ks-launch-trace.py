#!/usr/bin/env python3
"""Check on the CPU that the launchers ks-translate lifts out of a whole CUDA
program launch what the program launches: the same kernels, in the same
order, with the same grid, block, dynamic shared memory and arguments
(issue 13: "the lifted launchers give the same grid and arguments as the
original at run time").

  ks-launch-trace.py KS_TRANSLATE PROGRAM.cu [--args "ARGV..."] [--driver MAIN.cpp]
                     [--lifted FILE.mlir] [--keep DIR] [-- CLANG FLAGS]

A file without main (a library of kernels and host wrappers) is run with
--driver: a C++ file compiled after it that defines main (and whatever the
library declares but does not define). --lifted compares with a module lifted
before (tests give a wrong one to see the check fail).

1. The program is lifted (ks-translate --import-cuda, with the flags).
2. The program itself, all its host code, is compiled as host C++ with
   tools/ks-emulate/include/ks_launch_trace.h (a fake CUDA runtime: device
   memory is host memory; launches are recorded, not run) and run with ARGV.
   Each host function that became a launcher records when it is entered and
   left, and at each launch the values of the launcher parameters the launch
   depends on (their C++ spelling there, from the lifted IR's ks.name and
   locations).
3. The lifted module is exported (--export-cuda), compiled the same way, and
   each recorded call of a host function is replayed by calling its lifted
   launcher with the recorded parameter values and the same buffers.
4. The two launch sequences must be equal, call by call. A template's
   instantiations share one source function: a call matches when one of its
   instantiations' launchers reproduces it.

Kernels never run, so host code that reads results back sees zeros; its
checks may fail and its exit status is ignored. Prints one line per call
of a launcher and a summary; exit 0 when all match, 1 when one does not, 2
when the program cannot be traced (no main, does not compile).
"""
import argparse
import collections
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.join(HERE, "include")
_spec = importlib.util.spec_from_file_location("ks_emulate", os.path.join(HERE, "ks-emulate.py"))
ks_emulate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ks_emulate)
split_top = ks_emulate.split_top


# --- The lifted IR (text) ---------------------------------------------------

def balanced(text, start):
    """Index just past the parenthesis group opening at text[start]."""
    depth, i, quoted = 0, start, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


class Locations:
    """The module's `#locN = loc(...)` aliases, resolved to file:line:col."""

    def __init__(self, text):
        self.alias = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)\s*$", text, re.M))

    def site(self, loc):
        """(file, line, col) of the first file location in `loc`."""
        for _ in range(64):
            m = re.search(r'"([^"]+)":(\d+):(\d+)', loc)
            if m:
                return m.group(1), int(m.group(2)), int(m.group(3))
            m = re.search(r"(#loc\d*)", loc)
            if not m or m.group(1) not in self.alias:
                return None
            loc = self.alias[m.group(1)]
        return None

    def name(self, loc):
        """The name of a NameLoc (`"n"(...)`), through aliases, else None."""
        for _ in range(64):
            m = re.fullmatch(r'\s*"([^"]*)"\((.*)\)\s*', loc)
            if m:
                return m.group(1)
            m = re.fullmatch(r"\s*(#loc\d*)\s*", loc)
            if not m or m.group(1) not in self.alias:
                return None
            loc = self.alias[m.group(1)]
        return None


def parse_launchers(text):
    """The host launchers of a lifted module: name, the source site of the
    host function, parameters (name, spelling, MLIR type) and launch sites
    (file, line, col, indices of the parameters each launch depends on,
    through its operands and the loops and ifs around it)."""
    locs = Locations(text)
    launchers = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"  func\.func @([\w$.]+)\(", line)
        if not m:
            i += 1
            continue
        name = m.group(1)
        close = balanced(line, m.end() - 1)
        params = []
        for pm in re.finditer(r"%arg(\d+): ", line[:close]):
            rest = line[pm.end():close]
            ty = re.match(r"[^ {,)]+(?:<[^>]*>)?", rest).group(0)
            attrs = re.match(r"[^{]*?(\{[^}]*\})", rest)
            ks_name = re.search(r'ks\.name = "([^"]*)"', attrs.group(1)) if attrs else None
            lm = re.search(r"loc\(", rest)
            loc = rest[lm.end():balanced(rest, lm.end() - 1) - 1] if lm else ""
            nm = ks_name.group(1) if ks_name else f"arg{pm.group(1)}"
            params.append({"index": int(pm.group(1)), "name": nm, "type": ty,
                           "spelling": locs.name(loc) or nm})
        deps = {f"%arg{p['index']}": {p["index"]} for p in params}
        enclosing = [set()]  # deps of the region ops around the current line
        sites = []
        i += 1
        while i < len(lines) and not lines[i].startswith("  } loc("):
            body = lines[i]
            code = re.sub(r"\s*loc\(.*\)\s*\{?\s*$", "", body)
            lhs, _, rhs = code.partition(" = ") if re.match(r"\s*%", code) else ("", "", code)
            used = set()
            for v in re.findall(r"%[\w#]+", rhs):
                used |= deps.get(v.split("#")[0], set())
            here = used | enclosing[-1]
            for v in re.findall(r"%[\w]+", lhs):
                deps[v] = here
            # Block arguments of region ops (induction variables, iter_args).
            for v in re.findall(r"(%[\w]+)(?: =|:)", rhs):
                deps.setdefault(v, here)
            if "gpu.launch_func" in body:
                lm = re.search(r"loc\((.*)\)\s*$", body)
                site = locs.site(lm.group(1)) if lm else None
                kernel = re.search(r"@\w+::@(\w+)", body).group(1)
                if site:
                    sites.append({"site": site, "kernel": kernel, "params": sorted(here)})
            # Regions: `scf.for ... {` opens one, `}` closes it, `} else {`
            # goes on with the same op.
            closes, opens = body.lstrip().startswith("}"), body.rstrip().endswith("{")
            if closes and not opens and len(enclosing) > 1:
                enclosing.pop()
            elif opens and not closes:
                enclosing.append(here)
            i += 1
        end = lines[i] if i < len(lines) else ""
        lm = re.search(r"loc\((.*)\)\s*$", end)
        site = locs.site(lm.group(1)) if lm else None
        if sites and site:
            launchers.append({"name": name, "site": site, "params": params, "launches": sites})
        i += 1
    return launchers


# --- Host C++ from CUDA sources ----------------------------------------------

def find_launches(text):
    """(start, end, kernel, config, args) of each kernel<<<config>>>(args);"""
    out = []
    pos = 0
    while True:
        at = text.find("<<<", pos)
        if at < 0:
            return out
        # The kernel expression: an identifier with :: and template arguments.
        j, depth = at, 0
        while j > 0:
            c = text[j - 1]
            if c == ">":
                depth += 1
            elif c == "<" and depth:
                depth -= 1
            elif not (c.isalnum() or c in "_:" or depth):
                break
            j -= 1
        close = text.find(">>>", at)
        paren = text.find("(", close)
        end = balanced(text, paren)
        out.append((j, end, text[j:at].strip(), text[at + 3:close], text[paren + 1:end - 1]))
        pos = end


def same_kernel(source_name, lifted_name):
    """Whether the lifted kernel is the source's: its name, or the name with
    the template arguments appended (`blockSum` -> `blockSum_float_256`)."""
    return lifted_name == source_name or lifted_name.startswith(source_name + "_")


def base_name(kernel):
    """`vecops::sumBlocks<BLOCK>` -> `sumBlocks`."""
    return re.sub(r"<.*", "", kernel).split("::")[-1].strip()


def trace_launch(kernel, config, args, probes=""):
    dims = split_top(config)
    smem = dims[2] if len(dims) > 2 else "0"
    call = (f'ks_trace::launch("{base_name(kernel)}", {kernel}, dim3({dims[0]}), dim3({dims[1]}), '
            f"{smem}" + (", " + args if args.strip() else "") + ")")
    return f"({probes}{call})" if probes else call


def line_col(text, offset):
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def instrument(text, path, launchers):
    """The original source with its launches recorded, the parameters each
    depends on probed there, and a scope in each launching host function."""
    real = os.path.realpath(path)
    same = lambda f: os.path.realpath(f) == real
    sites = {}
    for li, l in enumerate(launchers):
        for launch in l["launches"]:
            f, line, col = launch["site"]
            if same(f):
                sites.setdefault(line, []).append((li, launch))
    edits = []  # (start, end, replacement)
    for start, end, kernel, config, args in find_launches(text):
        line, _ = line_col(text, start)
        probes = ""
        seen = set()
        for li, launch in sites.get(line, []):
            if not same_kernel(base_name(kernel), launch["kernel"]):
                continue
            for index in launch["params"]:
                p = next(p for p in launchers[li]["params"] if p["index"] == index)
                key = f'{index}:{p["spelling"]}'
                if key in seen:
                    continue
                seen.add(key)
                probes += f'ks_trace::param("{key}", {p["spelling"]}), '
        edits.append((start, end, trace_launch(kernel, config, args, probes)))
    scoped = set()
    for l in launchers:
        f, line, col = l["site"]
        if not same(f) or (line, col) in scoped:
            continue
        scoped.add((line, col))
        offset = sum(len(s) + 1 for s in text.split("\n")[:line - 1]) + col - 1
        # The body's brace: the first `{` after the parameter list.
        paren = text.find("(", offset)
        brace = text.find("{", balanced(text, paren))
        site = f"{os.path.basename(f)}:{line}"
        edits.append((brace + 1, brace + 1, f' ks_trace::Scope ks_trace_scope_("{site}");'))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return ks_emulate.dynamic_shared(text)


def exported_host(text):
    """The exported CUDA as host C++ in namespace `lifted`, launches recorded."""
    text = ks_emulate.host_cxx(text)
    for start, end, kernel, config, args in reversed(find_launches(text)):
        text = text[:start] + trace_launch(kernel, config, args) + text[end:]
    return "namespace lifted {\n" + text + "\n} // namespace lifted\n"


# --- Traces -------------------------------------------------------------------

def parse_trace(output):
    """Calls of launching host functions: [{site, params: {key: [values]},
    launches: [text]}], and the allocations {id: bytes}."""
    calls, stack, allocs = [], [], {}
    for line in output.split("\n"):
        if not line.startswith("@ks "):
            continue
        kind, _, rest = line[4:].partition(" ")
        if kind == "alloc":
            i, b = rest.split()
            allocs[int(i)] = int(b)
        elif kind == "scope":
            stack.append({"site": rest, "params": collections.OrderedDict(), "launches": []})
            calls.append(stack[-1])
        elif kind == "end" and stack:
            stack.pop()
        elif kind == "param" and stack:
            key, _, value = rest.partition(" ")
            values = stack[-1]["params"].setdefault(key, [])
            if value not in values:
                values.append(value)
        elif kind == "launch" and stack:
            stack[-1]["launches"].append(rest)
    return calls, allocs


def same_launch(original, lifted):
    """Equal launches; the lifted kernel may carry its template arguments in
    its name (`blockSum` is launched as `blockSum_float_256`)."""
    name, _, rest = original.partition(" ")
    lname, _, lrest = lifted.partition(" ")
    return rest == lrest and same_kernel(name, lname)


def arg_literal(value):
    m = re.fullmatch(r"buf(\d+)\+(\d+)", value)
    if m:
        return f"ks_trace::Arg{{0, {m.group(1)}, {m.group(2)}}}"
    if value in ("null", "host", "?"):
        return "ks_trace::Arg{}"
    if value.lstrip("-") in ("inf", "nan"):  # %.17g's spellings
        return f"ks_trace::Arg{{{'-' if value[0] == '-' else ''}{'INFINITY' if 'inf' in value else 'NAN'}}}"
    return f"ks_trace::Arg{{{value}L}}"


def compile_and_run(source, work, name, flags, argv=()):
    src = os.path.join(work, name + ".cpp")
    exe = os.path.join(work, name)
    open(src, "w").write(source)
    cxx = os.environ.get("KS_CXX", "g++")
    cmd = [cxx, "-std=c++20", "-O0", "-w", "-pthread", "-I", INCLUDE, "-include",
           "ks_launch_trace.h"] + flags + [src, "-o", exe]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr[-3000:]
    run = subprocess.run([exe] + list(argv), capture_output=True, text=True, timeout=300)
    return run.stdout, run.stderr


def host_flags(clang_flags, mirror):
    """The clang flags a host compiler understands (-D, -U, -I, -include,
    -isystem, -iquote), include directories looked up in the instrumented
    mirror first."""
    out, i = [], 0
    while i < len(clang_flags):
        flag = clang_flags[i]
        for opt in ("-include", "-isystem", "-iquote", "-D", "-U", "-I"):
            if not flag.startswith(opt):
                continue
            value = flag[len(opt):]
            if not value and i + 1 < len(clang_flags):
                i += 1
                value = clang_flags[i]
            if opt in ("-D", "-U"):
                out.append(opt + value)
            elif opt == "-include":
                path = os.path.abspath(value)
                out += [opt, mirror + path if os.path.exists(mirror + path) else path]
            else:
                out += [opt, mirror + os.path.abspath(value), opt, os.path.abspath(value)]
            break
        i += 1
    return out


def main():
    argv = sys.argv[1:]
    clang = []
    if "--" in argv:
        at = argv.index("--")
        argv, clang = argv[:at], argv[at + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ks_translate")
    ap.add_argument("program")
    ap.add_argument("--args", default="", help="the program's command line arguments")
    ap.add_argument("--driver", help="C++ file with a main that calls the program's host functions")
    ap.add_argument("--lifted", help="the lifted module to check (default: lift the program now)")
    ap.add_argument("--keep", help="write the generated programs and traces into this folder")
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="ks-launch-trace-")
    os.makedirs(work, exist_ok=True)
    program = os.path.abspath(args.program)
    label = os.path.basename(program)

    mlir = args.lifted or os.path.join(work, "lifted.mlir")
    if not args.lifted:
        lift = subprocess.run([args.ks_translate, "--import-cuda", program, "--no-pch", "-o", mlir,
                               "--"] + clang, capture_output=True, text=True)
        if lift.returncode != 0:
            print(f"{label}: the import fails\n{lift.stderr[-2000:]}")
            return 2
    launchers = parse_launchers(open(mlir).read())
    if not launchers:
        print(f"{label}: no launchers lifted")
        return 2
    source_text = open(program).read()
    if not args.driver and not re.search(r"\bint\s+main\s*\(", source_text):
        print(f"{label}: the program has no main: give one with --driver")
        return 2

    # The original, instrumented; the files with launches or launchers are
    # mirrored under the work folder at their absolute paths.
    mirror = os.path.join(work, "src")
    files = {os.path.realpath(program)}
    for l in launchers:
        files.add(os.path.realpath(l["site"][0]))
        files |= {os.path.realpath(s["site"][0]) for s in l["launches"]}
    for f in files:
        target = mirror + f
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "w").write(instrument(open(f).read(), f, launchers))
    flags = host_flags(clang, mirror) + ["-iquote", os.path.dirname(program)]
    main_source = f'#include "{mirror + os.path.realpath(program)}"\n'
    if args.driver:
        main_source += f'#include "{os.path.abspath(args.driver)}"\n'
    out, err = compile_and_run(main_source, work, "original", flags, shlex.split(args.args))
    if out is None:
        print(f"{label}: the program does not compile as host C++ with ks_launch_trace.h\n{err}")
        return 2
    calls, allocs = parse_trace(out)
    if not calls:
        print(f"{label}: the program made no call of a lifted launcher's host function")
        return 1

    # The lifted launchers, replayed.
    exported = os.path.join(work, "lifted.cu")
    export = subprocess.run([args.ks_translate, "--export-cuda", mlir, "-o", exported],
                            capture_output=True, text=True)
    if export.returncode != 0:
        print(f"{label}: the export fails\n{export.stderr[-2000:]}")
        return 2
    by_site = collections.defaultdict(list)
    for l in launchers:
        by_site[f"{os.path.basename(l['site'][0])}:{l['site'][1]}"].append(l)
    driver = [exported_host(open(exported).read()), "int main() {"]
    driver += [f"  ks_trace::allocate({b}, {i});" for i, b in sorted(allocs.items())]
    problems = {}
    for n, call in enumerate(calls):
        for value in call["params"].values():
            if len(value) > 1:
                problems[n] = "a launcher parameter took two values at its launches: " + ", ".join(
                    f"{k} = {' and '.join(v)}" for k, v in call["params"].items() if len(v) > 1)
        for l in by_site[call["site"]]:
            values = []
            for p in l["params"]:
                recorded = call["params"].get(f'{p["index"]}:{p["spelling"]}', ["0"])
                values.append(arg_literal(recorded[0]))
            driver += [f'  std::printf("@ks scope {n} {l["name"]}\\n");',
                       f'  lifted::{l["name"]}({", ".join(values)});',
                       '  std::printf("@ks end\\n");']
    driver += ["  return 0;", "}"]
    out, err = compile_and_run("\n".join(driver) + "\n", work, "lifted", [])
    if out is None:
        print(f"{label}: the exported launchers do not compile as host C++\n{err}")
        return 2
    replays, _ = parse_trace(out)
    replayed = collections.defaultdict(dict)
    for r in replays:
        n, name = r["site"].split(" ", 1)
        replayed[int(n)][name] = r["launches"]

    failed = 0
    for n, call in enumerate(calls):
        got = replayed.get(n, {})
        match = [name for name, launches in got.items() if len(launches) == len(call["launches"])
                 and all(map(same_launch, call["launches"], launches))]
        count = len(call["launches"])
        head = f"{label}: {call['site']} call {n + 1}: {count} launch{'es' if count != 1 else ''}"
        if n in problems:
            print(f"{head}: MISMATCH: {problems[n]}")
            failed += 1
        elif match:
            print(f"{head}: match (@{match[0]})")
        else:
            failed += 1
            print(f"{head}: MISMATCH")
            for name, launches in got.items():
                for k in range(max(len(launches), count)):
                    a = call["launches"][k] if k < count else "(none)"
                    b = launches[k] if k < len(launches) else "(none)"
                    if not same_launch(a, b):
                        print(f"  launch {k + 1}: original {a}\n  {'':9s} @{name} {b}")
                        break
    print(f"{label}: {len(calls) - failed} of {len(calls)} calls match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
