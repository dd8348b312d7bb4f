"""test_torch.py - dropouth in PyTorch: exact under activation checkpointing by construction,
seeded by torch.manual_seed, an nn.Dropout to every tool, and the same bits as the C library.

Run by tests/python/suite.sh with the installed package. Oracles: for checkpointing, the same
model and steps without checkpointing (gradients compared bit for bit), with every scenario run
again with nn.Dropout in the same harness (it must pass too: the harness is fair) and a control
that must fail (preserve_rng_state=False: the harness sees a wrong mask); for values,
dropouth's NumPy functions (checked against an independent Philox in test_numpy.py); for the
manners, torch itself (nn.Dropout's signature, state_dict tools, pickle, gradcheck).
`test_torch.py --first MODE` is the fresh process of the "first call" checks.
CUDA paths print SKIP where there is no GPU.
"""
import copy
import io
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import torch
import torch.utils.checkpoint as tcp

import dropouth
import common
from common import failures_exit, report, skip

torch.set_num_threads(1)   # bit-identical references: one reduction order
M64 = (1 << 64) - 1


def same(a, b):
    """Bit-identical tensors (so -0 differs from +0 and NaNs compare by payload)."""
    ints = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64}
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(
        a.detach().contiguous().view(ints[a.dtype]), b.detach().contiguous().view(ints[b.dtype]))


def all_same(xs, ys):
    return len(xs) == len(ys) and all(same(a, b) for a, b in zip(xs, ys))


def raises(exc, fn):
    try:
        fn()
    except exc as e:
        return str(e)
    except Exception:   # noqa: BLE001  another type is a failure too
        return None
    return None


# ---- activation checkpointing: scenarios run plain and checkpointed, dropouth and nn.Dropout ----
KINDS = {"dropouth": lambda p: dropouth.Dropout(p), "nn.Dropout": lambda p: torch.nn.Dropout(p)}
MODES = ("reentrant", "non-reentrant")


class Net(torch.nn.Module):
    """Two dropout layers; `block` is the checkpointed piece; `multi` calls one layer 4 times
    on the same input (multi-sample dropout)."""

    def __init__(self, kind):
        super().__init__()
        self.lin1, self.lin2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 16)
        self.drop1, self.drop2 = KINDS[kind](0.3), KINDS[kind](0.2)

    def block(self, h):
        return self.drop2(torch.tanh(self.lin2(self.drop1(torch.relu(self.lin1(h))))))

    def multi(self, h):
        h = torch.relu(self.lin1(h))
        return torch.stack([self.lin2(self.drop1(h)) for _ in range(4)]).mean(0)

    def run(self, x, ckpt, fn="block", **kw):
        f = getattr(self, fn)
        if ckpt is None:
            return f(x)
        return tcp.checkpoint(f, x, use_reentrant=(ckpt == "reentrant"), **kw)


DEVICE = "cpu"    # test_cuda runs the scenarios again on the GPU


def fresh(kind):
    torch.manual_seed(0)
    if DEVICE != "cpu":
        torch.cuda.manual_seed(0)
    net = Net(kind).to(DEVICE)
    x = torch.randn(6, 16).to(DEVICE).requires_grad_(True)
    return net, x


def grads(net, x):
    out = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
    net.zero_grad()
    x.grad = None
    return out


def sc_multi_sample(kind, ckpt):
    net, x = fresh(kind)
    out = []
    for _ in range(2):
        net.run(x, ckpt, "multi").square().sum().backward()
        out += grads(net, x)
    return out


def sc_rdrop(kind, ckpt, **kw):
    """R-Drop / SimCSE: the model twice on the same batch, a loss tying the two passes."""
    net, x = fresh(kind)
    out = []
    for _ in range(2):
        y1, y2 = net.run(x, ckpt, **kw), net.run(x, ckpt, **kw)
        (y1.square().sum() + y2.square().sum() + (y1 - y2).square().sum()).backward()
        out += grads(net, x)
    return out


def sc_extra_forward(kind, ckpt, ctx=torch.no_grad):
    """An extra forward on the batch between the forward and the backward (monitoring, a teacher)."""
    net, x = fresh(kind)
    out = []
    for _ in range(2):
        y = net.run(x, ckpt)
        with ctx():
            net.run(x, ckpt)
        y.square().sum().backward()
        out += grads(net, x)
    return out


def sc_pipeline(kind, ckpt):
    """Pipeline order: fwd mb1, fwd mb2, bwd mb1, fwd mb3, bwd mb2, bwd mb3 (gradients accumulate)."""
    net, x = fresh(kind)
    mbs = [x[0:2], x[2:4], x[4:6]]
    y1, y2 = net.run(mbs[0], ckpt), net.run(mbs[1], ckpt)
    y1.square().sum().backward()
    g1 = grads(net, x)
    y3 = net.run(mbs[2], ckpt)
    y2.square().sum().backward()
    g2 = grads(net, x)
    y3.square().sum().backward()
    return g1 + g2 + grads(net, x)


class Boom(Exception):
    pass


def boom(grad):
    raise Boom()


def sc_backward_raises(kind, ckpt):
    """Step 0's backward raises half way (a NaN guard, an OOM skip); steps 1 and 2 must be exact."""
    net, x = fresh(kind)
    out = []
    for step in range(3):
        h = net.run(x, ckpt)
        if step == 0:
            h.register_hook(boom)
        y = net.run(h, ckpt)          # a second checkpointed block: its recomputation ran before the raise
        try:
            y.square().sum().backward()
        except Boom:
            net.zero_grad()
            x.grad = None
            continue
        out += grads(net, x)
    return out


def sc_forward_in_hook(kind, ckpt):
    """A forward of another model with dropout inside a backward hook, between two blocks' recomputations."""
    net, x = fresh(kind)
    other = Net(kind)
    seen = []
    out = []
    for _ in range(2):
        h = net.run(x, ckpt)
        h.register_hook(lambda g: seen.append(other.block(torch.ones(3, 16)).detach()))
        net.run(h, ckpt).square().sum().backward()
        out += grads(net, x)
    return out + seen


SCENARIOS = [
    ("multi-sample dropout (one layer 4 times on one input, in the checkpointed block)", sc_multi_sample),
    ("R-Drop double pass (the model twice on the same batch)", sc_rdrop),
    ("an extra no_grad forward on the batch between forward and backward", sc_extra_forward),
    ("an extra inference_mode forward on the batch between forward and backward",
     lambda k, c: sc_extra_forward(k, c, torch.inference_mode)),
    ("pipeline order (fwd mb1, fwd mb2, bwd mb1, fwd mb3, bwd mb2, bwd mb3)", sc_pipeline),
    ("a backward that raises half way, then two steps", sc_backward_raises),
    ("a forward of another model inside a backward hook", sc_forward_in_hook),
]


