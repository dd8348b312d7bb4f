"""dropouth for PyTorch: dropout (functional), Dropout (nn.Module), DropoutFunction (autograd).

Imported by `dropouth.Dropout` and friends on first use. The classes are module-level names, so
they pickle, torch.save whole, and deep-copy."""
import torch

from . import Generator, _bits, _coords, _defaults, _lib, _next_stream, _replay

_DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
           torch.bfloat16: "bfloat16"}


def _check_tensor(name, t):
    """What the library takes: a dense (strided) float tensor on a CPU or a CUDA device. Every
    refusal comes before anything is reserved or written."""
    if not isinstance(t, torch.Tensor):
        raise TypeError("%s must be a torch.Tensor, got %s%s" % (
            name, type(t).__name__, " (for NumPy arrays use dropouth.forward)" if type(t).__module__ == "numpy" else ""))
    if t.layout != torch.strided:
        raise TypeError("%s must be a dense tensor, got layout %s (sparse and opaque layouts are not supported)" % (name, t.layout))
    if t.dtype not in _DTYPES:
        raise TypeError("%s must be float32, float64, float16 or bfloat16, got %s" % (name, t.dtype))
    if t.device.type == "cuda":
        try:
            _lib.cuda()   # now, not after a reservation
        except OSError as e:
            raise ValueError("%s is on %s, and this dropouth has no CUDA library: %s" % (name, t.device, e))
    elif t.device.type != "cpu":
        raise ValueError("%s is on device %s: dropouth runs on CPU and CUDA tensors" % (name, t.device))


def _apply(out, x, coords):
    """out = dropout(x) at coords = (p, bits, seed, stream, pos, perm): element i of x in the
    order perm (the batch dim first) draws position pos + i. out and x may be any strided
    tensors of one shape (out may be x: in place)."""
    p, bits, seed, stream, pos, perm = coords
    if x.numel() == 0:
        return
    if out.device != x.device:
        raise ValueError("out is on %s, input on %s" % (out.device, x.device))
    dims = [x.shape[d] for d in perm]
    ost = [out.stride(d) for d in perm]
    ist = [x.stride(d) for d in perm]
    cs = None
    if x.device.type == "cuda":
        cs = torch.cuda.current_stream(x.device).cuda_stream
        with torch.cuda.device(x.device):
            _lib.run(_lib.OP_FORWARD, _DTYPES[x.dtype], p, bits, seed, stream, pos, dims, ost, ist,
                     out.data_ptr(), None, x.data_ptr(), cuda_stream=cs)
        return
    _lib.run(_lib.OP_FORWARD, _DTYPES[x.dtype], p, bits, seed, stream, pos, dims, ost, ist,
             out.data_ptr(), None, x.data_ptr())


class DropoutFunction(torch.autograd.Function):
    """y = dropout(x) at fixed coordinates. Dropout is linear in x, so the backward is the very
    same operation on dy (same positions: the mask is rebuilt, not stored) and is itself
    differentiable: gradgradcheck holds and double backward is exact."""

    @staticmethod
    def forward(ctx, x, coords, inplace):
        ctx.coords = coords
        if inplace:
            _apply(x, x, coords)
            ctx.mark_dirty(x)
            return x
        y = torch.empty_like(x)
        _apply(y, x, coords)
        return y

    @staticmethod
    def backward(ctx, dy):
        _replay.note_backward()
        return DropoutFunction.apply(dy, ctx.coords, False), None, None


def _run(x, coords, inplace):
    """Through autograd where a graph is recorded; in place without one returns x itself, as
    torch's dropout_ does (a Function would hand back another tensor object)."""
    if inplace and not (torch.is_grad_enabled() and x.requires_grad):
        _apply(x, x, coords)
        with torch.no_grad():
            x.copy_(x)   # a copy onto itself (ATen returns at once): bumps x's version counter, so a
                         # graph that saved x notices the write, as after any in-place op
        return x
    return DropoutFunction.apply(x, coords, bool(inplace))


def _order(ndim, batch_dim):
    """The dims with the batch dim first: positions run sample by sample."""
    if ndim == 0:
        return []
    b = batch_dim % ndim
    return [b] + [d for d in range(ndim) if d != b]


def dropout(input, p=0.5, training=True, inplace=False, *, generator=None, seed=None, stream=0, pos=None,
            bits=None):
    """torch.nn.functional.dropout's arguments, with coordinates: a dropouth.Generator (each call
    reserves input.numel() fresh positions) or explicit seed=, stream=, pos= (element i in
    row-major order draws position pos + i). No default coordinates: they would repeat a mask.
    Differentiable to any order; any strided tensor (a view gets its contiguous copy's bits)."""
    _check_tensor("input", input)
    p, bits = _bits(p, bits)
    if not training:
        return input
    seed, stream, pos = _coords(generator, seed, stream, pos, input.numel(), input)
    return _run(input, (p, bits, seed, stream, pos, list(range(input.dim()))), inplace)


