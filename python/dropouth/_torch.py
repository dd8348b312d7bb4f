"""dropouth for PyTorch: dropout (functional), Dropout (an nn.Dropout), DropoutFunction (autograd).

Where a mask comes from. Each training call takes one 64-bit value from torch's default
generator of the input's device (the CPU generator for CPU tensors, torch.cuda's for CUDA
tensors), exactly where nn.Dropout would draw its mask, and uses it as the key's seed:

    coordinates = (seed = the value taken, stream = the layer's stream, positions from 0)

So a mask is a function of torch's RNG state at the call, as nn.Dropout's is. Whatever
restores that state replays the mask: torch.utils.checkpoint's preserve_rng_state (reentrant
or not), torch.set_rng_state, torch.manual_seed. Nothing is remembered between calls and
nothing is guessed; the layer keeps no state. The backward rebuilds the mask from the
coordinates saved with the graph.

Imported by `dropouth.Dropout` and friends on first use. The classes are module-level names, so
they pickle, torch.save whole, and deep-copy."""
import collections.abc
import threading

import torch
from torch.autograd.forward_ad import unpack_dual as _unpack_dual

from . import _bits, _lib

_DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
           torch.bfloat16: "bfloat16"}
_CODES = {t: _lib.DTYPES[name] for t, name in _DTYPES.items()}   # the C side's dtype numbers
_M64 = (1 << 64) - 1
_local = threading.local()     # a scratch tensor per thread (two threads must not share one draw)


# ---- what a call takes from torch's generator ------------------------------------------------
def _take_cpu():
    """64 bits from torch's CPU generator (two of mt19937's 32-bit words), as a draw of any
    CPU op takes them: torch.get_rng_state()/set_rng_state() save and restore it."""
    t = getattr(_local, "scratch", None)
    if t is None:
        with torch.inference_mode(False):   # a normal tensor even when the first call is in inference mode
            t = _local.scratch = torch.empty((), dtype=torch.int64, device="cpu")   # not the default device
    return int(t.random_(-(1 << 63), None)) & _M64


def _mix64(z):
    """splitmix64's finaliser: a bijection of 64-bit integers."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _M64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _M64
    return z ^ (z >> 31)


_cuda_take_lock = threading.Lock()   # _take_cuda's read-modify-write of torch.cuda's generator state


def _take_cuda(device):
    """torch.cuda's generator of `device` is (seed, Philox offset), advanced by every kernel that
    draws; torch.cuda.get_rng_state gives both without a device sync, as its last 16 bytes (torch
    1.13 puts 800 bytes of a retired state before them, later versions nothing). The call takes
    the offset's next 4 (as a kernel drawing one number per thread would) and maps (seed, offset)
    to a key seed: for one torch seed, different offsets give different keys (a bijection).
    torch.utils.checkpoint restores this state for the inputs' devices, so a recomputation
    takes the same value."""
    with _cuda_take_lock:   # read and write back as one step: two threads must not take one offset
        state = torch.cuda.get_rng_state(device)
        n = state.numel()
        if n < 16 or n % 8:
            raise RuntimeError("dropouth: torch.cuda's generator state has %d bytes, not (.., seed, offset): "
                               "this torch is not supported on CUDA tensors" % n)
        words = state.view(torch.int64)
        seed, offset = int(words[-2]), int(words[-1])
        new = state.clone()
        new.view(torch.int64)[-1] = offset + 4
        torch.cuda.set_rng_state(new, device)
    return _mix64((_mix64(seed & _M64) + (offset & _M64)) & _M64)


def _take(x, p, runs):
    """The value a call on tensor x takes (x checked: a CPU or a CUDA tensor); none where
    nn.Dropout draws none (p = 0, p = 1, no elements), whose mask needs no seed: 0. Under
    samples= a rank whose local batch is empty still takes it when a sample has elements:
    the one-process call it stands for does, and the ranks' generators must stay in step."""
    if p == 0.0 or p == 1.0:
        return 0
    if x.numel() == 0 and not (isinstance(runs, _SampleRuns) and runs.per_sample > 0):
        return 0
    return _take_cuda(x.device) if x.is_cuda else _take_cpu()


