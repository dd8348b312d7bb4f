"""test_python.py - python/dropouth.py against an independent NumPy oracle, and in PyTorch.

Run by tests/python/suite.sh (DROPOUTH_LIB / DROPOUTH_CUDA_LIB name the libraries). Prints
PASS / FAIL / SKIP lines like every test here. The oracle below is Philox4x32-10 and the
dropout rule written again from docs/SPEC.md in NumPy, vectorised over counters, so a bug
in dropout.h and the same bug in the oracle would have to be written twice. Random123's
known answers check the oracle itself.

Sections: the oracle; NumPy API (masks, forward in four dtypes with special values,
backward both ways, chunking, streams); errors; PyTorch on the CPU (autograd, gradcheck,
the Dropout module, threads, checkpoint/resume); PyTorch on a GPU (same bits as the CPU,
and torch's own dropout for contrast).
"""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
import numpy as np  # noqa: E402
import dropouth  # noqa: E402

failures = 0


def report(name, ok, why=""):
    global failures
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))
    failures += not ok
    sys.stdout.flush()


def skip(name, why):
    print("SKIP %s: %s" % (name, why))


# ---- the oracle (docs/SPEC.md sections 1-5, written again) ------------------------------
M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK32 = np.uint64(0xFFFFFFFF)


def philox10(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 of arrays of counters (uint64 holding 32-bit values)."""
    c = [np.asarray(v, np.uint64) for v in (c0, c1, c2, c3)]
    k0, k1 = np.uint64(k0), np.uint64(k1)
    for _ in range(10):
        p0 = np.uint64(M0) * c[0]
        p1 = np.uint64(M1) * c[2]
        hi0, lo0, hi1, lo1 = p0 >> np.uint64(32), p0 & MASK32, p1 >> np.uint64(32), p1 & MASK32
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
        k0, k1 = (k0 + np.uint64(W0)) & MASK32, (k1 + np.uint64(W1)) & MASK32
    return c


def words(seed, stream, first, n):
    """Stream words first .. first+n-1: word w = philox(block w/4, stream; seed)[w % 4]."""
    w = np.arange(n, dtype=np.uint64) + np.uint64(first)   # first + n <= 2^64 in every call below
    b = w >> np.uint64(2)
    out = philox10(b & MASK32, b >> np.uint64(32), np.full(n, stream & 0xFFFFFFFF, np.uint64),
                   np.full(n, stream >> 32, np.uint64), seed & 0xFFFFFFFF, seed >> 32)
    lane = (w & np.uint64(3)).astype(np.intp)
    return np.choose(lane, out).astype(np.uint32)


def draws(seed, stream, offset, n, bits):
    """Draws of positions offset .. offset+n-1: 128/bits per block, low bits first."""
    per = 128 // bits
    first_block = offset // per
    nblocks = (offset + n - 1) // per - first_block + 1
    w = words(seed, stream, 4 * first_block, 4 * nblocks).astype(np.uint64)
    if bits == 32:
        d = w
    else:
        sub = 32 // bits
        shifts = np.arange(sub, dtype=np.uint64) * np.uint64(bits)
        d = ((w[:, None] >> shifts) & np.uint64((1 << bits) - 1)).reshape(-1)
    start = offset - first_block * per
    return d[start:start + n]


def rule(p, bits):
    t = int(p * (1 << bits) + 0.5)
    scale64 = 0.0 if t == 1 << bits else 1.0 / (1.0 - t / float(1 << bits))
    return t, scale64, np.float32(scale64)


def oracle_keep(seed, stream, offset, n, p, bits):
    t, _, _ = rule(p, bits)
    return draws(seed, stream, offset, n, bits) >= np.uint64(t)


def bf16_round(f32):
    """float32 -> bf16 bits, round to nearest even; NaN quieted (SPEC 5.1)."""
    u = f32.view(np.uint32).astype(np.uint64)
    r = ((u + np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)).astype(np.uint16)
    nan = (u & np.uint64(0x7FFFFFFF)) > np.uint64(0x7F800000)
    return np.where(nan, ((u >> np.uint64(16)) | np.uint64(0x40)).astype(np.uint16), r)


def quiet(x):
    """A NaN with its quiet bit set, as a kept NaN comes out (SPEC 5)."""
    if x.dtype == np.float32:
        return (x.view(np.uint32) | np.uint32(0x00400000)).view(np.float32)
    return (x.view(np.uint64) | np.uint64(1 << 51)).view(np.float64)


def oracle_forward(x, keep, p, bits):
    t, s64, s32 = rule(p, bits)
    if t == 0:
        return x.copy()
    with np.errstate(all="ignore"):
        if x.dtype == np.float64:
            y = np.where(np.isnan(x), quiet(x), x * s64)
        elif x.dtype == np.float32:
            y = np.where(np.isnan(x), quiet(x), x * s32)
        elif x.dtype == np.float16:
            f = x.astype(np.float32)
            y = np.where(np.isnan(f), quiet(f), f * s32).astype(np.float16)   # NumPy rounds to nearest even
            # NumPy keeps a NaN's top payload bits and quiets it, as SPEC 5.1 does
        else:
            f = (x.astype(np.uint32) << np.uint32(16)).view(np.float32)
            y = bf16_round(np.where(np.isnan(f), quiet(f), f * s32))
    return np.where(keep, y, np.zeros_like(x))


def special_values(dtype, n, rng):
    """Random values with NaNs (payloads, both signs), infinities, -0, subnormals, max."""
    if dtype == np.uint16:
        x = rng.integers(0, 1 << 16, n, dtype=np.uint16)
        x[::7] = np.array([0x7FC1, 0xFFC5, 0x7F81, 0x7F80, 0xFF80, 0x8000, 0x0001, 0x7F7F], np.uint16)[np.arange(len(x[::7])) % 8]
        return x
    x = (rng.standard_normal(n) * 3).astype(dtype)
    bits_t = {np.float64: np.uint64, np.float32: np.uint32, np.float16: np.uint16}[dtype]
    specials = {np.float64: [0x7FF8000000000001, 0xFFF8123456789ABC, 0x7FF0000000000001, 0x7FF0000000000000,
                             0xFFF0000000000000, 0x8000000000000000, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF],
                np.float32: [0x7FC00001, 0xFFC12345, 0x7F800001, 0x7F800000, 0xFF800000, 0x80000000, 0x00000001, 0x7F7FFFFF],
                np.float16: [0x7E01, 0xFE55, 0x7C01, 0x7C00, 0xFC00, 0x8000, 0x0001, 0x7BFF]}[dtype]
    xb = x.view(bits_t)
    xb[::7] = np.array(specials, bits_t)[np.arange(len(xb[::7])) % 8]
    return x


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- the oracle itself, against Random123's known answers -------------------------------
def test_oracle():
    kat = [((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
           ((0xffffffff,) * 4, (0xffffffff,) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
           ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
            (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1))]
    ok = all(tuple(int(v) for v in philox10(*[[c] for c in ctr], *key)[i]) == (want[i],)
             for ctr, key, want in kat for i in range(4))
    report("oracle: NumPy Philox4x32-10 == Random123's known answers", ok)
    got = dropouth.stream_u32(4, seed=0, stream=0, word=0)
    report("stream_u32: first block of seed 0, stream 0 == Random123's zero vector",
           [int(v) for v in got] == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8], "got %s" % [hex(int(v)) for v in got])


# ---- NumPy API -------------------------------------------------------------------------
COORDS = [(0, 0, 0), (42, 3, 5), (0x123456789ABCDEF0, 2 ** 63 + 7, 2 ** 40 + 11), (7, 1, 2 ** 64 - 5000)]


def test_masks():
    why = ""
    for p in (0.0, 0.1, 0.5, 0.9, 1.0, 0.37):
        for bits in (8, 16, 32):
            for seed, stream, off in COORDS:
                n = 4097
                got = dropouth.mask(n, p, bits, seed, stream, off)
                want = oracle_keep(seed, stream, off, n, p, bits)
                if not np.array_equal(got, want):
                    why = "p %g bits %d seed %d stream %d offset %d: %d of %d differ" % (
                        p, bits, seed, stream, off, int((got != want).sum()), n)
    report("mask == oracle (p 0 .. 1, 8/16/32-bit, offsets up to the last positions before 2^64)", not why, why)


def test_forward_backward():
    rng = np.random.default_rng(5)
    why = ""
    for dtype in (np.float32, np.float64, np.float16, np.uint16):
        for p, bits in ((0.1, 8), (0.5, 16), (0.9, 32), (0.0, 8), (1.0, 16), (0.3, 8)):
            for seed, stream, off in COORDS:
                x = special_values(dtype, 3000, rng).reshape(3, 1000, 1)[:, :-1].copy()   # 3 x 999 x 1: shapes kept
                y, packed = dropouth.forward(x, p, bits, seed, stream, off)
                keep = oracle_keep(seed, stream, off, x.size, p, bits).reshape(x.shape)
                want = oracle_forward(x, keep, p, bits)
                tag = "%s p %g bits %d offset %d" % (np.dtype(dtype).name, p, bits, off)
                if not same_bits(y, want):
                    bad = np.flatnonzero(y.reshape(-1).view(np.dtype("u%d" % y.itemsize)) != want.reshape(-1).view(np.dtype("u%d" % y.itemsize)))
                    why = "%s: forward differs at %d elements, first %d" % (tag, len(bad), bad[0] if len(bad) else -1)
                elif not np.array_equal(dropouth.unpack_mask(packed, x.size), keep.reshape(-1)):
                    why = "%s: packed mask differs" % tag
                elif not same_bits(dropouth.backward(x, p, bits, seed, stream, off), y):
                    why = "%s: mask-free backward != forward" % tag
                elif not same_bits(dropouth.backward(x, p, bits, mask=packed), y):
                    why = "%s: backward from the mask != forward" % tag
    report("forward == oracle, bit for bit, f32/f64/f16/bf16 with NaN payloads, Inf, -0, subnormals; "
           "both backwards == forward; shapes kept", not why, why)


def test_chunks_and_streams():
    x = np.random.default_rng(1).standard_normal(10000).astype(np.float32)
    y, _ = dropouth.forward(x, 0.3, 16, 9, 1, 100)
    y1, _ = dropouth.forward(x[:3333].copy(), 0.3, 16, 9, 1, 100)
    y2, _ = dropouth.forward(x[3333:].copy(), 0.3, 16, 9, 1, 100 + 3333)
    report("two chunks at offsets o and o + 3333 == one call", same_bits(np.concatenate([y1, y2]), y))
    w = dropouth.stream_u32(1000, 5, 6, 2 ** 62 + 3)
    u32 = dropouth.uniform_f32(1000, 5, 6, 2 ** 62 + 3)
    u64 = dropouth.uniform_f64(500, 5, 6, 77)
    pair = words(5, 6, 154, 1000).astype(np.uint64)
    want64 = ((pair[1::2] << np.uint64(32) | pair[0::2]) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    ok = (np.array_equal(w, words(5, 6, 2 ** 62 + 3, 1000))
          and same_bits(u32, (words(5, 6, 2 ** 62 + 3, 1000) >> 8).astype(np.float32) * np.float32(2.0 ** -24))
          and same_bits(u64, want64))
    report("stream_u32, uniform_f32, uniform_f64 == oracle", ok)
    n = 1 << 20
    kept = int(dropouth.mask(n, 0.3, 8, 11).sum())
    q = dropouth.realised_keep(0.3, 8)
    sd = (n * q * (1 - q)) ** 0.5
    report("keep rate: |kept - n q| < 6 sd with q the realised keep probability (n 2^20, p 0.3, 8-bit)",
           abs(kept - n * q) < 6 * sd, "kept %d, n q %.0f, sd %.0f" % (kept, n * q, sd))


def expect_error(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except ValueError as e:
        return str(e)
    return None


def test_errors():
    x = np.ones(100, np.float32)
    cases = {
        "p 1.5": expect_error(dropouth.forward, x, 1.5),
        "p NaN": expect_error(dropouth.forward, x, float("nan")),
        "bits 12": expect_error(dropouth.mask, 10, 0.5, 12),
        "non-contiguous": expect_error(dropouth.forward, np.ones(200, np.float32)[::2], 0.5),
        "int32 array": expect_error(dropouth.forward, np.ones(10, np.int32), 0.5),
        "list": expect_error(dropouth.forward, [1.0, 2.0], 0.5),
        "offset 2^64": expect_error(dropouth.forward, x, 0.5, 8, 0, 0, 2 ** 64),
        "offset -1": expect_error(dropouth.mask, 10, 0.5, 8, 0, 0, -1),
        "offset + n past 2^64": expect_error(dropouth.forward, x, 0.5, 8, 0, 0, 2 ** 64 - 50),
        "seed 2^64": expect_error(dropouth.mask, 10, 0.5, 8, 2 ** 64),
        "short mask": expect_error(dropouth.backward, x, 0.5, mask=np.zeros(3, np.uint8)),
    }
    bad = [k for k, v in cases.items() if v is None]
    lib_msg = cases["p 1.5"] or ""
    report("bad input raises ValueError (p, bits, layout, dtype, range, mask size)", not bad, "accepted: %s" % bad)
    report("the ValueError carries the library's message", "dropout.h:" in lib_msg and "code -1" in lib_msg, lib_msg)


# ---- PyTorch on the CPU ----------------------------------------------------------------
def test_torch_cpu(torch):
    x = torch.randn(4, 300, dtype=torch.float32)
    y = dropouth.dropout(x, 0.2, 16, 7, 1, 9)
    yn, _ = dropouth.forward(x.numpy(), 0.2, 16, 7, 1, 9)
    ok = same_bits(y.numpy(), yn)
    for dt in (torch.float64, torch.float16, torch.bfloat16):
        t = torch.randn(1000).to(dt)
        arr = t.view(torch.int16).numpy().view(np.uint16) if dt == torch.bfloat16 else t.numpy()
        a = dropouth.dropout(t, 0.4, 8, 3, 2, 1)
        a = a.view(torch.int16).numpy().view(np.uint16) if dt == torch.bfloat16 else a.numpy()
        ok = ok and same_bits(a, dropouth.forward(arr, 0.4, 8, 3, 2, 1)[0])
    report("torch CPU: dropouth.dropout == NumPy forward, f32/f64/f16/bf16", ok)

    xg = torch.randn(50, dtype=torch.float64, requires_grad=True)
    gc = torch.autograd.gradcheck(lambda t: dropouth.dropout(t, 0.3, 8, 1, 0, 123), (xg,))
    report("torch.autograd.gradcheck(dropouth.dropout) passes (float64)", bool(gc))
    out = dropouth.dropout(xg, 0.3, 8, 1, 0, 123)
    dy = torch.randn(50, dtype=torch.float64)
    out.backward(dy)
    report("autograd backward == mask-free backward of dy",
           same_bits(xg.grad.numpy(), dropouth.backward(dy.numpy(), 0.3, 8, 1, 0, 123)))
    try:
        dropouth.dropout(torch.ones(10, 10).t(), 0.5)
        report("torch: a non-contiguous tensor raises ValueError", False, "accepted")
    except ValueError:
        report("torch: a non-contiguous tensor raises ValueError", True)

    layer = dropouth.Dropout(0.5, seed=4, stream=2)
    a, b = layer(torch.ones(100)), layer(torch.ones(100))
    want_a, _ = dropouth.forward(np.ones(100, np.float32), 0.5, 8, 4, 2, 0)
    want_b, _ = dropouth.forward(np.ones(100, np.float32), 0.5, 8, 4, 2, 100)
    layer.eval()
    c = layer(torch.ones(100))
    report("Dropout module: training calls take consecutive positions; eval is the identity",
           same_bits(a.numpy(), want_a) and same_bits(b.numpy(), want_b) and bool(torch.equal(c, torch.ones(100)))
           and layer.offset == 200)
    st = layer.state_dict()
    report("Dropout module: (seed, stream, offset) are in state_dict",
           any(k.endswith("_extra_state") and v == {"seed": 4, "stream": 2, "offset": 200} for k, v in st.items()), str(st))
    layer.train()
    layer.offset = 2 ** 64 - 50
    e = None
    try:
        layer(torch.ones(100))
    except ValueError as err:
        e = err
    report("Dropout module: a call past 2^64 positions raises ValueError and moves nothing",
           e is not None and layer.offset == 2 ** 64 - 50)


def make_model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 64), torch.nn.ReLU(), dropouth.Dropout(0.3, seed=1, bits=16),
                               torch.nn.Linear(64, 64), torch.nn.ReLU(), dropouth.Dropout(0.3, seed=1, stream=1, bits=16),
                               torch.nn.Linear(64, 2))


STEPS = 40
_g = np.random.default_rng(3)
DATA = _g.standard_normal((STEPS, 32, 8)).astype(np.float32)     # one fixed minibatch per step
LABELS = (_g.standard_normal((STEPS, 32)) > 0).astype(np.int64)


def train(torch, model, opt, steps, first_step=0):
    data, labels = torch.from_numpy(DATA), torch.from_numpy(LABELS)
    for s in range(first_step, first_step + steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data[s]), labels[s])
        loss.backward()
        opt.step()


def weights(model):
    return b"".join(p.detach().numpy().tobytes() for p in model.parameters())


def test_torch_training(torch):
    runs = {}
    for threads in (1, 2):
        torch.set_num_threads(threads)
        m = make_model(torch)
        train(torch, m, torch.optim.Adam(m.parameters(), 1e-2), STEPS)
        runs[threads] = (weights(m), torch.get_num_threads())
    torch.set_num_threads(1)
    report("torch training with dropouth.Dropout: identical weights with 1 and %d torch threads" % runs[2][1],
           runs[1][0] == runs[2][0])

    m = make_model(torch)
    opt = torch.optim.Adam(m.parameters(), 1e-2)
    train(torch, m, opt, 20)
    buf = io.BytesIO()
    torch.save({"model": m.state_dict(), "opt": opt.state_dict()}, buf)
    buf.seek(0)
    ck = torch.load(buf)
    m2 = make_model(torch)
    for layer in m2:   # a fresh process would start here with offset 0
        if hasattr(layer, "offset"):
            layer.offset = 0
    opt2 = torch.optim.Adam(m2.parameters(), 1e-2)
    m2.load_state_dict(ck["model"])
    opt2.load_state_dict(ck["opt"])
    train(torch, m2, opt2, 20, first_step=20)
    report("torch training: save after 20 steps, load into a fresh model, 20 more == 40 unbroken",
           weights(m2) == runs[1][0])


# ---- PyTorch on a GPU ------------------------------------------------------------------
def as_bits(torch, t):
    """A tensor's bit patterns (so -0 differs from +0 and NaNs compare by payload)."""
    ints = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64}
    return t.contiguous().view(-1).view(ints[t.dtype])