def test_checkpoint():
    for name, fn in SCENARIOS:
        for kind in KINDS:
            plain = fn(kind, None)
            for mode in MODES:
                got = fn(kind, mode)
                report("checkpoint (%s), %s: %s: gradients bit-identical to the model without checkpointing"
                       % (mode, kind, name), all_same(plain, got))
    # the control: without preserve_rng_state a recomputation draws other masks, for both kinds;
    # the harness must see it (else the lines above prove nothing)
    for kind in KINDS:
        plain = sc_rdrop(kind, None)
        for mode in MODES:
            got = sc_rdrop(kind, mode, preserve_rng_state=False)
            report("control: checkpoint (%s, preserve_rng_state=False), %s: the harness sees the wrong masks "
                   "(gradients differ)" % (mode, kind), not all_same(plain, got))
    # model.eval() between a checkpointed forward and its backward: the recomputation skips the
    # dropout, so the layers after it would get the gradients of a network without it. With
    # use_reentrant=False torch counts saved tensors and nn.Dropout raises (it saves its mask);
    # dropouth saves a token tensor so that it raises there too (docs/PYTHON.md section 9)
    for kind in KINDS:
        net, x = fresh(kind)
        y = net.run(x, "non-reentrant")
        net.eval()
        msg = raises(RuntimeError, lambda: y.square().sum().backward())
        report("checkpoint (non-reentrant), %s: model.eval() before the backward raises (the "
               "recomputation would skip the dropout): %s" % (kind, (msg or "no error")[:60]), msg is not None)
    # the same with the dropout last in the block (x + drop(f(x))): torch checks a recomputed tensor
    # only where a backward reads it, so dropouth's backward reads its token as nn.Dropout reads
    # its mask (before, it ran, with the training gradient here: right by chance, unlike nn.Dropout)
    for kind in KINDS:
        torch.manual_seed(0)
        drop = dropouth.Dropout if kind == "dropouth" else torch.nn.Dropout
        net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), drop(0.5))
        x = torch.randn(3, 4, requires_grad=True)
        y = tcp.checkpoint(lambda h: h + net(h), x, use_reentrant=False)
        net.eval()
        msg = raises(RuntimeError, lambda: y.square().sum().backward())
        report("checkpoint (non-reentrant), %s last in the block: model.eval() before the backward raises: %s"
               % (kind, (msg or "no error")[:60]), msg is not None)
    # where nn.Dropout saves nothing (p = 0: it returns its input) the layer saves nothing either:
    # model.eval() there changes nothing, and the backward runs for both, as without checkpointing
    for kind in KINDS:
        torch.manual_seed(0)
        drop = dropouth.Dropout if kind == "dropouth" else torch.nn.Dropout
        net = torch.nn.Sequential(torch.nn.Linear(6, 6), drop(0.0), torch.nn.Tanh(), torch.nn.Linear(6, 6))
        x = torch.randn(3, 6, requires_grad=True)
        y = tcp.checkpoint(net, x, use_reentrant=False)
        net.eval()
        msg = raises(RuntimeError, lambda: y.square().sum().backward())
        report("checkpoint (non-reentrant), %s(p=0): model.eval() before the backward changes nothing and "
               "the backward runs: %s" % (kind, (msg or "no error")[:60]), msg is None and x.grad is not None)
    # torch's RNG state after a checkpointed step == after a plain one (checkpoint forks around the
    # recomputation; dropouth takes only from the generator)
    states = []
    for ckpt in (None,) + MODES:
        sc_rdrop("dropouth", ckpt)
        states.append(torch.get_rng_state())
    report("torch's RNG state after checkpointed steps == after plain ones (both modes)",
           all(torch.equal(states[0], s) for s in states[1:]))


def transformer_rdrop(ckpt, steps=5):
    """A 2-layer nn.TransformerEncoder whose nn.Dropout modules are swapped for dropouth.Dropout
    (model surgery by isinstance), trained with R-Drop, each layer checkpointed or not."""
    torch.manual_seed(0)
    enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1), 2)
    for layer in enc.layers:
        for name, m in list(layer.named_children()):
            if isinstance(m, torch.nn.Dropout):
                setattr(layer, name, dropouth.Dropout(m.p))
    opt = torch.optim.Adam(enc.parameters(), 1e-3)
    x = torch.randn(5, 3, 16)

    def run(h):
        for layer in enc.layers:
            h = layer(h) if ckpt is None else tcp.checkpoint(layer, h, use_reentrant=(ckpt == "reentrant"))
        return h
    for _ in range(steps):
        opt.zero_grad()
        y1, y2 = run(x.requires_grad_(True)), run(x)
        (y1.square().mean() + y2.square().mean() + (y1 - y2).square().mean()).backward()
        opt.step()
    n = sum(isinstance(m, dropouth.Dropout) for m in enc.modules())
    return [p.detach().clone() for p in enc.parameters()], n


def test_transformer():
    plain, n = transformer_rdrop(None)
    for mode in MODES:
        got, _ = transformer_rdrop(mode)
        report("nn.TransformerEncoder (2 layers) with its %d nn.Dropout swapped for dropouth.Dropout, R-Drop, 5 Adam "
               "steps, each layer checkpointed (%s): weights bit-identical to no checkpointing" % (n, mode),
               n == 6 and all_same(plain, got))


def first_call(mode):
    """In a fresh process: the first call of the process's first layer under `mode`, then R-Drop
    training checkpointed and plain must agree (the first call leaves nothing behind); the same
    with nn.Dropout in another fresh process, for the harness's sake."""
    kind = mode.split(":")[0]
    mode = mode.split(":")[1]
    layer = KINDS[kind](0.5)
    x = torch.ones(4, 8, requires_grad=True)
    if mode == "no_grad":
        with torch.no_grad():
            layer(x)
    elif mode == "inference_mode":
        with torch.inference_mode():
            layer(torch.ones(4, 8))
    else:   # inside a checkpoint
        tcp.checkpoint(layer, x, use_reentrant=(mode == "reentrant checkpoint")).sum().backward()
    plain = sc_rdrop(kind, None)
    ok = all(all_same(plain, sc_rdrop(kind, m)) for m in MODES)
    report("%s: the first call of a process %s: later checkpointed training (both modes) == plain, bit for bit"
           % (kind, "under torch.no_grad()" if mode == "no_grad" else "under torch.inference_mode()"
              if mode == "inference_mode" else "inside a " + mode), ok)


def test_first_call():
    for mode in ["%s:%s" % (k, m) for k in KINDS
                 for m in ("no_grad", "inference_mode", "reentrant checkpoint", "non-reentrant checkpoint")]:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--first", mode], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, cwd=os.path.dirname(os.path.abspath(__file__)))
        lines = [l for l in r.stdout.splitlines() if l.startswith(("PASS", "FAIL"))]
        if not lines or r.returncode not in (0, 1):
            report("the first dropouth call of a process %s (a fresh process)" % mode, False,
                   "exit %d: %s" % (r.returncode, r.stdout.strip()[-400:]))
        for line in lines:
            print(line)
            sys.stdout.flush()
            common._failures[0] += line.startswith("FAIL")


# ---- seeding: torch.manual_seed is the whole idiom -------------------------------------------
def taken_value():
    """The value the next call takes from torch's CPU generator (torch's state is put back)."""
    state = torch.get_rng_state()
    v = int(torch.empty((), dtype=torch.int64).random_(-(1 << 63), None)) & M64
    torch.set_rng_state(state)
    return v


