"""dropouth - dropout.h from Python: NumPy arrays and PyTorch tensors, the same masks on every device.

    python3 -m pip install --no-build-isolation ./python      # from a checkout (docs/PYTHON.md)

A mask is a function of coordinates and nothing else: a key (seed, stream) and a first stream
position `pos`; element i (row-major, in the logical shape) uses position pos + i. So the same
coordinates give the same mask in C, NumPy, PyTorch, on a CPU and on a GPU, for a tensor and
for any strided view of it.

PyTorch (imported on first use, so that NumPy alone is enough for the rest):

    layer = dropouth.Dropout(0.1)       # an nn.Dropout: seeded by torch.manual_seed, exact under checkpointing
    y = dropouth.dropout(x, 0.1)        # F.dropout's form; or explicit coordinates: seed=, pos=

NumPy:

    keep = dropouth.mask(1000, 0.1, seed=42, pos=0)          # bool array, True = kept
    y, packed = dropouth.forward(x, 0.1, seed=42, pos=0)
    dx = dropouth.backward(dy, 0.1, seed=42, pos=0)          # the mask rebuilt, not stored

Draw width: `bits=None` (the default) picks the narrowest of 8, 16 and 32 bits whose realised p
is within 0.1% of p (relative to min(p, 1 - p)), 32 bits when none is (see default_bits); an
explicit width that realises p as 0 or 1 raises ValueError, as in C.
"""
import threading

from . import _lib
from ._lib import U64

try:
    from ._version import __version__          # written by setup.py from dropout.h
except ImportError:                              # a checkout on sys.path: read the header
    import os as _os
    import re as _re
    with open(_os.path.join(_lib._REPO, "dropout.h"), encoding="utf-8") as _f:
        __version__ = _re.search(r'#define DROPOUT_VERSION_STRING "([^"]+)"', _f.read()).group(1)

__all__ = ["__version__", "Generator", "default_bits", "realised_p",
           "mask", "forward", "backward", "unpack_mask", "stream_u32", "uniform_f32", "uniform_f64"]
_TORCH_NAMES = ("dropout", "Dropout", "DropoutFunction")
try:
    import importlib.util as _iu
    if _iu.find_spec("torch") is not None:     # `from dropouth import *` must work without torch
        __all__ += list(_TORCH_NAMES)
except (ImportError, ValueError):
    pass

TOLERANCE = 1e-3     # default_bits: relative error allowed on p (and on 1 - p)


# ---- the rule ------------------------------------------------------------------------------
def _check_p(p):
    if _lib.is_bool(p) or not isinstance(p, (int, float)) and not hasattr(p, "__float__"):
        raise TypeError("p must be a number in [0, 1], got %r" % (p,))
    # float() would take these with at most a warning, and Octave's gateway refuses them:
    # an array of one element (np.array([0.5]), torch.tensor([0.5])), and a complex number,
    # whose imaginary part float() drops (NumPy's complex scalars have __float__)
    if getattr(p, "ndim", 0) != 0:
        raise TypeError("p must be a number in [0, 1], got an array of shape %s (give its element)" % (tuple(p.shape),))
    dt = getattr(p, "dtype", None)
    if getattr(dt, "kind", "") == "c" or getattr(dt, "is_complex", False):
        raise TypeError("p must be a real number in [0, 1], got the complex %r" % (p,))
    p = float(p)
    if not 0.0 <= p <= 1.0:     # also NaN: the library's own message
        _lib.threshold(p, 32)
        raise ValueError("dropout.h: p must be a number in [0, 1], got %r" % (p,))   # not reached
    return p


def _realised(p, bits):
    return int(p * (1 << bits) + 0.5) / float(1 << bits)


def default_bits(p):
    """The draw width used when none is given: the narrowest of 8, 16, 32 whose realised p
    (round(p 2^bits) / 2^bits) is within TOLERANCE of p relative to min(p, 1 - p); 32 when
    none is. p = 0 and p = 1 are exact at 8 bits."""
    p = _check_p(p)
    for bits in (8, 16):
        if abs(_realised(p, bits) - p) <= TOLERANCE * min(p, 1.0 - p):
            return bits
    return 32


def _width(bits):
    """A draw width given by the caller: 8, 16 or 32, as an int (a boolean, 8.0 or '8' is the
    wrong kind of thing, a TypeError; another integer, a ValueError)."""
    if _lib.is_bool(bits) or not hasattr(bits, "__index__"):
        raise TypeError("bits must be an integer, 8, 16 or 32 (or None for the default), got %r" % (bits,))
    if bits.__index__() not in (8, 16, 32):
        raise ValueError("bits must be 8, 16 or 32 (or None for the default), got %r" % (bits,))
    return bits.__index__()


