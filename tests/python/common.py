"""common.py - PASS / FAIL / SKIP lines for the Python tests (the lines tests/run.sh counts)."""
import sys

_failures = [0]


def report(name, ok, why=""):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))
    _failures[0] += not ok
    sys.stdout.flush()


def skip(name, why):
    print("SKIP %s: %s" % (name, why))
    sys.stdout.flush()


def failures_exit():
    return 1 if _failures[0] else 0