def seeded_masks(seed, n=4096):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.5), dropouth.Dropout(0.5))
    x = torch.ones(4, n // 4)
    return [(model[1](x) != 0), (model[2](x) != 0), (model[1](x) != 0)]


def test_seeding():
    a0, a1, a2 = seeded_masks(0), seeded_masks(1), seeded_masks(2)
    report("torch.manual_seed 0, 1, 2: three different sets of masks (a seed sweep trains differently)",
           not torch.equal(a0[0], a1[0]) and not torch.equal(a1[0], a2[0]) and not torch.equal(a0[0], a2[0]))
    report("torch.manual_seed(0) again, the same model code: the same masks", all(torch.equal(a, b) for a, b in zip(a0, seeded_masks(0))))
    report("two layers of one model, and one layer's two calls: different masks",
           not torch.equal(a0[0], a0[1]) and not torch.equal(a0[0], a0[2]))
    code = ("import sys, torch, dropouth, hashlib; torch.manual_seed(0); "
            "m = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.5), dropouth.Dropout(0.5)); x = torch.ones(4, 1024); "
            "print(hashlib.sha256(b''.join((l(x) != 0).numpy().tobytes() for l in (m[1], m[2], m[1]))).hexdigest())")
    other = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    import hashlib
    here = hashlib.sha256(b"".join(m.numpy().tobytes() for m in a0)).hexdigest()
    report("the same torch seed and model code in another process: the same masks (%s)" % here[:16], other == here, other)
    # MATLAB's recipe: seed, build, train; seed, build, train: the learnables are equal
    w = []
    for _ in range(2):
        torch.manual_seed(42)
        m = make_model()
        opt = torch.optim.SGD(m.parameters(), 0.1)
        train(m, opt, 0, 5)
        w.append(weights(m))
    report("seed, build, train; seed, build, train (in one process): equal weights", w[0] == w[1])
    # the mapping, pinned: the mask is dropout.h's at (seed = the value taken, stream, positions from 0)
    torch.manual_seed(5)
    layer = dropouth.Dropout(0.25, stream=7)
    x = torch.randn(3, 50)
    v = taken_value()
    before = torch.get_rng_state()
    want, _ = dropouth.forward(x.numpy(), 0.25, seed=v, stream=7, pos=0)
    report("a call's mask is dropout.h's at (seed = 64 bits taken from torch's CPU generator, stream = the layer's, "
           "positions from 0)", np.array_equal(layer(x).numpy(), want))
    after = torch.get_rng_state()
    torch.set_rng_state(before)
    torch.empty((), dtype=torch.int64).random_(-(1 << 63), None)
    report("it took exactly those 64 bits: torch's state moved as one int64 random_() moves it",
           torch.equal(after, torch.get_rng_state()))
    torch.manual_seed(3)
    s0 = dropouth.Dropout(0.5)(torch.ones(1000))
    torch.manual_seed(3)
    s1 = dropouth.Dropout(0.5, stream=1)(torch.ones(1000))
    report("stream=: one value of torch's generator, two streams, two masks", not torch.equal(s0 != 0, s1 != 0))
    msg = raises(AttributeError, lambda: dropouth.manual_seed(1))
    report("dropouth.manual_seed is gone, with a message pointing to torch.manual_seed: %s" % msg,
           msg is not None and "torch.manual_seed" in msg)
    msg = raises(TypeError, lambda: dropouth.Dropout(0.5, seed=3))
    report("Dropout(seed=...) is refused with the reason: %s" % msg, msg is not None and "torch.manual_seed" in msg)


def test_resume():
    """Resume = the model's state_dict + torch's RNG state, as with nn.Dropout."""
    torch.manual_seed(0)
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 20)
    whole = weights(m)
    torch.set_num_threads(2)
    torch.manual_seed(0)
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 20)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    report("training with dropouth.Dropout: identical weights with 1 and %d torch threads" % threads, weights(m) == whole)
    torch.manual_seed(0)
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 10)
    buf = io.BytesIO()
    torch.save({"model": m.state_dict(), "opt": opt.state_dict(), "rng": torch.get_rng_state()}, buf)
    buf.seek(0)
    ck = torch.load(buf)
    torch.manual_seed(99)   # a fresh process: another seed, the model built anew
    m2 = make_model()
    opt2 = torch.optim.Adam(m2.parameters(), 1e-2)
    m2.load_state_dict(ck["model"])
    opt2.load_state_dict(ck["opt"])
    torch.set_rng_state(ck["rng"])
    train(m2, opt2, 10, 10)
    report("resume: state_dict + torch.get_rng_state() saved after 10 steps, loaded into a model built after another "
           "seed, 10 more steps == 20 unbroken", weights(m2) == whole)


def make_model():
    return torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), dropouth.Dropout(0.3),
                               torch.nn.Linear(32, 32), torch.nn.ReLU(), dropouth.Dropout(0.3), torch.nn.Linear(32, 2))


_g = np.random.default_rng(3)
DATA = torch.from_numpy(_g.standard_normal((20, 16, 8)).astype(np.float32))
LABELS = torch.from_numpy((_g.standard_normal((20, 16)) > 0).astype(np.int64))


def train(model, opt, first, steps):
    for s in range(first, first + steps):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(DATA[s]), LABELS[s]).backward()
        opt.step()


def weights(model):
    return b"".join(p.detach().numpy().tobytes() for p in model.parameters())


# ---- an nn.Dropout to every tool -----------------------------------------------------------
def both_models(kind):
    torch.manual_seed(0)
    D = dropouth.Dropout if kind == "dropouth" else torch.nn.Dropout
    return torch.nn.Sequential(torch.nn.Linear(8, 8), D(0.25), torch.nn.ReLU(), torch.nn.Linear(8, 4), D(0.1))


def test_nn_dropout():
    model = both_models("dropouth")
    report("isinstance(layer, nn.Dropout): True (a subclass)", isinstance(model[1], torch.nn.Dropout))
    model.eval()
    for m in model.modules():          # the MC-dropout idiom: dropout layers back on at eval
        if isinstance(m, torch.nn.Dropout):
            m.train()
    x = torch.ones(64, 8)
    report("MC dropout (eval, then every nn.Dropout train()): two passes differ", not torch.equal(model(x), model(x)))
    model.train()
    sd = model.state_dict()
    report("state_dict holds the Linear layers' tensors only (the layer keeps no state): %s" % sorted(sd),
           sorted(sd) == sorted(both_models("nn.Dropout").state_dict()) and all(isinstance(v, torch.Tensor) for v in sd.values()))
    cpu = {k: v.cpu() for k, v in sd.items()}
    n = sum(v.numel() for v in sd.values())
    ema = both_models("dropouth")
    with torch.no_grad():
        for e, v in zip(ema.state_dict().values(), sd.values()):
            e.copy_(e * 0.9 + v * 0.1)
    report("state_dict tools: {k: v.cpu()}, numel sums (%d), an EMA copy_ loop" % n, len(cpu) == len(sd) and n > 0)
    for src, dst in (("nn.Dropout", "dropouth"), ("dropouth", "nn.Dropout")):
        a, b = both_models(src), both_models(dst)
        torch.nn.init.constant_(a[0].weight, 0.5)
        msg = raises(RuntimeError, lambda: b.load_state_dict(a.state_dict(), strict=True))
        report("a state_dict of the model built with %s loads strictly into it built with %s" % (src, dst),
               msg is None and torch.equal(b[0].weight, a[0].weight), str(msg))
    old = dict(sd)
    old["1._extra_state"] = {"seed": 3, "stream": 0, "position": 16}   # what an earlier dropouth saved
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        msg = raises(RuntimeError, lambda: both_models("dropouth").load_state_dict(old, strict=True))
    report("a state_dict of an earlier dropouth (a dict in _extra_state) loads strictly, with a warning",
           msg is None and any("_extra_state" in str(x.message) for x in w), str(msg))
    try:
        buf = io.BytesIO()
        m = both_models("dropouth").eval()
        torch.onnx.export(m, torch.ones(2, 8), buf)
        report("torch.onnx.export of the model in eval (%d bytes)" % len(buf.getvalue()), len(buf.getvalue()) > 0)
    except Exception as e:   # noqa: BLE001
        if "onnx" in type(e).__module__ or "No module named" in str(e):
            skip("torch.onnx.export", "%s: %s" % (type(e).__name__, e))
        else:
            report("torch.onnx.export of the model in eval", False, "%s: %s" % (type(e).__name__, e))
    r = repr(dropouth.Dropout(0.5, stream=2))
    report("repr: %s (nn.Dropout's 'p=0.5, inplace=False' first)" % r, r == "Dropout(p=0.5, inplace=False, stream=2)")
    model = both_models("dropouth")
    buf = io.BytesIO()
    torch.save(model, buf)
    buf.seek(0)
    loaded = torch.load(buf, weights_only=False)   # a whole module (torch >= 2.6 loads tensors alone by default)
    state = torch.get_rng_state()
    y0 = model(x)
    torch.set_rng_state(state)
    report("torch.save(model) whole and torch.load: the same module, the same masks from the same RNG state",
           same(loaded(x), y0) and isinstance(loaded[1], dropouth.Dropout))
    torch.set_rng_state(state)
    report("pickle round trip; copy.deepcopy (the same masks from the same RNG state, as nn.Dropout)",
           same(pickle.loads(pickle.dumps(model))(x), y0) and (torch.set_rng_state(state) is None)
           and same(copy.deepcopy(model)(x), y0))


