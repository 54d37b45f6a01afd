#!/usr/bin/env python3
"""The driver stays in parts (issue 40): no file in lib/Driver over 600 lines,
no function there over 120 (a definition starts at column 0 and ends at the
first line that is just "}"). Run by ctest as `driver-size`.

  scripts/check-driver-size.py [SRC_ROOT]
"""
import pathlib
import re
import sys

MAX_FILE, MAX_FUNCTION = 600, 120
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
problems = []
# A definition: column 0, not a comment, preprocessor line, namespace,
# type or using declaration, and with an opening parenthesis.
skip = re.compile(r"^(//|#|namespace|}|struct|class|enum|using|template|static_assert|$)")
for path in sorted((root / "lib" / "Driver").glob("*.[ch]*")):
    lines = path.read_text().splitlines()
    if len(lines) > MAX_FILE:
        problems.append(f"{path.relative_to(root)}: {len(lines)} lines (at most {MAX_FILE})")
    start = None
    for n, line in enumerate(lines, 1):
        if start is None:
            one_line = "{" in line and line.rstrip().endswith("}")
            if (not line[:1].isspace() and not skip.match(line) and "(" in line
                    and not line.rstrip().endswith(";") and not one_line):
                start = n
        elif line == "}":
            if n - start + 1 > MAX_FUNCTION:
                name = re.search(r"([\w:~]+)\(", lines[start - 1])
                problems.append(f"{path.relative_to(root)}:{start}: "
                                f"{name.group(1) if name else 'a function'} is "
                                f"{n - start + 1} lines (at most {MAX_FUNCTION})")
            start = None
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
