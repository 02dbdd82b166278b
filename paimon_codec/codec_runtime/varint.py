"""Paimon's variable-length integers (``VarLengthIntUtils``) for the generated codecs.

Unsigned little-endian base-128 - Construct's own ``VarInt`` - presented as ``{"value": n}`` so that
the Kaitai expressions of ``schemas/varint.ksy`` (``x.value``) translate unchanged: the Kaitai
parser exposes the integer as the ``value`` instance of its groups.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from construct import Adapter, ConstructError, Container, VarInt

from ..generated.construct.constants import VARINT_GROUP_BITS as _BITS
from ..generated.construct.constants import VARINT_GROUP_CONTINUATION as _MORE
from ..generated.construct.constants import VARINT_GROUP_PAYLOAD as _PAYLOAD
from .streams import CodecError

__all__ = ["VarUInt", "fast_build_varint", "fast_parse_varint", "varint_runs", "varints_at"]


class VarUInt(Adapter):
    """``schemas/varint.ksy`` embedded in another format: parses to ``Container(value=n)``; builds from
    that or from a bare ``int``."""

    def __init__(self) -> None:
        super().__init__(VarInt)

    def _parse(self, stream, context, path):
        try:
            return super()._parse(stream, context, path)
        except ConstructError as e:
            if isinstance(e, CodecError):
                raise
            raise CodecError(f"truncated variable-length integer: {e}", expected="a varint", kind="truncated",
                             path=path) from None

    def _decode(self, obj, context, path):
        return Container(value=obj)

    def _encode(self, obj, context, path):
        return int(obj["value"]) if isinstance(obj, dict) else int(obj)


def fast_parse_varint(buf: Any, p: int, end: int, what: str) -> tuple[Container, int]:
    """One varint at ``buf[p:end]`` for the generated fast paths: ``(Container(value=n), end position)``,
    what :class:`VarUInt` parses."""
    value = shift = 0
    while True:
        if p >= end:
            raise CodecError(f"{what}: truncated variable-length integer", offset=p, expected="a varint",
                             kind="truncated")
        b = buf[p]
        p += 1
        value |= (b & _PAYLOAD) << shift
        if b < _MORE:
            return Container(value=value), p
        shift += _BITS
        if shift > 63:
            raise CodecError(f"{what}: variable-length integer longer than 10 bytes", offset=p, expected="a varint")


def fast_build_varint(obj: Any) -> bytes:
    """The bytes of a varint (``{"value": n}`` or ``n``), what :class:`VarUInt` builds."""
    n = int(obj["value"]) if isinstance(obj, dict) else int(obj)
    if n < 0:
        raise CodecError(f"negative variable-length integer {n}", expected="a value >= 0")
    out = bytearray()
    while n >= _MORE:
        out.append((n & _PAYLOAD) | _MORE)
        n >>= _BITS
    out.append(n)
    return bytes(out)


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
