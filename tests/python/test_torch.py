"""test_torch.py - dropouth in PyTorch, one check (or a few) per row of the table in issue 19.

Run by tests/python/suite.sh with the installed package. Oracles: dropouth's NumPy functions
(checked against an independent Philox in test_numpy.py) for values; torch itself for the
manners (nn.Dropout's signature, pickle, torch.save, deepcopy, autograd's gradcheck and
gradgradcheck); the same step without checkpointing for checkpointing (exact equality).
CUDA paths print SKIP where there is no GPU.
"""
import copy
import io
import pickle
import sys

import numpy as np
import torch
import torch.utils.checkpoint as tcp

import dropouth
from common import failures_exit, report, skip

torch.set_num_threads(1)   # bit-identical references: one reduction order


def same(a, b):
    """Bit-identical tensors (so -0 differs from +0 and NaNs compare by payload)."""
    ints = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64}
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(
        a.detach().contiguous().view(ints[a.dtype]), b.detach().contiguous().view(ints[b.dtype]))


def raises(exc, fn):
    try:
        fn()
    except exc as e:
        return str(e)
    except Exception:   # noqa: BLE001  another type is a failure too
        return None
    return None


# ---- row: two layers in one nn.Sequential -------------------------------------------------
def test_layers_differ():
    dropouth.manual_seed(5)
    model = torch.nn.Sequential(dropouth.Dropout(0.5), dropouth.Dropout(0.5))
    a, b = model[0](torch.ones(4096)), model[1](torch.ones(4096))
    report("two dropouth.Dropout(0.5) in one nn.Sequential: different masks (streams %d and %d; %.1f%% agree)"
           % (model[0].stream, model[1].stream, 100 * float(((a != 0) == (b != 0)).float().mean())),
           model[0].stream != model[1].stream and not torch.equal(a != 0, b != 0))
    c1 = model[0](torch.ones(4096))
    report("one layer, two calls: different masks (consecutive positions 0 and 4096)",
           not torch.equal(a != 0, c1 != 0) and model[0].position == 8192)
    dropouth.manual_seed(5)
    again = torch.nn.Sequential(dropouth.Dropout(0.5), dropouth.Dropout(0.5))
    report("the same model code after dropouth.manual_seed(5): the same masks (deterministic)",
           same(again[0](torch.ones(4096)), a) and same(again[1](torch.ones(4096)), b))
    want, _ = dropouth.forward(np.ones(4096, np.float32), 0.5, seed=0, stream=model[1].stream, pos=0)
    dropouth.manual_seed(0)
    m2 = torch.nn.Sequential(dropouth.Dropout(0.5), dropouth.Dropout(0.5))
    report("a layer's mask is dropout.h's at (seed, stream = its number, pos = its position)",
           np.array_equal(m2[1](torch.ones(4096)).numpy(), want))


# ---- row: activation checkpointing --------------------------------------------------------
class Block(torch.nn.Module):
    def __init__(self, shared=None):
        super().__init__()
        self.lin1, self.lin2 = torch.nn.Linear(24, 24), torch.nn.Linear(24, 24)
        self.drop1 = dropouth.Dropout(0.3)
        self.drop2 = dropouth.Dropout(0.2, inplace=True)
        self.shared = shared

    def forward(self, h):
        h = self.drop1(torch.relu(self.lin1(h)))
        if self.shared is not None:   # one layer used twice in a block and in every block
            h = self.shared(h) + self.shared(h * 0.5)
        return torch.tanh(self.drop2(self.lin2(h)))   # in place on a Linear output, as nn.Dropout allows


def build(shared):
    torch.manual_seed(0)
    dropouth.manual_seed(11)
    sh = dropouth.Dropout(0.4) if shared else None
    return torch.nn.ModuleList([Block(sh) for _ in range(3)])


def train_steps(blocks, mode, steps=3):
    """Gradients of each step and every layer's position after the steps."""
    x = torch.randn(6, 24, generator=torch.Generator().manual_seed(1), requires_grad=True)
    grads = []
    for _ in range(steps):
        for p in blocks.parameters():
            p.grad = None
        h = x
        for b in blocks:
            h = b(h) if mode == "plain" else tcp.checkpoint(b, h, use_reentrant=(mode == "reentrant"))
        (h.square().sum()).backward()
        grads.append([p.grad.clone() for p in blocks.parameters()])
    pos = [m.position for m in blocks.modules() if isinstance(m, dropouth.Dropout)]
    return grads, pos


