#!/usr/bin/env python3
"""torch_cuda.py - PyTorch's dropout on the same GPU, and the markdown report.

Times torch.native_dropout (forward with its bool mask), native_dropout_backward, plain
F.dropout, and the unfused transformer pattern residual + F.dropout(x + bias), for
f32 and bf16, n = 2^20 .. 2^28, CUDA events, median of N after 2 warm-ups; at the
largest n also that pattern through torch.compile (one Inductor/Triton kernel). With --ours (the CSV written by
bench/bench_cuda.cu) it joins both into one markdown report: achieved GB/s, ratio to the
copy bandwidth measured in the same run, and speed-up over the matching PyTorch op.
Needs torch with CUDA; prints a SKIP line without it.
"""
import argparse
import csv
import datetime
import math
import os
import subprocess
import sys


def gpu_info():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or "unknown"
    except Exception as e:  # nvidia-smi missing: say so in the report
        return "nvidia-smi unavailable (%s)" % e


def time_median(torch, fn, reps):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for i in range(reps + 2):
        start.record()
        fn()
        end.record()
        end.synchronize()
        if i >= 2:
            times.append(start.elapsed_time(end))
    times.sort()
    k = len(times)
    return times[k // 2] if k % 2 else 0.5 * (times[k // 2 - 1] + times[k // 2])


def torch_rows(max_log2, reps):
    import torch
    import torch.nn.functional as F
    rows = []
    p = 0.1

    def unfused(x, bias, res):
        return res + F.dropout(x + bias, p, True)

    # PyTorch at its best for the fused pattern: Inductor compiles it into one Triton
    # kernel. Largest size only (each shape and dtype compiles anew).
    try:
        compiled = torch.compile(unfused, dynamic=False)
    except Exception as e:  # no Inductor / Triton: say so in the report
        compiled = None
        print("SKIP torch.compile: %s" % e)
    for dtype_name, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
        for lg in range(20, max_log2 + 1, 2):
            n = 1 << lg
            cols = 4096
            x = torch.randn(n // cols, cols, device="cuda", dtype=dtype)
            res = torch.randn_like(x)
            bias = torch.randn(cols, device="cuda", dtype=dtype)
            _, mask = torch.native_dropout(x, p, True)
            cases = {
                "native_dropout (y + bool mask)": lambda: torch.native_dropout(x, p, True),
                "F.dropout": lambda: F.dropout(x, p, True),
                "native_dropout_backward": lambda: torch.ops.aten.native_dropout_backward(x, mask, 1.0 / (1 - p)),
                "residual + F.dropout(x + bias)": lambda: unfused(x, bias, res),
            }
            if compiled is not None and lg == max_log2:
                cases[COMPILED] = lambda: compiled(x, bias, res)
            for name, fn in cases.items():
                try:
                    with torch.no_grad():
                        ms = time_median(torch, fn, reps)
                except Exception as e:  # a failed compile costs its row, not the report
                    print("SKIP %s %s 2^%d: %s" % (name, dtype_name, lg, str(e).splitlines()[0] if str(e) else e))
                    continue
                rows.append({"case": name, "dtype": dtype_name, "n": n, "ms": ms})
            del x, res, bias, mask
            torch.cuda.empty_cache()
    return rows


COMPILED = "torch.compile(residual + F.dropout(x + bias))"

# which of our cases answers which PyTorch op (8-bit draws, p = 0.1)
PAIRS = [
    ("forward+mask", "native_dropout (y + bool mask)"),
    ("forward", "F.dropout"),
    ("backward from mask", "native_dropout_backward"),
    ("fused bias-dropout-add", "residual + F.dropout(x + bias)"),
    ("fused bias-dropout-add", COMPILED),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", help="CSV from bench_cuda")
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "bench_cuda.md"))
    ap.add_argument("--max-log2", type=int, default=int(os.environ.get("DROPOUT_BENCH_MAX_LOG2", "28")))
    ap.add_argument("--reps", type=int, default=int(os.environ.get("DROPOUT_BENCH_REPS", "20")))
    a = ap.parse_args()
    try:
        import torch
        have_torch = torch.cuda.is_available()
    except ImportError:
        have_torch = False
    trows = torch_rows(a.max_log2, a.reps) if have_torch else []
    if not have_torch:
        print("SKIP torch_cuda: torch with CUDA not available")
    ours = list(csv.DictReader(open(a.ours))) if a.ours and os.path.exists(a.ours) else []

    L = ["# dropout_cuda.cuh benchmark", "",
         "- date: %s" % datetime.datetime.now().isoformat(timespec="seconds"),
         "- GPU (name, driver, memory): %s" % gpu_info(),
         "- torch: %s" % (torch.__version__ + " / CUDA " + str(torch.version.cuda) if have_torch else "not available"),
         "- p = 0.1; fused op on [n/4096, 4096]; median of %d CUDA-event timings after 2 warm-ups;" % a.reps,
         "  GB/s = bytes really moved (reads + writes, mask bytes included) / time;",
         "  / copy = that over a device-to-device cudaMemcpy of the same elements in the same run.", ""]
    summary = []
    if ours:
        big = max(int(r["n"]) for r in ours)
        # every path side by side at the largest n: the table that sets DROPOUT_CUDA_PATH
        by = {}
        for r in ours:
            by.setdefault((r["case"], r["dtype"], r["bits"], r["n"]), {})[r.get("path", "-")] = r
        paths = sorted({r.get("path", "-") for r in ours} - {"-"}, key=lambda p: (p != "direct", p))
        L += ["## Paths at n = 2^%d (/ copy; DROPOUT_CUDA_WARP 1: warp, 0: direct; -b128: 128-thread blocks)" % (big.bit_length() - 1), "",
              "| case | dtype | bits | " + " | ".join(paths) + " |", "|---|---|---|" + "---|" * len(paths)]
        for (case, dt, bits, n), v in by.items():
            if int(n) == big and "warp" in v:
                L.append("| %s | %s | %s | %s |" % (case, dt, bits, " | ".join(v[p]["ratio_copy"] if p in v else "-" for p in paths)))
                summary.append("%-28s %-4s %2s-bit  / copy: " % (case, dt, bits) + " ".join(
                    "%s %s" % (p, v[p]["ratio_copy"] if p in v else "-") for p in paths))
        L.append("")
        for p in paths:
            if p == "warp":
                continue
            rs = [float(v["warp"]["ms"]) / max(float(v[p]["ms"]), 1e-9) for v in by.values() if "warp" in v and p in v]
            if rs:
                gm = math.exp(sum(math.log(x) for x in rs) / len(rs))
                line = "warp faster than %s in %d of %d cases (geometric mean %s ms / warp ms = %.3f)" % (
                    p, sum(1 for x in rs if x < 1.0), len(rs), p, 1.0 / gm)
                L += [line, ""]
                summary.append(line)
        # the weakest case of each path at each size
        L += ["## Lowest / copy at each size (every case and draw width)", "",
              "| path | " + " | ".join("2^%d" % (int(n).bit_length() - 1) for n in sorted({int(r["n"]) for r in ours})) + " |",
              "|---|" + "---|" * len({r["n"] for r in ours})]
        for p in paths:
            cells = []
            for n in sorted({int(r["n"]) for r in ours}):
                rs = [r for r in ours if r.get("path") == p and int(r["n"]) == n]
                w = min(rs, key=lambda r: float(r["ratio_copy"]))
                cells.append("%s (%s %s %s-bit)" % (w["ratio_copy"], w["case"], w["dtype"], w["bits"]))
            L.append("| %s | %s |" % (p, " | ".join(cells)))
            summary.append("lowest / copy, %s: %s" % (p, "; ".join(
                "2^%d %s" % (int(n).bit_length() - 1, c.split(" ")[0]) for n, c in zip(sorted({int(r["n"]) for r in ours}), cells))))
        L.append("")
        L += ["## dropout_cuda.cuh, every size and path", "",
              "| case | dtype | bits | n | path | ms | GB/s | / copy |", "|---|---|---|---|---|---|---|---|"]
        for r in ours:
            L.append("| %s | %s | %s | 2^%d | %s | %.4f | %s | %s |" % (r["case"], r["dtype"], r["bits"],
                     int(r["n"]).bit_length() - 1, r.get("path", "-"), float(r["ms"]), r["GBps"], r["ratio_copy"]))
        L.append("")
    if trows:
        L += ["## PyTorch", "", "| case | dtype | n | ms |", "|---|---|---|---|"]
        for r in trows:
            L.append("| %s | %s | 2^%d | %.4f |" % (r["case"], r["dtype"], r["n"].bit_length() - 1, r["ms"]))
        L.append("")
    if ours and trows:
        L += ["## Speed-up over PyTorch (PyTorch ms / ours ms, 8-bit draws, warp path)", "",
              "| ours | PyTorch | dtype | n | speed-up |", "|---|---|---|---|---|"]
        tm = {(r["case"], r["dtype"], r["n"]): r["ms"] for r in trows}
        for r in ours:
            for mine, theirs in PAIRS:
                key = (theirs, r["dtype"], int(r["n"]))
                if r["case"] == mine and r["bits"] == "8" and r.get("path") == "warp" and key in tm:
                    x = tm[key] / float(r["ms"])
                    L.append("| %s | %s | %s | 2^%d | %.2f |" % (mine, theirs, r["dtype"], int(r["n"]).bit_length() - 1, x))
                    if int(r["n"]) == big:
                        summary.append("%-24s vs %-32s %-4s 2^%d: %.2fx" % (mine, theirs, r["dtype"], big.bit_length() - 1, x))
        L.append("")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(summary))
    print("report written to", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