# ---- checks ------------------------------------------------------------------------------------
def _check_tensor(name, t):
    """What the library takes: a dense (strided) float tensor on a CPU or a CUDA device. Every
    refusal comes before anything is taken from a generator or written."""
    if not isinstance(t, torch.Tensor):
        raise TypeError("%s must be a torch.Tensor, got %s%s" % (
            name, type(t).__name__, " (for NumPy arrays use dropouth.forward)" if type(t).__module__ == "numpy" else ""))
    if t.layout != torch.strided:
        raise TypeError("%s must be a dense tensor, got layout %s (sparse and opaque layouts are not supported)" % (name, t.layout))
    if t.dtype not in _DTYPES:
        raise TypeError("%s must be float32, float64, float16 or bfloat16, got %s" % (name, t.dtype))
    if t.is_neg():
        raise ValueError("%s is a negated view (its memory holds -x): call .resolve_neg() first" % name)
    if t.data_ptr() % t.element_size():
        raise ValueError("%s is not aligned to its element size (%d bytes): use a .clone()" % (name, t.element_size()))
    if t.is_cuda:
        try:
            _lib.cuda()   # now, not after the draw
        except OSError as e:
            raise ValueError("%s is on %s, and this dropouth has no CUDA library: %s" % (name, t.device, e))
    elif not t.is_cpu:
        raise ValueError("%s is on device %s: dropouth runs on CPU and CUDA tensors" % (name, t.device))


_tracing_state = torch._C._get_tracing_state
try:   # a tracer that records through dispatch (make_fx, functorch's AOT Autograd) sets a mode
    from torch.utils._python_dispatch import _get_current_dispatch_mode as _dispatch_mode
except ImportError:
    def _dispatch_mode():
        return None


def _refuse_tracing():
    if _tracing_state() is not None:
        raise RuntimeError("dropouth: torch.jit.trace would record this call's mask as a constant (every run of the "
                           "traced model would drop the same elements). Trace in eval mode (dropout is then the "
                           "identity), or keep the model in Python")
    if _dispatch_mode() is not None:
        raise RuntimeError("dropouth: a dispatch tracer (make_fx, functorch's AOT Autograd: %s) sees only the output's "
                           "allocation, not the library call that fills it, so the traced graph would return "
                           "uninitialised memory. Trace in eval mode, or keep dropouth outside the traced function"
                           % type(_dispatch_mode()).__name__)


_RULES = {}


def _rule(p, bits):
    """(p, bits) checked once per pair: the library refuses a width that cannot honour p. Only
    a float p and an int or None width are remembered, by value: a p held in a tensor is read
    at each call (a schedule may change it in place, as nn.Dropout reads it), and True or 8.0
    are refused every time, not found under 1.0 or 8."""
    if type(p) is not float or not (bits is None or type(bits) is int):
        return _bits(p, bits)
    r = _RULES.get((p, bits))
    if r is None:
        r = _bits(p, bits)
        if len(_RULES) < 1024:
            _RULES[(p, bits)] = r
    return r


def _check_inplace(x):
    """torch's refusals of an in-place write to x, before anything is taken or written (a
    refused call leaves x as it was, as torch's dropout_ does). A call recorded in the graph on
    a tensor that is not a view: torch's one refusal there, the leaf (a view made in no_grad
    mode is one too), raised by the in-place copy below in torch's own words; a view there is
    written by a copy (_run), which torch checks first. Any other call: an in-place copy of x onto
    itself in the caller's grad mode, which torch checks as it checks any in-place op
    (inference tensors, views made in no_grad mode) and which writes nothing (ATen returns
    at once); it also bumps x's version, so a graph that saved x notices the write. An expanded
    x (a stride 0 over more than one element) is refused here, before the value is taken; the
    library refuses other overlapping outputs (as_strided), after it."""
    for d in range(x.dim()):
        if x.stride(d) == 0 and x.shape[d] > 1:
            raise ValueError("input: in place on a tensor whose elements share memory (stride 0 along dim %d, "
                             "an expanded tensor): write to a copy (.clone()) or use inplace=False" % d)
    # recorded on a tensor in the graph that is not a leaf: the copy (_run) is torch's check;
    # anything else gets torch's own refusal in its words (a leaf, a view made in no_grad mode)
    if not (torch.is_grad_enabled() and x.requires_grad and not x.is_leaf):
        x.copy_(x)