def test_checkpoint():
    for shared in (False, True):
        ref_g, ref_pos = train_steps(build(shared), "plain")
        for mode in ("reentrant", "non-reentrant"):
            g, pos = train_steps(build(shared), mode)
            ok = all(same(a, b) for sa, sb in zip(ref_g, g) for a, b in zip(sa, sb))
            report("torch.utils.checkpoint (%s)%s: 3 steps' gradients bit-identical to no checkpointing"
                   % (mode, ", a layer used twice per block and shared by all blocks" if shared else ""), ok)
            report("torch.utils.checkpoint (%s)%s: every layer's stream position after 3 steps == without "
                   "checkpointing %s" % (mode, " (shared layer)" if shared else "", ref_pos), pos == ref_pos, str(pos))
    # torch.autograd.grad instead of .backward (non-reentrant supports it), and gradient
    # accumulation: two micro-batches per step, each with its own backward pass
    blocks_p, blocks_c = build(True), build(True)
    xs = torch.randn(2, 6, 24, generator=torch.Generator().manual_seed(2))
    ok = True
    for step in range(2):
        gp = [torch.zeros_like(p) for p in blocks_p.parameters()]
        gc = [torch.zeros_like(p) for p in blocks_c.parameters()]
        for micro in range(2):
            hp, hc = xs[micro], xs[micro]
            for bp, bc in zip(blocks_p, blocks_c):
                hp = bp(hp)
                hc = tcp.checkpoint(bc, hc, use_reentrant=False)
            for acc, g in zip(gp, torch.autograd.grad(hp.square().sum(), list(blocks_p.parameters()))):
                acc += g
            for acc, g in zip(gc, torch.autograd.grad(hc.square().sum(), list(blocks_c.parameters()))):
                acc += g
        ok = ok and all(same(a, b) for a, b in zip(gp, gc))
    pos_p = [m.position for m in blocks_p.modules() if isinstance(m, dropouth.Dropout)]
    pos_c = [m.position for m in blocks_c.modules() if isinstance(m, dropouth.Dropout)]
    report("non-reentrant checkpoint with torch.autograd.grad and two micro-batches per step: gradients and "
           "positions == without checkpointing", ok and pos_p == pos_c, "%s vs %s" % (pos_p, pos_c))
    # checkpoint_sequential and preserve_rng_state=False: no RNG state is needed
    ref_g, _ = train_steps(build(False), "plain", 1)
    blocks = build(False)
    x = torch.randn(6, 24, generator=torch.Generator().manual_seed(1), requires_grad=True)
    out = tcp.checkpoint_sequential(torch.nn.Sequential(*blocks), 3, x, preserve_rng_state=False)
    out.square().sum().backward()
    report("checkpoint_sequential with preserve_rng_state=False: gradients bit-identical (positions, no RNG state)",
           all(same(a, p.grad) for a, p in zip(ref_g[0], blocks.parameters())))


# ---- row: second-order gradients ----------------------------------------------------------
def test_autograd():
    x = torch.randn(6, 5, dtype=torch.float64, requires_grad=True)
    f = lambda t: dropouth.dropout(t, 0.3, seed=1, stream=2, pos=10)   # noqa: E731
    report("torch.autograd.gradcheck(dropouth.dropout) (float64)", bool(torch.autograd.gradcheck(f, (x,))))
    report("torch.autograd.gradgradcheck(dropouth.dropout) (float64)", bool(torch.autograd.gradgradcheck(f, (x,))))
    layer = dropouth.Dropout(0.3, seed=4).double()
    report("gradgradcheck through dropouth.Dropout and a nonlinearity (the layer replays its positions "
           "only under checkpointing; here explicit coordinates)",
           bool(torch.autograd.gradgradcheck(lambda t: torch.sin(dropouth.dropout(t, 0.3, seed=4, pos=0)) ** 2, (x,))))
    del layer
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


# ---- row: the functional form twice -------------------------------------------------------
def test_functional():
    h = torch.ones(1000)
    msg = raises(TypeError, lambda: dropouth.dropout(h, 0.5))
    report("dropouth.dropout(h, 0.5) without coordinates raises TypeError (a default would repeat one mask): %s" % msg,
           msg is not None and "generator" in msg)
    g = dropouth.Generator(seed=3)
    a, b = dropouth.dropout(h, 0.5, generator=g), dropouth.dropout(h, 0.5, generator=g)
    report("dropouth.dropout(h, 0.5, generator=g) twice: two masks (positions 0 and 1000)",
           not torch.equal(a != 0, b != 0) and g.position == 2000)
    report("explicit coordinates: the same coordinates give the same mask",
           same(dropouth.dropout(h, 0.5, seed=3, pos=1000), b))
    report("dropouth.dropout(x, p, training=False) returns x itself (F.dropout's manners)",
           dropouth.dropout(h, 0.5, False, generator=g) is h and g.position == 2000)
    sig = raises(TypeError, lambda: dropouth.dropout(h, 0.5, True, False, 7))
    report("dropouth.dropout: F.dropout's positional arguments (input, p, training, inplace); the rest keyword-only",
           sig is not None)