def test_jit_fx():
    layer = dropouth.Dropout(0.5)
    msg = raises(RuntimeError, lambda: torch.jit.trace(layer, torch.ones(4, 4)))
    report("torch.jit.trace in training mode: RuntimeError (it would freeze the mask): %s" % (msg or "")[:80],
           msg is not None and "trace" in msg)
    model = both_models("dropouth").eval()
    traced = torch.jit.trace(model, torch.ones(2, 8))
    report("torch.jit.trace in eval mode: traced (dropout is the identity)", same(traced(torch.ones(3, 8)), model(torch.ones(3, 8))))
    msg = raises(RuntimeError, lambda: torch.jit.script(both_models("dropouth")))
    report("torch.jit.script: RuntimeError saying why: %s" % (msg or "")[:80], msg is not None and "jit.script" in msg)
    from torch import fx
    model = both_models("dropouth")
    gm = fx.symbolic_trace(model)
    kinds = [n.op for n in gm.graph.nodes]
    x = torch.randn(5, 8)
    state = torch.get_rng_state()
    a = gm(x)
    torch.set_rng_state(state)
    report("torch.fx.symbolic_trace: each layer one call_module node (a leaf, as nn.Dropout); the traced module "
           "gives the model's masks and fresh ones per call", kinds.count("call_module") == 5 and same(a, model(x))
           and not torch.equal(gm(x), a), str(kinds))

    class F(torch.nn.Module):
        def forward(self, t):
            return dropouth.dropout(t * 2, 0.5)

    gf = fx.symbolic_trace(F())
    ops = [n.target for n in gf.graph.nodes if n.op == "call_function"]
    y1, y2 = gf(torch.ones(100)), gf(torch.ones(100))
    report("torch.fx.symbolic_trace of the functional: one call_function node, a fresh mask per call",
           dropouth.dropout in ops and not torch.equal(y1, y2))
    msg = raises(TypeError, lambda: fx.symbolic_trace(dropouth.Dropout(0.5)))
    report("torch.fx.symbolic_trace of the layer as the root module: TypeError saying what to trace (was an "
           "IndexError inside fx): %s" % (msg or "")[:80], msg is not None and "root" in msg)
    try:
        from torch.fx.experimental.proxy_tensor import make_fx
    except ImportError:
        make_fx = None
    if make_fx is None:
        skip("make_fx refused", "this torch has no torch.fx.experimental.proxy_tensor.make_fx")
    else:
        # a dispatch tracer records the output's allocation and not the library call: its graph
        # would return uninitialised memory, silently
        msg = raises(RuntimeError, lambda: make_fx(lambda v: dropouth.dropout(v, 0.5, seed=3, pos=0))(torch.ones(8)))
        msg2 = raises(RuntimeError, lambda: make_fx(lambda v: dropouth.Dropout(0.5)(v))(torch.ones(8)))
        report("make_fx (a dispatch tracer, as functorch's AOT Autograd): RuntimeError, not a graph of uninitialised "
               "memory: %s" % (msg or "")[:80], msg is not None and "dispatch" in msg and msg2 is not None)


# ---- samples: each global sample its one-process mask, whatever the order ----------------
def test_samples():
    torch.manual_seed(1)
    layer = dropouth.Dropout(0.5, data_parallel=False)
    x = torch.randn(16, 3, 5)
    state = torch.get_rng_state()
    whole = layer(x)                  # one process holding the whole batch of 16
    ok = True
    for order in (list(range(16)), list(range(1, 16, 3)), [15, 0, 7, 3], list(range(5, 11))):   # interleaved, shuffled, uneven
        torch.set_rng_state(state)
        part = layer(x[order], samples=torch.tensor(order))
        ok = ok and same(part, whole[order])
    report("samples=: a local batch of any global samples (interleaved as DistributedSampler's, shuffled, uneven "
           "sizes) gets each sample's one-process mask", ok)
    torch.set_rng_state(state)
    bd = dropouth.Dropout(0.5, batch_dim=1, data_parallel=False)
    xt = x.transpose(0, 1).contiguous()
    report("batch_dim=1: positions run sample by sample, as with the batch first",
           same(bd(xt), whole.transpose(0, 1)))
    for bad, exc, why in (([0, 1], ValueError, "2 global sample indices for a local batch of 4"),
                          ([2 ** 63, 0, 1, 2], ValueError, "past 2^64"),
                          ([0, 1, 1, 2], ValueError, "twice"), (torch.tensor([0.0, 1, 2, 3]), TypeError, "integer"),
                          ({3, 0, 1, 2}, TypeError, "ordered"), ({0: 0, 1: 1, 2: 2, 3: 3}, TypeError, "ordered"),
                          (iter([0, 1, 2, 3]), TypeError, "ordered"),
                          # a boolean selection mask: its elements index as 1 and 0
                          (np.array([True, False, True, True]), TypeError, "boolean"),
                          ([torch.tensor(True), 0, 2, 3], TypeError, "samples[0]"),
                          ([np.True_, 0, 2, 3], TypeError, "samples[0]")):
        msg = raises(exc, lambda: layer(torch.ones(4, 3), samples=bad))
        report("samples=%s: %s: %s" % (bad, exc.__name__, msg), msg is not None and why in msg)
    x = torch.randn(8, 6, requires_grad=True)
    torch.manual_seed(4)
    layer(x[[1, 5, 6, 2]], samples=[1, 5, 6, 2]).square().sum().backward()
    g = x.grad.clone()
    x.grad = None
    torch.manual_seed(4)
    y = layer(x)
    (y[[1, 5, 6, 2]]).square().sum().backward()
    report("samples=: the gradient is the one-process gradient of those samples", same(g, x.grad))
    # a global batch smaller than the world (an epoch's last batch): a rank with no sample at
    # one step must still stay in step with the one-process generator at the next
    torch.manual_seed(0)
    one = [layer(torch.ones(2, 8)), layer(torch.ones(3, 8))]
    torch.manual_seed(0)
    empty = layer(torch.ones(0, 8), samples=[])
    later = layer(torch.ones(1, 8), samples=[2])
    report("samples=: a rank whose share of a step is empty takes its value, so its next step is the one-process "
           "mask (global batches 2 then 3, rank 2 of 3)", empty.shape == (0, 8) and same(later[0], one[1][2]))
    torch.manual_seed(0)
    state = torch.get_rng_state()
    layer(torch.ones(0, 8))
    report("without samples= an empty tensor takes nothing, as nn.Dropout", torch.equal(state, torch.get_rng_state()))
    # a tensor of more dims than the library's view takes (70, most of one element), on the strided
    # path (samples=; it raised after taking torch's value): the mask of its flat twin
    xs = torch.randn([2, 33] + [1] * 68)
    torch.manual_seed(5)
    many = layer(xs, samples=[1, 0])
    torch.manual_seed(5)
    flat = layer(xs.reshape(2, 33), samples=[1, 0])
    report("samples= on a tensor of 70 dims (68 of one element): the mask of its 2-dim twin", same(many.reshape(2, 33), flat))
    # ranks that pad their batches to lengths of their own: rank 0's samples are 12 x 16, rank
    # 1's 5 x 16, the same torch generator state on both. Placed by their own sizes, rank 1's
    # global sample 1 starts at position 80, inside rank 0's global sample 0: the same bits there
    # (the control, which shows the check can fail). positions_per_sample = 12 * 16, the longest
    # padding's, keeps every sample apart, and each real element gets the mask of one process
    # holding the batch padded to 12.
    torch.manual_seed(3)
    state = torch.get_rng_state()
    whole = layer(torch.ones(4, 12, 16))

    def rank(idx, t, pps, functional=False):
        torch.set_rng_state(state)
        h = torch.ones(len(idx), t, 16)
        if functional:
            return dropouth.dropout(h, 0.5, samples=idx, positions_per_sample=pps, data_parallel=False)
        return layer(h, samples=idx, positions_per_sample=pps)
    r0, r1 = rank([0, 2], 12, None), rank([1, 3], 5, None)
    overlap = same(r1[0].flatten(), r0[0].flatten()[80:160])
    r0, r1, f1 = rank([0, 2], 12, 12 * 16), rank([1, 3], 5, 12 * 16), rank([1, 3], 5, 12 * 16, True)
    r1b = rank([3, 1], 5, 200)
    report("samples= with ranks padded to 12 and 5 tokens: placed by their own sizes they overlap (rank 1's sample 1 "
           "is rank 0's sample 0 from element 80: %s); positions_per_sample=12*16 gives each real token its "
           "one-process mask (layer and functional form) and samples no shared position" % overlap,
           overlap and same(r0, whole[[0, 2]]) and same(r1, whole[[1, 3], :5]) and same(f1, r1)
           and not same(r1b[1], r1[0]))
    for kw, exc, why in (({"samples": [0, 1], "positions_per_sample": 11}, ValueError, "less than the 12 elements"),
                         ({"positions_per_sample": 12}, TypeError, "give samples= too"),
                         ({"samples": [0, 1], "positions_per_sample": -1}, ValueError, "positions_per_sample"),
                         ({"samples": [2 ** 60, 0], "positions_per_sample": 16}, ValueError, "past 2^64")):
        msg = raises(exc, lambda: layer(torch.ones(2, 3, 4), **kw))
        report("layer(x, %s): %s: %s" % (kw, exc.__name__, msg), msg is not None and why in msg)
    msg = raises(TypeError, lambda: dropouth.dropout(torch.ones(2, 3), 0.5, seed=1, pos=0, positions_per_sample=3))
    report("explicit coordinates with positions_per_sample=: TypeError: %s" % msg, msg is not None and "pos= alone" in msg)