# ---- samples: where each sample's positions start ------------------------------------------
class _SampleRuns(list):
    """The runs of a call with samples= (a rank's share of a global batch), and the positions
    of one sample, which every rank knows even when its share is empty."""

    def __init__(self, runs, per_sample):
        list.__init__(self, runs)
        self.per_sample = per_sample


def _runs(samples, batch, per_sample, stride):
    """The global sample indices of a local batch as runs (local first, first position, length):
    local sample i is global sample samples[i] and draws positions samples[i] * stride on, its
    per_sample elements one after the other (stride >= per_sample). Consecutive samples make
    one run only where they are consecutive positions too (stride == per_sample)."""
    if isinstance(samples, torch.Tensor):
        if samples.dtype.is_floating_point or samples.dtype == torch.bool or samples.dim() != 1:
            raise TypeError("samples must be a 1-D integer tensor or a sequence of integers, got %s of shape %s"
                            % (samples.dtype, tuple(samples.shape)))
        samples = samples.tolist()
    elif _lib.is_bool(samples):
        # a boolean selection mask has __index__ elements (np.True_ is 1): rows would take samples 0 and 1
        raise TypeError("samples must be the batch's global sample indices, got a boolean %s (a selection "
                        "mask: its indices are numpy.flatnonzero(m) or m.nonzero())" % type(samples).__name__)
    elif isinstance(samples, (collections.abc.Set, collections.abc.Mapping)) or not (
            hasattr(samples, "__len__") and hasattr(samples, "__getitem__")):
        # a set's order is its hashing's, not the batch's: rows would take other samples' masks
        raise TypeError("samples must be an ordered sequence of integers (a list, tuple, range, 1-D integer "
                        "tensor or array), one per row in the batch's order, got a %s" % type(samples).__name__)
    else:
        samples = [_lib.u64("samples[%d]" % i, s) for i, s in enumerate(samples)]
    if len(samples) != batch:
        raise ValueError("samples names %d global sample indices for a local batch of %d" % (len(samples), batch))
    if len(set(samples)) != len(samples):
        raise ValueError("samples names a global sample twice (each local sample is one global sample)")
    runs = []
    for i, g in enumerate(samples):
        if g < 0 or g >= 1 << 64:
            raise ValueError("samples[%d] must be an integer in [0, 2^64), got %d" % (i, g))
        if runs and g == runs[-1][1] + runs[-1][2] and stride == per_sample:
            runs[-1][2] += 1
        else:
            runs.append([i, g, 1])
    if runs and max(samples) * stride + per_sample > 1 << 64:
        raise ValueError("samples: global sample %d times %d positions a sample runs past 2^64 positions"
                         % (max(samples), stride))
    return [(i, g * stride, n) for i, g, n in runs]


