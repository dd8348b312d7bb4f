"""bench_python.py - dropouth.Dropout against nn.Dropout in one process: forward + backward per
call, one thread, float32, p = 0.1, training mode.

usage: python3 bench/bench_python.py [--out FILE.md] [--rounds N]
   (with the installed package: python3 -m pip install --no-build-isolation ./python)

Each row times both layers on the same input in alternating rounds (so a busy neighbour slows
both alike) and reports each one's best round, and the ratio of dropouth's time to
nn.Dropout's. The small shape shows the per-call overhead (Python, the library call); the
large ones the kernel. Large shapes are timed again with each of the package's CPU builds
(x86-64 = SSE2, AVX2, AVX-512), the one a plain import picks marked. Prints a Markdown table
with the CPU's family/model; --out writes it to a file too.
"""
import argparse
import ctypes
import glob
import os
import platform
import time

import torch

import dropouth
from dropouth import _lib

SHAPES = [(8, 16), (64, 1024), (256, 4096), (1024, 4096)]


def cpu_name():
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if ":" in line:
                    k, v = (s.strip() for s in line.split(":", 1))
                    info.setdefault(k, v)
    except OSError:
        pass
    return "%s (family %s model %s)" % (info.get("model name", platform.processor() or "unknown CPU"),
                                        info.get("cpu family", "?"), info.get("model", "?"))


def per_call(layer, x, dy, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        layer(x).backward(dy)
    return (time.perf_counter() - t0) / calls


def compare(shape, rounds):
    """(best seconds a call for dropouth, for nn.Dropout)."""
    x = torch.randn(*shape, requires_grad=True)
    dy = torch.randn(*shape)
    ours, theirs = dropouth.Dropout(0.1), torch.nn.Dropout(0.1)
    n = x.numel()
    calls = max(3, min(2000, int(2e7 // (n * 40 + 20000))))
    for layer in (ours, theirs):
        per_call(layer, x, dy, 3)                 # warm: first-call costs out of the rounds
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for i, layer in enumerate((ours, theirs)):
            best[i] = min(best[i], per_call(layer, x, dy, calls))
    return best


def builds():
    """{isa name: library path} of the package's CPU builds this CPU runs."""
    here = os.path.dirname(_lib.__file__)
    level = _lib.cpu().dropouth_cpu_level()
    out = {}
    for i, stem in enumerate(("_dropouth_cpu", "_dropouth_cpu_avx2", "_dropouth_cpu_avx512")):
        found = [p for p in glob.glob(os.path.join(here, stem + ".*so")) + glob.glob(os.path.join(here, stem + "-*.so"))
                 if os.path.basename(p).split(".")[0] == stem]
        if found and i <= level:
            out[_lib._LEVELS[i]] = found[0]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    torch.set_num_threads(1)
    picked = _lib.isa()
    lines = ["# dropouth.Dropout vs nn.Dropout (python/, bench/bench_python.py)", "",
             "CPU: %s, one thread; torch %s; dropouth %s, CPU build picked at import: %s." % (
                 cpu_name(), torch.__version__, dropouth.__version__, picked),
             "Forward + backward a call, float32, p = 0.1, training; best of %d alternating rounds each." % args.rounds,
             "", "| shape | elements | build | dropouth us/call | nn.Dropout us/call | time ratio (dropouth / nn.Dropout) |",
             "|---|---:|---|---:|---:|---:|"]
    variants = builds()
    default_lib = _lib._libs["_dropouth_cpu"]
    for shape in SHAPES:
        n = shape[0] * shape[1]
        for isa, path in (variants.items() if n >= 1 << 16 else [(picked, None)]):
            if path:
                _lib._libs["_dropouth_cpu"] = _lib._type_cpu(ctypes.CDLL(path))
            ours, theirs = compare(shape, args.rounds)
            _lib._libs["_dropouth_cpu"] = default_lib
            lines.append("| [%d, %d] | %d | %s%s | %.1f | %.1f | %.2f |" % (
                shape[0], shape[1], n, isa, " (picked)" if isa == picked else "", ours * 1e6, theirs * 1e6, ours / theirs))
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