def _bits(p, bits):
    """(p, bits) checked by the library; bits None -> default_bits(p)."""
    p = _check_p(p)
    bits = default_bits(p) if bits is None else _width(bits)
    _lib.threshold(p, bits)       # ValueError with the library's message when bits cannot honour p
    return p, bits


def realised_p(p, bits=None):
    """The drop probability really used: round(p 2^bits) / 2^bits; kept elements are scaled by
    1 / (1 - realised_p), so the mean is kept."""
    p, bits = _bits(p, bits)
    return _lib.threshold(p, bits) / float(1 << bits)


# ---- where masks come from: explicit coordinates or a Generator ------------------------------
class Generator(object):
    """Hands out stream positions of one key (seed, stream): each call reserves the next
    `count` positions, as dropout_gen_plan does in C. It pickles (a checkpoint); copy.copy
    and copy.deepcopy raise, as C refuses a copied dropout_gen: a copy would hand out the
    same positions again, the same masks. For NumPy arrays; PyTorch layers take their
    coordinates from torch's generator instead (dropouth.Dropout), which activation
    checkpointing restores.

    Positions count draws of the call's width (bits=8: a quarter of a stream word), so
    `position` is in the units of the width handed out last (`bits`); a call of another width
    starts past every word handed out, not at `position`, which would read the same words
    again (as dropout_gen_plan does in C). A generator of one width hands out consecutive
    positions. So a position past 0 comes with its width: Generator(seed, stream, position,
    bits) (the saved generator's .bits), and a position without one is refused."""

    def __init__(self, seed, stream=0, position=0, bits=None):
        self.seed = _lib.u64("seed", seed)
        self.stream = _lib.u64("stream", stream)
        self.position = _position(position)
        self._bits = None if bits is None else _width(bits)   # the width handed out last
        _units_known(self.position, self._bits)
        self._lock = threading.Lock()   # threads sharing a generator get disjoint positions

    @property
    def bits(self):
        """The width `position` counts (the width handed out last); None: nothing handed out yet.
        Set by hand with `position` (8, 16 or 32, checked here; None with a position past 0 is
        refused at the next call)."""
        return self._bits

    @bits.setter
    def bits(self, value):
        value = None if value is None else _width(value)
        with self._lock:
            self._bits = value

    def __repr__(self):
        return "dropouth.Generator(seed=%d, stream=%d, position=%d, bits=%r)" % (
            self.seed, self.stream, self.position, self._bits)

    def __getstate__(self):
        with self._lock:   # position and bits of one moment: a thread may be between them in _reserve
            return {"seed": self.seed, "stream": self.stream, "position": self.position, "bits": self._bits}

    def __setstate__(self, state):
        # a checkpoint without "bits" (dropouth 0.9) at a position past 0 is refused: its
        # position could be read as another width's and repeat masks
        self.__init__(state["seed"], state["stream"], state["position"], state.get("bits"))

    def __copy__(self):
        raise TypeError("dropouth.Generator: a copy would hand out the same positions again (the same masks); "
                        "pass the one generator, or make another on its own stream: dropouth.Generator(seed, "
                        "stream=..., position=..., bits=...); pickle it to checkpoint")

    def __deepcopy__(self, memo):
        return self.__copy__()

    def reserve(self, count, bits=None):
        """The first of `count` fresh positions of `bits` per draw (8, 16 or 32; None: the width
        handed out last, and none handed out yet is an error: what would the positions count?)."""
        bits = None if bits is None else _width(bits)
        if bits is None and self._bits is None:
            raise TypeError("reserve: give bits= (8, 16 or 32), the width the positions are drawn at: "
                            "this generator has handed out none yet")
        return self._reserve(count, bits)[2]

    def _reserve(self, count, bits=None):
        """(seed, stream, first position) for count fresh positions. The fields are plain data that
        anyone may set: each is checked here, as the constructor checks it, so that a position of
        -5 or a seed of 2^64 + 1 is an error and not a wrapped coordinate."""
        count = _lib.u64("count", count)
        with self._lock:
            seed, stream = _lib.u64("generator.seed", self.seed), _lib.u64("generator.stream", self.stream)
            position = _position(self.position, "generator.position")
            _units_known(position, self._bits, "generator.position")
            if bits is not None and self._bits is not None and bits != self._bits:
                # another width: its first position past every word handed out
                was, per = 32 // self._bits, 32 // bits
                position = -(-position // was) * per
                if position > _LAST:
                    raise ValueError("the generator has no %d-bit positions left (2^64 - 1 in all)" % bits)
            if count > _LAST - position:
                raise ValueError("the generator has %d positions left, %d asked for (2^64 - 1 in all)"
                                 % (_LAST - position, count))
            self.position = position + count
            if bits is not None:
                self._bits = bits
        return seed, stream, position


# A generator's next position is at most 2^64 - 1, so it never hands out position 2^64 - 1,
# as C's dropout_gen_plan (docs/SPEC.md section 8): C's next is a uint64_t, and a Python
# generator's state must be one that dropout_gen_resume takes (explicit coordinates, pos=,
# may still reach 2^64 - 1)
_LAST = U64 - 1


def _position(v, name="position"):
    """A generator's next position: an integer in [0, 2^64 - 1] (2^64 - 1: every position handed out)."""
    if _lib.is_bool(v) or not hasattr(v, "__index__"):
        raise TypeError("%s must be an integer in [0, 2^64 - 1], got %r" % (name, v))
    v = v.__index__()
    if not 0 <= v <= _LAST:
        raise ValueError("%s must be an integer in [0, 2^64 - 1], got %d" % (name, v))
    return v


def _units_known(position, bits, name="position"):
    """A position past 0 says which width it counts (as C's dropout_gen_resume takes units)."""
    if position != 0 and bits is None:
        raise TypeError("%s %d counts draws of which width? give bits= (8, 16 or 32: the width the "
                        "generator handed out last, its .bits when saved): read as another width's, "
                        "it would draw stream words handed out already" % (name, position))


def _coords(generator, seed, stream, pos, count, bits):
    """(seed, stream, pos) of a call of `bits` per draw: from a Generator, or explicit; never a
    silent default."""
    if generator is not None:
        if seed is not None or pos is not None or stream is not None:
            raise TypeError("give either generator= (its seed and stream) or seed=, stream= and pos=, not both")
        if not isinstance(generator, Generator):
            raise TypeError("generator must be a dropouth.Generator, got %s" % type(generator).__name__)
        return generator._reserve(count, bits)
    if seed is None or pos is None:
        raise TypeError("coordinates needed: generator=dropouth.Generator(...) or seed= and pos= "
                        "(there is no default: it would give every call the same mask)")
    # pos + count past 2^64: the library's own error, from the call (before it writes anything)
    return _lib.u64("seed", seed), _lib.u64("stream", 0 if stream is None else stream), _lib.u64("pos", pos)


# ---- NumPy ---------------------------------------------------------------------------------
def _np():
    import numpy
    return numpy


_NP_NAMES = {"float32": "float32", "float64": "float64", "float16": "float16"}


def _array(name, x, dtype):
    """x's element type by name: float32/64/16 from the array; bf16 only when asked for by name
    (dtype='bfloat16' on a uint16 array of bit patterns), never inferred from uint16."""
    np = _np()
    if not isinstance(x, np.ndarray):
        raise TypeError("%s must be a NumPy array, got %s%s" % (
            name, type(x).__name__, " (for torch tensors use dropouth.dropout)" if type(x).__module__.startswith("torch") else ""))
    if dtype is not None:
        if dtype not in ("bfloat16", "bf16"):
            raise ValueError("dtype= names bf16 data only ('bfloat16'); other types come from the array, got %r" % (dtype,))
        if not (x.dtype.kind == "u" and x.itemsize == 2):
            raise TypeError("dtype='bfloat16' needs a uint16 array of bf16 bit patterns, got %s" % x.dtype)
        return "bfloat16"
    if x.dtype.kind == "u" and x.itemsize == 2:
        raise TypeError("%s is uint16: for bf16 bit patterns say so with dtype='bfloat16' (never guessed)" % name)
    if x.dtype.name not in _NP_NAMES:
        raise TypeError("%s must be float32, float64, float16 (or uint16 with dtype='bfloat16'), got %s" % (name, x.dtype))
    return x.dtype.name


def _native(name, x):
    """x as the C side reads it: native byte order (a big-endian '>f4' array is converted, not read
    as garbage), aligned to its element size, strides in whole elements. A copy only where x is
    not already so; the copy has the same values, so the same bits come out."""
    np = _np()
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    if not x.flags.aligned or any(s % x.itemsize for s in x.strides) or \
            (x.ndim > _lib.MAX_RANK and not x.flags.c_contiguous):   # (more dims than the library's view holds)
        x = np.array(x, order="C", copy=True)
    return x


def _elem_strides(x):
    if any(s % x.itemsize for s in x.strides):
        raise ValueError("strides %s are not whole elements of %d bytes" % (x.strides, x.itemsize))
    return [s // x.itemsize for s in x.strides]


def _np_run(op, x, dtype, p, bits, seed, stream, pos, want_mask):
    np = _np()
    x = _native("x", x)
    y = np.empty(x.shape, x.dtype)          # C order: any input layout, the same bits
    packed = np.zeros((x.size + 7) // 8, np.uint8) if want_mask else None
    if x.size:
        _lib.run(op, dtype, p, bits, seed, stream, pos, x.shape, _elem_strides(y), _elem_strides(x),
                 y.ctypes.data, packed.ctypes.data if want_mask else None, x.ctypes.data)
    return y, packed


def unpack_mask(packed, n):
    """The bool mask of n elements from the library's packed bytes (bit j%8 of byte j/8).
    packed: a uint8 array (or bytes), at least ceil(n / 8) of them; anything else is refused,
    not cast (256 would have been byte 0)."""
    np = _np()
    n = _lib.u64("n", n)
    if isinstance(packed, (bytes, bytearray, memoryview)):
        packed = np.frombuffer(packed, np.uint8)
    if not isinstance(packed, np.ndarray) or packed.dtype != np.uint8 or packed.ndim != 1:
        raise TypeError("packed must be a 1-D uint8 array (the mask's bytes, as forward returns them), got %s"
                        % (("%s array of shape %s" % (packed.dtype, packed.shape)) if isinstance(packed, np.ndarray)
                           else type(packed).__name__))
    if packed.size * 8 < n:
        raise ValueError("packed holds %d bytes, %d bits; n = %d needs %d bytes" % (packed.size, packed.size * 8, n, (n + 7) // 8))
    return np.unpackbits(packed, bitorder="little")[:n].astype(bool)


def mask(n, p, *, seed=None, stream=None, pos=None, generator=None, bits=None):
    """Keep decisions of n stream positions: a bool array, True = kept."""
    np = _np()
    n = _lib.u64("n", n)
    p, bits = _bits(p, bits)
    seed, stream, pos = _coords(generator, seed, stream, pos, n, bits)
    packed = np.zeros((n + 7) // 8, np.uint8)
    if n:
        _lib.run(_lib.OP_MASK, "float32", p, bits, seed, stream, pos, [n], [1], [1], None, packed.ctypes.data, None)
    return unpack_mask(packed, n)


def forward(x, p, *, seed=None, stream=None, pos=None, generator=None, bits=None, dtype=None):
    """y = dropout(x) and its packed mask (ceil(n/8) bytes, logical row-major order). x may be
    any strided view: it gets the bits of its contiguous copy. y is C-contiguous."""
    kind = _array("x", x, dtype)
    p, bits = _bits(p, bits)
    seed, stream, pos = _coords(generator, seed, stream, pos, x.size, bits)
    return _np_run(_lib.OP_FORWARD, x, kind, p, bits, seed, stream, pos, True)


def backward(dy, p, *, seed=None, stream=0, pos=None, bits=None, dtype=None):
    """dx for dy, the mask rebuilt from the forward's coordinates (give the same ones)."""
    kind = _array("dy", dy, dtype)
    p, bits = _bits(p, bits)
    seed, stream, pos = _coords(None, seed, stream, pos, dy.size, bits)
    return _np_run(_lib.OP_BACKWARD, dy, kind, p, bits, seed, stream, pos, False)[0]


def _fill(fn, dtype, n, seed, stream, pos, per):
    np = _np()
    n = _lib.u64("n", n)
    seed, stream, pos = _lib.u64("seed", seed), _lib.u64("stream", stream), _lib.u64("pos", pos)
    out = np.empty(n, dtype)
    _lib.check(getattr(_lib.cpu(), fn)(out.ctypes.data, n, seed, stream, pos))
    return out


def stream_u32(n, *, seed, stream=0, pos):
    """Raw 32-bit stream words pos .. pos+n-1 (cuRAND's curand_init(seed, stream, pos) + curand())."""
    return _fill("dropouth_fill_u32", "uint32", n, seed, stream, pos, 1)


def uniform_f32(n, *, seed, stream=0, pos):
    """(word >> 8) * 2^-24 for the same words: exact floats in [0, 1)."""
    return _fill("dropouth_fill_uniform_f32", "float32", n, seed, stream, pos, 1)


def uniform_f64(n, *, seed, stream=0, pos):
    """Doubles in [0, 1) from word pairs; pos counts doubles (two words each)."""
    return _fill("dropouth_fill_uniform_f64", "float64", n, seed, stream, pos, 2)


# ---- PyTorch, imported when first asked for (PEP 562) ----------------------------------------


def __getattr__(name):
    if name == "manual_seed":
        raise AttributeError("dropouth.manual_seed is gone: dropouth.Dropout takes its masks from torch's generator, "
                             "so torch.manual_seed seeds it (docs/PYTHON.md, seeding)")
    if name in _TORCH_NAMES:
        from . import _torch
        return getattr(_torch, name)
    raise AttributeError("module 'dropouth' has no attribute %r" % name)


def __dir__():
    return sorted(list(globals()) + list(_TORCH_NAMES))