# ---- the library call ----------------------------------------------------------------------
def _apply(out, x, coords):
    """out = dropout(x) at coords = (p, bits, seed, stream, runs, perm): dims in the order perm
    (the batch dim first), element i of a run of samples draws the run's first position + i.
    out and x may be any strided tensors of one shape (out may be x: in place)."""
    p, bits, seed, stream, runs, perm = coords
    n = x.numel()
    if n == 0:
        return
    if x.dim() > 8 and not (x.is_contiguous() and out.is_contiguous()):
        # the library describes at most 8 dims; a view of more may not merge into 8 (a permuted
        # 10-d gradient of a contiguous forward did not, and its backward raised). Contiguous
        # copies always do (the batch dim first leaves at most three runs of dims), and give
        # the same bits: an element's position follows its logical index, not its address.
        xc = x.contiguous()
        oc = torch.empty_like(xc, memory_format=torch.contiguous_format)
        _apply(oc, xc, coords)
        out.copy_(oc)
        return
    if len(runs) == 1 and not x.is_cuda and x.is_contiguous() and out.is_contiguous() \
            and (not perm or perm[0] == 0):
        # one run over a row-major tensor whose batch dim is first: a flat call (no shape to describe)
        rc = _lib.cpu().dropouth_run_flat(_lib.OP_FORWARD, _CODES[x.dtype], p, bits, seed, stream, runs[0][1], n,
                                          out.data_ptr(), None, x.data_ptr())
        if rc:
            _lib.check(rc)
        return
    if out.device != x.device:
        raise ValueError("out is on %s, input on %s" % (out.device, x.device))
    dtype = _DTYPES[x.dtype]
    cs = None
    if x.is_cuda:
        cs = torch.cuda.current_stream(x.device).cuda_stream
    for first, pos, n in runs:
        xs, os_ = x, out
        if n >= 0 and (len(runs) > 1 or n != (x.shape[perm[0]] if perm else 1)):
            xs, os_ = x.narrow(perm[0], first, n), out.narrow(perm[0], first, n)
        # dims of one element draw nothing (their index is always 0): left out, as the library
        # would leave them, so that torch's many-dim tensors (past its 64-dim view) pass too
        live = [d for d in perm if xs.shape[d] != 1] or perm[:1]
        dims = [xs.shape[d] for d in live]
        ost = [os_.stride(d) for d in live]
        ist = [xs.stride(d) for d in live]
        if cs is None:
            _lib.run(_lib.OP_FORWARD, dtype, p, bits, seed, stream, pos, dims, ost, ist,
                     os_.data_ptr(), None, xs.data_ptr())
        else:
            with torch.cuda.device(x.device):
                _lib.run(_lib.OP_FORWARD, dtype, p, bits, seed, stream, pos, dims, ost, ist,
                         os_.data_ptr(), None, xs.data_ptr(), cuda_stream=cs)


class DropoutFunction(torch.autograd.Function):
    """y = dropout(x) at fixed coordinates. Dropout is linear in x, so the backward is the very
    same operation on dy (same positions: the mask is rebuilt, not stored) and is itself
    differentiable: gradgradcheck holds and double backward is exact."""

    @staticmethod
    def forward(ctx, x, coords, inplace):
        ctx.coords, ctx.inplace = coords, inplace
        # The mask needs nothing saved, but a checkpoint's recomputation (use_reentrant=False)
        # counts saved tensors: one that skips this call (model.eval() between a checkpointed
        # forward and its backward) must raise, as it does for nn.Dropout, which saves its
        # mask, instead of giving the other layers' gradients of a network without dropout.
        # Where nn.Dropout saves nothing (p = 0, no elements: it returns its input), neither does
        # this call, so that the count matches nn.Dropout's in eval mode too
        if coords[0] != 0.0 and x.numel():
            ctx.save_for_backward(torch.empty(0))
        if inplace:
            _apply(x, x, coords)
            ctx.mark_dirty(x)
            return x
        y = torch.empty_like(x)
        _apply(y, x, coords)
        return y

    @staticmethod
    def backward(ctx, dy):
        # unpacked, as nn.Dropout unpacks its mask: torch checks a recomputed tensor only where it
        # is read, and a block ending in this call (x + drop(f(x))) would otherwise pass
        _ = ctx.saved_tensors
        if torch.is_grad_enabled():      # create_graph=True: the backward is recorded (double backward)
            return DropoutFunction.apply(dy, ctx.coords, False), None, None
        dx = torch.empty_like(dy)
        _apply(dx, dy, ctx.coords)
        return dx, None, None

    @staticmethod
    def jvp(ctx, dx, _coords, _inplace):
        """Forward-mode AD: the tangent through the same mask (in place where x was written;
        the non-tensor arguments' tangents come as None)."""
        if ctx.inplace:
            _apply(dx, dx, ctx.coords)
            with torch.no_grad():
                dx.copy_(dx)   # the write's version bump (the library writes by pointer), which torch checks
            return dx
        t = torch.empty_like(dx)
        _apply(t, dx, ctx.coords)
        return t


