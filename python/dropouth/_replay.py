"""Recognising the recomputation of activation checkpointing, with positions only.

torch.utils.checkpoint (reentrant or not) runs the checkpointed function a second time during
the backward pass. torch's own dropout gets its mask back because checkpoint saves and restores
torch's RNG state around the recomputation (preserve_rng_state); Megatron-LM's
CheckpointFunction does the same for its RNG tracker. dropouth has no RNG state: a mask is a
function of its positions. So a reservation made during a backward pass is taken for a replay
and answered with the positions of the original call; nothing is reserved and nothing needs
restoring.

Which original call: the reservations of the current step are kept (until the next one after a
backward pass has ended). One with the same count is the answer. Where a generator served
several calls of the same size in one step (a layer used twice), each call after the first
keeps a fingerprint of its input, which the replay's input equals bit for bit (checkpoint
recomputes the same values), and the call whose fingerprint matches is the answer (none
matching: the first call, which kept none). The fingerprint samples 64 elements: two calls of
one layer in one step on inputs equal in all of those would be told apart wrongly.
"""
import zlib

_state = {"epoch": 0, "armed": False}
_probe = {}


def _engine():
    import torch
    return torch.autograd.Variable._execution_engine


def _end_of_backward():
    _state["epoch"] += 1
    _state["armed"] = False


def _engine_running():
    """Whether the autograd engine is running a backward pass on this thread. The engine's
    _will_engine_execute_node answers for a node during a backward pass and refuses outside
    one (a check that costs under a microsecond); queue_callback refuses the same way, but its
    error costs about a millisecond, so it is only the fallback for a torch without the first."""
    import torch
    will = getattr(torch._C, "_will_engine_execute_node", None)
    if will is None:
        try:
            _engine().queue_callback(_end_of_backward)
        except RuntimeError:
            return False
        _state["armed"] = True
        return True
    if "node" not in _probe:
        _probe["leaf"] = torch.zeros(1, requires_grad=True)
        _probe["node"] = (_probe["leaf"] * 1).grad_fn
    try:
        will(_probe["node"])
    except RuntimeError as e:
        if "backward pass" in str(e):
            return False
    return True


def in_backward():
    """True while the autograd engine runs a backward pass; then the pass's end is counted."""
    try:
        import torch  # noqa: F401  (no torch: no backward pass either)
    except ImportError:
        return False
    if not _engine_running():
        return False
    note_backward()
    return True


def note_backward():
    """In a backward pass (from dropouth's autograd function, or a replay): count its end."""
    if not _state["armed"]:
        _engine().queue_callback(_end_of_backward)
        _state["armed"] = True


def epoch():
    return _state["epoch"]


def fingerprint(t):
    """The input, told apart from the other inputs of one step: shape, dtype and the bit
    patterns of up to 64 elements spread over it (a recomputation reproduces all of them)."""
    import torch
    flat = t.detach().reshape(-1)
    ints = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
            torch.float64: torch.int64}.get(flat.dtype)
    if ints is None or flat.numel() == 0:
        return (tuple(t.shape), str(t.dtype))
    step = max(1, flat.numel() // 64)
    sample = flat[::step][:64].contiguous().view(ints).cpu()
    return (tuple(t.shape), str(t.dtype), zlib.crc32(sample.numpy().tobytes()))


def remember(records, start, count, like):
    fp = fingerprint(like) if any(r[1] == count for r in records) else None
    records.append((start, count, fp))
    del records[:-256]     # a training-mode loop without backward passes: keep the last 256


def find(records, count, like):
    same = [r for r in records if r[1] == count]
    if not same:
        return None
    if len(same) == 1:
        return same[0][0]
    fp = fingerprint(like)
    for r in same:
        if r[2] == fp:
            return r[0]
    return same[0][0]
