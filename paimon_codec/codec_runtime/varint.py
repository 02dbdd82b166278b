"""Paimon's variable-length integers (``VarLengthIntUtils``) for the generated codecs.

Unsigned, least significant group first, in the group layout of ``schemas/varint.ksy`` (its ``varint_group``
enum: the payload mask, the continuation bit and the bits per group - 0x7f, 0x80, 7, Construct's own
``VarInt``), presented as ``{"value": n}`` so that the Kaitai expressions of ``schemas/varint.ksy``
(``x.value``) translate unchanged: the Kaitai parser exposes the integer as the ``value`` instance of its
groups.  The generated codecs make one :class:`VarUInt` from the schema's constants per module (its
``-construct-embedded``), and their fast paths call its ``fast_parse`` / ``fast_build``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from construct import Construct, Container, StreamError, stream_read, stream_write

from ..generated.construct.constants import VARINT_GROUP_BITS as _BITS
from ..generated.construct.constants import VARINT_GROUP_CONTINUATION as _MORE
from ..generated.construct.constants import VARINT_GROUP_PAYLOAD as _PAYLOAD
from .streams import CodecError

__all__ = ["VarUInt", "fast_build_varint", "fast_parse_varint", "varint_runs", "varints_at"]

#: longest varint read: enough groups for a 64-bit value
_MAX_SHIFT = 63


def varint_functions(payload: int, more: int, bits: int) -> tuple[Callable[[Any, int, int, str], tuple[Container, int]],
                                                                  Callable[[Any], bytes]]:
    """``(fast_parse, fast_build)`` of varints of this group layout (closures: the generated fast paths'
    inner loop reads no global)."""

    def fast_parse(buf: Any, p: int, end: int, what: str) -> tuple[Container, int]:
        """One varint at ``buf[p:end]``: ``(Container(value=n), end position)``."""
        if p < end:  # the common one-group varint first
            b = buf[p]
            if not b & more:
                return Container(value=b & payload), p + 1
        value = shift = 0
        while True:
            if p >= end:
                raise CodecError(f"{what}: truncated variable-length integer", offset=p, expected="a varint",
                                 kind="truncated")
            b = buf[p]
            p += 1
            value |= (b & payload) << shift
            if not b & more:
                return Container(value=value), p
            shift += bits
            if shift > _MAX_SHIFT:
                raise CodecError(f"{what}: variable-length integer longer than 64 bits", offset=p,
                                 expected="a varint")

    def fast_build(obj: Any) -> bytes:
        """The bytes of a varint (``{"value": n}`` or ``n``)."""
        n = int(obj["value"]) if isinstance(obj, dict) else int(obj)
        if n < 0:
            raise CodecError(f"negative variable-length integer {n}", expected="a value >= 0")
        out = bytearray()
        while n > payload:
            out.append((n & payload) | more)
            n >>= bits
        out.append(n)
        return bytes(out)

    return fast_parse, fast_build


class VarUInt(Construct):
    """``schemas/varint.ksy`` embedded in another format: parses to ``Container(value=n)``; builds from
    that or from a bare ``int``.  ``payload`` / ``more`` / ``bits``: the schema's group layout (the
    generated codecs pass its constants)."""

    def __init__(self, payload: int = _PAYLOAD, more: int = _MORE, bits: int = _BITS) -> None:
        super().__init__()
        self.fast_parse, self.fast_build = varint_functions(payload, more, bits)
        self._payload, self._more, self._bits = payload, more, bits

    def _parse(self, stream, context, path):
        value = shift = 0
        while True:
            try:
                b = stream_read(stream, 1, path)[0]
            except StreamError as e:
                raise CodecError(f"truncated variable-length integer: {e}", expected="a varint", kind="truncated",
                                 path=path) from None
            value |= (b & self._payload) << shift
            if not b & self._more:
                return Container(value=value)
            shift += self._bits
            if shift > _MAX_SHIFT:
                raise CodecError("variable-length integer longer than 64 bits", expected="a varint", path=path)

    def _build(self, obj, stream, context, path):
        data = self.fast_build(obj)
        stream_write(stream, data, len(data), path)
        return obj


#: The varint functions of the schema's group layout, for hand-written callers.
fast_parse_varint, fast_build_varint = varint_functions(_PAYLOAD, _MORE, _BITS)


def varints_at(data: np.ndarray, positions: np.ndarray, end: int) -> tuple[np.ndarray, np.ndarray]:
    """The varints starting at each of ``positions`` in ``data`` (uint8, read no further than ``end``),
    decoded together: ``(values uint64, positions just after each)``.  Raises :class:`CodecError`
    (truncated / corrupt) naming the first bad position."""
    pos = positions.astype(np.int64, copy=True)
    values = np.zeros(pos.shape, np.uint64)
    active = np.ones(pos.shape, bool)
    for k in range(10):
        if not active.any():
            break
        at = pos[active]
        if at.size and int(at.max()) >= end:
            bad = int(at[at >= end][0])
            raise CodecError(f"variable-length integer runs past byte {end}", offset=bad, expected="a varint",
                             kind="truncated")
        b = data[at]
        values[active] |= (b & _PAYLOAD).astype(np.uint64) << np.uint64(_BITS * k)
        pos[active] = at + 1
        more = (b & _MORE) != 0
        active[np.flatnonzero(active)[~more]] = False
    if active.any():
        bad = int(positions[active][0])
        raise CodecError("variable-length integer longer than 10 bytes", offset=bad, expected="a varint",
                         kind="corrupt")
    return values, pos


def varint_runs(data: np.ndarray, starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every varint of the byte runs ``data[starts[i]:stops[i]]`` (each a whole number of varints), decoded
    at once: ``(values uint64 in order, number of varints per run)``."""
    lengths = stops - starts
    if lengths.size == 0 or int(lengths.sum()) == 0:
        return np.zeros(0, np.uint64), np.zeros(lengths.shape, np.int64)
    # the byte positions of all runs, concatenated
    run_of = np.repeat(np.arange(lengths.size), lengths)
    offsets = np.cumsum(lengths) - lengths
    idx = starts[run_of] + (np.arange(run_of.size) - offsets[run_of])
    b = data[idx]
    last = (b & _MORE) == 0
    ends_run = np.cumsum(lengths) - 1  # index of each non-empty run's last byte
    ends_run = ends_run[lengths > 0]
    if not last[ends_run].all():
        bad = int(idx[ends_run[~last[ends_run]][0]])
        raise CodecError("variable-length integer runs past the end of its field", offset=bad,
                         expected="a varint", kind="corrupt")
    group_end = np.flatnonzero(last)
    group_start = np.concatenate(([0], group_end[:-1] + 1))
    shift = np.arange(b.size) - np.repeat(group_start, group_end - group_start + 1)
    if int(shift.max()) > 9:
        bad = int(idx[np.flatnonzero(shift > 9)[0]])
        raise CodecError("variable-length integer longer than 10 bytes", offset=bad, expected="a varint",
                         kind="corrupt")
    parts = (b & _PAYLOAD).astype(np.uint64) << (_BITS * shift).astype(np.uint64)
    values = np.bitwise_or.reduceat(parts, group_start)
    counts = np.add.reduceat(last.astype(np.int64), offsets) if lengths.all() else \
        np.array([int(last[o:o + n].sum()) for o, n in zip(offsets, lengths, strict=True)], np.int64)
    return values, counts
