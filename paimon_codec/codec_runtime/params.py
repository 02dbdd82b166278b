"""Kaitai-style parameters (``type: foo(a, b)``), single-field unwrapping and repetition (strict
``repeat: eos`` / ``repeat: until``, numpy-backed bulk arrays, per-key-kind record dtypes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from construct import (
    Adapter,
    Construct,
    Container,
    ListContainer,
    Subconstruct,
    stream_read,
)

from ..generated.construct.constants import KEY_KINDS as _KEY_KINDS
from .streams import CodecError, SubStream, ViewStream, _ev, abs_pos, io_size, remaining

# --------------------------------------------------------------------------------------------
# parameters (Kaitai ``type: foo(a, b)``) and single-field unwrapping


class WithParams(Subconstruct):
    """Evaluate Kaitai type arguments in the caller's context and expose them to the callee.

    The callee sees its parameters as ``this._.<name>`` — the same place where top-level
    parameters passed as ``Foo.parse(data, name=...)`` keyword arguments appear.
    """

    def __init__(self, subcon: Construct, **params: Callable) -> None:
        super().__init__(subcon)
        self.params = params

    def _layer(self, context, stream):
        layer = Container(_=context, _params=context._params, _root=context.get("_root", context),
                          _parsing=context._parsing, _building=context._building, _sizing=context._sizing,
                          _io=stream, _index=context.get("_index", None))
        for k, fn in self.params.items():
            layer[k] = _ev(fn, context)
        return layer

    def _parse(self, stream, context, path):
        return self.subcon._parsereport(stream, self._layer(context, stream), path)

    def _build(self, obj, stream, context, path):
        return self.subcon._build(obj, stream, self._layer(context, stream), path)


class Unwrap(Adapter):
    """A struct whose only user-visible field is ``value`` is presented as that value."""

    def __init__(self, subcon: Construct, field: str = "value") -> None:
        super().__init__(subcon)
        self.field = field

    def _decode(self, obj, context, path):
        return obj[self.field]

    def _encode(self, obj, context, path):
        return Container({self.field: obj})


# --------------------------------------------------------------------------------------------
# repetition


class CheckedArray(Subconstruct):
    """``repeat: expr`` of a Construct type; the count is checked against the remaining bytes first."""

    def __init__(self, count: Callable | int, subcon: Construct, min_size: int, name: str) -> None:
        super().__init__(subcon)
        self.count = count
        self.min_size = max(1, min_size)
        self.fname = name

    def _parse(self, stream, context, path):
        n = _ev(self.count, context)
        if n < 0:
            raise CodecError(f"negative count {n} for {self.fname}", offset=abs_pos(stream), expected=">= 0",
                             kind="corrupt", path=path)
        left = remaining(stream)
        if n * self.min_size > left:
            raise CodecError(f"{self.fname}: {n} elements of at least {self.min_size} bytes do not fit in "
                             f"the {left} bytes that remain", offset=abs_pos(stream),
                             expected=f"at most {left // self.min_size} elements", kind="count", path=path)
        out = ListContainer()
        for i in range(n):
            context._index = i
            out.append(self.subcon._parsereport(stream, context, path))
        return out

    def _build(self, obj, stream, context, path):
        n = _ev(self.count, context)
        if n != len(obj):
            raise CodecError(f"{self.fname} has {len(obj)} elements but its count field says {n}",
                             expected=str(len(obj)), kind="corrupt", path=path)
        out = ListContainer()
        for i, e in enumerate(obj):
            context._index = i
            out.append(self.subcon._build(e, stream, context, path))
        return out


class UntilEof(Subconstruct):
    """``repeat: eos``: elements until the (sub)stream ends; every element must consume bytes."""

    def __init__(self, subcon: Construct, name: str) -> None:
        super().__init__(subcon)
        self.fname = name

    def _parse(self, stream, context, path):
        out = ListContainer()
        end = io_size(stream)
        i = 0
        while stream.tell() < end:
            before = stream.tell()
            context._index = i
            out.append(self.subcon._parsereport(stream, context, path))
            if stream.tell() <= before:
                raise CodecError(f"{self.fname}: element {i} consumed no bytes", offset=abs_pos(stream),
                                 expected="progress", kind="corrupt", path=path)
            i += 1
        return out

    def _build(self, obj, stream, context, path):
        for i, e in enumerate(obj):
            context._index = i
            self.subcon._build(e, stream, context, path)
        return obj


class RepeatUntilProgress(Subconstruct):
    """``repeat: until``: stops when the predicate holds for the last element; must make progress."""

    def __init__(self, predicate: Callable, subcon: Construct, name: str) -> None:
        super().__init__(subcon)
        self.predicate = predicate
        self.fname = name

    def _parse(self, stream, context, path):
        out = ListContainer()
        i = 0
        while True:
            before = stream.tell()
            context._index = i
            e = self.subcon._parsereport(stream, context, path)
            out.append(e)
            if self.predicate(e, out, context):
                return out
            if stream.tell() <= before:
                raise CodecError(f"{self.fname}: element {i} consumed no bytes", offset=abs_pos(stream),
                                 expected="progress", kind="corrupt", path=path)
            i += 1

    def _build(self, obj, stream, context, path):
        for i, e in enumerate(obj):
            context._index = i
            self.subcon._build(e, stream, context, path)
        return obj


class NumpyArray(Construct):
    """A repeated fixed-size element as one numpy array (``np.frombuffer`` / ``tobytes``).

    ``dtype`` may be a callable of the context returning a dtype, or ``None`` when the element
    is not fixed-size for these parameters — then ``fallback`` (a Construct) is used.
    """

    def __init__(self, dtype: Any, count: Callable | int | None, name: str,
                 fallback: Construct | None = None) -> None:
        super().__init__()
        self.dtype = dtype
        self.count = count
        self.fname = name
        self.fallback = fallback

    def _dt(self, context) -> np.dtype | None:
        dt = self.dtype(context) if callable(self.dtype) else self.dtype
        return None if dt is None else np.dtype(dt)

    def _variable(self, path) -> Construct:
        """The Construct for an element that is not fixed-size for these parameters."""
        if self.fallback is None:  # the generator pairs every parametric dtype with a fallback
            raise CodecError(f"{self.fname}: element is not fixed-size and has no fallback codec", path=path)
        return self.fallback

    def _parse(self, stream, context, path):
        dt = self._dt(context)
        if dt is None:
            return self._variable(path)._parsereport(stream, context, path)
        left = remaining(stream)
        if self.count is None:
            if left % dt.itemsize:
                raise CodecError(f"{self.fname}: {left} bytes is not a multiple of {dt.itemsize}",
                                 offset=abs_pos(stream), expected=f"a multiple of {dt.itemsize} bytes",
                                 kind="truncated", path=path)
            n = left // dt.itemsize
        else:
            n = _ev(self.count, context)
            if n < 0:
                raise CodecError(f"negative count {n} for {self.fname}", offset=abs_pos(stream),
                                 expected=">= 0", kind="corrupt", path=path)
            if n * dt.itemsize > left:
                raise CodecError(f"{self.fname}: {n} elements of {dt.itemsize} bytes do not fit in the "
                                 f"{left} bytes that remain", offset=abs_pos(stream),
                                 expected=f"at most {left // dt.itemsize} elements", kind="count", path=path)
        data = stream.view(n * dt.itemsize) if type(stream) is ViewStream else stream_read(stream, n * dt.itemsize, path)
        return np.frombuffer(data, dtype=dt)

    def _build(self, obj, stream, context, path):
        dt = self._dt(context)
        if dt is None:
            return self._variable(path)._build(obj, stream, context, path)
        arr = to_array(obj, dt)
        if self.count is not None:
            n = _ev(self.count, context)
            if n != len(arr):
                raise CodecError(f"{self.fname} has {len(arr)} elements but its count field says {n}",
                                 expected=str(len(arr)), kind="corrupt", path=path)
        if not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)
        stream.write(arr.data.cast("B"))  # no intermediate bytes copy
        return arr


def encoded(value: str | bytes | bytearray | memoryview, encoding: str) -> bytes | bytearray | memoryview:
    """A ``str`` field's bytes for a fast builder: a ``str`` encoded, already-encoded bytes as they are."""
    return value.encode(encoding) if isinstance(value, str) else value