def _data_parallel(dp):
    """(rank, world size) of the data-parallel group."""
    if dp is False:
        return 0, 1
    if isinstance(dp, tuple):
        return dp
    import torch.distributed as dist
    if dp is None:
        if not (dist.is_available() and dist.is_initialized()):
            return 0, 1
        return dist.get_rank(), dist.get_world_size()
    return dist.get_rank(dp), dist.get_world_size(dp)


class Dropout(torch.nn.Module):
    r"""nn.Dropout with masks from positions: the same masks in every run, process and device.

    ``Dropout(p=0.5, inplace=False)`` takes every argument nn.Dropout takes, with the same
    meaning. dropouth's own options are keyword-only:

    - ``seed``: the key's seed (default: the one given to dropouth.manual_seed, else 0);
    - ``stream``: the layer's stream (default: the next layer number, counted from 0 by
      dropouth.manual_seed: the same model code gives every layer the same stream in every
      process, and no two layers share one; a deep copy is a new layer and takes a new number);
    - ``bits``: draw width 8, 16 or 32 (default None: dropouth.default_bits(p));
    - ``batch_dim``: the dim that indexes samples (default 0), for data parallelism;
    - ``data_parallel``: None (default: torch.distributed's default group when it is
      initialised), False, a process group, or (rank, world_size).

    Positions: each training call reserves numel x world_size positions of the layer's stream
    (the whole global batch) and uses its rank's slice, the batch dim first; so global sample j
    of a step gets the positions, and the mask, that one process holding the whole batch gives
    it, when rank r holds global samples r*B .. r*B + B - 1 of each call (B = local batch).
    A recomputation under torch.utils.checkpoint gets its original positions back (see
    dropouth.Generator). (seed, stream, position) are in the state_dict, so a checkpoint
    resumes the exact stream. In eval mode the layer is the identity.
    """
    __constants__ = ["p", "inplace"]

    def __init__(self, p=0.5, inplace=False, *, seed=None, stream=None, bits=None, batch_dim=0, data_parallel=None):
        super().__init__()
        if p < 0 or p > 1:    # nn.Dropout's check and message
            raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
        self.p = p
        self.inplace = inplace
        _bits(p, bits)        # a width that cannot honour p raises now
        self.bits = bits
        self.batch_dim = int(batch_dim)
        self.data_parallel = data_parallel
        self.generator = Generator(_defaults["seed"] if seed is None else seed,
                                   _next_stream() if stream is None else stream)

    @property
    def seed(self):
        return self.generator.seed

    @property
    def stream(self):
        return self.generator.stream

    @property
    def position(self):
        return self.generator.position

    def forward(self, input):
        tracer = getattr(input, "tracer", None)
        if tracer is not None and hasattr(tracer, "path_of_module"):
            # torch.fx tracing: one call_module node, as for nn.Dropout (a leaf); the traced
            # module calls this layer when it runs
            return tracer.create_proxy("call_module", tracer.path_of_module(self), (input,), {})
        _check_tensor("input", input)
        if not self.training:
            return input
        p, bits = _bits(self.p, self.bits)
        rank, world = _data_parallel(self.data_parallel)
        n = input.numel()
        start = self.generator.reserve(n * world, input)
        coords = (p, bits, self.generator.seed, self.generator.stream, start + rank * n,
                  _order(input.dim(), self.batch_dim))
        return _run(input, coords, self.inplace)

    def extra_repr(self):
        s = "p={}, inplace={}".format(self.p, self.inplace)
        s += ", seed={}, stream={}, position={}".format(self.seed, self.stream, self.position)
        if self.bits is not None:
            s += ", bits={}".format(self.bits)
        if self.batch_dim != 0:
            s += ", batch_dim={}".format(self.batch_dim)
        return s

    def get_extra_state(self):
        return {"seed": self.seed, "stream": self.stream, "position": self.position}

    def set_extra_state(self, state):
        self.generator = Generator(state["seed"], state["stream"], state["position"])

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """A state_dict without this layer's coordinates (one saved from a model with nn.Dropout
        there) loads, strict or not: the layer keeps its own seed, stream and position."""
        strict = strict and (prefix + "_extra_state") in state_dict
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def __deepcopy__(self, memo):
        """A deep copy is another layer: nn.Dropout copies draw fresh masks, so this one takes
        the next stream (pickling and torch.save keep the stream: that is the same layer)."""
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        import copy
        for k, v in self.__dict__.items():
            new.__dict__[k] = v if k == "data_parallel" else copy.deepcopy(v, memo)   # a process group is shared
        new.generator = Generator(self.seed, _next_stream(), 0)
        return new

    def __getstate__(self):
        """Pickled (torch.save) without a process group, which belongs to one process: the
        loaded layer finds torch.distributed's default group, or runs alone."""
        state = self.__dict__.copy()
        if not (state.get("data_parallel") is None or state.get("data_parallel") is False
                or isinstance(state.get("data_parallel"), tuple)):
            state["data_parallel"] = None
        return state