# ---- row: second-order gradients ----------------------------------------------------------
def test_autograd():
    x = torch.randn(6, 5, dtype=torch.float64, requires_grad=True)
    f = lambda t: dropouth.dropout(t, 0.3, seed=1, stream=2, pos=10)   # noqa: E731
    report("torch.autograd.gradcheck(dropouth.dropout) (float64)", bool(torch.autograd.gradcheck(f, (x,))))
    report("torch.autograd.gradgradcheck(dropouth.dropout) (float64)", bool(torch.autograd.gradgradcheck(f, (x,))))
    report("gradgradcheck through dropouth.dropout and a nonlinearity",
           bool(torch.autograd.gradgradcheck(lambda t: torch.sin(dropouth.dropout(t, 0.3, seed=4, pos=0)) ** 2, (x,))))
    # create_graph: d/dx of (sum of dy * dropout(x) ... ) second order, exact
    x2 = torch.randn(1000, dtype=torch.float64, requires_grad=True)
    y = dropouth.dropout(x2, 0.5, seed=9, pos=0)
    (g,) = torch.autograd.grad((y ** 2).sum(), x2, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x2)
    keep = torch.from_numpy(dropouth.mask(1000, 0.5, seed=9, pos=0)).double()
    want = 2 * keep * 4.0    # d2/dx2 of (2x * keep)^2 summed: 2 * (scale^2 keep) with scale 2
    report("second derivative through dropouth.dropout (create_graph=True) == 2 keep scale^2, exactly",
           torch.equal(gg, want), "max diff %g" % float((gg - want).abs().max()))
    dy = torch.randn(1000, dtype=torch.float64)
    x3 = x2.detach().clone().requires_grad_(True)
    dropouth.dropout(x3, 0.5, seed=9, pos=0).backward(dy)
    report("autograd backward == the NumPy backward at the same coordinates",
           np.array_equal(x3.grad.numpy(), dropouth.backward(dy.numpy(), 0.5, seed=9, pos=0)))


# ---- the functional form -------------------------------------------------------------------
def test_functional():
    h = torch.ones(1000)
    torch.manual_seed(3)
    a, b = dropouth.dropout(h, 0.5), dropouth.dropout(h, 0.5)
    torch.manual_seed(3)
    a2 = dropouth.dropout(h, 0.5)
    report("dropouth.dropout(h, 0.5) as F.dropout: from torch's generator, two calls two masks, reseeded the same",
           not torch.equal(a != 0, b != 0) and same(a, a2))
    report("explicit coordinates: the same coordinates give the same mask",
           same(dropouth.dropout(h, 0.5, seed=3, pos=1000), dropouth.dropout(h, 0.5, seed=3, pos=1000)))
    state = torch.get_rng_state()
    report("dropouth.dropout(x, p, training=False) returns x itself and takes nothing from torch's generator",
           dropouth.dropout(h, 0.5, False) is h and torch.equal(state, torch.get_rng_state()))
    msg = raises(TypeError, lambda: dropouth.dropout(h, 0.5, generator=dropouth.Generator(3)))
    report("generator=dropouth.Generator for a tensor: TypeError (it would advance on recomputation): %s" % msg,
           msg is not None and "recomputation" in msg)
    msg = raises(TypeError, lambda: dropouth.dropout(h, 0.5, seed=3))
    report("seed= without pos=: TypeError: %s" % msg, msg is not None)
    sig = raises(TypeError, lambda: dropouth.dropout(h, 0.5, True, False, 7))
    report("dropouth.dropout: F.dropout's positional arguments (input, p, training, inplace); the rest keyword-only",
           sig is not None)


# ---- row: what a user does that the other rows do not ------------------------------------------
def test_manners():
    import torch.autograd.forward_ad as fwad
    x = torch.rand(300, dtype=torch.float64) + 0.5
    t = torch.randn(300, dtype=torch.float64)
    want = dropouth.dropout(t, 0.4, seed=5, pos=7)
    with fwad.dual_level():
        tan = fwad.unpack_dual(dropouth.dropout(fwad.make_dual(x, t), 0.4, seed=5, pos=7)).tangent
        tan_g = fwad.unpack_dual(dropouth.dropout(fwad.make_dual(x.clone().requires_grad_(True), t), 0.4,
                                                  seed=5, pos=7)).tangent
        xi = x.clone()
        dual = fwad.make_dual(xi, t.clone())
        dropouth.dropout(dual, 0.4, True, True, seed=5, pos=7)
        tan_i = fwad.unpack_dual(dual).tangent
        torch.manual_seed(4)
        tan_l = fwad.unpack_dual(dropouth.Dropout(0.4)(fwad.make_dual(x, t))).tangent
    torch.manual_seed(4)
    want_l = dropouth.Dropout(0.4)(t)
    report("forward-mode AD: the tangent goes through the same mask (with and without requires_grad, in place, "
           "the layer from torch's generator)", tan is not None and same(tan, want) and tan_g is not None
           and same(tan_g, want) and tan_i is not None and same(tan_i, want) and tan_l is not None and same(tan_l, want_l))

    def untouched(make, call):
        """the call raises RuntimeError, its tensor unchanged and torch's generator untouched"""
        v = make()
        before, state = v.detach().clone(), torch.get_rng_state()
        msg = raises(RuntimeError, lambda: call(v))
        return msg is not None and same(v, before) and torch.equal(state, torch.get_rng_state())

    def inference():
        with torch.inference_mode():
            return torch.ones(8)

    def nograd_view():
        base = torch.ones(8, requires_grad=True) * 1
        with torch.no_grad():
            return base[2:]
    cases = {"a leaf that requires grad": lambda: torch.ones(8, requires_grad=True), "an inference tensor": inference,
             "a view made under no_grad": nograd_view,
             "a view from unbind": lambda: (torch.ones(4, 8, requires_grad=True) * 1).unbind(0)[0]}
    why = [name for name, make in cases.items()
           if not (untouched(make, lambda v: dropouth.dropout(v, 0.5, True, True))
                   and untouched(make, lambda v: dropouth.Dropout(0.5, inplace=True)(v)))]
    report("in place where torch refuses it (%s): RuntimeError, the tensor unchanged, nothing taken from torch's "
           "generator" % ", ".join(cases), not why, "written or drawn: %s" % why)
    # in torch's words: a view made under no_grad had the leaf's message
    said = {name: (raises(RuntimeError, lambda: dropouth.Dropout(0.5, inplace=True)(make())),
                   raises(RuntimeError, lambda: torch.nn.Dropout(0.5, inplace=True)(make()))) for name, make in cases.items()}
    report("in place where torch refuses it: dropouth's message is nn.Dropout's", all(a == b for a, b in said.values()),
           "; ".join("%s: %r against %r" % (k, (a or "")[:70], (b or "")[:70]) for k, (a, b) in said.items() if a != b))
    leaf = torch.randn(6, 50, requires_grad=True)
    h = leaf * 1.0
    torch.manual_seed(6)
    out = dropouth.Dropout(0.3, inplace=True)(h[1:4])
    (h * torch.arange(300.0).view(6, 50)).sum().backward()
    ref_leaf = leaf.detach().clone().requires_grad_(True)
    h2 = (ref_leaf * 1.0).clone()
    torch.manual_seed(6)
    h2 = torch.cat([h2[:1], dropouth.Dropout(0.3)(h2[1:4]), h2[4:]])
    (h2 * torch.arange(300.0).view(6, 50)).sum().backward()
    report("in place on a view of a tensor in the graph: the values and the gradient of the out-of-place call",
           same(out, h2[1:4]) and same(h, h2) and same(leaf.grad, ref_leaf.grad))

    p = torch.tensor(0.1)
    layer, n = dropouth.Dropout(p), 1 << 16
    first = int((layer(torch.ones(n)) == 0).sum())
    p.fill_(0.9)
    after, after_f = int((layer(torch.ones(n)) == 0).sum()), int((dropouth.dropout(torch.ones(n), p) == 0).sum())
    sd = (n * 0.09) ** 0.5
    report("p held in a tensor and changed in place (a schedule): each call reads it, as nn.Dropout does "
           "(dropped %d, then %d and %d of %d)" % (first, after, after_f, n),
           abs(first - 0.1 * n) < 6 * sd and abs(after - 0.9 * n) < 6 * sd and abs(after_f - 0.9 * n) < 6 * sd)
    dropouth.dropout(torch.ones(4), 1.0)
    dropouth.dropout(torch.ones(4), 0.25, bits=8)
    report("p=True, p=torch.tensor(True), seed=np.True_, Dropout(stream=np.True_, batch_dim=np.True_) and bits=8.0 "
           "are refused after calls with p=1.0 and bits=8 (nothing found under an equal key)",
           raises(TypeError, lambda: dropouth.dropout(torch.ones(4), True)) is not None
           and raises(TypeError, lambda: dropouth.dropout(torch.ones(4), torch.tensor(True))) is not None
           and raises(TypeError, lambda: dropouth.dropout(torch.ones(4), 0.5, seed=np.True_, pos=0)) is not None
           and raises(TypeError, lambda: dropouth.Dropout(0.5, stream=np.True_)) is not None
           and raises(TypeError, lambda: dropouth.Dropout(0.5, batch_dim=np.True_)) is not None
           and raises(TypeError, lambda: dropouth.dropout(torch.ones(4), 0.25, bits=8.0)) is not None)

    xs = torch.randn(40)
    why = ""
    for what, call, check in (("p=0", lambda: dropouth.dropout(xs, 0.0), lambda y: same(y, xs)),
                              ("p=1", lambda: dropouth.Dropout(1.0)(xs), lambda y: same(y, torch.zeros(40))),
                              ("no elements", lambda: dropouth.Dropout(0.5)(torch.ones(0, 3)), lambda y: y.shape == (0, 3))):
        state = torch.get_rng_state()
        y = call()
        if not (check(y) and torch.equal(state, torch.get_rng_state())):
            why += " " + what
    report("p=0, p=1 and empty tensors take nothing from torch's generator (nn.Dropout draws none there); "
           "y = x, +0, empty", not why, why)
    msg = raises(IndexError, lambda: dropouth.Dropout(0.5, batch_dim=2)(torch.ones(4, 4), samples=[0, 1, 2, 3]))
    report("batch_dim outside the input's dims: IndexError, as torch's dims (not wrapped): %s" % msg, msg is not None)