# ---- row: pickle, torch.save, deepcopy, repr ------------------------------------------------
def test_manners():
    dropouth.manual_seed(3)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.25), torch.nn.Linear(8, 8), dropouth.Dropout(0.1))
    model(torch.ones(2, 8))
    buf = io.BytesIO()
    torch.save(model, buf)
    buf.seek(0)
    loaded = torch.load(buf)
    x = torch.randn(5, 8)
    report("torch.save(model) whole and torch.load: the same module, the same next masks",
           same(loaded(x), model(x)) and loaded[1].position == model[1].position)
    p = pickle.loads(pickle.dumps(model))
    report("pickle round trip of a model holding dropouth.Dropout", same(p(x), model(x)))
    twin = copy.deepcopy(model)
    report("copy.deepcopy: works; the copy's layers are new places (new streams: %d, %d -> %d, %d), as nn.Dropout "
           "copies draw their own masks" % (model[1].stream, model[3].stream, twin[1].stream, twin[3].stream),
           twin[1].stream not in (model[1].stream, model[3].stream) and twin[1].p == 0.25 and isinstance(twin[1], dropouth.Dropout))
    r = repr(dropouth.Dropout(0.5, seed=1, stream=2))
    report("repr: %s (nn.Dropout's 'p=0.5, inplace=False' first)" % r,
           r.startswith("Dropout(p=0.5, inplace=False, seed=1, stream=2"))
    report("dropouth.Dropout, dropouth.dropout, dropouth.Generator are module-level names (no local classes)",
           dropouth.Dropout.__qualname__ == "Dropout" and "<locals>" not in dropouth.Dropout.__qualname__
           and "Dropout" in dir(dropouth))
    plain = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Dropout(0.25), torch.nn.Linear(8, 8), torch.nn.Dropout(0.1))
    fresh = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.25), torch.nn.Linear(8, 8), dropouth.Dropout(0.1))
    before = (fresh[1].stream, fresh[1].position)
    msg = raises(RuntimeError, lambda: fresh.load_state_dict(plain.state_dict()))
    report("a state_dict saved with nn.Dropout loads strictly into the same model with dropouth.Dropout "
           "(the layers keep their coordinates)", msg is None and (fresh[1].stream, fresh[1].position) == before
           and torch.equal(fresh[0].weight, plain[0].weight))
    from torch import fx
    dropouth.manual_seed(8)
    m1 = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.25), torch.nn.ReLU())
    traced = fx.symbolic_trace(m1)
    dropouth.manual_seed(8)
    m2 = torch.nn.Sequential(torch.nn.Linear(8, 8), dropouth.Dropout(0.25), torch.nn.ReLU())
    m2.load_state_dict(m1.state_dict())
    kinds = [n.op for n in traced.graph.nodes]
    report("torch.fx.symbolic_trace: the layer is one call_module node (a leaf, as nn.Dropout); the traced "
           "module gives the layer's masks", kinds.count("call_module") == 3 and same(traced(x), m2(x)), str(kinds))
    st = model.state_dict()
    report("(seed, stream, position) are in state_dict: %s" % st["1._extra_state"],
           st["1._extra_state"] == {"seed": 3, "stream": model[1].stream, "position": model[1].position})


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
    report("Dropout(0.5, 16) means inplace (as for nn.Dropout), not seed 16: the input is the output",
           y is x and layer.seed != 16 and bool((x == 0).any()))
    for bad in ((-0.1,), (1.5,)):
        a, b = raises(ValueError, lambda: dropouth.Dropout(*bad)), raises(ValueError, lambda: torch.nn.Dropout(*bad))
        if a != b:
            why = "p %r: %r vs nn.Dropout %r" % (bad, a, b)
    report("p outside [0, 1]: ValueError with nn.Dropout's message", not why, why)
    report("the library's options are keyword-only: Dropout(0.5, False, 7) raises TypeError",
           raises(TypeError, lambda: dropouth.Dropout(0.5, False, 7)) is not None)
    layer = dropouth.Dropout(0.3, seed=2, stream=0)
    xin = torch.randn(50, 7)
    ref = dropouth.Dropout(0.3, seed=2, stream=0)(xin)
    xi = xin.clone().requires_grad_(False)
    out = dropouth.Dropout(0.3, inplace=True, seed=2, stream=0)(xi)
    leaf = torch.randn(50, 7, requires_grad=True)
    h = leaf * 1.0
    dropouth.Dropout(0.3, inplace=True, seed=2, stream=0)(h).sum().backward()
    ref_leaf = leaf.detach().clone().requires_grad_(True)
    dropouth.Dropout(0.3, seed=2, stream=0)(ref_leaf * 1.0).sum().backward()
    report("inplace=True: the same values in the input's memory, and the same gradient as out of place",
           out is xi and same(out, ref) and same(leaf.grad, ref_leaf.grad))
    layer.eval()
    report("eval(): the identity, the input itself, no positions used", layer(xin) is xin and layer.position == 0)


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
    msg = raises(ValueError, lambda: layer(torch.ones(10)))
    report("p changed to one the width cannot honour: the call raises and reserves nothing",
           msg is not None and layer.position == 0)


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
    exp = base[:1].expand(3, 30, 12)
    msg = raises(ValueError, lambda: dropouth.dropout(exp, 0.3, True, True, seed=5, pos=0))
    report("in place on an expanded tensor (elements sharing memory): ValueError from the library, nothing written: %s" % msg,
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
    before = layer.position
    raises(TypeError, lambda: layer(sp))
    raises(ValueError, lambda: layer(meta))
    report("refused inputs reserve no positions", layer.position == before)
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


# ---- training: threads, resume ------------------------------------------------------------
def make_model():
    torch.manual_seed(0)
    dropouth.manual_seed(1)
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


def test_resume():
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 20)
    whole = weights(m)
    torch.set_num_threads(2)
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 20)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    report("training with dropouth.Dropout: identical weights with 1 and %d torch threads" % threads, weights(m) == whole)
    m = make_model()
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(m, opt, 0, 10)
    buf = io.BytesIO()
    torch.save({"model": m.state_dict(), "opt": opt.state_dict()}, buf)
    buf.seek(0)
    ck = torch.load(buf)
    dropouth.manual_seed(99)   # a fresh process would number and seed its layers anew
    m2 = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), dropouth.Dropout(0.3),
                             torch.nn.Linear(32, 32), torch.nn.ReLU(), dropouth.Dropout(0.3), torch.nn.Linear(32, 2))
    opt2 = torch.optim.Adam(m2.parameters(), 1e-2)
    m2.load_state_dict(ck["model"])
    opt2.load_state_dict(ck["opt"])
    train(m2, opt2, 10, 10)
    report("training: save after 10 steps, load into a freshly numbered model, 10 more == 20 unbroken", weights(m2) == whole)


