"""dropouth - dropout.h from Python: NumPy arrays and PyTorch tensors, CPU and GPU.

A thin ctypes layer over the C library, nothing compiled for Python itself:

    make python          # build/python/libdropouth.so      (dropout.h)
    make python-cuda     # build/python/libdropouth_cuda.so (dropout_cuda.cuh, for CUDA tensors)

    import sys; sys.path.insert(0, "python")
    import dropouth
    keep = dropouth.mask(1000, p=0.1, seed=42)             # bool array: True = kept
    y, packed = dropouth.forward(x, p=0.1, seed=42)         # x: float32/float64/float16, or
                                                            # uint16 holding bf16 bits
    dx = dropouth.backward(dy, p=0.1, seed=42)              # the mask rebuilt, not stored

    y = dropouth.dropout(t, p=0.1, seed=42)                 # torch, autograd, CPU or CUDA
    layer = dropouth.Dropout(0.1, seed=42)                  # torch.nn.Module, checkpointable

Every function takes the library's stream coordinates: seed, stream and offset (the first
stream position of the call). Element j of a call uses position offset + j, so the same
(seed, stream, offset) gives the same mask in C, in NumPy, in PyTorch on a CPU and on a GPU
(docs/SPEC.md). Wrong input raises ValueError with the library's own message, before
anything is written. The libraries are found in build/python/ next to this directory, or
at the paths in DROPOUTH_LIB and DROPOUTH_CUDA_LIB.
"""
import ctypes
import os

import numpy as np

__all__ = ["mask", "forward", "backward", "unpack_mask", "stream_u32", "uniform_f32",
           "uniform_f64", "dropout", "realised_keep"]   # and Dropout, built on first use

_U64 = 1 << 64
_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
_VP, _SZ, _U64T, _D, _I = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_double, ctypes.c_int

# the element types, by NumPy dtype; uint16 arrays carry bf16 bit patterns
_SUFFIX = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
           np.dtype(np.float16): "f16", np.dtype(np.uint16): "bf16"}

_libs = {}


def _load(name, env, make):
    if name not in _libs:
        path = os.environ.get(env) or os.path.join(_ROOT, "build", "python", name)
        if not os.path.exists(path):
            raise OSError("%s not found at %s: run `%s` in the repository (or set %s)"
                          % (name, os.path.normpath(path), make, env))
        _libs[name] = ctypes.CDLL(path)
    return _libs[name]


def _cpu():
    lib = _load("libdropouth.so", "DROPOUTH_LIB", "make python")
    if not hasattr(lib, "_typed"):
        lib.dropout_strerror.restype = ctypes.c_char_p
        lib.dropout_strerror.argtypes = [_I]
        lib.dropout_check_args.argtypes = [_D, _I, _SZ, _U64T]
        lib.dropout_mask.argtypes = [_VP, _SZ, _D, _I, _U64T, _U64T, _U64T]
        for fill in ("dropout_fill_u32", "dropout_fill_uniform_f32", "dropout_fill_uniform_f64"):
            getattr(lib, fill).argtypes = [_VP, _SZ, _U64T, _U64T, _U64T]
        for sfx in _SUFFIX.values():
            getattr(lib, "dropout_forward_" + sfx).argtypes = [_VP, _VP, _VP, _SZ, _D, _I, _U64T, _U64T, _U64T]
            getattr(lib, "dropout_backward_" + sfx).argtypes = [_VP, _VP, _SZ, _D, _I, _U64T, _U64T, _U64T]
            getattr(lib, "dropout_backward_mask_" + sfx).argtypes = [_VP, _VP, _VP, _SZ, _D, _I]
        lib._typed = True
    return lib


def _cuda():
    lib = _load("libdropouth_cuda.so", "DROPOUTH_CUDA_LIB", "make python-cuda")
    if not hasattr(lib, "_typed"):
        lib.dropout_cuda_strerror.restype = ctypes.c_char_p
        lib.dropout_cuda_strerror.argtypes = [_I]
        for sfx in _SUFFIX.values():
            getattr(lib, "dropout_cuda_forward_" + sfx).argtypes = [_VP, _VP, _VP, _SZ, _D, _I, _U64T, _U64T, _U64T, _VP]
            getattr(lib, "dropout_cuda_backward_" + sfx).argtypes = [_VP, _VP, _SZ, _D, _I, _U64T, _U64T, _U64T, _VP]
        lib._typed = True
    return lib


def _check(rc, lib=None, cuda=False):
    if rc == 0:
        return
    lib = lib or _cpu()
    msg = (lib.dropout_cuda_strerror if cuda else lib.dropout_strerror)(rc).decode()
    if rc <= -1000:   # DROPOUT_ERR_CUDA_BASE: the launch itself failed
        raise RuntimeError("dropout.h: %s (code %d)" % (msg, rc))
    raise ValueError("dropout.h: %s (code %d)" % (msg, rc))


