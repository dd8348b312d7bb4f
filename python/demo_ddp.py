"""demo_ddp.py - data-parallel training with dropouth.Dropout and with nn.Dropout, at 1, 2 and 3
processes (torch.distributed, gloo, CPU), measured side by side.     make demo-ddp

The same small model, data, seed and global batch in every run; only the number of processes
changes. Rank r of w takes the global samples r, r + w, r + 2w, ... of each step, as
torch.utils.data.DistributedSampler interleaves them, so at 3 processes the local batches are
uneven (6, 5, 5 of 16). Every rank seeds torch alike (torch.manual_seed(0), as DDP setups do so
that the initial weights agree), and the gradients are summed over the ranks (all_reduce).

- dropouth.Dropout, called as layer(h, samples=global indices): every global sample draws the
  positions, and so the mask, that one process holding the whole batch gives it, whatever the
  sampler order and the local batch sizes. The weights differ from one process's only by the
  order of the gradient sums (a few units in the last place).
- nn.Dropout: each rank draws its local batch's masks from its own copy of torch's generator, so
  rank r's i-th local sample repeats rank 0's i-th mask, and the masks (and the weights) change
  with the world size.

Prints, measured: for each world size, how many (step, global sample) masks equal one process's,
how many local samples repeat rank 0's mask, the largest weight difference to one process.
"""
import os
import socket
import tempfile

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

import dropouth   # python3 python/demo_ddp.py finds python/dropouth beside it; else the installed one

GLOBAL, LR = 16, 0.05
STEPS = int(os.environ.get("DROPOUTH_DEMO_STEPS", "6"))
IN, HID, OUT = 12, 32, 3
KINDS = ("dropouth", "torch")


def data():
    rng = np.random.default_rng(2024)
    x = rng.standard_normal((STEPS, GLOBAL, IN)).astype(np.float32)
    y = rng.integers(0, OUT, (STEPS, GLOBAL)).astype(np.int64)
    return torch.from_numpy(x), torch.from_numpy(y)


class Net(torch.nn.Module):
    """Two dropout layers after Linear layers (whose outputs are not 0: the output shows the mask)."""

    def __init__(self, kind):
        super().__init__()
        drop = dropouth.Dropout if kind == "dropouth" else torch.nn.Dropout
        self.kind = kind
        self.l1, self.l2, self.l3 = torch.nn.Linear(IN, HID), torch.nn.Linear(HID, HID), torch.nn.Linear(HID, OUT)
        self.d1, self.d2 = drop(0.5), drop(0.25)

    def forward(self, x, samples=None):
        kw = {"samples": samples} if self.kind == "dropouth" else {}
        h = torch.relu(self.d1(self.l1(x), **kw))
        return self.l3(torch.relu(self.d2(self.l2(h), **kw)))


def train(kind, rank, world):
    """(weights, {(step, global sample): its first-layer mask}) of rank `rank` of `world`."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    m = Net(kind)
    xs, ys = data()
    grab = {}
    m.d1.register_forward_hook(lambda mod, inp, out: grab.__setitem__("mask", (out != 0).numpy().copy()))
    masks = {}
    for s in range(STEPS):
        idx = list(range(rank, GLOBAL, world))          # DistributedSampler's interleaved shard
        m.zero_grad()
        loss = torch.nn.functional.cross_entropy(m(xs[s, idx], samples=idx if world > 1 else None), ys[s, idx],
                                                 reduction="sum") / GLOBAL
        loss.backward()
        for i, j in enumerate(idx):
            masks[(s, j)] = grab["mask"][i].tobytes()
        if world > 1:
            for p in m.parameters():
                dist.all_reduce(p.grad)
        with torch.no_grad():
            for p in m.parameters():
                p -= LR * p.grad
    return np.concatenate([p.detach().numpy().ravel() for p in m.parameters()]), masks


def _worker(rank, world, port, outdir):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), GLOO_SOCKET_IFNAME="lo")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        out = {kind: train(kind, rank, world) for kind in KINDS}
        try:   # under data parallelism a call without samples= cannot give one-process masks: it must refuse
            Net("dropouth")(torch.ones(2, IN))
            out["refused"] = None
        except RuntimeError as e:
            out["refused"] = str(e)
        try:   # the functional form, the same (models that call dropout functionally)
            dropouth.dropout(torch.ones(2, IN), 0.5)
            out["refused_functional"] = None
        except RuntimeError as e:
            out["refused_functional"] = str(e)
        # data_parallel=False: each rank from its own generator, as nn.Dropout (no error)
        out["functional_opt_out"] = dropouth.dropout(torch.ones(2, IN), 0.5, data_parallel=False).shape == (2, IN)
        torch.save(out, os.path.join(outdir, "%d.pt" % rank))
        dist.barrier()
    finally:
        dist.destroy_process_group()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_world(world):
    """[each rank's {kind: (weights, masks), "refused": message}] of one run at `world` processes."""
    with tempfile.TemporaryDirectory() as outdir:
        mp.spawn(_worker, args=(world, free_port(), outdir), nprocs=world, join=True)
        # weights_only=False: the files hold NumPy arrays, written a moment ago by this run's
        # own workers (torch 2.6 and later load only tensors by default)
        return [torch.load(os.path.join(outdir, "%d.pt" % r), weights_only=False) for r in range(world)]


def measure(one, ranks, kind):
    """(masks equal to one process's, how many, local samples repeating rank 0's, how many,
    largest weight difference to one process)."""
    world = len(ranks)
    merged = {}
    for r in ranks:
        merged.update(r[kind][1])
    equal = sum(merged[k] == one[kind][1][k] for k in one[kind][1])
    rep = n = 0
    for s in range(STEPS):
        r0 = list(range(0, GLOBAL, world))
        for r in range(1, world):
            for i, j in enumerate(range(r, GLOBAL, world)):
                rep += ranks[r][kind][1][(s, j)] == ranks[0][kind][1][(s, r0[i])]
                n += 1
    gap = float(np.abs(ranks[0][kind][0] - one[kind][0]).max())
    return equal, len(one[kind][1]), rep, n, gap


def one_process():
    return {kind: train(kind, 0, 1) for kind in KINDS}


def main():
    print("dropouth.Dropout(samples=global indices) vs nn.Dropout, gloo on CPU, global batch %d, %d steps, "
          "DistributedSampler's interleaved shards" % (GLOBAL, STEPS))
    one = one_process()
    results = {w: run_world(w) for w in (2, 3)}
    for kind, name in (("dropouth", "dropouth.Dropout, layer(h, samples=global indices)"),
                       ("torch", "nn.Dropout, every rank seeded alike")):
        print("\n%s" % name)
        print("  processes  local batches  masks = one process's  local samples repeating rank 0's  "
              "largest weight difference to one process")
        for w, ranks in results.items():
            equal, total, rep, n, gap = measure(one, ranks, kind)
            sizes = "/".join(str(len(range(r, GLOBAL, w))) for r in range(w))
            print("  %9d  %13s  %3d of %3d              %3d of %3d                         %.1e"
                  % (w, sizes, equal, total, rep, n, gap))


if __name__ == "__main__":
    main()
