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
matching: the first call, which kept none).
"""
import zlib

_state = {"epoch": 0, "armed": False}


def _engine():
    import torch
    return torch.autograd.Variable._execution_engine


def _end_of_backward():
    _state["epoch"] += 1
    _state["armed"] = False


def in_backward():
    """True while the autograd engine runs a backward pass (the only time a callback can be
    queued, so queueing one is the test); the callback then counts the pass's end."""
    try:
        import torch  # noqa: F401  (no torch: no backward pass either)
    except ImportError:
        return False
    try:
        _engine().queue_callback(_end_of_backward)
    except RuntimeError:
        return False
    _state["armed"] = True
    return True


def note_backward():
    """Called from the backward of dropouth's autograd function: the pass's end ends a step."""
    if not _state["armed"]:
        in_backward()


def epoch():
    return _state["epoch"]


def fingerprint(t):
    """The input's bits, hashed: shape, dtype and a CRC of the bytes (CPU) or a weighted sum
    of the bit patterns (other devices)."""
    import torch
    flat = t.detach().reshape(-1)
    ints = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
            torch.float64: torch.int64}.get(flat.dtype)
    if ints is None:
        return (tuple(t.shape), str(t.dtype))
    bits = flat.contiguous().view(ints)
    if bits.device.type == "cpu":
        return (tuple(t.shape), str(t.dtype), zlib.crc32(bits.numpy().tobytes()))
    w = torch.arange(1, bits.numel() + 1, device=bits.device, dtype=torch.int64) % 65521
    return (tuple(t.shape), str(t.dtype), int((bits.to(torch.int64) * w).sum()))


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
