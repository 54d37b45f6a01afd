#!/usr/bin/env python3
"""What bench/results/ may hold (bench/results/README.md, issue 40's
repository hygiene): per run directory its README and tables, small logs and
scripts, and small summary JSON at the run's top level; no raw artifacts
(PTX, SASS, MLIR, CUDA, tarballs, databases, per-case JSON, large logs),
which the run's command regenerates.

  check-results.py [--list-dropped]    exit 1 and name each file that breaks the rules

Checks the files git tracks or would add (untracked, not ignored).
--list-dropped prints the offending paths only, one per line (to `git rm`).
"""
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = "bench/results"
TEXT = (".md", ".txt", ".log", ".sh", ".py")
JSON = (".json", ".jsonl")
MAX_BYTES = 32 * 1024
MAX_JSON_BYTES = 16 * 1024


def why_not(path):
    """Why `path` (relative to the repository) may not be kept, or None."""
    rel = os.path.relpath(path, RESULTS)
    depth = rel.count("/")  # 0: bench/results/README.md; 1: a run's top level
    size = os.path.getsize(os.path.join(ROOT, path))
    if depth == 0:
        return None if rel == "README.md" else "only README.md lies in bench/results itself"
    if path.endswith(JSON):
        if depth != 1:
            return "JSON only at a run's top level (a summary, not per-case output)"
        if size > MAX_JSON_BYTES:
            return f"JSON of {size} bytes (at most {MAX_JSON_BYTES})"
        return None
    if not path.endswith(TEXT):
        return "a raw artifact (kept: .md .txt .log .sh .py and summary JSON)"
    if size > MAX_BYTES:
        return f"{size} bytes (at most {MAX_BYTES})"
    return None


def main():
    listing = subprocess.run(
        ["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard", RESULTS],
        capture_output=True, text=True, check=True).stdout.split()
    bad = [(p, why_not(p)) for p in listing if os.path.exists(os.path.join(ROOT, p))]
    bad = [(p, why) for p, why in bad if why]
    if "--list-dropped" in sys.argv[1:]:
        print("\n".join(p for p, _ in bad))
        return 0
    for p, why in bad:
        print(f"{p}: {why}")
    if bad:
        print(f"check-results: {len(bad)} file(s) break bench/results/README.md's rules")
        return 1
    print(f"check-results: {len(listing)} files in {RESULTS}, all within the rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
