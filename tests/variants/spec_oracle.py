"""spec_oracle.py - docs/SPEC.md's variants computed from its text alone, in Python with NumPy's
IEEE conversions, against the library bit for bit (tests/variants/spec_oracle.c gives the
library's side):

  normals   V.3: ln u, r, the angle's polynomials and the quadrant, on edge words (u = 2^-32 and
            1, the sqrt(2) split, the octant boundaries 2^29 +- 1, each quadrant) and random ones
  variants  V.2 alpha dropout (mul_split, sqrt64) and V.4 Gaussian dropout, f64 and f32, with the
            keep bits of sections 1-4 (Philox, the draws of each width, the threshold)
  fused     section 12: f32 and f16/bf16 through one correctly rounded fma (exact rationals
            here), f64 as two roundings, dropped elements as the residual's bits
  gen       section 8: where a generator's next plan starts after another kind, and its
            refusals past 2^64 - 1

Nothing here reads dropout.h: where this file and the library disagree, one of them or the
text is wrong. Usage: spec_oracle.py PATH_TO_spec_oracle_BINARY; one PASS/FAIL line a part."""
import math
import random
import struct
import subprocess
import sys
from fractions import Fraction

import numpy as np

DRIVER = sys.argv[1]


# ---- IEEE helpers (NumPy's conversions, not the header's) ------------------------------------
def rn32(v):
    """RN32 of a binary64 value (overflow to Inf, as IEEE)."""
    with np.errstate(over="ignore"):
        return float(np.float32(v))


def madf(a, b, c):
    """V.0: RN32(RN64(a*b + c)); a*b of two binary32 is exact in binary64."""
    return rn32(a * b + c)


def bits64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def from_bits64(u):
    return struct.unpack("<d", struct.pack("<Q", u))[0]


def bits32(v):
    return struct.unpack("<I", struct.pack("<f", rn32(v)))[0]


def from_bits32(u):
    return float(struct.unpack("<f", struct.pack("<I", u))[0])


def trunc21(k):
    """V.0: k with the low 32 significand bits cleared."""
    return from_bits64(bits64(k) & ~((1 << 32) - 1))


def mul_split(x, k):
    k1 = trunc21(k)
    k2 = trunc21(k - k1)
    k3 = (k - k1) - k2
    return (x * k1 + x * k2) + x * k3


def sqrt64(x):
    """V.0's sqrt64: no libm."""
    if x != x or x <= 0:
        return 0.0
    if x == math.inf:
        return math.inf
    scale = 1.0
    if x < 2.2250738585072014e-308:
        x, scale = x * 2.0 ** 108, 2.0 ** -54
    y = from_bits64((bits64(x) >> 1) + (0x3FF0000000000000 >> 1))
    for _ in range(6):
        y = 0.5 * (y + x / y)
    return y * scale


# ---- sections 1-4: the stream, the draws, the rule ------------------------------------------
M32 = 0xFFFFFFFF


def philox(c, k):
    c = list(c)
    k0, k1 = k
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k1) & M32, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def word(seed, stream, w):
    g = w // 4
    return philox((g & M32, g >> 32, stream & M32, stream >> 32), (seed & M32, seed >> 32))[w % 4]