def _u64(name, v):
    """A stream coordinate: an integer in [0, 2^64). ctypes would wrap anything else."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < _U64:
        raise ValueError("%s must be an integer in [0, 2^64), got %r" % (name, v))
    return int(v)


def _rule(p, bits, n=0, offset=0):
    """Validate (p, bits, n, offset) the library's way; ValueError with its message."""
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise ValueError("p must be a number, got %r" % (p,))
    if isinstance(bits, bool) or not isinstance(bits, (int, np.integer)):
        raise ValueError("bits must be 8, 16 or 32, got %r" % (bits,))
    _check(_cpu().dropout_check_args(p, int(bits), n, _u64("offset", offset)))
    return p, int(bits)


def _array(name, x):
    if not isinstance(x, np.ndarray):
        raise ValueError("%s must be a NumPy array, got %s" % (name, type(x).__name__))
    if x.dtype not in _SUFFIX:
        raise ValueError("%s must be float32, float64, float16 or uint16 (bf16 bits), got %s" % (name, x.dtype))
    if not x.flags.c_contiguous:
        raise ValueError("%s must be C-contiguous (np.ascontiguousarray makes a copy)" % name)
    return _SUFFIX[x.dtype]


def unpack_mask(packed, n):
    """The bool mask of n elements from the library's packed bytes (bit j%8 of byte j/8)."""
    return np.unpackbits(np.asarray(packed, dtype=np.uint8), bitorder="little")[:n].astype(bool)


