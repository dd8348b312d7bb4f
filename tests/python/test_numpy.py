"""test_numpy.py - dropouth's NumPy functions against an independent NumPy oracle.

Run by tests/python/suite.sh with the installed package (or a checkout on PYTHONPATH). The
oracle below is Philox4x32-10 and the dropout rule written again from docs/SPEC.md in NumPy,
vectorised over counters, so a bug in dropout.h and the same bug in the oracle would have to
be written twice. Random123's known answers check the oracle itself.

Sections: the oracle; masks, forward in four dtypes with special values, backward, strided
views (a view gets its contiguous copy's bits, without a copy), chunks, streams; bf16 by
name only; the default draw width; errors.
"""
import pickle
import sys

import numpy as np
import dropouth  # noqa: E402
from common import report, skip, failures_exit  # noqa: F401


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


def honoured(p, bits):
    """What dropout_rule_init accepts (SPEC: the tolerance): p and 1 - p each realised within
    1%, or p exactly 0 or 1."""
    if p in (0.0, 1.0):
        return True
    t = int(p * (1 << bits) + 0.5)
    q = t / float(1 << bits)
    return 0 < t < (1 << bits) and abs(q - p) <= 0.01 * p and abs(q - p) <= 0.01 * (1 - p)


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
    got = dropouth.stream_u32(4, seed=0, stream=0, pos=0)
    report("stream_u32: first block of seed 0, stream 0 == Random123's zero vector",
           [int(v) for v in got] == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8], "got %s" % [hex(int(v)) for v in got])


# ---- NumPy API -------------------------------------------------------------------------
COORDS = [(0, 0, 0), (42, 3, 5), (0x123456789ABCDEF0, 2 ** 63 + 7, 2 ** 40 + 11), (7, 1, 2 ** 64 - 5000)]


def bf16(dtype):
    """dtype= for the forward call: bf16 is named, never inferred from uint16."""
    return "bfloat16" if dtype == np.uint16 else None


def test_masks():
    why = ""
    for p in (0.0, 0.1, 0.5, 0.9, 1.0, 0.37):
        for bits in (8, 16, 32):
            for seed, stream, pos in COORDS:
                n = 4097
                if not honoured(p, bits):
                    # refused, as in C: the width realises p or 1 - p more than 1% off
                    try:
                        dropouth.mask(n, p, seed=seed, stream=stream, pos=pos, bits=bits)
                        why = "p %g bits %d: accepted, but the width realises it more than 1%% off" % (p, bits)
                    except ValueError:
                        pass
                    continue
                got = dropouth.mask(n, p, seed=seed, stream=stream, pos=pos, bits=bits)
                want = oracle_keep(seed, stream, pos, n, p, bits)
                if not np.array_equal(got, want):
                    why = "p %g bits %d seed %d stream %d pos %d: %d of %d differ" % (
                        p, bits, seed, stream, pos, int((got != want).sum()), n)
    report("mask == oracle, and refused where the width is more than 1% off (p 0 .. 1, 8/16/32-bit, positions up to the last before 2^64)", not why, why)


def test_forward_backward():
    rng = np.random.default_rng(5)
    why = ""
    for dtype in (np.float32, np.float64, np.float16, np.uint16):
        for p, bits in ((0.1, 16), (0.5, 16), (0.9, 32), (0.0, 8), (1.0, 16), (0.3, 8)):
            for seed, stream, pos in COORDS:
                x = special_values(dtype, 3000, rng).reshape(3, 1000, 1)[:, :-1].copy()   # 3 x 999 x 1: shapes kept
                kw = dict(seed=seed, stream=stream, pos=pos, bits=bits, dtype=bf16(dtype))
                y, packed = dropouth.forward(x, p, **kw)
                keep = oracle_keep(seed, stream, pos, x.size, p, bits).reshape(x.shape)
                want = oracle_forward(x, keep, p, bits)
                tag = "%s p %g bits %d pos %d" % (np.dtype(dtype).name, p, bits, pos)
                if not same_bits(y, want):
                    bad = np.flatnonzero(y.reshape(-1).view(np.dtype("u%d" % y.itemsize)) != want.reshape(-1).view(np.dtype("u%d" % y.itemsize)))
                    why = "%s: forward differs at %d elements, first %d" % (tag, len(bad), bad[0] if len(bad) else -1)
                elif not np.array_equal(dropouth.unpack_mask(packed, x.size), keep.reshape(-1)):
                    why = "%s: packed mask differs" % tag
                elif not same_bits(dropouth.backward(x, p, **kw), y):
                    why = "%s: mask-free backward != forward" % tag
    report("forward == oracle, bit for bit, f32/f64/f16/bf16 with NaN payloads, Inf, -0, subnormals; "
           "backward == forward; shapes kept", not why, why)