def draw(seed, stream, q, b):
    if b == 32:
        return word(seed, stream, q)
    if b == 16:
        return (word(seed, stream, q // 2) >> (16 * (q % 2))) & 0xFFFF
    return (word(seed, stream, q // 4) >> (8 * (q % 4))) & 0xFF


def threshold(p, b):
    return math.floor(p * 2.0 ** b + 0.5)


def scales(t, b):
    if t == 2 ** b:
        return 0.0, 0.0
    s64 = 1 / (1 - t / 2.0 ** b)
    return s64, rn32(s64)


# ---- V.3 normals ------------------------------------------------------------------------------
LN2 = 0.6931471805599453
L2H = trunc21(LN2)
L2L = LN2 - L2H


def ln_u(w0):
    m = w0 + 1
    e = m.bit_length() - 1
    f = m / 2.0 ** e
    if f > 1.4142135623730951:
        f, e = f * 0.5, e + 1
    sf = rn32((f - 1) / (f + 1))
    z = madf(sf, sf, 0.0)
    h = rn32(1 / 11)
    for c in (1 / 9, 1 / 7, 1 / 5, 1 / 3, 1.0):
        h = madf(h, z, c)
    lnf = 2 * (sf * h)
    big_e = e - 32
    return (big_e * L2H + lnf) + big_e * L2L


def normal(w0, w1, odd):
    k, g = w1 >> 30, w1 & 0x3FFFFFFF
    swap = g > 2 ** 29
    if swap:
        g = 2 ** 30 - g
    x = rn32(g * 1.4629180792671596e-09)
    x2 = madf(x, x, 0.0)
    h = rn32(1 / 362880)
    for c in (-1 / 5040, 1 / 120, -1 / 6, 1.0):
        h = madf(h, x2, c)
    s = madf(x, h, 0.0)
    h = rn32(-1 / 3628800)
    for c in (1 / 40320, -1 / 720, 1 / 24, -0.5, 1.0):
        h = madf(h, x2, c)
    c_ = h
    if swap:
        s, c_ = c_, s
    trig = (s, c_, -s, -c_)[k] if odd else (c_, -s, -c_, s)[k]
    r = rn32(sqrt64(-2 * ln_u(w0)))
    return madf(r, trig, 0.0)


def check_normals():
    rng = random.Random(20261128)
    edges0 = [0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0x80000000, 0xB504F333, 0xB504F334, 0x6A09E667, 0x6A09E668]
    edges0 += [(1 << k) - 1 for k in range(1, 33)] + [1 << k for k in range(32)]
    edges1 = [0, 1, 2 ** 29 - 1, 2 ** 29, 2 ** 29 + 1, 2 ** 30 - 1, 2 ** 30, 2 ** 30 + 2 ** 29, 2 ** 31,
              2 ** 31 + 2 ** 29 + 1, 3 * 2 ** 30, 2 ** 32 - 1]
    pairs = [(a, b) for a in edges0 for b in edges1]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(8000)]
    raw = subprocess.run([DRIVER, "normals"], input=b"".join(struct.pack("<II", a, b) for a, b in pairs),
                         capture_output=True, check=True).stdout
    lib = struct.unpack("<%dI" % (2 * len(pairs)), raw)
    bad = [(a, b, odd) for i, (a, b) in enumerate(pairs) for odd in (0, 1) if bits32(normal(a, b, odd)) != lib[2 * i + odd]]
    say(not bad, "V.3 normals from the text: %d word pairs (%d edge pairs), both normals of each, bit for bit"
        % (len(pairs), len(edges0) * len(edges1)), bad[:3])


# ---- V.2 alpha dropout, V.4 Gaussian dropout ----------------------------------------------------
ALPHA = -1.7580993408473766


def check_variants():
    out = subprocess.run([DRIVER, "variants"], capture_output=True, check=True, text=True).stdout.split("\n")
    bad, n = [], 0
    for line in filter(None, out):
        op, dt, p, b, pos, i, xb, yb, keep = line.split()
        op, dt, b, pos, i = int(op), int(dt), int(b), int(pos), int(i)
        t = threshold(float(p), b)
        x = from_bits64(int(xb, 16)) if dt == 0 else from_bits32(int(xb, 16))
        if op == 0:
            kept = draw(7, 3, pos + i, b) >= t
            pp = t / 2.0 ** b
            a = 1 / sqrt64((1 - pp) * (1 + mul_split(pp, ALPHA * ALPHA)))
            c = mul_split(pp, -ALPHA)
            if dt == 0:
                want = ((x if kept else ALPHA) + c) * a
            else:
                want = rn32(rn32((x if kept else rn32(ALPHA)) + rn32(c)) * rn32(a))
            if kept != (keep == "1"):
                bad.append(line + " (keep bit)")
        else:
            pp = t / 2.0 ** b
            q = pos + i
            z = normal(word(7, 3, q & ~1), word(7, 3, (q & ~1) + 1), q & 1)
            mult = madf(rn32(sqrt64(pp / (1 - pp))), z, 1.0)
            want = x * mult if dt == 0 else rn32(x * mult)
        n += 1
        if (bits64(want) if dt == 0 else bits32(want)) != int(yb, 16):
            bad.append(line)
    say(n > 0 and not bad, "V.2 alpha dropout (its keep bits from sections 1-4) and V.4 Gaussian dropout from the "
        "text: %d elements, f64 and f32, -0, subnormal and 1e300 inputs, bit for bit" % n, bad[:3])


# ---- section 12: the fused op -------------------------------------------------------------------
def rn32_exact(fr):
    """The binary32 nearest the rational fr, ties to even; past the largest finite: Inf."""
    if abs(fr) >= Fraction(2) ** 128 - Fraction(2) ** 103:
        return math.copysign(math.inf, fr)
    c = np.float32(rn32(float(fr)))
    best = None
    for k in (np.nextafter(c, np.float32(-np.inf)), c, np.nextafter(c, np.float32(np.inf))):
        if np.isfinite(k):
            d = abs(Fraction(float(k)) - fr)
            if best is None or d < best[0] or (d == best[0] and bits32(float(k)) % 2 == 0):
                best = (d, float(k))
    return best[1]


def add32(a, b):
    if not (math.isfinite(a) and math.isfinite(b)) or a + b == 0:
        return rn32(a + b)
    return rn32_exact(Fraction(a) + Fraction(b))


def fma32(a, b, c):
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return rn32(a * b + c)
    s = Fraction(a) * Fraction(b) + Fraction(c)
    return rn32(a * b + c) if s == 0 else rn32_exact(s)   # an exact zero: IEEE's sign rule


def f16_bits(f):
    with np.errstate(over="ignore"):
        return int(np.array([np.float32(f)]).astype(np.float16).view(np.uint16)[0])


def f16_value(h):
    return float(np.array([h], np.uint16).view(np.float16)[0])


def bf16_bits(f):
    u = bits32(f)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def check_fused():
    out = subprocess.run([DRIVER, "fused"], capture_output=True, check=True, text=True).stdout.split("\n")
    bad, n = [], 0
    widen = {0: from_bits32, 2: f16_value, 3: lambda h: from_bits32(h << 16)}
    narrow = {0: bits32, 2: f16_bits, 3: bf16_bits}
    for line in filter(None, out):
        dt, p, b, stream, pos, i, xb, bb, rb, yb, keep = line.split()
        dt, b, stream, pos, i = int(dt), int(b), int(stream), int(pos), int(i)
        xb, bb, rb, yb = (int(v, 16) for v in (xb, bb, rb, yb))
        t = threshold(float(p), b)
        kept = draw(11, stream, pos + i, b) >= t
        if kept != (keep == "1"):
            bad.append(line + " (keep bit)")
        s64, s32 = scales(t, b)
        if not kept:
            want = rb
        elif dt == 1:
            want = bits64((from_bits64(xb) + from_bits64(bb)) * s64 + from_bits64(rb))
        else:
            want = narrow[dt](fma32(add32(widen[dt](xb), widen[dt](bb)), s32, widen[dt](rb)))
        n += 1
        if want != yb:
            bad.append(line)
    say(n > 0 and not bad, "section 12 fused bias-dropout-residual from the text: %d elements, f32, f64, f16, bf16, "
        "p = 0, 0.1, 0.5, 0.9, 1 at each width, and their keep bits, bit for bit" % n, bad[:3])


# ---- section 8: the generator's positions across kinds -------------------------------------------
def check_gen():
    out = subprocess.run([DRIVER, "gen"], capture_output=True, check=True, text=True).stdout.split("\n")
    top = 2 ** 64
    nxt, units, bad, n, refused = 0, 0, [], 0, 0
    for line in filter(None, out):
        f_ = line.split()
        if f_[0] == "resume":
            nxt, units = int(f_[1]), int(f_[2])
            continue
        kind, count, rc, pos, g_next, g_units = (int(v) for v in f_)
        if units in (0, kind):
            f = nxt
        else:
            w = -(-nxt // 2 * 2) if units == -1 else -(-nxt * units // 32)   # words handed out
            if -1 in (kind, units):
                w += w % 2
            f = w if kind == -1 else w * 32 // kind
        ok = f < top and f + count < top
        want = (0, f, f + count, kind) if ok else (-4, 0, nxt, units)
        n += 1
        refused += not ok
        if (rc, pos, g_next, g_units) != want:
            bad.append("%s: want rc, pos, next, units %s" % (line, want))
        if ok:
            nxt, units = f + count, kind
    say(n > 0 and not bad, "section 8 generator from the text: %d calls of random kinds (8/16/32-bit draws, normals) "
        "and counts, from 0 and resumed near 2^64 (%d refused, moving nothing): each plan's first position and the "
        "generator after it" % (n, refused), bad[:3])


failed = 0


def say(ok, what, bad=()):
    global failed
    print(("PASS variants spec oracle: " if ok else "FAIL variants spec oracle: ") + what + ("" if ok else "; first differences: %s" % (bad,)))
    failed += not ok


check_normals()
check_variants()
check_fused()
check_gen()
sys.exit(1 if failed else 0)
