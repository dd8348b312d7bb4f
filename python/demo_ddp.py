"""demo_ddp.py - data-parallel training with dropouth.Dropout and with nn.Dropout, at 1, 2 and 4
processes (torch.distributed, gloo, CPU), measured side by side.     make demo-ddp

The same small model, data, seed and global batch in every run; only the number of processes
changes. Each step, the global batch of GLOBAL samples is cut into CHUNKS fixed chunks; chunk
k goes to rank k % world, which runs it forward and backward on its own (so a chunk's gradient
is computed the same way at every world size) and the chunks' gradients are summed in chunk
order after an all_gather: a fixed-order reduction.

- dropouth.Dropout: a layer reserves, per call, the positions of the whole global call
  (local elements x world size) and uses its rank's slice. So global sample j gets the mask
  that one process gives it, and the weights after training are bit-identical at 1, 2 and 4
  processes and equal to one process without torch.distributed.
- dropouth.Dropout + DistributedDataParallel (rank r takes samples r*B .. r*B + B - 1, DDP's
  all-reduce averages): the same masks as one process; the weights may differ in the last bits,
  since the all-reduce adds the ranks' gradients in another order than one process's matmul.
- nn.Dropout + DistributedDataParallel (the usual setup: torch.manual_seed(0) on every rank):
  each rank draws from its own copy of torch's generator, so every rank repeats rank 0's masks
  on its local samples, and the weights change with the world size.

Prints both, measured: weight hashes, how many global samples' masks equal one process's, how
many local samples repeat rank 0's mask.
"""
import hashlib
import os
import socket
import tempfile

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

import dropouth   # python3 python/demo_ddp.py finds python/dropouth beside it; else the installed one

GLOBAL, CHUNKS, LR = 16, 4, 0.05
STEPS = int(os.environ.get("DROPOUTH_DEMO_STEPS", "8"))
IN, HID, OUT = 12, 32, 3


def data():
    rng = np.random.default_rng(2024)
    x = rng.standard_normal((STEPS, GLOBAL, IN)).astype(np.float32)
    y = rng.integers(0, OUT, (STEPS, GLOBAL)).astype(np.int64)
    return torch.from_numpy(x), torch.from_numpy(y)


def model(kind, group=None):
    """The model; dropouth's layers take the data-parallel group (None: torch.distributed's
    default group where it is initialised, else one process)."""
    torch.manual_seed(0)
    dropouth.manual_seed(7)
    drop = (lambda p: dropouth.Dropout(p, data_parallel=group)) if kind == "dropouth" else (lambda p: torch.nn.Dropout(p))
    # dropout right after a Linear, whose outputs are not 0: the layer's output shows its mask
    return torch.nn.Sequential(torch.nn.Linear(IN, HID), drop(0.5), torch.nn.ReLU(),
                               torch.nn.Linear(HID, HID), drop(0.25), torch.nn.ReLU(), torch.nn.Linear(HID, OUT))


def digest(b):
    return hashlib.sha256(b).hexdigest()[:16]


def weights_of(m):
    return b"".join(p.detach().numpy().tobytes() for p in m.parameters())


def train_dropouth(rank, world, group=None):
    """Fixed-order data parallel training; (weights, {global sample: its first-layer mask, step 0})."""
    torch.set_num_threads(1)
    m = model("dropouth", group)
    xs, ys = data()
    c = GLOBAL // CHUNKS
    masks = {}
    grab = {}
    m[1].register_forward_hook(lambda mod, inp, out: grab.__setitem__("mask", (out != 0).numpy().copy()))
    for s in range(STEPS):
        mine = []
        for k in range(rank, CHUNKS, world):   # rank's chunks, in order: call m = k // world
            m.zero_grad()
            torch.nn.functional.cross_entropy(m(xs[s, k * c:(k + 1) * c]), ys[s, k * c:(k + 1) * c]).backward()
            mine.append(torch.cat([p.grad.reshape(-1) for p in m.parameters()]))
            if s == 0:
                for i in range(c):
                    masks[k * c + i] = grab["mask"][i].tobytes()
        mine = torch.stack(mine)
        if world > 1:
            parts = [torch.empty_like(mine) for _ in range(world)]
            dist.all_gather(parts, mine, group=group)
        else:
            parts = [mine]
        total = None
        for k in range(CHUNKS):                # the sum in chunk order, whatever the world size
            g = parts[k % world][k // world]
            total = g.clone() if total is None else total + g
        total = total / CHUNKS
        with torch.no_grad():
            at = 0
            for p in m.parameters():
                p -= LR * total[at:at + p.numel()].view_as(p)
                at += p.numel()
    return weights_of(m), masks


def train_nn_dropout(rank, world, group=None, kind="torch"):
    """The usual DDP: rank r takes samples r*G/W .. of each step, DDP averages the gradients."""
    torch.set_num_threads(1)
    m = model(kind, group)
    ddp = torch.nn.parallel.DistributedDataParallel(m, process_group=group) if world > 1 else m
    opt = torch.optim.SGD(m.parameters(), lr=LR)
    xs, ys = data()
    b = GLOBAL // world
    grab = {}
    m[1].register_forward_hook(lambda mod, inp, out: grab.__setitem__("mask", (out != 0).numpy().copy()))
    masks = {}
    for s in range(STEPS):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(ddp(xs[s, rank * b:(rank + 1) * b]), ys[s, rank * b:(rank + 1) * b]).backward()
        opt.step()
        if s == 0:
            for i in range(b):
                masks[rank * b + i] = grab["mask"][i].tobytes()
    return weights_of(m), masks


def _worker(rank, size, port, outdir, kinds, worlds):
    """One of `size` processes: trains at each world size w in `worlds` on ranks 0 .. w-1 (a
    process group of its own; all of them for w = size)."""
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), GLOO_SOCKET_IFNAME="lo")
    dist.init_process_group("gloo", rank=rank, world_size=size)
    try:
        for w in worlds:
            group = dist.new_group(list(range(w))) if w < size else None   # every rank takes part in new_group
            if rank >= w:
                continue
            for kind in kinds:
                if kind == "dropouth":
                    wts, masks = train_dropouth(rank, w, group)
                else:   # "torch": nn.Dropout + DDP; "dropouth-ddp": dropouth.Dropout + DDP
                    wts, masks = train_nn_dropout(rank, w, group, "dropouth" if kind == "dropouth-ddp" else "torch")
                torch.save({"weights": wts, "masks": masks}, os.path.join(outdir, "%s-%d-%d.pt" % (kind, w, rank)))
        dist.barrier()
    finally:
        dist.destroy_process_group()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


