"""test_ddp.py - data parallel at 1, 2 and 4 processes (torch.distributed, gloo, CPU).

Oracle: one process without torch.distributed. With dropouth.Dropout and a fixed-order
gradient reduction (python/demo_ddp.py), every world size must give that process's masks for
every global sample and its final weights, bit for bit; ranks must not repeat each other's
masks. nn.Dropout + DDP is measured beside it and printed (not a check: it is torch's
behaviour). One start of 4 processes runs all three world sizes; 3 steps, a small model.
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
    worlds = demo.run_worlds((1, 2, 4))
    table = demo.measure(one, worlds)
    for w, (h, eq, equal, rep, n) in table["dropouth"].items():
        report("dropouth.Dropout, %d process%s (gloo): final weights %s, bit-identical on every rank and to one "
               "process without torch.distributed (%s)" % (w, "es" if w > 1 else "", h, demo.digest(one["dropouth"][0])),
               h is not None and eq)
        report("dropouth.Dropout, %d process%s: each of the %d global samples gets one process's mask; ranks repeat "
               "none of rank 0's (%d of %d)" % (w, "es" if w > 1 else "", demo.GLOBAL, rep, n),
               equal == demo.GLOBAL and rep == 0, "%d of %d masks equal" % (equal, demo.GLOBAL))
    for w, (h, eq, equal, rep, n) in table["dropouth-ddp"].items():
        report("dropouth.Dropout + DistributedDataParallel, %d process%s: each of the %d global samples gets one "
               "process's mask; ranks repeat none of rank 0's (%d of %d)" % (w, "es" if w > 1 else "", demo.GLOBAL, rep, n),
               equal == demo.GLOBAL and rep == 0, "%d of %d masks equal" % (equal, demo.GLOBAL))
        print("    dropouth.Dropout + DDP (all-reduce), %d process%s: weights %s (%s one process's)" % (
            w, "es" if w > 1 else "", h, "==" if eq else "!="))
    for w, (h, eq, equal, rep, n) in table["torch"].items():
        print("    nn.Dropout + DDP, %d process%s: weights %s (%s one process's), %d of %d global samples with one "
              "process's mask, %s of rank 0's masks repeated on other ranks" % (
                  w, "es" if w > 1 else "", h, "==" if eq else "!=", equal, demo.GLOBAL, "%d of %d" % (rep, n) if n else "-"))
    return failures_exit()


if __name__ == "__main__":
    sys.exit(main())