def _seeded(x, coords):
    """coords with the value taken from torch's generator as the seed (coords[2] was None)."""
    return coords[:2] + (_take(x, coords[0], coords[4]),) + coords[3:]


def _run(x, coords, inplace):
    """Through autograd where a graph is recorded or x carries a forward-mode tangent; in place
    without either returns x itself, as torch's dropout_ does (a Function would hand back
    another tensor object). x has passed _check_inplace where inplace. coords' seed None: the
    value is taken from torch's generator here (_take)."""
    graph = torch.is_grad_enabled() and x.requires_grad
    if inplace and graph and x._is_view():
        # torch refuses some views' in-place writes (views of unbind, split, ...) only after a
        # Function has written: the result is made aside and copied, which torch checks before
        # writing (the view's history as any in-place op gives it); a refusal gives back the
        # value taken, so that it takes nothing
        saved = None
        if coords[2] is None:
            saved = torch.cuda.get_rng_state(x.device) if x.is_cuda else torch.get_rng_state()
            coords = _seeded(x, coords)
        y = DropoutFunction.apply(x, coords, False)
        try:
            return x.copy_(y)
        except RuntimeError:
            if saved is not None:
                if x.is_cuda:
                    torch.cuda.set_rng_state(saved, x.device)
                else:
                    torch.set_rng_state(saved)
            raise
    if coords[2] is None:
        coords = _seeded(x, coords)
    if graph or _unpack_dual(x).tangent is not None:
        return DropoutFunction.apply(x, coords, bool(inplace))
    if inplace:
        _apply(x, x, coords)   # (x's version was bumped by _check_inplace)
        return x
    y = torch.empty_like(x)
    _apply(y, x, coords)
    return y


_ORDERS = {}


def _order(ndim, batch_dim):
    """The dims with the batch dim first: positions run sample by sample."""
    perm = _ORDERS.get((ndim, batch_dim))
    if perm is None:
        if not -max(ndim, 1) <= batch_dim < max(ndim, 1):   # torch's rule for a dim (a 0-d tensor: 0 or -1)
            raise IndexError("batch_dim out of range (expected to be in range of [%d, %d], but got %d)"
                             % (-max(ndim, 1), max(ndim, 1) - 1, batch_dim))
        b = batch_dim % ndim if ndim else 0
        perm = [] if ndim == 0 else [b] + [d for d in range(ndim) if d != b]
        if len(_ORDERS) < 256:
            _ORDERS[(ndim, batch_dim)] = perm
    return perm


_WHOLE = [(0, 0, -1)]   # one run of every sample from position 0 (its length is not used)


