"""test_ddp.py - data parallel at 2 and 3 processes (torch.distributed, gloo, CPU), uneven local
batches in DistributedSampler's interleaved order.

Oracle: one process without torch.distributed, holding the whole global batch. With
dropouth.Dropout called as layer(h, samples=global indices), every (step, global sample) must
get that process's mask, and ranks must not repeat each other's masks; the weights must agree
with it up to the order of the gradient sums (printed, with nn.Dropout's figures beside: those
are torch's behaviour, not checks). Under data parallelism a call without samples= must raise.
"""
import os
import sys

os.environ.setdefault("DROPOUTH_DEMO_STEPS", "3")
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
import torch.distributed as dist  # noqa: E402

from common import failures_exit, report, skip  # noqa: E402


def main():
    if not dist.is_available() or not dist.is_gloo_available():
        skip("data parallel (gloo)", "this torch has no torch.distributed with gloo")
        return 0
    import demo_ddp as demo
    one = demo.one_process()
    for w in (2, 3):
        ranks = demo.run_world(w)
        sizes = "/".join(str(len(range(r, demo.GLOBAL, w))) for r in range(w))
        equal, total, rep, n, gap = demo.measure(one, ranks, "dropouth")
        report("dropouth.Dropout(samples=), %d processes, local batches %s (interleaved): each of %d (step, global "
               "sample) masks is one process's; ranks repeat none of rank 0's (%d of %d); weights within %.1e of one "
               "process's" % (w, sizes, total, rep, n, gap), equal == total and rep == 0 and gap < 1e-5,
               "%d of %d masks equal, %d repeats" % (equal, total, rep))
        msg = [r["refused"] for r in ranks]
        report("under data parallelism (%d processes) a call without samples= raises RuntimeError on every rank: %s"
               % (w, (msg[0] or "")[:90]), all(m is not None and "samples=" in m for m in msg))
        fmsg = [r["refused_functional"] for r in ranks]
        report("... and so does dropouth.dropout (the functional form, which gave every rank the same masks); "
               "data_parallel=False opts out on every rank: %s" % (fmsg[0] or "")[:60],
               all(m is not None and "samples=" in m for m in fmsg) and all(r["functional_opt_out"] for r in ranks))
        equal, total, rep, n, gap = demo.measure(one, ranks, "torch")
        print("    nn.Dropout, %d processes (%s): %d of %d masks one process's, %d of %d local samples repeat rank 0's, "
              "weights %.1e from one process's" % (w, sizes, equal, total, rep, n, gap))
    return failures_exit()


if __name__ == "__main__":
    sys.exit(main())