def to_array(obj: Any, dt: np.dtype) -> np.ndarray:
    """Coerce a list of scalars / list of dicts / array into an array of ``dt``."""
    if isinstance(obj, np.ndarray):
        return obj.astype(dt, copy=False)
    if dt.names:
        rows = [tuple(e[n] for n in dt.names) if isinstance(e, dict) else tuple(e) for e in obj]
        return np.array(rows, dtype=dt)
    return np.asarray(obj, dtype=dt)


def switch_dtype(value: Any, table: dict) -> str | None:
    """The dtype of a Kaitai ``switch-on`` field for the switch value (None: not fixed-size)."""
    return table.get(value)


#: Marks a record field that is left out for these parameters (a Kaitai ``if`` that is false).
ABSENT = "absent"


def present_if(condition: bool, dtype: Any) -> Any:
    """The dtype of an ``if`` field: ``dtype`` when the condition holds, else :data:`ABSENT`."""
    return dtype if condition else ABSENT


def record_dtype(fields: list) -> np.dtype | None:
    """Record dtype of ``(name, dtype)`` fields; None when any field is not fixed-size.

    Fields whose dtype is :data:`ABSENT` are not part of the record.
    """
    if any(f is None for _, f in fields):
        return None
    return np.dtype([(n, f) for n, f in fields if not (isinstance(f, str) and f == ABSENT)])