def _positions(x, perm, samples, positions_per_sample=None):
    """[(local first sample, first position, samples)] for a call: one run from position 0, or the
    runs of the named global samples, each positions_per_sample apart (default: the elements of a
    local sample).

    Why the option: global sample j draws from j * (positions a sample) on, under one key on
    every rank. Where the ranks' samples differ in size (each rank pads its batch to its own
    longest sequence) the default, each rank's own size, lays the ranks' samples over each other,
    and where they overlap their masks are the same bits. A size every rank is given (the longest
    padding any rank uses, or a bound on it) keeps every sample's positions apart."""
    if samples is None:
        if positions_per_sample is not None:
            raise TypeError("positions_per_sample= spaces the samples named by samples=; give samples= too")
        return [(0, 0, x.shape[perm[0]] if perm else 1)]
    if not perm:
        raise ValueError("samples= needs a tensor with a batch dim (this one is 0-dimensional)")
    per_sample = 1
    for d in perm[1:]:
        per_sample *= x.shape[d]
    stride = per_sample
    if positions_per_sample is not None:
        stride = _lib.u64("positions_per_sample", positions_per_sample)
        if stride < per_sample:
            raise ValueError("positions_per_sample=%d is less than the %d elements of a local sample: samples "
                             "would share positions (give the elements of a sample at the longest padding any "
                             "rank uses, or a bound on it)" % (stride, per_sample))
    return _SampleRuns(_runs(samples, x.shape[perm[0]], per_sample, stride), stride)


def _fx_proxy(x):
    return isinstance(x, torch.fx.Proxy)


def dropout(input, p=0.5, training=True, inplace=False, *, seed=None, stream=0, pos=None, bits=None,
            samples=None, positions_per_sample=None, generator=None, data_parallel=None):
    """torch.nn.functional.dropout's arguments and behaviour. Coordinates: by default one value
    from torch's generator of the input's device (exact under activation checkpointing, as
    F.dropout), or explicit seed= and pos= (element i in row-major order draws position pos + i;
    a position is a draw of the call's width, bits=, which follows p when not given, so calls of
    other widths on one seed and stream read the same stream words: give each its own stream=).
    samples= names the global sample index of each row (dim 0) for data parallelism: under
    torch.distributed (more than one process) a call from torch's generator without it raises,
    as the layer does, unless data_parallel=False (each rank from its own generator).
    positions_per_sample= (with samples=): the positions each global sample takes, the same on
    every rank (default: the elements of a local sample, which ranks that pad their batches to
    lengths of their own do not share: give the longest padding's, or a bound).
    Differentiable to any order; any strided tensor (a view gets its contiguous copy's bits)."""
    if _fx_proxy(input):   # torch.fx: one call_function node, run at each call of the traced module
        kw = dict(seed=seed, stream=stream, pos=pos, bits=bits, samples=samples,
                  positions_per_sample=positions_per_sample, generator=generator, data_parallel=data_parallel)
        return input.tracer.create_proxy("call_function", dropout, (input, p, training, inplace), kw)
    if isinstance(generator, torch.Generator):
        raise TypeError("generator=: a torch.Generator is not taken: a call draws from torch's default "
                        "generator of the input's device (seed it with torch.manual_seed, or scope it with "
                        "torch.random.fork_rng), or give seed= and pos=")
    if generator is not None:
        raise TypeError("generator=: a dropouth.Generator advances on every call, also on checkpoint's "
                        "recomputation; for tensors, leave the coordinates out (torch's generator, exact under "
                        "checkpointing) or give seed= and pos=")
    _check_tensor("input", input)
    p, bits = _rule(p, bits)
    if not isinstance(training, bool):   # as F.dropout: "false" from a config file would drop
        raise TypeError("training must be a bool, got %s" % type(training).__name__)
    if not training:
        return input
    _refuse_tracing()
    stream = _lib.u64("stream", stream)
    perm = list(range(input.dim()))
    _check_group("data_parallel", data_parallel)
    if seed is None and pos is None:
        if samples is None:
            _refuse_unplaced(data_parallel, "dropouth.dropout")
        runs = _positions(input, perm, samples, positions_per_sample)
        if inplace:
            _check_inplace(input)
        seed = None   # taken by _run
    elif seed is None or pos is None:
        raise TypeError("give both seed= and pos= (explicit coordinates), or neither (torch's generator)")
    else:
        if samples is not None or positions_per_sample is not None:
            raise TypeError("samples= (and positions_per_sample=) place the samples of a call from torch's "
                            "generator; with explicit coordinates give pos= alone")
        seed, pos = _lib.u64("seed", seed), _lib.u64("pos", pos)
        runs = [(0, pos, input.shape[0] if input.dim() else 1)]
        if inplace:
            _check_inplace(input)
    return _run(input, (p, bits, seed, stream, runs, perm), inplace)