# ---- row: nn.Dropout's arguments ------------------------------------------------------------
def test_signature():
    calls = [((), {}), ((0.3,), {}), ((0.3, True), {}), ((0.3, False), {}), ((), {"p": 0.2}), ((), {"p": 0.2, "inplace": True}),
             ((0.5, 16), {}), ((1,), {}), ((0,), {})]
    why = ""
    for args, kw in calls:
        ours, theirs = dropouth.Dropout(*args, **kw), torch.nn.Dropout(*args, **kw)
        if (ours.p, ours.inplace) != (theirs.p, theirs.inplace):
            why = "%s %s: ours p=%r inplace=%r, nn.Dropout p=%r inplace=%r" % (args, kw, ours.p, ours.inplace, theirs.p, theirs.inplace)
    report("every nn.Dropout call (p, inplace positional or keyword, defaults) is accepted with nn.Dropout's p and inplace",
           not why, why)
    layer = dropouth.Dropout(0.5, 16)     # nn.Dropout's second argument is inplace: truthy 16 means in place
    x = torch.ones(100)
    y = layer(x)
    report("Dropout(0.5, 16) means inplace (as for nn.Dropout): the input is the output",
           y is x and bool((x == 0).any()))
    for bad in ((-0.1,), (1.5,)):
        a, b = raises(ValueError, lambda: dropouth.Dropout(*bad)), raises(ValueError, lambda: torch.nn.Dropout(*bad))
        if a != b:
            why = "p %r: %r vs nn.Dropout %r" % (bad, a, b)
    report("p outside [0, 1]: ValueError with nn.Dropout's message", not why, why)
    report("the library's options are keyword-only: Dropout(0.5, False, 7) raises TypeError",
           raises(TypeError, lambda: dropouth.Dropout(0.5, False, 7)) is not None)
    layer = dropouth.Dropout(0.3)
    xin = torch.randn(50, 7)
    leaf = torch.randn(50, 7, requires_grad=True)
    torch.manual_seed(2)
    ref = dropouth.Dropout(0.3)(xin)
    xi = xin.clone().requires_grad_(False)
    torch.manual_seed(2)
    out = dropouth.Dropout(0.3, inplace=True)(xi)
    h = leaf * 1.0
    torch.manual_seed(2)
    dropouth.Dropout(0.3, inplace=True)(h).sum().backward()
    ref_leaf = leaf.detach().clone().requires_grad_(True)
    torch.manual_seed(2)
    dropouth.Dropout(0.3)(ref_leaf * 1.0).sum().backward()
    report("inplace=True: the same values in the input's memory, and the same gradient as out of place",
           out is xi and same(out, ref) and same(leaf.grad, ref_leaf.grad))
    layer.eval()
    state = torch.get_rng_state()
    report("eval(): the identity, the input itself, nothing taken from torch's generator",
           layer(xin) is xin and torch.equal(state, torch.get_rng_state()))


# ---- row: p that the draw width cannot honour ------------------------------------------------
def test_p():
    layer = dropouth.Dropout(p=0.001)
    n = 1 << 20
    kept = int((layer(torch.ones(n)) != 0).sum())
    sd = (n * 0.001 * 0.999) ** 0.5
    report("Dropout(p=0.001) drops about 0.1%% (%d of %d; |dropped - n p| < 6 sd), with %d-bit draws by default"
           % (n - kept, n, dropouth.default_bits(0.001)), abs(n - kept - n * 0.001) < 6 * sd)
    msg = raises(ValueError, lambda: dropouth.Dropout(0.001, bits=8))
    report("Dropout(0.001, bits=8): ValueError at construction (8-bit draws realise p as 0): %s" % msg,
           msg is not None and "16" in msg)
    layer = dropouth.Dropout(0.5, bits=8)
    layer.p = 0.001
    state = torch.get_rng_state()
    msg = raises(ValueError, lambda: layer(torch.ones(10)))
    report("p changed to one the width cannot honour: the call raises and takes nothing from torch's generator",
           msg is not None and torch.equal(state, torch.get_rng_state()))


