#!/usr/bin/env python3
"""How readable the exported CUDA is, in one number (issue 13): the tokens of
each corpus kernel as --export-cuda writes it (unoptimized), over the tokens
of the same kernel in its source. Comments, the exporter's helper templates
and the launchers are not counted; __device__ functions of the source are
(the exporter inlines them into the kernel).

  bench/frontend/token_ratio.py KS_TRANSLATE [CORPUS_DIR]   (default: test/Frontend/corpus)

Prints one line per file and the geometric mean; also the time to lift the
whole corpus (one ks-translate --import-cuda per file, the PCH warm).
"""
import math, os, re, subprocess, sys, tempfile, time

TOKEN = re.compile(r"[A-Za-z_]\w*|\d+\.?\d*(?:[eE][-+]?\d+)?[fFuUlL]*|\.\d+[fF]?|"
                   r"<<=|>>=|<<|>>|\+\+|--|->|&&|\|\||[<>=!+\-*/%&|^]=|\S")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def device_code(text):
    """The __global__ and __device__ functions of `text` (brace-matched)."""
    out = []
    for m in re.finditer(r"(template\s*<[^>]*>\s*)?(extern \"C\"\s*)?(static\s+)?"
                         r"(__global__|__device__)[^;{]*\{", text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        chunk = text[m.start():i + 1]
        if "ks_maximum" in chunk or "ks_minimum" in chunk and "template" in chunk:
            continue  # the exporter's NaN-propagating helpers
        out.append(chunk)
    return "\n".join(out)


def tokens(text):
    return len(TOKEN.findall(device_code(strip_comments(text))))


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    ks_translate = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "..", "..", "test", "Frontend", "corpus")
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".cu"))
    ratios, lift_s = [], 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            src = os.path.join(corpus, f)
            mlir = os.path.join(tmp, f + ".mlir")
            start = time.time()
            subprocess.run([ks_translate, "--import-cuda", src, "-o", mlir], check=True,
                           capture_output=True)
            lift_s += time.time() - start
            exported = subprocess.run([ks_translate, "--export-cuda", mlir], check=True,
                                      capture_output=True, text=True).stdout
            a, b = tokens(open(src).read()), tokens(exported)
            ratios.append(b / a)
            print(f"{f:28s} source {a:5d} tokens, exported {b:5d}: {b / a:.2f}x")
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean over {len(ratios)} kernels: {geo:.3f}x (max {max(ratios):.2f}x)")
    print(f"lifting the corpus: {lift_s:.1f} s ({len(files)} files)")


if __name__ == "__main__":
    main()