try:
    import torch.distributed as _dist
    _dist_on = _dist.is_available() and _dist.is_initialized
except ImportError:
    _dist_on = None


def _check_group(name, dp):
    """data_parallel is None, False or a process group: True (or 1, "yes") would reach
    torch.distributed only once the job runs under torchrun, and fail there obscurely."""
    if dp is None or dp is False:
        return
    group = getattr(_dist, "ProcessGroup", None) if _dist_on else None
    if group is None or not isinstance(dp, group):
        raise TypeError("%s must be None (torch.distributed's default group where initialised), False (each "
                        "process draws alone, as nn.Dropout) or a torch.distributed ProcessGroup, got %r" % (name, dp))


def _check_batch_dim(name, d):
    """An int (operator.index): 1.9, True or "1" would be taken as 1 silently."""
    if _lib.is_bool(d) or not hasattr(d, "__index__"):
        raise TypeError("%s must be an int, got %r" % (name, d))
    return d.__index__()


def _world(dp):
    """The size of the data-parallel group, 1 without one."""
    if dp is False or not _dist_on or not _dist_on():
        return 1
    dist = _dist
    return dist.get_world_size() if dp is None else dist.get_world_size(dp)


def _refuse_unplaced(dp, who):
    """Under data parallelism (a group of more than one process) a call from torch's generator
    without samples= would give local sample i of every rank the same mask (the ranks' generators
    are seeded alike): refused, as for the layer."""
    if dp is not False and _dist_on and _dist_on() and _world(dp) > 1:
        raise RuntimeError(
            "%s under data parallelism (%d processes) needs the global sample index of each "
            "local sample: samples=indices, so that every global sample gets its one-process "
            "mask whatever the sampler and batch sizes; or data_parallel=False to draw as nn.Dropout does "
            "(each rank from its own torch generator)" % (who, _world(dp)))