def test_strided():
    """A view (transposed, sliced with steps, reversed, broadcast input) gets exactly the bits
    of its contiguous copy: positions follow the logical row-major index, not memory."""
    rng = np.random.default_rng(8)
    base = rng.standard_normal((6, 40, 9)).astype(np.float32)
    views = {"transposed": base.transpose(2, 0, 1), "sliced with steps": base[1::2, 3:37:3, ::4],
             "reversed": base[::-1, :, ::-2], "one column": base[:, 5, :], "broadcast input": np.broadcast_to(base[:1], (4, 40, 9))}
    why = ""
    for name, v in views.items():
        for dtype in (np.float32, np.float64, np.float16):
            vv = v.astype(dtype) if dtype != np.float32 else v
            if dtype != np.float32:   # astype copies: make a view of the same kind again
                vv = np.ascontiguousarray(base.astype(dtype))
                vv = {"transposed": vv.transpose(2, 0, 1), "sliced with steps": vv[1::2, 3:37:3, ::4],
                      "reversed": vv[::-1, :, ::-2], "one column": vv[:, 5, :],
                      "broadcast input": np.broadcast_to(vv[:1], (4, 40, 9))}[name]
            y, packed = dropouth.forward(vv, 0.3, seed=3, stream=1, pos=77)
            yc, packedc = dropouth.forward(np.ascontiguousarray(vv), 0.3, seed=3, stream=1, pos=77)
            if not (same_bits(y, yc) and np.array_equal(packed, packedc)):
                why = "%s %s differs from its contiguous copy" % (name, np.dtype(dtype).name)
    bf = rng.integers(0, 1 << 16, (30, 20), dtype=np.uint16)
    yb, _ = dropouth.forward(bf.T, 0.3, seed=3, pos=0, dtype="bfloat16")
    if not same_bits(yb, dropouth.forward(bf.T.copy(), 0.3, seed=3, pos=0, dtype="bfloat16")[0]):
        why = "bf16 transposed differs"
    report("strided NumPy views (transposed, stepped, reversed, column, broadcast; f32/f64/f16/bf16) == their contiguous copies",
           not why, why)
    # more dims than the library's 8: the view is lowered by the library (dims of 1 dropped,
    # neighbours merged), a longer one folded first; one that cannot merge into 8 is refused
    deep = rng.standard_normal((2, 3, 1, 2, 2, 1, 2, 2, 2, 3, 1, 2)).astype(np.float32)
    longs = {"12-D contiguous": deep, "12-D, outer dims swapped": deep.transpose(1, 0, *range(2, 12)),
             "12-D reversed inner dims": deep[:, :, :, :, :, :, :, :, ::-1, ::-1],
             "12-D stepped middle": deep[:, ::2, :, :, :, :, :, :, :, :, :, :]}
    why_long = ""
    for name, v in longs.items():
        y, packed = dropouth.forward(v, 0.3, seed=3, stream=1, pos=5)
        yc, packedc = dropouth.forward(np.ascontiguousarray(v), 0.3, seed=3, stream=1, pos=5)
        if not (same_bits(y, yc) and np.array_equal(packed, packedc)):
            why_long = "%s differs from its contiguous copy" % name
    stepped = np.arange(4.0 ** 10, dtype=np.float32).reshape((4,) * 10)[(slice(None, None, 2),) * 10]
    g = dropouth.Generator(3, 0, 0)
    y, packed = dropouth.forward(stepped, 0.3, generator=g)
    yc, packedc = dropouth.forward(np.ascontiguousarray(stepped), 0.3, seed=3, pos=0)
    if not (same_bits(y, yc) and np.array_equal(packed, packedc) and g.position == stepped.size):
        why_long = "a 10-D view of steps everywhere (no 8 dims hold it) differs from its contiguous copy"
    report("views of more than 8 dims: the library lowers them, and one that cannot merge into 8 dims is copied "
           "(== contiguous copies)", not why_long, why_long)


