"""Support of the generated straight-line parsers/builders for arrays of flat records (``tools/fastgen.py``)
and the columnar walks of records with one length-prefixed field.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np
from construct import (
    Construct,
    Container,
    ListContainer,
)

from .streams import CodecError, ViewStream, _ev, io_size

# --------------------------------------------------------------------------------------------
# fast path: generated straight-line parsers/builders for arrays of flat records


_C = Container
_L = ListContainer


def _short(what: str, need: int, left: int, pos: int) -> None:
    raise CodecError(f"{what} needs {need} bytes but only {max(left, 0)} remain", offset=pos,
                     expected=f"{need} bytes", kind="truncated" if need >= 0 else "corrupt")


def _count(what: str, n: int, size: int, left: int, pos: int) -> None:
    raise CodecError(f"{what}: {n} elements of at least {size} bytes do not fit in the {left} bytes that remain",
                     offset=pos, expected=f"at most {max(left, 0) // size} elements", kind="count")


def _bad(what: str, value: Any, expected: str, kind: str, pos: int) -> None:
    raise CodecError(f"{what} is {value!r}", offset=pos, expected=expected, kind=kind)


def _utf(buf: Any, pos: int, n: int, encoding: str, what: str) -> str:
    try:
        return bytes(buf[pos:pos + n]).decode(encoding)
    except UnicodeDecodeError as e:
        raise CodecError(f"{what} is not valid {encoding}: {e.reason}", offset=pos + e.start, expected=encoding,
                         kind="corrupt") from None


class FastArray(Construct):
    """An array of flat records parsed/built by generated straight-line functions (no per-element
    Construct interpretation).  ``count`` None means until the end of the (sub)stream."""

    def __init__(self, count: Callable | int | None, parse_fn: Callable, build_fn: Callable, name: str,
                 params: dict | None = None) -> None:
        super().__init__()
        self.count = count
        self.parse_fn = parse_fn
        self.build_fn = build_fn
        self.fname = name
        self.params = params or {}

    def _parse(self, stream, context, path):
        n = None if self.count is None else _ev(self.count, context)
        kw = {k: fn(context) for k, fn in self.params.items()}
        if type(stream) is ViewStream:  # byte fields come back as views of the input
            pos, end, base, buf = stream.pos, stream.size, stream.base, stream.buf
        else:  # a BytesIO: its value (shared, not copied, while unmodified) - never a view of its buffer
            pos, end = stream.tell(), io_size(stream)
            base = getattr(stream, "base", 0)
            buf = memoryview(stream.getvalue())
        try:
            lst, newpos = self.parse_fn(buf, pos, end, n, **kw)
        except CodecError as e:
            if e.offset is not None:
                e.offset += base
            e.path = path
            raise
        except struct.error as e:
            raise CodecError(f"{self.fname}: {e}", offset=base + pos, kind="corrupt", path=path) from None
        stream.seek(newpos)
        return lst

    def _build(self, obj, stream, context, path):
        if self.count is not None:
            n = _ev(self.count, context)
            if n != len(obj):
                raise CodecError(f"{self.fname} has {len(obj)} elements but its count field says {n}",
                                 expected=str(len(obj)), kind="corrupt", path=path)
        kw = {k: fn(context) for k, fn in self.params.items()}
        out = bytearray()
        self.build_fn(obj, out, **kw)
        stream.write(out)  # a BuildStream keeps it as it is (no copy)
        return obj



# --------------------------------------------------------------------------------------------
# columnar walks of records with one length-prefixed field (generated ``columns_*`` fast path)


class ByteSlices:
    """The variable-length byte field of records found by a walk: a read-only sequence of
    ``bytes`` sliced from ``buf`` on demand (``starts``/``lens`` are numpy int64 arrays)."""

    __slots__ = ("buf", "starts", "lens")

    def __init__(self, buf: Any, starts: np.ndarray, lens: np.ndarray) -> None:
        self.buf, self.starts, self.lens = buf, starts, lens

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> bytes:
        s = int(self.starts[i])
        return bytes(self.buf[s:s + int(self.lens[i])])

    def tolist(self) -> list[bytes]:
        b = self.buf if isinstance(self.buf, bytes) else bytes(self.buf)
        return [b[s:s + n] for s, n in zip(self.starts.tolist(), self.lens.tolist(), strict=True)]

    def __iter__(self):
        return iter(self.tolist())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, tuple, ByteSlices)) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, like the list it compares equal to

    def index(self, value: bytes) -> int:
        """Position of the first element equal to ``value`` (ValueError if none), found by a byte
        search of ``buf`` checked against the element starts - nothing is sliced."""
        if not isinstance(self.buf, bytes) or not value:
            return self.tolist().index(value)
        buf, starts, n = self.buf, self.starts, len(value)
        lo = int(starts[0]) if len(starts) else 0
        hi = int(starts[-1] + self.lens[-1]) if len(starts) else 0
        at = buf.find(value, lo, hi)
        while at >= 0:
            i = int(np.searchsorted(starts, at))
            if i < len(starts) and starts[i] == at and self.lens[i] == n:
                return i
            at = buf.find(value, at + 1, hi)
        raise ValueError(f"{value!r} is not in the records")


def _gather(buf: Any, pos: np.ndarray, dtype: str) -> np.ndarray:
    dt = np.dtype(dtype)
    if not len(pos):
        return np.zeros(0, dt.newbyteorder("="))
    view = np.ndarray((len(buf) - dt.itemsize + 1,), dtype=dt, buffer=buf, strides=(1,))
    return view[pos].astype(dt.newbyteorder("="))


def walk_columns(buf: Any, end: int, count: int, starts: list[int], stop: int, fixed: int, var_at: int,
                 columns: tuple) -> dict | None:
    """Columns of ``count`` records found by a blind walk (``starts``, ``stop`` = end of the last).

    Each record is ``fixed`` bytes of fixed-size fields plus one variable field starting ``var_at``
    bytes into the record.  ``columns``: ``(name, offset, dtype, after_var)`` - a fixed field at
    ``offset`` (after the variable bytes when ``after_var``), or ``dtype`` None for the variable
    field itself (a :class:`ByteSlices`).  None when the walk is not a valid chain of records
    inside ``buf[:end]`` (the caller then parses with checks, which reports where).
    """
    if len(starts) != count:
        return None
    st = np.array(starts, dtype=np.int64)
    if count:
        ends = np.empty_like(st)
        ends[:-1] = st[1:]
        ends[-1] = stop
        lens = ends - st - fixed
        if stop > end or (lens < 0).any():
            return None
    else:
        lens = st
    out: dict[str, ByteSlices | np.ndarray] = {}
    for name, off, dtype, after in columns:
        if dtype is None:
            out[name] = ByteSlices(buf, st + var_at, lens)
        else:
            out[name] = _gather(buf, st + off + lens if after else st + off, dtype)
    return out