class Dropout(torch.nn.Dropout):
    r"""nn.Dropout with masks from dropout.h: an nn.Dropout (isinstance holds), with nn.Dropout's
    arguments and meaning, and masks that are the same bits on every CPU and GPU for the same
    coordinates.

    Each training call takes one value from torch's generator of the input's device and draws
    its mask at the key (that value, ``stream``), positions from 0 in the order of the samples.
    So torch.manual_seed seeds it, and activation checkpointing (which restores torch's RNG
    state) replays its masks exactly, as for nn.Dropout. The layer keeps no state: resuming is
    restoring torch's RNG state, as with nn.Dropout.

    dropouth's own options are keyword-only:

    - ``stream``: the key's stream (default 0): two layers with other streams never share a mask,
      even for one value of torch's generator;
    - ``bits``: draw width 8, 16 or 32 (default None: dropouth.default_bits(p));
    - ``batch_dim``: the dim that indexes samples (default 0);
    - ``data_parallel``: None (default: torch.distributed's default group where initialised),
      False (draw as nn.Dropout does on each rank), or a process group.

    ``layer(x, samples=idx)``: idx names the global sample index of each local sample (along
    batch_dim); global sample j draws positions j * (elements a sample) on, so each gets the mask
    one process holding the whole batch gives it, whatever the sampler or the local batch sizes.
    Under data parallelism (a group of more than one process) samples= is required.
    ``layer(x, samples=idx, positions_per_sample=n)``: sample j draws from j * n on instead, n the
    same on every rank: where ranks pad their batches to lengths of their own, the elements of a
    sample differ between ranks and the default would lay their samples over each other (the
    same bits where they overlap); n the elements of a sample at the longest padding any rank
    uses (or a bound) keeps them apart.
    """

    def __init__(self, p=0.5, inplace=False, *, stream=0, bits=None, batch_dim=0, data_parallel=None, seed=None):
        if seed is not None:
            raise TypeError("Dropout(seed=...): masks come from torch's generator now; seed it with torch.manual_seed")
        super().__init__(p, inplace)
        _bits(p, bits)        # a width that cannot honour p raises now
        self.bits = bits
        self.stream = _lib.u64("stream", stream)
        self.batch_dim = _check_batch_dim("batch_dim", batch_dim)
        _check_group("data_parallel", data_parallel)
        self.data_parallel = data_parallel

    def forward(self, input, samples=None, positions_per_sample=None):
        if type(input) is not torch.Tensor and _fx_proxy(input):
            # torch.fx tracing: one call_module node, as for nn.Dropout (a leaf); the traced
            # module calls this layer when it runs
            tracer = input.tracer
            path = tracer.path_of_module(self)
            if not path:   # the root: a call_module node must name a submodule
                raise TypeError("torch.fx: a dropouth.Dropout traced as the root module has no submodule "
                                "path to call; trace a module that holds it (the layer is one call_module "
                                "node there), or dropouth.dropout as a function")
            kw = {} if samples is None else {"samples": samples}
            if positions_per_sample is not None:
                kw["positions_per_sample"] = positions_per_sample
            return tracer.create_proxy("call_module", path, (input,), kw)
        if not self.training:
            return input
        _check_tensor("input", input)
        p, bits = _rule(self.p, self.bits)
        _refuse_tracing()
        # the fields are plain attributes that anyone may set: checked at each call, as at init
        stream = _lib.u64("layer.stream", self.stream)
        perm = _order(input.dim(), _check_batch_dim("layer.batch_dim", self.batch_dim))
        _check_group("layer.data_parallel", self.data_parallel)
        if samples is None:
            if positions_per_sample is not None:
                raise TypeError("positions_per_sample= spaces the samples named by samples=; give samples= too")
            _refuse_unplaced(self.data_parallel, "dropouth.Dropout")
            runs = _WHOLE
        else:
            runs = _positions(input, perm, samples, positions_per_sample)
        if self.inplace:
            _check_inplace(input)
        return _run(input, (p, bits, None, stream, runs, perm), self.inplace)

    def extra_repr(self):
        s = "p={}, inplace={}".format(self.p, self.inplace)
        if self.stream:
            s += ", stream={}".format(self.stream)
        if self.bits is not None:
            s += ", bits={}".format(self.bits)
        if self.batch_dim != 0:
            s += ", batch_dim={}".format(self.batch_dim)
        return s

    def __prepare_scriptable__(self):
        raise RuntimeError("dropouth.Dropout cannot be compiled by torch.jit.script (its mask comes from a C "
                           "library called from Python). Script a copy of the model with nn.Dropout for inference "
                           "(in eval mode both are the identity), or keep the model in Python")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """A state_dict of an earlier dropouth (which kept the layer's stream position in
        _extra_state) loads: that entry no longer means anything, since masks come from torch's
        RNG state, and is dropped with a warning."""
        if (prefix + "_extra_state") in state_dict:
            import warnings
            state_dict.pop(prefix + "_extra_state")
            warnings.warn("dropouth: %s_extra_state (a position of an earlier dropouth) ignored: masks now come "
                          "from torch's RNG state; save torch.get_rng_state() to resume exactly" % prefix)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def __deepcopy__(self, memo):
        """A deep copy shares the process group (it belongs to the process)."""
        import copy
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            new.__dict__[k] = v if k == "data_parallel" else copy.deepcopy(v, memo)
        return new

    def __getstate__(self):
        """Pickled (torch.save) without a process group, which belongs to one process: the
        loaded layer finds torch.distributed's default group, or runs alone."""
        state = self.__dict__.copy()
        if not (state.get("data_parallel") is None or state.get("data_parallel") is False):
            state["data_parallel"] = None
        return state


__all__ = ["dropout", "Dropout", "DropoutFunction"]
