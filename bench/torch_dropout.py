"""PyTorch's CPU dropout on n float32 elements, the peer for bench_cpu.c.

usage: torch_dropout.py N THREADS REPS
prints one line: "elements_per_s <best of REPS> torch <version> <in-place or out-of-place>"
(or "skip <why>" when torch is missing).
"""
import sys
import time

try:
    import torch
except ImportError as e:  # the bench prints a SKIP line
    print("skip python3-torch not importable: %s" % e)
    sys.exit(0)

n, threads, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
torch.set_num_threads(threads)
torch.manual_seed(1234)
x = torch.randn(n, dtype=torch.float32)
# The peer at its best: out of place (a fresh output each call, what a model does) and in
# place (no allocation, no page faults for the output), the faster of the two reported.
best = {}
for inplace in (False, True):
    best[inplace] = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        torch.nn.functional.dropout(x, p=0.1, training=True, inplace=inplace)
        best[inplace] = min(best[inplace], time.perf_counter() - t0)
way = min(best, key=best.get)
print("elements_per_s %.6g torch %s %s" % (n / best[way], torch.__version__, "inplace" if way else "out-of-place"))