def mask(n, p, bits=8, seed=0, stream=0, offset=0):
    """Keep decisions of stream positions offset .. offset+n-1: bool array, True = kept."""
    n = _u64("n", n)
    p, bits = _rule(p, bits, n, offset)
    packed = np.zeros((n + 7) // 8, np.uint8)
    _check(_cpu().dropout_mask(packed.ctypes.data, n, p, bits, _u64("seed", seed), _u64("stream", stream), offset))
    return unpack_mask(packed, n)


def forward(x, p, bits=8, seed=0, stream=0, offset=0):
    """y = dropout(x) and its packed mask (ceil(n/8) bytes), x's shape and dtype kept."""
    sfx = _array("x", x)
    p, bits = _rule(p, bits, x.size, offset)
    y, packed = np.empty_like(x), np.zeros((x.size + 7) // 8, np.uint8)
    fn = getattr(_cpu(), "dropout_forward_" + sfx)
    _check(fn(y.ctypes.data, packed.ctypes.data, x.ctypes.data, x.size, p, bits,
              _u64("seed", seed), _u64("stream", stream), offset))
    return y, packed


def backward(dy, p, bits=8, seed=0, stream=0, offset=0, mask=None):
    """dx for dy: mask-free (the mask rebuilt from seed, stream, offset), or from a packed
    mask as forward returns it."""
    sfx = _array("dy", dy)
    dx = np.empty_like(dy)
    if mask is None:
        p, bits = _rule(p, bits, dy.size, offset)
        fn = getattr(_cpu(), "dropout_backward_" + sfx)
        _check(fn(dx.ctypes.data, dy.ctypes.data, dy.size, p, bits, _u64("seed", seed), _u64("stream", stream), offset))
        return dx
    p, bits = _rule(p, bits, dy.size)
    if not (isinstance(mask, np.ndarray) and mask.dtype == np.uint8 and mask.flags.c_contiguous
            and mask.size >= (dy.size + 7) // 8):
        raise ValueError("mask must be a C-contiguous uint8 array of at least ceil(n/8) bytes, as forward returns")
    _check(getattr(_cpu(), "dropout_backward_mask_" + sfx)(dx.ctypes.data, dy.ctypes.data, mask.ctypes.data, dy.size, p, bits))
    return dx


def realised_keep(p, bits=8):
    """The keep probability the library really uses: 1 - round(p * 2^bits) / 2^bits."""
    p, bits = _rule(p, bits)
    return 1.0 - int(p * (1 << bits) + 0.5) / float(1 << bits)


def _fill(fn, dtype, n, seed, stream, first):
    n = _u64("n", n)
    out = np.empty(n, dtype)
    _check(getattr(_cpu(), fn)(out.ctypes.data, n, _u64("seed", seed), _u64("stream", stream), first))
    return out


def stream_u32(n, seed=0, stream=0, word=0):
    """Raw stream words word .. word+n-1 (cuRAND's curand_init(seed, stream, word) + curand())."""
    return _fill("dropout_fill_u32", np.uint32, n, seed, stream, _u64("word", word))


def uniform_f32(n, seed=0, stream=0, word=0):
    """(word >> 8) * 2^-24 for the same words: exact floats in [0, 1)."""
    return _fill("dropout_fill_uniform_f32", np.float32, n, seed, stream, _u64("word", word))


def uniform_f64(n, seed=0, stream=0, index=0):
    """Doubles in [0, 1) from word pairs; index counts doubles (two words each)."""
    return _fill("dropout_fill_uniform_f64", np.float64, n, seed, stream, _u64("index", index))


# ---- PyTorch -------------------------------------------------------------------------
# Built on first use, so that `import dropouth` needs NumPy only.

def _torch_suffix(t):
    import torch
    sfx = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16"}.get(t.dtype)
    if sfx is None:
        raise ValueError("tensor must be float32, float64, float16 or bfloat16, got %s" % t.dtype)
    if not t.is_contiguous():
        raise ValueError("tensor must be contiguous (t.contiguous() makes a copy)")
    return sfx


def _torch_apply(t, which, p, bits, seed, stream, offset):
    """forward (which = 'forward') or mask-free backward of a tensor, on its own device."""
    import torch
    sfx = _torch_suffix(t)
    y = torch.empty_like(t)
    n = t.numel()
    if t.is_cuda:
        lib = _cuda()
        cs = torch.cuda.current_stream(t.device).cuda_stream
        with torch.cuda.device(t.device):
            if which == "forward":
                rc = getattr(lib, "dropout_cuda_forward_" + sfx)(y.data_ptr(), None, t.data_ptr(), n, p, bits, seed, stream, offset, cs)
            else:
                rc = getattr(lib, "dropout_cuda_backward_" + sfx)(y.data_ptr(), t.data_ptr(), n, p, bits, seed, stream, offset, cs)
        _check(rc, lib, cuda=True)
    elif t.device.type == "cpu":
        lib = _cpu()
        if which == "forward":
            rc = getattr(lib, "dropout_forward_" + sfx)(y.data_ptr(), None, t.data_ptr(), n, p, bits, seed, stream, offset)
        else:
            rc = getattr(lib, "dropout_backward_" + sfx)(y.data_ptr(), t.data_ptr(), n, p, bits, seed, stream, offset)
        _check(rc, lib)
    else:
        raise ValueError("tensor must be on a CPU or a CUDA device, got %s" % t.device)
    return y


_fn_cache = []


def _dropout_fn():
    if not _fn_cache:
        import torch

        class DropoutFunction(torch.autograd.Function):
            """y = dropout(x); dx = dropout of dy with the same stream positions, rebuilt."""

            @staticmethod
            def forward(ctx, x, p, bits, seed, stream, offset):
                ctx.coords = (p, bits, seed, stream, offset)
                return _torch_apply(x, "forward", p, bits, seed, stream, offset)

            @staticmethod
            def backward(ctx, dy):
                return (_torch_apply(dy.contiguous(), "backward", *ctx.coords),) + (None,) * 5

        _fn_cache.append(DropoutFunction)
    return _fn_cache[0]


def dropout(t, p, bits=8, seed=0, stream=0, offset=0):
    """Dropout of a contiguous torch tensor (CPU or CUDA), differentiable; the backward
    pass rebuilds the mask from (seed, stream, offset) instead of storing it."""
    p, bits = _rule(p, bits, t.numel(), offset)
    _torch_suffix(t)
    return _dropout_fn().apply(t, p, bits, _u64("seed", seed), _u64("stream", stream), offset)


_module_cache = []


def _dropout_module():
    if not _module_cache:
        import torch

        class Dropout(torch.nn.Module):
            """nn.Dropout with a reproducible stream. Each training call takes the next
            x.numel() stream positions from its own (seed, stream, offset); eval mode is the
            identity. The three integers are in state_dict, so a checkpoint resumes the exact
            stream."""

            def __init__(self, p, seed=0, stream=0, bits=8):
                super().__init__()
                self.p, self.bits = _rule(p, bits)
                self.seed, self.stream, self.offset = _u64("seed", seed), _u64("stream", stream), 0

            def forward(self, x):
                if not self.training:
                    return x
                n = x.numel()
                _rule(self.p, self.bits, n, self.offset)   # no room left: ValueError, offset unchanged
                y = dropout(x, self.p, self.bits, self.seed, self.stream, self.offset)
                self.offset += n
                return y

            def extra_repr(self):
                return "p=%g, bits=%d, seed=%d, stream=%d, offset=%d" % (self.p, self.bits, self.seed, self.stream, self.offset)

            def get_extra_state(self):
                return {"seed": self.seed, "stream": self.stream, "offset": self.offset}

            def set_extra_state(self, state):
                self.seed = _u64("seed", state["seed"])
                self.stream = _u64("stream", state["stream"])
                self.offset = _u64("offset", state["offset"])

        _module_cache.append(Dropout)
    return _module_cache[0]


def __getattr__(name):   # dropouth.Dropout: built when first asked for (PEP 562)
    if name == "Dropout":
        return _dropout_module()
    raise AttributeError("module 'dropouth' has no attribute %r" % name)