KINDS = ("dropouth", "dropouth-ddp", "torch")


def run_worlds(worlds=(1, 2, 4), kinds=KINDS):
    """{world: {kind: (weights (None where ranks differ), [masks dict of each rank])}}, all world
    sizes from one start of max(worlds) processes (gloo on CPU)."""
    size = max(worlds)
    with tempfile.TemporaryDirectory() as outdir:
        mp.spawn(_worker, args=(size, free_port(), outdir, kinds, list(worlds)), nprocs=size, join=True)
        out = {}
        for w in worlds:
            out[w] = {}
            for kind in kinds:
                runs = [torch.load(os.path.join(outdir, "%s-%d-%d.pt" % (kind, w, r))) for r in range(w)]
                same_weights = all(r["weights"] == runs[0]["weights"] for r in runs)
                out[w][kind] = (runs[0]["weights"] if same_weights else None, [r["masks"] for r in runs])
        return out


def local_order(kind, rank, world):
    """Global sample numbers in the order rank `rank` runs them at step 0."""
    if kind != "dropouth":
        b = GLOBAL // world
        return [rank * b + i for i in range(b)]
    c = GLOBAL // CHUNKS
    return [k * c + i for k in range(rank, CHUNKS, world) for i in range(c)]


def measure(one, worlds):
    """{kind: {world: (weights hash or None, == one process, masks equal to one process's,
    local samples of ranks 1.. repeating rank 0's mask at the same local index, how many)}}."""
    out = {}
    for kind in one:
        out[kind] = {}
        for w, res in worlds.items():
            wts, rank_masks = res[kind]
            merged = {}
            for mk in rank_masks:
                merged.update(mk)
            equal = sum(merged[j] == one[kind][1][j] for j in range(GLOBAL))
            r0 = [rank_masks[0][j] for j in local_order(kind, 0, w)]
            rep = n = 0
            for r in range(1, w):
                for i, j in enumerate(local_order(kind, r, w)):
                    rep += rank_masks[r][j] == r0[i]
                    n += 1
            out[kind][w] = (None if wts is None else digest(wts), wts == one[kind][0], equal, rep, n)
    return out


def one_process():
    """Each kind trained by one process without torch.distributed: the reference."""
    return {"dropouth": train_dropouth(0, 1), "dropouth-ddp": train_nn_dropout(0, 1, None, "dropouth"),
            "torch": train_nn_dropout(0, 1)}


def main():
    t = "dropouth.Dropout (fixed-order reduction) vs nn.Dropout + DDP, gloo on CPU, global batch %d, %d steps" % (GLOBAL, STEPS)
    print(t)
    one = one_process()
    worlds = run_worlds((1, 2, 4))
    table = measure(one, worlds)
    for kind, name in (("dropouth", "dropouth.Dropout, fixed-order reduction"),
                       ("dropouth-ddp", "dropouth.Dropout + DistributedDataParallel (all-reduce: the order of the sum changes)"),
                       ("torch", "nn.Dropout + DistributedDataParallel")):
        print("\n%s (one process without torch.distributed: weights %s)" % (name, digest(one[kind][0])))
        print("  processes  weights           = one process  masks = one process's  ranks 1.. repeat rank 0's masks")
        for w, (h, eq, equal, rep, n) in table[kind].items():
            wts = worlds[w][kind][0]
            gap = "" if eq or wts is None else "  (largest weight difference %.1e)" % float(np.abs(
                np.frombuffer(wts, np.float32) - np.frombuffer(one[kind][0], np.float32)).max())
            print("  %9d  %-16s  %-13s  %2d of %d samples       %s%s" % (
                w, h or "ranks differ", "yes" if eq else "no", equal, GLOBAL, "%d of %d samples" % (rep, n) if n else "-", gap))


if __name__ == "__main__":
    main()
