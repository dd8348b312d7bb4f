#!/usr/bin/env python3
"""cuda_ab.py - `make bench-cuda-ab`'s report: bench_cuda of a base revision (A) against the
working tree's (B), from CSV files of runs made alternately on one GPU.

    python3 bench/cuda_ab.py --rev REV --base a1.csv a2.csv ... --new b1.csv b2.csv ... [--path warp]

Each cell (case, dtype, draw bits, n) of one launch path takes the smallest of its runs'
medians for A and for B; B/A < 1: B faster. A's spread is the largest over the smallest of
A's own runs of the cell: how far the same code reads apart in this run, which a ratio has
to pass to mean anything (single launches of a few microseconds wander by 1.1-1.5x). A cell
is flagged when B/A is above 1.05 and above that spread. Needs two runs a side at least.
"""
import argparse
import csv
import math
import statistics
import sys


def load(path):
    """{(case, dtype, bits, n, path): ms} of one bench_cuda CSV"""
    cells = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cells[(row["case"], row["dtype"], int(row["bits"]), int(row["n"]), row["path"])] = float(row["ms"])
    return cells


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", required=True, help="the base revision's name, for the title")
    ap.add_argument("--base", nargs="+", required=True, help="A's CSV files (bench_cuda of REV)")
    ap.add_argument("--new", nargs="+", required=True, help="B's CSV files (the working tree's bench_cuda)")
    ap.add_argument("--path", default="warp", help="the launch path compared (bench_cuda's path column)")
    args = ap.parse_args()
    if len(args.base) < 2 or len(args.new) < 2:
        sys.exit("cuda_ab.py: two runs a side at least (the spread needs them)")
    runs_a = [load(p) for p in args.base]
    runs_b = [load(p) for p in args.new]
    keys = sorted(k for k in runs_a[0] if k[4] == args.path and all(k in r for r in runs_a + runs_b))
    if not keys:
        sys.exit("cuda_ab.py: no cell of path %r in both sides' files" % args.path)

    groups, flagged = {}, []
    for k in keys:
        a = [r[k] for r in runs_a]
        b = min(r[k] for r in runs_b)
        ratio, spread = b / min(a), max(a) / min(a)
        groups.setdefault((k[1], k[3]), []).append((ratio, spread, k))
        if ratio > 1.05 and ratio > spread:
            flagged.append((ratio, spread, k))

    out = sys.stdout
    out.write("# bench_cuda: %s (A) against the working tree (B), path %s\n\n" % (args.rev, args.path))
    out.write("%d runs a side, alternating; each cell the smallest of its runs' medians (bench_cuda: the median of\n"
              "its event-timed launches). B/A < 1: B faster. A's spread: the largest over the smallest of A's runs.\n\n"
              % (len(runs_a),))
    out.write("| dtype | n | cells | B/A lowest - highest (median) | slowest cell | A's spread, highest |\n")
    out.write("|---|---|---:|---|---|---:|\n")
    for (dtype, n) in sorted(groups, key=lambda g: (g[0] != "f32", g[1])):
        rows = sorted(groups[(dtype, n)])
        ratios = [r[0] for r in rows]
        worst = rows[-1]
        out.write("| %s | 2^%d | %d | %.2f - %.2f (%.2f) | %s %d-bit %.3f | %.2f |\n"
                  % (dtype, round(math.log2(n)), len(rows), ratios[0], ratios[-1], statistics.median(ratios),
                     worst[2][0], worst[2][2], worst[0], max(r[1] for r in rows)))
    out.write("\nB/A above 1.05 and above A's spread: %s\n"
              % (", ".join("%s %s %d-bit 2^%d (%.3f, spread %.2f)" % (k[0], k[1], k[2], round(math.log2(k[3])), r, s)
                           for r, s, k in sorted(flagged, reverse=True)) or "none"))


if __name__ == "__main__":
    main()
