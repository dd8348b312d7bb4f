"""PyTorch's CPU dropout on n float32 elements, the peer for bench_cpu.c.

usage: torch_dropout.py N THREADS REPS
prints one line: "elements_per_s <best of REPS>" (or "skip <why>" when torch is missing).
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
best = float("inf")
for _ in range(reps):
    t0 = time.perf_counter()
    y = torch.nn.functional.dropout(x, p=0.1, training=True)
    best = min(best, time.perf_counter() - t0)
print("elements_per_s %.6g torch %s" % (n / best, torch.__version__))