# ---- row: strided tensors -------------------------------------------------------------------
def test_strided():
    base = torch.randn(8, 30, 12, dtype=torch.float64)
    views = {"transposed": base.transpose(0, 2), "permuted": base.permute(1, 2, 0), "sliced with steps": base[1::3, 2:29:4, ::5],
             "narrowed": base.narrow(1, 3, 7), "expanded input": base[:1].expand(5, 30, 12), "a column": base[:, :, 4]}
    why = ""
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        for name, v in views.items():
            v = v.to(dt) if dt != torch.float64 else v
            if dt != torch.float64:   # .to() copies: take the same view of a converted base
                b2 = base.to(dt)
                v = {"transposed": b2.transpose(0, 2), "permuted": b2.permute(1, 2, 0), "sliced with steps": b2[1::3, 2:29:4, ::5],
                     "narrowed": b2.narrow(1, 3, 7), "expanded input": b2[:1].expand(5, 30, 12), "a column": b2[:, :, 4]}[name]
            y = dropouth.dropout(v, 0.3, seed=5, stream=1, pos=123)
            yc = dropouth.dropout(v.contiguous(), 0.3, seed=5, stream=1, pos=123)
            if not same(y, yc):
                why = "%s %s differs from its contiguous copy" % (dt, name)
    report("strided tensors (transposed, permuted, stepped, narrowed, expanded, a column; 4 dtypes) == their "
           "contiguous copies, bit for bit", not why, why)
    calls = []
    real = torch.Tensor.contiguous
    torch.Tensor.contiguous = lambda self, *a, **k: calls.append(1) or real(self, *a, **k)
    try:
        v = base.transpose(0, 2)[::2]
        y = dropouth.dropout(v, 0.3, seed=5, pos=0)
    finally:
        torch.Tensor.contiguous = real
    report("a view goes to the library as it is: no .contiguous() copy (%d calls), and the output has the "
           "input's shape" % len(calls), not calls and y.shape == v.shape)
    t = base.transpose(0, 2).clone().transpose(0, 2)   # non-contiguous, dense: in place through the strides
    t0 = t.clone()
    before = t.data_ptr()
    dropouth.dropout(t, 0.3, True, True, seed=5, pos=0)
    report("in place on a transposed tensor: written through its strides (same memory) == the contiguous result",
           t.data_ptr() == before and same(t, dropouth.dropout(t0.contiguous(), 0.3, seed=5, pos=0)))
    x = base.transpose(0, 1).requires_grad_(True)
    dy = torch.randn(x.shape, dtype=torch.float64)
    dropouth.dropout(x, 0.3, seed=5, pos=0).backward(dy.transpose(0, 2).contiguous().transpose(0, 2))
    xc = x.detach().contiguous().requires_grad_(True)
    dropouth.dropout(xc, 0.3, seed=5, pos=0).backward(dy)
    report("gradient of a transposed input with a strided dy == the contiguous one", same(x.grad, xc.grad))
    # more than 8 dims (the library's limit): a permuted 10-d view merges into no 8; it goes
    # through contiguous copies, the same bits; so does a 10-d gradient that arrives permuted
    rev = tuple(range(9, -1, -1))
    x10 = torch.randn(*[3] * 10, dtype=torch.float64)
    y10 = dropouth.dropout(x10.permute(*rev), 0.3, seed=5, pos=7)
    ok10 = same(y10, dropouth.dropout(x10.permute(*rev).contiguous(), 0.3, seed=5, pos=7))
    t10 = x10.permute(*rev).contiguous().permute(*rev)   # a permuted layout, written in place
    t10b = t10.clone(memory_format=torch.contiguous_format)
    dropouth.dropout(t10, 0.3, True, True, seed=5, pos=7)
    ok10 &= same(t10, dropouth.dropout(t10b, 0.3, seed=5, pos=7))
    xg = x10.clone().requires_grad_(True)
    dy10 = torch.randn(*[3] * 10, dtype=torch.float64)
    dropouth.dropout(xg, 0.3, seed=5, pos=7).backward(dy10.permute(*rev).contiguous().permute(*rev))
    ok10 &= same(xg.grad, dropouth.dropout(dy10, 0.3, seed=5, pos=7))
    report("10-d tensors that merge into no 8 dims (a permuted view, in place on a permuted layout, a permuted "
           "gradient of a contiguous forward) == their contiguous copies", ok10)
    exp = base[:1].expand(3, 30, 12)
    torch.manual_seed(3)
    before = torch.get_rng_state()
    msg = raises(ValueError, lambda: dropouth.dropout(exp, 0.3, True, True))
    report("in place on an expanded tensor from torch's generator: ValueError before the value is taken (the "
           "generator unmoved, as after any refusal): %s" % msg, msg is not None and torch.equal(before, torch.get_rng_state()))
    msg = raises(ValueError, lambda: dropouth.dropout(exp, 0.3, True, True, seed=5, pos=0))
    report("in place on an expanded tensor (elements sharing memory), explicit coordinates: ValueError, nothing written: %s" % msg,
           msg is not None and torch.equal(base[:1], base[:1].clone()))


# ---- rows: bf16 by name, errors -------------------------------------------------------------
def test_errors():
    x = np.ones(10, np.float32)
    msg = raises(TypeError, lambda: dropouth.dropout(x, 0.5, seed=0, pos=0))
    report("dropouth.dropout(numpy array): TypeError naming the NumPy function: %s" % msg, msg is not None and "forward" in msg)
    sp = torch.eye(4).to_sparse()
    msg = raises(TypeError, lambda: dropouth.dropout(sp, 0.5, seed=0, pos=0))
    report("a sparse tensor: TypeError: %s" % msg, msg is not None and "sparse" in msg)
    meta = torch.empty(4, device="meta")
    msg = raises(ValueError, lambda: dropouth.dropout(meta, 0.5, seed=0, pos=0))
    report("a meta tensor: ValueError naming the device: %s" % msg, msg is not None and "meta" in msg)
    msg = raises(TypeError, lambda: dropouth.dropout(torch.ones(4, dtype=torch.int32), 0.5, seed=0, pos=0))
    report("an integer tensor: TypeError: %s" % msg, msg is not None)
    layer = dropouth.Dropout(0.5)
    state = torch.get_rng_state()
    raises(TypeError, lambda: layer(sp))
    raises(ValueError, lambda: layer(meta))
    report("refused inputs take nothing from torch's generator", torch.equal(state, torch.get_rng_state()))
    neg = torch._neg_view(torch.ones(4))
    msg = raises(ValueError, lambda: dropouth.dropout(neg, 0.5, seed=0, pos=0))
    report("a negated view (torch's neg bit: memory holds -x): ValueError: %s" % msg, msg is not None and "neg" in msg)
    try:
        mis = torch.frombuffer(bytearray(17), dtype=torch.float32, offset=1, count=4)
    except Exception:   # noqa: BLE001
        mis = None
    if mis is not None and mis.data_ptr() % 4:
        msg = raises(ValueError, lambda: dropouth.dropout(mis, 0.5, seed=0, pos=0))
        report("a tensor not aligned to its element size: ValueError: %s" % msg, msg is not None and "aligned" in msg)
    else:
        skip("an unaligned tensor", "this torch made no unaligned float32 view")
    t = torch.full((100,), 3.0)
    msg = raises(ValueError, lambda: dropouth.dropout(t, 0.5, True, True, seed=0, pos=2 ** 64 - 10))
    report("pos + n past 2^64, in place: ValueError and nothing written", msg is not None and bool((t == 3.0).all()))
    mk = torch.randn(4).to_mkldnn()
    msg = raises(TypeError, lambda: dropouth.dropout(mk, 0.5, seed=0, pos=0))
    report("an MKL-DNN (opaque layout) tensor: TypeError: %s" % msg, msg is not None)
    w = torch.ones(3, requires_grad=True)
    a = torch.ones(3)
    y = (w * a).sum()
    dropouth.dropout(a, 0.5, True, True, seed=0, pos=0)
    msg = raises(RuntimeError, y.backward)
    report("in place on a tensor a graph saved: autograd notices (version counter bumped, as torch's in-place ops)",
           msg is not None and "inplace" in msg)
    msg = raises(TypeError, lambda: dropouth.dropout(torch.ones(8), 0.5, training="false", seed=0, pos=0))
    report("training='false' (a config file's string): TypeError, as F.dropout, not a dropout: %s" % msg,
           msg is not None and "training" in msg)
    layer = dropouth.Dropout(0.5)
    layer.stream = 2 ** 64
    msg = raises(ValueError, lambda: layer(torch.ones(8)))
    layer.stream, layer.batch_dim = 0, 1.0
    msg2 = raises(TypeError, lambda: layer(torch.ones(2, 4)))
    ok = dropouth.Dropout(0.5, batch_dim=1)(torch.ones(2, 4)).shape == (2, 4)
    report("a layer's stream and batch_dim set by hand are checked at each call (2^64 did wrap to stream 0; a float "
           "batch_dim broke every layer after it): %s; %s" % (msg, msg2), msg is not None and "stream" in msg
           and msg2 is not None and "batch_dim" in msg2 and ok)
    bad = [b for b in (1.9, True, "1") if raises(TypeError, lambda: dropouth.Dropout(0.5, batch_dim=b)) is None]
    report("Dropout(batch_dim=1.9 / True / '1'): TypeError at construction, as at each call (int() took them as "
           "dim 1, silently)", not bad, "accepted: %r" % bad)
    bad = [d for d in (True, 1, "yes") if raises(TypeError, lambda: dropouth.Dropout(0.5, data_parallel=d)) is None
           or raises(TypeError, lambda: dropouth.dropout(torch.ones(4), 0.5, data_parallel=d)) is None]
    layer = dropouth.Dropout(0.5)
    layer.data_parallel = True
    msg = raises(TypeError, lambda: layer(torch.ones(4)))
    report("data_parallel=True / 1 / 'yes' (layer and functional, and set by hand): TypeError naming None, False or "
           "a ProcessGroup (it failed only under torchrun, inside torch.distributed): %s" % (msg or "")[:60],
           not bad and msg is not None and "ProcessGroup" in msg, "accepted: %r" % bad)
    msg = raises(TypeError, lambda: dropouth.dropout(torch.ones(4), 0.5, generator=torch.Generator()))
    report("generator=torch.Generator(): TypeError naming torch.manual_seed / fork_rng: %s" % (msg or "")[:60],
           msg is not None and "manual_seed" in msg and "torch.Generator" in msg)
    bf = torch.randn(300).to(torch.bfloat16)
    y = dropouth.dropout(bf, 0.4, seed=3, pos=1)
    want, _ = dropouth.forward(bf.view(torch.int16).numpy().view(np.uint16), 0.4, seed=3, pos=1, dtype="bfloat16")
    report("torch.bfloat16 tensors are bf16 by their dtype; == NumPy uint16 named dtype='bfloat16'",
           np.array_equal(y.view(torch.int16).numpy().view(np.uint16), want))


