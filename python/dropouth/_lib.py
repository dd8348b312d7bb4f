"""The ctypes side: finding, loading and calling the C libraries (python/dropouth_lib.c and,
for CUDA tensors, python/dropouth_cuda_lib.cu). Nothing here knows NumPy or PyTorch: callers
pass element pointers, a logical shape and element strides."""
import ctypes
import functools
import glob
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir))   # when used from a checkout

U64 = 1 << 64
OP_FORWARD, OP_BACKWARD, OP_MASK = 1, 2, 3          # python/dropouth_lib.c
DTYPES = {"float32": 1, "float64": 2, "float16": 3, "bfloat16": 4}
MAX_RANK = 8        # DROPOUT_MAX_RANK: the dims a view may have once merged
MAX_VIEW = 64       # python/dropouth_view.h: the dims it may have before
ERR_RANK = -12      # DROPOUT_ERR_RANK

_VP, _SZ, _U64T, _D, _I = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_double, ctypes.c_int
_SZP, _PDP = ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_ssize_t)
_RUN_ARGS = [_I, _I, _D, _I, _U64T, _U64T, _U64T, _I, _SZP, _PDP, _PDP, _VP, _VP, _VP]

_libs = {}


def _candidates(stem, env, built):
    """Where a library may be: $env, the installed package, a checkout's build/python/."""
    if os.environ.get(env):
        return [os.environ[env]]
    found = sorted(glob.glob(os.path.join(_HERE, stem + "*.so")) + glob.glob(os.path.join(_HERE, stem + "*.pyd")))
    return found + [os.path.join(_REPO, "build", "python", built)]


def _load(stem, env, built, how):
    if stem in _libs:
        return _libs[stem]
    paths = _candidates(stem, env, built)
    path = next((p for p in paths if os.path.exists(p)), None)
    if path is None:
        raise OSError("dropouth: %s not found (looked at %s): %s" % (stem, ", ".join(paths), how))
    lib = ctypes.CDLL(path)
    lib.dropouth_version.restype = ctypes.c_char_p
    _libs[stem] = lib
    return lib


_LEVELS = ("x86-64", "avx2", "avx512")   # dropouth_build_level's numbers
_VARIANT = {1: "_dropouth_cpu_avx2", 2: "_dropouth_cpu_avx512"}


def _type_cpu(lib):
    lib.dropouth_strerror.restype = ctypes.c_char_p
    lib.dropouth_strerror.argtypes = [_I]
    lib.dropouth_rule.argtypes = [_D, _I, ctypes.POINTER(ctypes.c_uint64)]
    lib.dropouth_run.argtypes = _RUN_ARGS
    lib.dropouth_run_flat.argtypes = [_I, _I, _D, _I, _U64T, _U64T, _U64T, _U64T, _VP, _VP, _VP]
    for fill in ("dropouth_fill_u32", "dropouth_fill_uniform_f32", "dropouth_fill_uniform_f64"):
        getattr(lib, fill).argtypes = [_VP, _SZ, _U64T, _U64T, _U64T]
    return lib


def cpu():
    """The CPU library, typed: the best of the package's builds (x86-64, AVX2, AVX-512) that this
    CPU runs, chosen at first use; DROPOUTH_ISA=x86-64 or avx2 caps the choice, DROPOUTH_LIB names
    a file. All builds give the same bits (dropout.h's contract); only the speed differs."""
    if "_dropouth_cpu" not in _libs:
        lib = _type_cpu(_load("_dropouth_cpu", "DROPOUTH_LIB", "libdropouth.so",
                              "install the package (python3 -m pip install --no-build-isolation ./python) "
                              "or run `make python` in the repository"))
        level = lib.dropouth_cpu_level() if not os.environ.get("DROPOUTH_LIB") else 0
        cap = os.environ.get("DROPOUTH_ISA")
        if cap:
            if cap not in _LEVELS:
                raise ValueError("DROPOUTH_ISA must be one of %s, got %r" % (", ".join(_LEVELS), cap))
            level = min(level, _LEVELS.index(cap))
        while level > 0:
            found = glob.glob(os.path.join(_HERE, _VARIANT[level] + "*.so"))
            if found:
                lib = _type_cpu(ctypes.CDLL(found[0]))
                lib.dropouth_version.restype = ctypes.c_char_p
                break
            level -= 1
        _libs["_dropouth_cpu"] = lib
    return _libs["_dropouth_cpu"]