def test_torch_cuda(torch):
    why = ""
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        for shape, p, bits, off in ((((1 << 20) + 37,), 0.1, 8, 0), ((33, 1000), 0.5, 16, 2 ** 64 - 100000),
                                    ((4096,), 0.9, 32, 12345)):
            x = torch.randn(shape).to(dt)
            x.view(-1)[::97] = float("nan")
            x.view(-1)[1::97] = float("inf")
            xc = x.clone().requires_grad_(True)
            xg = x.cuda().requires_grad_(True)
            yc = dropouth.dropout(xc, p, bits, 77, 3, off)
            yg = dropouth.dropout(xg, p, bits, 77, 3, off)
            dy = torch.randn(shape).to(dt)
            yc.backward(dy)
            yg.backward(dy.cuda())
            torch.cuda.synchronize()
            if not torch.equal(as_bits(torch, yc.detach()), as_bits(torch, yg.detach().cpu())):
                why = "%s %s: output differs" % (dt, shape)
            elif not torch.equal(as_bits(torch, xc.grad), as_bits(torch, xg.grad.cpu())):
                why = "%s %s: gradient differs" % (dt, shape)
    report("torch CUDA: dropouth.dropout output and gradient == CPU, bit for bit (f32/f64/f16/bf16, NaN, Inf, "
           "offsets near 2^64)", not why, why)

    # torch's own dropout, same seed, CPU and CUDA: shown side by side, measured
    n = 1 << 16
    torch.manual_seed(1234)
    cpu_keep = torch.nn.functional.dropout(torch.ones(n), 0.5, True) != 0
    torch.manual_seed(1234)
    gpu_keep = (torch.nn.functional.dropout(torch.ones(n, device="cuda"), 0.5, True) != 0).cpu()
    ours_cpu = dropouth.dropout(torch.ones(n), 0.5, seed=1234) != 0
    ours_gpu = (dropouth.dropout(torch.ones(n, device="cuda"), 0.5, seed=1234) != 0).cpu()
    row = lambda k: "".join("1" if v else "." for v in k[:48].tolist())  # noqa: E731
    agree = float((cpu_keep == gpu_keep).float().mean())
    print("    first 48 keep decisions, p = 0.5, seed 1234, 2^16 elements:")
    print("    torch F.dropout CPU   %s" % row(cpu_keep))
    print("    torch F.dropout CUDA  %s   (%.1f%% of all 65536 agree with the CPU)" % (row(gpu_keep), 100 * agree))
    print("    dropouth CPU          %s" % row(ours_cpu))
    print("    dropouth CUDA         %s   (%.1f%% agree)" % (row(ours_gpu), 100 * float((ours_cpu == ours_gpu).float().mean())))
    report("torch F.dropout: CPU and CUDA masks differ for one seed; dropouth's are equal",
           not torch.equal(cpu_keep, gpu_keep) and torch.equal(ours_cpu, ours_gpu))


def main():
    test_oracle()
    test_masks()
    test_forward_backward()
    test_chunks_and_streams()
    test_errors()
    try:
        import torch
    except ImportError:
        skip("torch", "no PyTorch for this python (apt-get install python3-torch)")
        torch = None
    if torch is not None:
        test_torch_cpu(torch)
        test_torch_training(torch)
        if not torch.cuda.is_available():
            skip("torch CUDA: dropouth on CUDA tensors == CPU", "no CUDA device")
        else:
            try:
                dropouth._cuda()
            except OSError as e:
                skip("torch CUDA: dropouth on CUDA tensors == CPU", str(e))
            else:
                test_torch_cuda(torch)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