#: Key kinds of the key-typed formats (the values of their ``key_kind`` parameter): generated from the
#: switch cases of schemas/paimon_key.ksy's ``kind`` - the one key-kind vocabulary.
KEY_KINDS: tuple[str, ...] = _KEY_KINDS


def per_key_kind(dtype_of: Callable[[Any], Any]) -> dict[str, np.dtype | None]:
    """``{key_kind: dtype}`` of a key-kind dependent dtype (``dtype_of`` takes a context)."""
    out = {}
    for kind in KEY_KINDS:
        dt = dtype_of(FakeKindContext(kind))
        out[kind] = None if dt is None else np.dtype(dt)
    return out


def cumulative_offsets(ctx: Container, items: list, subcon: Callable[[], Construct]) -> list[int]:
    """Start offset of each element of ``items`` when built back to back (e.g. V2 block offsets)."""
    sub = subcon()
    out, pos = [], 0
    for i, e in enumerate(items):
        ctx._index = i
        s = SubStream()
        sub._build(e, s, ctx, "(offsets)")
        out.append(pos)
        pos += len(s.getvalue())
    return out


def cached_offsets(ctx: Container, name: str, items: list, subcon: Callable[[], Construct]) -> list[int]:
    """:func:`cumulative_offsets`, computed once per build and kept in ``ctx``."""
    key = "__offsets_" + name
    if key not in ctx:
        ctx[key] = cumulative_offsets(ctx, items, subcon)
    return ctx[key]


class FakeKindContext(dict):
    """A context stand-in for evaluating key-kind dependent dtypes outside a parse."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __getitem__(self, k):
        return self.kind if k in ("key_kind", "kind") else self

    def get(self, k, default=None):
        return self[k]


def built_size(ctx: Container, items: Any, subcon: Callable[[], Construct]) -> int:
    """Total built size of ``items`` (a list) or of one object."""
    sub = subcon()
    if not isinstance(items, list):
        items = [items]
    total = 0
    for i, e in enumerate(items):
        ctx._index = i
        s = SubStream()
        sub._build(e, s, ctx, "(size)")
        total += len(s.getvalue())
    return total


class RootPointer(Subconstruct):
    """Kaitai positioned instance: parse ``subcon`` at ``pos`` of stream ``io`` (default: own stream)."""

    def __init__(self, pos: Callable | int, subcon: Construct, io_fn: Callable | None, name: str) -> None:
        super().__init__(subcon)
        self.pos = pos
        self.io_fn = io_fn
        self.fname = name
        self.flagbuildnone = True

    def _parse(self, stream, context, path):
        s = self.io_fn(context) if self.io_fn else stream
        pos = _ev(self.pos, context)
        size = io_size(s)
        if pos < 0 or pos > size:
            raise CodecError(f"{self.fname} starts at {pos}, outside the {size} bytes",
                             offset=getattr(s, "base", 0) + max(pos, 0), expected=f"0..{size}",
                             kind="truncated", path=path)
        back = s.tell()
        s.seek(pos)
        try:
            return self.subcon._parsereport(s, context, path)
        finally:
            s.seek(back)

    def _build(self, obj, stream, context, path):
        if obj is None:
            return None
        s = self.io_fn(context) if self.io_fn else stream
        pos = _ev(self.pos, context)
        back = s.tell()
        s.seek(pos)
        try:
            return self.subcon._build(obj, s, context, path)
        finally:
            s.seek(back)
