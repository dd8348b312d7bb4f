#!/usr/bin/env python3
"""torch_cuda.py - PyTorch's dropout on the same GPU, and the markdown report.

Times torch.native_dropout (forward with its bool mask), native_dropout_backward, plain
F.dropout, and the unfused transformer pattern residual + F.dropout(x + bias), for
f32 and bf16, n = 2^20 .. 2^28, CUDA events, best of N. With --ours (the CSV written by
bench/bench_cuda.cu) it joins both into one markdown report: achieved GB/s, ratio to the
copy bandwidth measured in the same run, and speed-up over the matching PyTorch op.
Needs torch with CUDA; prints a SKIP line without it.
"""
import argparse
import csv
import datetime
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


def time_best(torch, fn, reps):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for i in range(reps + 2):
        start.record()
        fn()
        end.record()
        end.synchronize()
        if i >= 2:
            best = min(best, start.elapsed_time(end))
    return best


def torch_rows(max_log2, reps):
    import torch
    import torch.nn.functional as F
    rows = []
    p = 0.1
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
                "residual + F.dropout(x + bias)": lambda: res + F.dropout(x + bias, p, True),
            }
            for name, fn in cases.items():
                with torch.no_grad():
                    ms = time_best(torch, fn, reps)
                rows.append({"case": name, "dtype": dtype_name, "n": n, "ms": ms})
            del x, res, bias, mask
            torch.cuda.empty_cache()
    return rows


# which of our cases answers which PyTorch op (8-bit draws, p = 0.1)
PAIRS = [
    ("forward+mask", "native_dropout (y + bool mask)"),
    ("forward", "F.dropout"),
    ("backward from mask", "native_dropout_backward"),
    ("fused bias-dropout-add", "residual + F.dropout(x + bias)"),
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
         "- p = 0.1; fused op on [n/4096, 4096]; best of %d CUDA-event timings after 2 warm-ups;" % a.reps,
         "  GB/s = bytes really moved (reads + writes, mask bytes included) / time;",
         "  / copy = that over a device-to-device cudaMemcpy of the same elements in the same run.", ""]
    if ours:
        L += ["## dropout_cuda.cuh", "",
              "path: direct = DROPOUT_CUDA_STAGED 0 (each thread loads its own 32 elements),",
              "staged = 1 (warp spans moved coalesced through shared memory).", "",
              "| case | dtype | bits | n | path | ms | GB/s | / copy |", "|---|---|---|---|---|---|---|---|"]
        for r in ours:
            L.append("| %s | %s | %s | 2^%d | %s | %.4f | %s | %s |" % (r["case"], r["dtype"], r["bits"],
                     int(r["n"]).bit_length() - 1, r.get("path", "-"), float(r["ms"]), r["GBps"], r["ratio_copy"]))
        L.append("")
        # staged against direct, case by case: > 1 means staged is faster
        by = {}
        for r in ours:
            by.setdefault((r["case"], r["dtype"], r["bits"], r["n"]), {})[r.get("path", "-")] = float(r["ms"])
        cmp_rows = [(k, v["direct"] / v["staged"]) for k, v in by.items() if "direct" in v and "staged" in v]
        if cmp_rows:
            L += ["## staged vs direct (direct ms / staged ms; > 1: staged faster)", "",
                  "| case | dtype | bits | n | direct / staged |", "|---|---|---|---|---|"]
            for (case, dt, bits, n), ratio in cmp_rows:
                L.append("| %s | %s | %s | 2^%d | %.3f |" % (case, dt, bits, int(n).bit_length() - 1, ratio))
            wins = sum(1 for _, x in cmp_rows if x > 1.0)
            L += ["", "staged faster in %d of %d cases (geometric mean direct/staged %.3f)." % (
                wins, len(cmp_rows), pow(2.0, sum(__import__("math").log2(x) for _, x in cmp_rows) / len(cmp_rows))), ""]
    if trows:
        L += ["## PyTorch", "", "| case | dtype | n | ms |", "|---|---|---|---|"]
        for r in trows:
            L.append("| %s | %s | 2^%d | %.4f |" % (r["case"], r["dtype"], r["n"].bit_length() - 1, r["ms"]))
        L.append("")
    if ours and trows:
        L += ["## Speed-up over PyTorch (PyTorch ms / ours ms, 8-bit draws)", "",
              "| ours | path | PyTorch | dtype | n | speed-up |", "|---|---|---|---|---|---|"]
        tm = {(r["case"], r["dtype"], r["n"]): r["ms"] for r in trows}
        for r in ours:
            for mine, theirs in PAIRS:
                key = (theirs, r["dtype"], int(r["n"]))
                if r["case"] == mine and r["bits"] == "8" and key in tm:
                    L.append("| %s | %s | %s | %s | 2^%d | %.2f |" % (mine, r.get("path", "-"), theirs, r["dtype"],
                             int(r["n"]).bit_length() - 1, tm[key] / float(r["ms"])))
        L.append("")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    print("report written to", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