def test_dtypes():
    ok = True
    for dt in (torch.float32, torch.float64, torch.float16):
        t = torch.randn(4, 300).to(dt)
        ok = ok and np.array_equal(dropouth.dropout(t, 0.2, seed=7, stream=1, pos=9).numpy(),
                                   dropouth.forward(t.numpy(), 0.2, seed=7, stream=1, pos=9)[0])
    report("torch CPU: dropouth.dropout == NumPy forward, f32/f64/f16", ok)




# ---- CUDA -----------------------------------------------------------------------------------
def test_cuda_take_logic():
    """What a call takes from torch.cuda's generator, run here against a stand-in generator state
    (torch 1.13's layout: 800 bytes of a retired state, then seed and Philox offset; later
    torch's: seed and offset alone): the CUDA path's logic without a GPU."""
    from dropouth import _torch
    real = (torch.cuda.get_rng_state, torch.cuda.set_rng_state)
    for head in (800, 0):
        def state(seed, offset):
            return torch.cat([torch.full((head,), 255, dtype=torch.uint8),
                              torch.tensor([seed, offset], dtype=torch.int64).view(torch.uint8)])
        store = {"state": state(1234, 8)}
        torch.cuda.get_rng_state = lambda device="cuda": store["state"].clone()
        torch.cuda.set_rng_state = lambda s, device="cuda": store.__setitem__("state", s.clone())
        try:
            dev = torch.device("cuda", 0)
            saved = torch.cuda.get_rng_state(dev)
            a, b = _torch._take_cuda(dev), _torch._take_cuda(dev)
            after = store["state"]
            torch.cuda.set_rng_state(saved, dev)          # what checkpoint does before a recomputation
            a2 = _torch._take_cuda(dev)
            store["state"] = state(1235, 8)
            c = _torch._take_cuda(dev)
        finally:
            torch.cuda.get_rng_state, torch.cuda.set_rng_state = real
        report("CUDA tensors' take (logic, against a stand-in %d-byte state): the offset moves by 4 a call (8 -> %d), "
               "the rest stays; a restored state gives the same value, another offset or seed another"
               % (head + 16, int(after.view(torch.int64)[-1])),
               torch.equal(after, state(1234, 16)) and a == a2 and len({a, b, c}) == 3)


def test_cuda_take_threads():
    """Two threads taking from one device's generator (a stand-in whose get and set are each
    atomic, as torch.cuda's are): every call a distinct offset, none lost (the read and the
    write back were two steps, and two threads could take one offset: one key, one mask)."""
    import threading
    from dropouth import _torch
    real = (torch.cuda.get_rng_state, torch.cuda.set_rng_state, sys.getswitchinterval())
    lock = threading.Lock()
    store = {"state": torch.cat([torch.zeros(800, dtype=torch.uint8), torch.tensor([7, 0], dtype=torch.int64).view(torch.uint8)])}

    def get(device="cuda"):
        with lock:
            return store["state"].clone()

    def put(s, device="cuda"):
        with lock:
            store["state"] = s.clone()
    torch.cuda.get_rng_state, torch.cuda.set_rng_state = get, put
    sys.setswitchinterval(1e-6)
    taken = []
    try:
        def work():
            for _ in range(3000):
                taken.append(_torch._take_cuda(torch.device("cuda", 0)))
        ts = [threading.Thread(target=work) for _ in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    finally:
        torch.cuda.get_rng_state, torch.cuda.set_rng_state = real[:2]
        sys.setswitchinterval(real[2])
    offset = int(store["state"].view(torch.int64)[-1])
    report("CUDA tensors' take from two threads (logic, stand-in state): %d calls, %d distinct values, offset %d"
           % (len(taken), len(set(taken)), offset), len(set(taken)) == len(taken) == 6000 and offset == 4 * 6000)


def test_cuda():
    why = ""
    base = torch.randn(8, 30, 12, dtype=torch.float64)
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        b = base.to(dt)
        b.view(-1)[::97] = float("nan")
        for name, view in (("contiguous", lambda t: t), ("transposed", lambda t: t.transpose(0, 2)),
                           ("stepped", lambda t: t[1::3, 2:29:4, ::5]), ("expanded input", lambda t: t[:1].expand(5, 30, 12))):
            xc = view(b).detach().requires_grad_(True)
            xg = view(b.cuda()).detach().requires_grad_(True)
            yc = dropouth.dropout(xc, 0.3, seed=77, stream=3, pos=2 ** 64 - 100000)
            yg = dropouth.dropout(xg, 0.3, seed=77, stream=3, pos=2 ** 64 - 100000)
            dy = torch.randn(yc.shape).to(dt)
            yc.backward(dy)
            yg.backward(dy.cuda())
            torch.cuda.synchronize()
            if not same(yc, yg.cpu()):
                why = "%s %s: output differs" % (dt, name)
            elif not same(xc.grad, xg.grad.cpu()):
                why = "%s %s: gradient differs" % (dt, name)
    report("torch CUDA: dropouth.dropout output and gradient == CPU, bit for bit (4 dtypes, NaN, strided views, "
           "positions near 2^64)", not why, why)
    torch.cuda.manual_seed(4)
    layer = dropouth.Dropout(0.1).cuda()
    x = torch.randn(64, 33).cuda()
    a = layer(x)
    torch.cuda.manual_seed(4)
    report("torch CUDA: the layer is seeded by torch.cuda.manual_seed; two calls differ",
           same(a, layer(x)) and not torch.equal(layer(x), a))
    global DEVICE
    DEVICE = "cuda"
    try:
        for name, fn in SCENARIOS:
            ok = True
            for kind in KINDS:
                plain = fn(kind, None)
                for mode in MODES:
                    ok = ok and all_same(plain, fn(kind, mode))
            report("torch CUDA: checkpoint (both modes), dropouth and nn.Dropout: %s: gradients == without "
                   "checkpointing" % name, ok)
    finally:
        DEVICE = "cpu"


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--first":
        first_call(sys.argv[2])
        return failures_exit()
    print("    (CPU library in use: %s)" % dropouth._lib.isa())
    test_checkpoint()
    test_transformer()
    test_first_call()
    test_seeding()
    test_resume()
    test_nn_dropout()
    test_jit_fx()
    test_samples()
    test_autograd()
    test_functional()
    test_manners()
    test_signature()
    test_p()
    test_strided()
    test_errors()
    test_dtypes()
    test_cuda_take_logic()
    test_cuda_take_threads()
    if not torch.cuda.is_available():
        skip("torch CUDA: dropouth on CUDA tensors (bits == CPU, seeding, checkpoint scenarios)", "no CUDA device here")
    else:
        try:
            dropouth._lib.cuda()
        except OSError as e:
            skip("torch CUDA: dropouth on CUDA tensors (bits == CPU, seeding, checkpoint scenarios)", str(e))
        else:
            test_cuda()
    return failures_exit()


if __name__ == "__main__":
    sys.exit(main())