def isa():
    """The instruction set of the CPU library in use: 'x86-64' (SSE2), 'avx2' or 'avx512'."""
    return _LEVELS[cpu().dropouth_build_level()]


def cuda():
    """The CUDA library, typed; OSError where it was not built (no nvcc at install time)."""
    if "_dropouth_cuda" not in _libs:
        lib = _load("_dropouth_cuda", "DROPOUTH_CUDA_LIB", "libdropouth_cuda.so",
                    "install the package on a machine with nvcc and g++, or run `make python-cuda`")
        if not hasattr(lib, "dropouth_cuda_run"):
            _libs.pop("_dropouth_cuda")
            raise OSError("dropouth: the CUDA library has no dropouth_cuda_run (an older build?)")
        lib.dropouth_strerror.restype = ctypes.c_char_p
        lib.dropouth_strerror.argtypes = [_I]
        lib.dropouth_cuda_run.argtypes = _RUN_ARGS + [_VP]
    return _libs["_dropouth_cuda"]


def library_version():
    return cpu().dropouth_version().decode()


def check(rc, lib=None):
    """ValueError with the library's own message (RuntimeError for a failed CUDA call)."""
    if rc == 0:
        return
    msg = (lib or cpu()).dropouth_strerror(rc).decode()
    if rc <= -1000:   # DROPOUT_ERR_CUDA_BASE: the launch itself failed
        raise RuntimeError("dropout.h: %s (code %d)" % (msg, rc))
    raise ValueError("dropout.h: %s (code %d)" % (msg, rc))


def is_bool(v):
    """True, False, and their NumPy and torch forms (np.True_, a 0-d bool array or tensor), which
    have __index__ and __float__ and would pass as 1 and 0: a flag or a boolean selection mask
    given as a seed, a position, a sample index or p would draw another mask, silently."""
    return isinstance(v, bool) or str(getattr(v, "dtype", "")) in ("bool", "torch.bool")


def u64(name, v):
    """A stream coordinate: an integer in [0, 2^64). ctypes would silently wrap anything else."""
    if is_bool(v) or not hasattr(v, "__index__"):
        raise TypeError("%s must be an integer in [0, 2^64), got %r" % (name, v))
    v = v.__index__()
    if not 0 <= v < U64:
        raise ValueError("%s must be an integer in [0, 2^64), got %d" % (name, v))
    return v


@functools.lru_cache(maxsize=256)
def threshold(p, bits):
    """t of the rule (p, bits), checked by the library: ValueError when bits cannot honour p.
    (Cached: a layer asks on every call; a refusal raises, and is not cached.)"""
    t = ctypes.c_uint64(0)
    check(cpu().dropouth_rule(float(p), int(bits), ctypes.byref(t)))
    return t.value


def run(op, dtype, p, bits, seed, stream, pos, dims, out_strides, in_strides, out_ptr, mask_ptr, in_ptr,
        cuda_stream=None):
    """One library call on a strided tensor; dims and strides in elements, logical order. The
    library reduces the view (dims of 1 dropped, neighbours merged) and refuses one that does not
    reduce to MAX_RANK dims (or has more than MAX_VIEW)."""
    rank = len(dims)
    if rank > MAX_VIEW:
        raise ValueError("dropouth: a tensor of %d dimensions (at most %d)" % (rank, MAX_VIEW))
    cdims = (ctypes.c_size_t * max(rank, 1))(*dims)
    cout = (ctypes.c_ssize_t * max(rank, 1))(*out_strides)
    cin = (ctypes.c_ssize_t * max(rank, 1))(*in_strides)
    args = (op, DTYPES[dtype], float(p), int(bits), seed, stream, pos, rank, cdims, cout, cin, out_ptr, mask_ptr, in_ptr)
    lib = cpu() if cuda_stream is None else cuda()
    rc = lib.dropouth_run(*args) if cuda_stream is None else lib.dropouth_cuda_run(*(args + (cuda_stream,)))
    if rc == ERR_RANK:
        raise ValueError("dropouth: a tensor of %d dimensions that cannot be merged into %d (strides %s)"
                         % (rank, MAX_RANK, list(in_strides)))
    check(rc, lib)


def run_flat(op, dtype, p, bits, seed, stream, pos, count, out_ptr, mask_ptr, in_ptr):
    """One library call on `count` contiguous elements (CPU)."""
    rc = cpu().dropouth_run_flat(op, DTYPES[dtype], p, bits, seed, stream, pos, count, out_ptr, mask_ptr, in_ptr)
    if rc:
        check(rc)