def test_chunks_and_streams():
    x = np.random.default_rng(1).standard_normal(10000).astype(np.float32)
    y, _ = dropouth.forward(x, 0.3, seed=9, stream=1, pos=100, bits=16)
    y1, _ = dropouth.forward(x[:3333], 0.3, seed=9, stream=1, pos=100, bits=16)
    y2, _ = dropouth.forward(x[3333:], 0.3, seed=9, stream=1, pos=100 + 3333, bits=16)
    report("two chunks at positions o and o + 3333 == one call", same_bits(np.concatenate([y1, y2]), y))
    g = dropouth.Generator(9, 1, 100, bits=16)
    ya, _ = dropouth.forward(x[:3333], 0.3, generator=g, bits=16)
    yb, _ = dropouth.forward(x[3333:], 0.3, generator=g, bits=16)
    report("a Generator hands out consecutive positions: two calls == one call; it ends at the next free one",
           same_bits(np.concatenate([ya, yb]), y) and g.position == 10100, repr(g))
    # layers of different widths on one Generator (the default width follows p: 0.5 is 8-bit,
    # 0.1 16-bit): a call of another width starts past every stream word handed out
    g = dropouth.Generator(9, 2)
    spans, ok_w = [], True
    for p_, n_ in ((0.5, 1001), (0.1, 333), (0.5, 7), (0.001, 50), (0.5, 64)):
        bits_ = dropouth.default_bits(p_)
        before = g.position
        dropouth.mask(n_, p_, generator=g)
        first = g.position - n_
        per = 32 // bits_
        spans.append((first // per, -(-(first + n_) // per), bits_, first, before))
    for k in range(1, len(spans)):
        w0, _, b_, first, before = spans[k]
        ok_w &= first == before if b_ == spans[k - 1][2] else w0 >= spans[k - 1][1]
    g2 = pickle.loads(pickle.dumps(g))
    ok_w &= g2.reserve(3, bits=32) == -(-g.position // (32 // spans[-1][2]))
    report("a Generator across draw widths: a call of another width starts past every stream word handed out "
           "(and pickles its width)", ok_w, repr(spans))
    # a checkpoint as numbers (seed, stream, position, bits): resumed after each call, then a
    # call of each width, as the unbroken generator; a position without its width is refused
    g = dropouth.Generator(4, 1)
    ok_c, why_c = True, ""
    for p_, n_ in ((0.1, 10), (0.5, 5), (0.001, 3), (0.5, 9), (0.1, 1)):
        saved = (g.seed, g.stream, g.position, g.bits)
        for b_ in (8, 16, 32):
            back = dropouth.Generator(*saved)
            twin = pickle.loads(pickle.dumps(dropouth.Generator(*saved)))
            want = pickle.loads(pickle.dumps(g)).reserve(3, bits=b_)
            if back.reserve(3, bits=b_) != want or twin.reserve(3, bits=b_) != want:
                ok_c, why_c = False, "resumed %r, then %d bits: not at %d" % (saved, b_, want)
        dropouth.mask(n_, p_, generator=g)
    refused = [expect(TypeError, dropouth.Generator, 4, 1, 10),
               expect(TypeError, pickle.loads, pickle.dumps(dropouth.Generator(4, 1, 10, bits=32)).replace(b"bits", b"bitz")),
               expect(TypeError, dropouth.Generator(4, 1).reserve, 3),
               expect(ValueError, dropouth.Generator, 4, 1, 10, bits=12)]
    g = dropouth.Generator(4, 1)
    g.position = 10
    refused.append(expect(TypeError, dropouth.mask, 4, 0.5, generator=g))
    # its width set by hand too (docs/PYTHON.md: its fields may be set by hand; .bits had no setter)
    refused += [expect(ValueError, setattr, g, "bits", 12), expect(TypeError, setattr, g, "bits", True)]
    g.bits = 16
    if not np.array_equal(dropouth.mask(64, 0.5, bits=16, generator=g), dropouth.mask(64, 0.5, bits=16, generator=dropouth.Generator(4, 1, 10, 16))):
        ok_c, why_c = False, "position 10 and bits 16 set by hand: not the mask of Generator(4, 1, 10, 16)"
    ok_c &= all(m is not None for m in refused) and "width" in (refused[0] or "") and g.position == 10 + 64
    report("a Generator's checkpoint is seed, stream, position and bits: resumed (by numbers or pickle), every width "
           "continues as the unbroken one; a position past 0 without its width (the constructor, a 0.9 pickle, set by "
           "hand, reserve without bits) raises; position and bits set by hand resume", ok_c, why_c or repr(refused))
    w = dropouth.stream_u32(1000, seed=5, stream=6, pos=2 ** 62 + 3)
    u32 = dropouth.uniform_f32(1000, seed=5, stream=6, pos=2 ** 62 + 3)
    u64 = dropouth.uniform_f64(500, seed=5, stream=6, pos=77)
    pair = words(5, 6, 154, 1000).astype(np.uint64)
    want64 = ((pair[1::2] << np.uint64(32) | pair[0::2]) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    ok = (np.array_equal(w, words(5, 6, 2 ** 62 + 3, 1000))
          and same_bits(u32, (words(5, 6, 2 ** 62 + 3, 1000) >> 8).astype(np.float32) * np.float32(2.0 ** -24))
          and same_bits(u64, want64))
    report("stream_u32, uniform_f32, uniform_f64 == oracle", ok)
    n = 1 << 20
    kept = int(dropouth.mask(n, 0.3, seed=11, pos=0, bits=8).sum())
    q = 1 - dropouth.realised_p(0.3, 8)
    sd = (n * q * (1 - q)) ** 0.5
    report("keep rate: |kept - n q| < 6 sd with q the realised keep probability (n 2^20, p 0.3, 8-bit)",
           abs(kept - n * q) < 6 * sd, "kept %d, n q %.0f, sd %.0f" % (kept, n * q, sd))


def test_default_bits():
    """The default width: the narrowest whose realised p is within 0.1% of p relative to
    min(p, 1 - p); every p in a list that PyTorch code uses is honoured."""
    common_p = [0.0, 0.001, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.33, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9,
                0.95, 0.99, 0.999, 1.0, 1e-4, 1e-5, 1e-6]
    why = ""
    for p in common_p:
        b = dropouth.default_bits(p)
        got = dropouth.realised_p(p)
        if abs(got - p) > 1e-3 * min(p, 1 - p):
            why = "p %g: realised %r with %d bits" % (p, got, b)
        narrower = [w for w in (8, 16) if w < b and abs(rule(p, w)[0] / float(1 << w) - p) <= 1e-3 * min(p, 1 - p)]
        if narrower:
            why = "p %g: %d bits chosen, %d would do" % (p, b, narrower[0])
    want = {0.5: 8, 0.25: 8, 0.1: 16, 0.3: 16, 0.01: 16, 0.001: 32, 0.2: 16, 0.0: 8, 1.0: 8}
    bad = {p: dropouth.default_bits(p) for p in want if dropouth.default_bits(p) != want[p]}
    report("default draw width honours p within 0.1%% for %d values of p (0.5 -> 8, 0.1 -> 16, 0.001 -> 32 bits)" % len(common_p),
           not why and not bad, why or str(bad))
    n = 1 << 20
    kept = int(dropouth.mask(n, 0.001, seed=11, pos=0).sum())
    sd = (n * 0.999 * 0.001) ** 0.5
    report("p = 0.001 by default drops about 0.1%% (|dropped - n p| < 6 sd; 8-bit draws would drop none): dropped %d of %d"
           % (n - kept, n), abs((n - kept) - n * 0.001) < 6 * sd)


def expect(exc, fn, *args, **kw):
    """The message of the exc fn raises, or None when it raises nothing (or another type)."""
    try:
        fn(*args, **kw)
    except exc as e:
        return str(e) or exc.__name__
    except Exception as e:   # noqa: BLE001
        return None if not isinstance(e, exc) else str(e)
    return None


def test_errors():
    x = np.ones(100, np.float32)
    c = dict(seed=0, pos=0)
    value = {
        "p 1.5": expect(ValueError, dropouth.forward, x, 1.5, **c),
        "p NaN": expect(ValueError, dropouth.forward, x, float("nan"), **c),
        "bits 12": expect(ValueError, dropouth.mask, 10, 0.5, bits=12, **c),
        "p 0.001 at 8 bits": expect(ValueError, dropouth.mask, 10, 0.001, bits=8, **c),
        "p 1e-12 at 32 bits": expect(ValueError, dropouth.mask, 10, 1e-12, bits=32, **c),
        "pos 2^64": expect(ValueError, dropouth.forward, x, 0.5, seed=0, pos=2 ** 64),
        "pos -1": expect(ValueError, dropouth.mask, 10, 0.5, seed=0, pos=-1),
        "pos + n past 2^64": expect(ValueError, dropouth.forward, x, 0.5, seed=0, pos=2 ** 64 - 50),
        "seed 2^64": expect(ValueError, dropouth.mask, 10, 0.5, seed=2 ** 64, pos=0),
    }
    types = {
        "int32 array": expect(TypeError, dropouth.forward, np.ones(10, np.int32), 0.5, **c),
        "list": expect(TypeError, dropouth.forward, [1.0, 2.0], 0.5, **c),
        "uint16 without dtype='bfloat16'": expect(TypeError, dropouth.forward, np.ones(10, np.uint16), 0.5, **c),
        "no coordinates": expect(TypeError, dropouth.forward, x, 0.5),
        "seed without pos": expect(TypeError, dropouth.mask, 10, 0.5, seed=3),
        "float seed": expect(TypeError, dropouth.mask, 10, 0.5, seed=1.5, pos=0),
        # NumPy's booleans have __index__ and __float__: taken, they were seed 1, position 0, p = 1
        "seed=np.True_": expect(TypeError, dropouth.mask, 10, 0.5, seed=np.True_, pos=0),
        "pos=np.array(False)": expect(TypeError, dropouth.mask, 10, 0.5, seed=1, pos=np.array(False)),
        "stream=np.True_": expect(TypeError, dropouth.mask, 10, 0.5, seed=1, stream=np.True_, pos=0),
        "p=np.True_": expect(TypeError, dropouth.mask, 10, np.True_, **c),
        "bits=np.int8(8) is taken, bits=np.True_ not": expect(TypeError, dropouth.mask, 10, 0.5, bits=np.True_, **c),
        "bits=True": expect(TypeError, dropouth.mask, 10, 0.5, bits=True, **c),
        "bits=8.0": expect(TypeError, dropouth.mask, 10, 0.5, bits=8.0, **c),
        "bits='8'": expect(TypeError, dropouth.mask, 10, 0.5, bits="8", **c),
        "Generator(1, bits=True)": expect(TypeError, dropouth.Generator, 1, 0, 0, True),
        "Generator(np.True_)": expect(TypeError, dropouth.Generator, np.True_),
        # float() takes these (a ComplexWarning, or the one element): Octave's gateway refuses them
        "p np.complex64(0.5+0.25j)": expect(TypeError, dropouth.mask, 10, np.complex64(0.5 + 0.25j), **c),
        "p np.array([[0.5]])": expect(TypeError, dropouth.mask, 10, np.array([[0.5]]), **c),
    }
    dropouth.mask(10, np.float32(0.5), **c)   # a real NumPy scalar and a 0-d array are numbers
    dropouth.mask(10, np.array(0.5), **c)
    dropouth.mask(10, 0.5, bits=np.int8(8), **c)   # an integer of NumPy's is an integer
    g = dropouth.Generator(1, stream=5)
    types["stream= beside generator="] = expect(TypeError, dropouth.mask, 64, 0.5, generator=g, stream=7)
    packed = dropouth.mask(100, 0.5, seed=1, pos=0)
    value["unpack_mask: n past the bytes"] = expect(ValueError, dropouth.unpack_mask, np.zeros(1, np.uint8), 100)
    value["unpack_mask: n = -1"] = expect(ValueError, dropouth.unpack_mask, np.zeros(1, np.uint8), -1)
    types["unpack_mask: n = None"] = expect(TypeError, dropouth.unpack_mask, np.zeros(1, np.uint8), None)
    types["unpack_mask: an int array (256 would be byte 0)"] = expect(TypeError, dropouth.unpack_mask, np.array([256]), 8)
    types["unpack_mask: a float array"] = expect(TypeError, dropouth.unpack_mask, np.array([1.7]), 8)
    for field, v, exc in (("position", -5, ValueError), ("seed", 2 ** 64 + 1, ValueError), ("stream", 1.5, TypeError)):
        g = dropouth.Generator(1)
        setattr(g, field, v)
        types["Generator.%s = %r, then a call" % (field, v)] = expect(exc, dropouth.mask, 4, 0.5, generator=g)
    bad = [k for k, v in list(value.items()) + list(types.items()) if v is None]
    report("bad input raises ValueError (p, bits that cannot honour p, range) or TypeError (array type, uint16 "
           "unnamed, a complex or one-element-array p, no coordinates, stream= beside a generator, unpack_mask's n and bytes, a Generator's fields set "
           "by hand)", not bad, "not raised as expected: %s" % bad)
    import copy
    import pickle
    # the end of the stream, as C's dropout_gen_plan: a generator never hands out position
    # 2^64 - 1 (its next position is a uint64_t), so 2^64 - 2 is the last
    g = dropouth.Generator(1, position=2 ** 64 - 3, bits=32)
    end = [expect(ValueError, g.reserve, 3), g.position, g.reserve(2), g.position,
           expect(ValueError, g.reserve, 1), g.position, g.reserve(0)]
    back = pickle.loads(pickle.dumps(g))
    report("a Generator at 2^64 - 3 refuses 3 positions (moving nothing), hands out 2, 2^64 - 3 and 2^64 - 2, then "
           "refuses a call, as C's dropout_gen_plan; it pickles; position 2^64 is refused; a width change past the "
           "end raises", end[0] is not None and end[1:4] == [2 ** 64 - 3, 2 ** 64 - 3, 2 ** 64 - 1]
           and end[4] is not None and end[5:] == [2 ** 64 - 1, 2 ** 64 - 1] and back.position == 2 ** 64 - 1
           and expect(ValueError, dropouth.mask, 1, 0.5, bits=32, generator=back) is not None
           and expect(ValueError, dropouth.Generator, 1, 0, 2 ** 64, 32) is not None
           and expect(ValueError, dropouth.Generator(1, 0, 2 ** 64 - 2, 32).reserve, 1, 8) is not None, repr(end))
    g = dropouth.Generator(1, position=40, bits=8)
    copied = [expect(TypeError, copy.copy, g), expect(TypeError, copy.deepcopy, g),
              expect(TypeError, copy.deepcopy, {"model": [g]})]
    report("copy.copy and copy.deepcopy of a Generator (also inside a container) raise, naming the repeat; g unmoved",
           all(m is not None and "same positions" in m for m in copied) and g.position == 40, repr(copied))
    report("unpack_mask of bytes and of forward's packed mask == mask()",
           np.array_equal(dropouth.unpack_mask(np.packbits(packed, bitorder="little").tobytes(), 100), packed))
    msg = value["p 0.001 at 8 bits"] or ""
    report("the ValueError carries the library's message (p 0.001 at 8 bits: %s)" % msg,
           msg.startswith("dropout.h:") and "16" in msg and "code" in msg, msg)
    report("uint16 data is never read as bf16 unless named: dropouth.forward(uint16) raises before reading",
           types["uint16 without dtype='bfloat16'"] is not None and "bfloat16" in types["uint16 without dtype='bfloat16'"])


def test_layout_properties():
    """Every property the C side assumes, checked or made so: byte order, alignment, whole-element
    strides; the output is the package's own, native and writeable."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal(300)
    for dt in ("f4", "f8", "f2"):
        native = x.astype("=" + dt)
        want, wmask = dropouth.forward(native, 0.3, seed=4, pos=7)
        swapped = native.astype(">" + dt if np.little_endian else "<" + dt)
        got, gmask = dropouth.forward(swapped, 0.3, seed=4, pos=7)
        report("a %s array of non-native byte order (%s) gives the native array's bits, a native output"
               % (native.dtype.name, swapped.dtype.str), np.array_equal(got, want) and np.array_equal(gmask, wmask)
               and got.dtype.isnative and np.array_equal(dropouth.backward(swapped, 0.3, seed=4, pos=7),
                                                        dropouth.backward(native, 0.3, seed=4, pos=7)))
    bf = rng.integers(0, 1 << 16, 100, dtype=np.uint16)
    report("bf16 bit patterns of non-native byte order (dtype='bfloat16') == the native ones",
           np.array_equal(dropouth.forward(bf.astype(">u2" if np.little_endian else "<u2"), 0.3, seed=1, pos=0, dtype="bfloat16")[0],
                          dropouth.forward(bf, 0.3, seed=1, pos=0, dtype="bfloat16")[0]))
    raw = np.zeros(4 * 300 + 1, np.uint8)
    mis = raw[1:].view(np.float32)
    mis[:] = x.astype(np.float32)
    report("an array not aligned to its element size (offset 1 in a byte buffer) gives the aligned copy's bits",
           not mis.flags.aligned and np.array_equal(dropouth.forward(mis, 0.3, seed=4, pos=7)[0],
                                                   dropouth.forward(x.astype(np.float32), 0.3, seed=4, pos=7)[0]))
    rec = np.zeros(50, dtype=[("a", "u1"), ("v", "<f4")])
    rec["v"] = x[:50]
    odd = rec["v"]     # strides of 5 bytes: not whole elements
    report("a field of a packed record array (strides %s, not whole elements) gives its copy's bits" % (odd.strides,),
           np.array_equal(dropouth.forward(odd, 0.3, seed=4, pos=7)[0],
                          dropouth.forward(np.ascontiguousarray(odd), 0.3, seed=4, pos=7)[0]))
    ro = x.astype(np.float32)
    ro.setflags(write=False)
    y, _ = dropouth.forward(ro, 0.3, seed=4, pos=7)
    report("a read-only input is read, never written; the output is a new writeable array",
           y.flags.writeable and y.flags.c_contiguous and not np.shares_memory(y, ro))


def test_version():
    import os
    header = os.environ.get("DROPOUT_HEADER")
    if not header:
        skip("__version__ == the header's DROPOUT_VERSION_STRING", "DROPOUT_HEADER not set")
        return
    import re
    want = re.search(r'#define DROPOUT_VERSION_STRING "([^"]+)"', open(header).read()).group(1)
    report("dropouth.__version__ %s == dropout.h's DROPOUT_VERSION_STRING %s == the library's" % (dropouth.__version__, want),
           dropouth.__version__ == want == dropouth._lib.library_version())


def main():
    test_oracle()
    test_masks()
    test_forward_backward()
    test_strided()
    test_chunks_and_streams()
    test_default_bits()
    test_errors()
    test_layout_properties()
    test_version()
    return failures_exit()


if __name__ == "__main__":
    sys.exit(main())
