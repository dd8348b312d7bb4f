"""doc_python.py - runs the ```python blocks of a Markdown page and checks what they print.

Usage: python3 tests/python/doc_python.py docs/PYTHON.md   (run from the repository root)

The blocks run in order in one namespace, as a reader would type them. A ```python block
followed directly by a ```text block must print exactly that text. A block announced by a
line `<!-- needs torch -->` runs only where PyTorch imports (a SKIP line otherwise). One
PASS / FAIL / SKIP line per block, as every test here prints.
"""
import contextlib
import io
import re
import sys
import traceback


def blocks(path):
    """(needs, code, expected or None, line) for each python block of the page."""
    text = open(path, encoding="utf-8").read()
    pat = re.compile(r"(<!-- needs (\w+) -->\n)?```python\n(.*?)```\n(?:\n?```text\n(.*?)```\n)?", re.S)
    for m in pat.finditer(text):
        yield m.group(2), m.group(3), m.group(4), text.count("\n", 0, m.start()) + 1


def main(path):
    try:
        import torch  # noqa: F401
        have = {"torch"}
    except ImportError:
        have = set()
    env = {"__name__": "__doc__"}
    failed = 0
    for needs, code, expected, line in blocks(path):
        name = "%s block at line %d" % (path, line)
        if needs and needs not in have:
            print("SKIP %s: needs %s (apt-get install python3-%s)" % (name, needs, needs))
            continue
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, name, "exec"), env)
        except Exception:
            print("FAIL %s: raised %s" % (name, traceback.format_exc().strip().splitlines()[-1]))
            failed += 1
            continue
        if expected is not None and out.getvalue() != expected:
            got = out.getvalue().splitlines() or [""]
            want = expected.splitlines() or [""]
            first = next((i for i in range(max(len(got), len(want)))
                          if i >= len(got) or i >= len(want) or got[i] != want[i]), 0)
            print("FAIL %s: printed line %d %r, the page shows %r" % (
                name, first + 1, got[first] if first < len(got) else "", want[first] if first < len(want) else ""))
            failed += 1
        else:
            print("PASS %s%s" % (name, "" if expected is None else " (output as shown)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