# ---- CUDA tensors (a GPU machine): the CPU's bits on every path ----------------------------
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
    dropouth.manual_seed(4)
    cpu_layer = dropouth.Dropout(0.1)
    dropouth.manual_seed(4)
    gpu_layer = dropouth.Dropout(0.1).cuda()
    x = torch.randn(64, 33)
    report("torch CUDA: the module on a CUDA tensor == on the CPU, two calls",
           same(cpu_layer(x), gpu_layer(x.cuda()).cpu()) and same(cpu_layer(x.t()), gpu_layer(x.t().cuda()).cpu()))
    for mode in ("reentrant", "non-reentrant"):
        _, ref_pos = train_steps(build(True), "plain")
        blocks = build(True).cuda()
        xg = torch.randn(6, 24, generator=torch.Generator().manual_seed(1)).cuda().requires_grad_(True)
        grads = []
        for _ in range(3):
            for p in blocks.parameters():
                p.grad = None
            h = xg
            for blk in blocks:
                h = tcp.checkpoint(blk, h, use_reentrant=(mode == "reentrant"))
            h.square().sum().backward()
            grads.append([p.grad.clone() for p in blocks.parameters()])
        plain = build(True).cuda()
        pg = []
        for _ in range(3):
            for p in plain.parameters():
                p.grad = None
            h = xg
            for blk in plain:
                h = blk(h)
            h.square().sum().backward()
            pg.append([p.grad.clone() for p in plain.parameters()])
        pos = [m.position for m in blocks.modules() if isinstance(m, dropouth.Dropout)]
        report("torch CUDA: torch.utils.checkpoint (%s, a shared layer) gradients bit-identical to no checkpointing "
               "on the GPU; positions == the CPU run's" % mode,
               all(same(a, b) for sa, sb in zip(pg, grads) for a, b in zip(sa, sb)) and pos == ref_pos, str(pos))


def main():
    test_layers_differ()
    test_checkpoint()
    test_autograd()
    test_functional()
    test_manners()
    test_signature()
    test_p()
    test_strided()
    test_errors()
    test_dtypes()
    test_resume()
    if not torch.cuda.is_available():
        skip("torch CUDA: dropouth on CUDA tensors (strided, checkpointed, module) == CPU bits", "no CUDA device here")
    else:
        try:
            dropouth._lib.cuda()
        except OSError as e:
            skip("torch CUDA: dropouth on CUDA tensors (strided, checkpointed, module) == CPU bits", str(e))
        else:
            test_cuda()
    return failures_exit()


if __name__ == "__main__":
    sys.exit(main())
