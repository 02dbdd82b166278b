"""Runtime support for the generated Construct codecs in ``generated/construct``.

Hand-written library code: every generated module imports it (``from paimon_codec import
codec_runtime as _rt``), so there is exactly one copy.

Everything the Kaitai-to-Construct translation needs beyond stock Construct lives here:
bounded substreams that remember their absolute base offset, build-time measurement of sized
fields (so a length field can be derived from the bytes of a field that follows it), Kaitai
style parameters, numpy-backed bulk arrays, strict ``repeat: eos`` / ``repeat: until``, Java
modified UTF-8 strings and a self-delimiting Roaring32 byte field.  Errors raised here are
:class:`CodecError` (a Construct ``ConstructError``) carrying ``offset``/``expected``/``kind``;
``paimon_codec.formats`` translates them into the ``paimon_codec.errors`` family.
"""

from __future__ import annotations

import functools
import io
import struct
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
from construct import (
    Adapter,
    Construct,
    ConstructError,
    Container,
    ListContainer,
    Subconstruct,
    stream_read,
    stream_write,
)
from construct import (
    Struct as _CStruct,
)

from .generated.construct.constants import ROARING_COOKIE_NO_RUN, ROARING_COOKIE_RUN

__all__ = ["CodecError", "SubStream", "ViewStream"]


class CodecError(ConstructError):
    """A decoding problem found by the generated code (not by stock Construct)."""

    def __init__(self, message: str, *, offset: int | None = None, expected: str | None = None,
                 kind: str = "corrupt", path: str | None = None) -> None:
        super().__init__(message, path=path)
        self.offset = offset
        self.expected = expected
        self.kind = kind  # "corrupt" | "truncated" | "version" | "count"


#: (stream, position) of the most recent read from a :class:`SubStream`; lets error handlers
#: report the absolute offset of a failed read by stock Construct classes.
LAST_READ: list = [None, 0]


class SubStream(io.BytesIO):
    """BytesIO that knows its absolute offset in the outermost input (for error messages)."""

    def __init__(self, data: bytes = b"", base: int = 0) -> None:
        super().__init__(data)
        self.base = base

    def read(self, n: int | None = -1) -> bytes:  # type: ignore[override]
        LAST_READ[0] = self
        LAST_READ[1] = self.base + self.tell()
        return super().read(n)


class ViewStream:
    """Read-only parse stream over a buffer, without copying it (``bytes``, ``bytearray``,
    ``memoryview`` or anything exporting a contiguous buffer).

    :meth:`read` returns ``bytes`` (what stock Construct fields expect); :meth:`view` returns a
    read-only ``memoryview`` slice of the input, which is how bulk fields (sized bytes, embedded
    Roaring32 bitmaps, numpy arrays, substreams) are parsed without a copy.  Parsed bulk fields
    therefore share memory with the input: a ``bytearray`` input that is changed afterwards changes
    them too, and cannot be resized while they are alive.  ``base`` is the absolute offset of
    ``buf[0]`` in the outermost input (for error messages).
    """

    __slots__ = ("buf", "pos", "size", "base")

    def __init__(self, data: Any, base: int = 0) -> None:
        mv = data if isinstance(data, memoryview) else memoryview(data)
        if mv.ndim != 1 or mv.format != "B":
            mv = mv.cast("B")
        self.buf = mv.toreadonly() if not mv.readonly else mv
        self.pos = 0
        self.size = mv.nbytes
        self.base = base

    def read(self, n: int | None = -1) -> bytes:
        LAST_READ[0] = self
        LAST_READ[1] = self.base + self.pos
        start = self.pos
        end = self.size if n is None or n < 0 else min(self.size, start + n)
        self.pos = max(end, start)
        return self.buf[start:end].tobytes()

    def view(self, n: int) -> memoryview:
        """The next ``n`` bytes (fewer at the end) as a read-only memoryview slice of the input."""
        LAST_READ[0] = self
        LAST_READ[1] = self.base + self.pos
        start = self.pos
        self.pos = max(min(self.size, start + n), start)
        return self.buf[start:self.pos]

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self.pos + offset
        elif whence == io.SEEK_END:
            pos = self.size + offset
        else:
            raise ValueError(f"invalid whence {whence}")
        if pos < 0:
            raise ValueError(f"negative seek position {pos}")
        self.pos = pos
        return pos

    def getbuffer(self) -> memoryview:
        return self.buf

    def getvalue(self) -> bytes:
        return self.buf.tobytes()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def writable(self) -> bool:
        return False

    def write(self, data: Any) -> int:
        raise io.UnsupportedOperation("a parse stream is read-only")


def abs_pos(stream: Any) -> int:
    try:
        return getattr(stream, "base", 0) + stream.tell()
    except Exception:  # pragma: no cover - unseekable streams are not used here
        return 0


def io_size(stream: Any) -> int:
    pos = stream.tell()
    end = stream.seek(0, io.SEEK_END)
    stream.seek(pos)
    return end


def remaining(stream: Any) -> int:
    return io_size(stream) - stream.tell()


def io_eof(stream: Any) -> bool:
    return remaining(stream) <= 0


def _need(stream: Any, n: int, what: str, path: str) -> None:
    if n < 0:
        raise CodecError(f"negative length {n} for {what}", offset=abs_pos(stream), expected=">= 0",
                         kind="corrupt", path=path)
    left = remaining(stream)
    if n > left:
        raise CodecError(f"{what} needs {n} bytes but only {left} remain", offset=abs_pos(stream),
                         expected=f"at most {left} bytes", kind="truncated", path=path)


def _read(stream: Any, n: int, what: str, path: str) -> bytes:
    _need(stream, n, what, path)
    return stream_read(stream, n, path)


def _view(stream: Any, n: int, what: str, path: str) -> memoryview | bytes:
    """The next ``n`` bytes: a memoryview slice on a :class:`ViewStream` (no copy), else ``bytes``."""
    _need(stream, n, what, path)
    if type(stream) is ViewStream:
        return stream.view(n)
    return stream_read(stream, n, path)


def _ev(v: Any, ctx: Any) -> Any:
    return v(ctx) if callable(v) else v


# --------------------------------------------------------------------------------------------
# structs


class Struct(_CStruct):
    """construct.Struct whose parse results carry no ``_io`` stream.

    Stock Struct stores the parse stream under ``_io`` in every result; building such a result
    again would put that stale stream into the build context (``context.update(obj)``) and send
    positioned writes (``_root._io``) to the wrong stream.
    """

    def _parse(self, stream, context, path):
        obj = super()._parse(stream, context, path)
        obj.pop("_io", None)
        return obj

    def _build(self, obj, stream, context, path):
        if obj is not None and "_io" in obj:
            obj = {k: v for k, v in obj.items() if k != "_io"}
        return super()._build(obj, stream, context, path)

    def parse(self, data, **contextkw):
        """Parse from a :class:`ViewStream` over ``data``: the input is not copied, and bulk fields
        (sized bytes, embedded bitmaps, numpy arrays) are read-only views of it."""
        return self.parse_stream(ViewStream(data), **contextkw)

    def build(self, obj, **contextkw):
        """Build into a :class:`BuildStream` (appends are gathered and joined once)."""
        stream = BuildStream()
        self.build_stream(obj, stream, **contextkw)
        return stream.getvalue()


class BuildStream:
    """Write-mostly stream for building: appended chunks are kept as they are (bytes, bytearray or
    memoryviews of numpy arrays) and joined once at the end, so a bulk field is copied only once.
    The first write that is not an append (a positioned instance) spills into a BytesIO."""

    def __init__(self) -> None:
        self.chunks: list = []
        self.size = 0
        self.pos = 0
        self.bio: io.BytesIO | None = None

    def _spill(self) -> io.BytesIO:
        if self.bio is None:
            self.bio = io.BytesIO(b"".join(self.chunks))
            self.bio.seek(self.pos)
            self.chunks = []
        return self.bio

    def write(self, data) -> int:
        if self.bio is not None or self.pos != self.size:
            return self._spill().write(data)
        n = data.nbytes if isinstance(data, memoryview) else len(data)
        self.chunks.append(data)
        self.size += n
        self.pos += n
        return n

    def tell(self) -> int:
        return self.bio.tell() if self.bio is not None else self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        if self.bio is not None:
            return self.bio.seek(offset, whence)
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        self.pos = base + offset
        return self.pos

    def read(self, n: int = -1) -> bytes:
        return self._spill().read(n)

    def getvalue(self) -> bytes:
        if self.bio is not None:
            return self.bio.getvalue()
        return b"".join(self.chunks)


def If(cond: Callable, subcon: Construct) -> Construct:  # noqa: N802 - mirrors construct.If
    """Kaitai ``if``: like ``construct.If`` but the field may be left out when building."""
    from construct import If as _If  # noqa: PLC0415

    c = _If(cond, subcon)
    c.flagbuildnone = True
    return c


# --------------------------------------------------------------------------------------------
# validation


class Valid(Subconstruct):
    """Kaitai ``valid``: parse the field, then check it (``any-of`` values or an ``expr``)."""

    def __init__(self, subcon: Construct, check: Callable, expected: str, field: str,
                 kind: str = "corrupt") -> None:
        super().__init__(subcon)
        self.check = check
        self.expected = expected
        self.field = field
        self.kind = kind

    def _parse(self, stream, context, path):
        start = abs_pos(stream)
        obj = self.subcon._parsereport(stream, context, path)
        if not self.check(obj, context):
            raise CodecError(f"{self.field} is {obj!r}", offset=start, expected=self.expected, kind=self.kind,
                             path=path)
        return obj

    def _build(self, obj, stream, context, path):
        return self.subcon._build(obj, stream, context, path)


class Magic(Construct):
    """Kaitai ``contents``: fixed bytes; always written, must match when parsed."""

    def __init__(self, value: bytes, field: str) -> None:
        super().__init__()
        self.value = value
        self.field = field
        self.flagbuildnone = True

    def _parse(self, stream, context, path):
        start = abs_pos(stream)
        data = _read(stream, len(self.value), self.field, path)
        if data != self.value:
            raise CodecError(f"bad {self.field} {data.hex()}", offset=start, expected=self.value.hex(),
                             kind="corrupt", path=path)
        return data

    def _build(self, obj, stream, context, path):
        stream_write(stream, self.value, len(self.value), path)
        return self.value

    def _sizeof(self, context, path):
        return len(self.value)


# --------------------------------------------------------------------------------------------
# sized fields and build-time measurement


def _stash_key(name: str) -> str:
    return "__built_" + name


def measure(ctx: Container, name: str, subcon: Callable[[], Construct] | None) -> int:
    """Build field ``name`` of the struct whose context is ``ctx`` and return its byte length.

    The bytes are stashed in ``ctx`` so that the field itself is written from them later (the
    length field precedes the field it measures, so it is built first).
    """
    obj = ctx.get(name)
    if subcon is None:
        return len(obj)
    sub = subcon()
    out = SubStream()
    ret = sub._build(obj, out, ctx, "(measure " + name + ")")
    data = out.getvalue()
    ctx[_stash_key(name)] = (data, ret)
    return len(data)


def built(ctx: Container, name: str, subcon: Callable[[], Construct] | None = None) -> bytes:
    """The built bytes of field ``name`` (from the stash, building it if needed)."""
    key = _stash_key(name)
    if key not in ctx:
        if subcon is None:
            return bytes(ctx[name])
        measure(ctx, name, subcon)
    return ctx[key][0]


class Sized(Subconstruct):
    """Kaitai ``size: expr`` (or ``size-eos``) with a ``type``: parse the type from a bounded substream."""

    def __init__(self, size: Callable | int | None, subcon: Construct, name: str) -> None:
        super().__init__(subcon)
        self.size = size
        self.fname = name

    def _parse(self, stream, context, path):
        n = remaining(stream) if self.size is None else _ev(self.size, context)
        base = abs_pos(stream)
        data = _view(stream, n, self.fname, path)
        sub = ViewStream(data, base) if isinstance(data, memoryview) else SubStream(data, base)
        return self.subcon._parsereport(sub, context, path)

    def _build(self, obj, stream, context, path):
        key = _stash_key(self.fname)
        stashed = context.get(key)
        if stashed is None:
            out = SubStream()
            ret = self.subcon._build(obj, out, context, path)
            data = out.getvalue()
        else:
            data, ret = stashed
            del context[key]
        if self.size is not None:
            n = _ev(self.size, context)
            if n != len(data):
                raise CodecError(f"{self.fname} builds to {len(data)} bytes but its size field says {n}",
                                 expected=f"{len(data)}", kind="corrupt", path=path)
        stream_write(stream, data, len(data), path)
        return ret


class SizedBytes(Construct):
    """Kaitai ``size: expr`` / ``size-eos`` without a type: a bulk byte field (checked first).

    Parsed from a :class:`ViewStream` it is a read-only ``memoryview`` of the input (no copy; equal
    to the same ``bytes``); from other streams it is ``bytes``.  Builds from any bytes-like object.
    """

    def __init__(self, size: Callable | int | None, name: str) -> None:
        super().__init__()
        self.size = size
        self.fname = name

    def _parse(self, stream, context, path):
        n = remaining(stream) if self.size is None else _ev(self.size, context)
        return _view(stream, n, self.fname, path)

    def _build(self, obj, stream, context, path):
        data = byte_string(obj)
        if self.size is not None:
            n = _ev(self.size, context)
            if n != len(data):
                raise CodecError(f"{self.fname} has {len(data)} bytes but its size field says {n}",
                                 expected=str(len(data)), kind="corrupt", path=path)
        stream.write(data)  # bytes-like as it is (stock stream_write takes only bytes)
        return data


def byte_string(obj: Any) -> bytes | bytearray | memoryview:
    """``obj`` as something whose ``len`` is its byte count (views of parsed fields kept as they are)."""
    if obj is None:
        return b""
    if isinstance(obj, (bytes, bytearray)) or (isinstance(obj, memoryview) and obj.ndim == 1 and obj.itemsize == 1):
        return obj
    return bytes(obj)


class SizedString(Construct):
    """Kaitai ``type: str`` with ``size``/``size-eos`` and optional ``pad-right``."""

    def __init__(self, size: Callable | int | None, encoding: str, name: str, pad: int | None = None) -> None:
        super().__init__()
        self.size = size
        self.encoding = encoding
        self.fname = name
        self.pad = pad

    def _parse(self, stream, context, path):
        n = remaining(stream) if self.size is None else _ev(self.size, context)
        start = abs_pos(stream)
        data = _read(stream, n, self.fname, path)
        if self.pad is not None:
            data = data.rstrip(bytes([self.pad]))
        try:
            return data.decode(self.encoding)
        except UnicodeDecodeError as e:
            raise CodecError(f"{self.fname} is not valid {self.encoding}: {e.reason}", offset=start + e.start,
                             expected=self.encoding, kind="corrupt", path=path) from None

    def _build(self, obj, stream, context, path):
        data = obj.encode(self.encoding)
        if self.size is not None:
            n = _ev(self.size, context)
            if self.pad is not None and len(data) <= n:
                data = data + bytes([self.pad]) * (n - len(data))
            if n != len(data):
                raise CodecError(f"{self.fname} encodes to {len(data)} bytes but its size field says {n}",
                                 expected=str(len(data)), kind="corrupt", path=path)
        stream_write(stream, data, len(data), path)
        return obj


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

    def _parse(self, stream, context, path):
        dt = self._dt(context)
        if dt is None:
            return self.fallback._parsereport(stream, context, path)
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
            return self.fallback._build(obj, stream, context, path)
        arr = to_array(obj, dt)
        if self.count is not None:
            n = _ev(self.count, context)
            if n != len(arr):
                raise CodecError(f"{self.fname} has {len(arr)} elements but its count field says {n}",
                                 expected=str(len(arr)), kind="corrupt", path=path)
        if not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)
        stream.write(memoryview(arr).cast("B"))  # no intermediate bytes copy
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


#: Key kinds of the key-typed formats (the values of their ``key_kind`` parameter).
KEY_KINDS = ("int8", "int16", "int32", "int64", "float32", "float64", "bool", "string")


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


# --------------------------------------------------------------------------------------------
# Java modified UTF-8 (DataOutput.writeUTF)


def mutf8_encode(text: str) -> bytes:
    """Java modified UTF-8 of ``text`` (``DataOutput.writeUTF`` without the length)."""
    if len(text) <= 64:  # names (columns, index types) repeat in every container a table writes
        return _mutf8_encode_cached(text)
    return _mutf8_encode(text)


def _mutf8_encode(text: str) -> bytes:
    if text.isascii() and "\x00" not in text:  # the common case: the bytes are the ASCII bytes
        return text.encode("ascii")
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if 0 < c < 0x80:
            out.append(c)
        elif c < 0x800:  # includes U+0000 -> C0 80
            out += bytes((0xC0 | (c >> 6), 0x80 | (c & 0x3F)))
        elif c < 0x10000:
            out += bytes((0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)))
        else:  # supplementary: two 3-byte surrogates (CESU-8)
            v = c - 0x10000
            for s in (0xD800 | (v >> 10), 0xDC00 | (v & 0x3FF)):
                out += bytes((0xE0 | (s >> 12), 0x80 | ((s >> 6) & 0x3F), 0x80 | (s & 0x3F)))
    return bytes(out)


def mutf8_decode(data: bytes) -> str:
    if data.isascii() and 0 not in data:
        return data.decode("ascii")
    units: list[int] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80 and b != 0:
            units.append(b)
            i += 1
        elif b & 0xE0 == 0xC0 and i + 1 < n and data[i + 1] & 0xC0 == 0x80:
            units.append(((b & 0x1F) << 6) | (data[i + 1] & 0x3F))
            i += 2
        elif b & 0xF0 == 0xE0 and i + 2 < n and data[i + 1] & 0xC0 == 0x80 and data[i + 2] & 0xC0 == 0x80:
            units.append(((b & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F))
            i += 3
        else:
            raise ValueError(f"invalid modified UTF-8 byte 0x{b:02x} at {i}")
    return struct.pack(f"<{len(units)}H", *units).decode("utf-16-le", "surrogatepass")


def fast_parse_java_utf(buf: Any, p: int, end: int, what: str) -> tuple[str, int]:
    """``readUTF`` at ``buf[p:end]`` for generated fast parsers: (string, position after it)."""
    if p + 2 > end:
        _short(f"{what} (writeUTF length)", 2, end - p, p)
    n = (buf[p] << 8) | buf[p + 1]
    if p + 2 + n > end:
        _short(f"{what} (writeUTF bytes)", n, end - p - 2, p + 2)
    data = bytes(buf[p + 2:p + 2 + n])
    try:
        return mutf8_decode(data), p + 2 + n
    except ValueError as e:
        raise CodecError(f"bad modified UTF-8: {e}", offset=p + 2, expected="modified UTF-8",
                         kind="corrupt") from None


def fast_build_java_utf(text: str) -> bytes:
    """``writeUTF`` bytes of ``text`` (u16 length + modified UTF-8) for generated fast builders."""
    if len(text) <= 64:
        return _java_utf_cached(text)
    return _java_utf(text)


def _java_utf(text: str) -> bytes:
    data = _mutf8_encode(text)
    if len(data) > 0xFFFF:
        raise CodecError(f"writeUTF string of {len(data)} bytes", expected="at most 65535 bytes", kind="corrupt")
    return len(data).to_bytes(2, "big") + data


_mutf8_encode_cached = functools.lru_cache(maxsize=4096)(_mutf8_encode)
_java_utf_cached = functools.lru_cache(maxsize=4096)(_java_utf)


class JavaUtf(Construct):
    """``writeUTF``: u16 BE byte length + Java modified UTF-8, presented as ``str``."""

    def _parse(self, stream, context, path):
        start = abs_pos(stream)
        (n,) = struct.unpack(">H", _read(stream, 2, "writeUTF length", path))
        data = _read(stream, n, "writeUTF bytes", path)
        try:
            return mutf8_decode(data)
        except ValueError as e:
            raise CodecError(f"bad modified UTF-8: {e}", offset=start + 2, expected="modified UTF-8",
                             kind="corrupt", path=path) from None

    def _build(self, obj, stream, context, path):
        try:
            data = fast_build_java_utf(obj)
        except CodecError as e:
            e.path = path
            raise
        stream_write(stream, data, len(data), path)
        return obj

    def _sizeof(self, context, path):
        raise ConstructError("variable size", path=path)


# --------------------------------------------------------------------------------------------
# Roaring32 portable bitmaps as self-delimiting bulk bytes


_RUN_COOKIE = ROARING_COOKIE_RUN
_NORUN_COOKIE = ROARING_COOKIE_NO_RUN


def roaring32_size(buf: bytes | memoryview, pos: int = 0, limit: int | None = None) -> int:
    """Byte length of the portable Roaring32 bitmap starting at ``buf[pos]`` (header scan only)."""
    end = len(buf) if limit is None else limit

    def need(p: int, n: int, what: str) -> None:
        if p + n > end:
            raise CodecError(f"roaring bitmap {what} needs {n} bytes but only {max(end - p, 0)} remain",
                             offset=p, expected=f"{n} bytes", kind="truncated")

    need(pos, 4, "cookie")
    (cookie,) = struct.unpack_from("<I", buf, pos)
    p = pos + 4
    if cookie & 0xFFFF == _RUN_COOKIE:
        n = (cookie >> 16) + 1
        nflags = (n + 7) // 8
        need(p, nflags, "run flags")
        flags = np.unpackbits(np.frombuffer(buf, np.uint8, nflags, p), bitorder="little")[:n]
        p += nflags
        has_offsets = n >= 4
    elif cookie == _NORUN_COOKIE:
        need(p, 4, "container count")
        (n,) = struct.unpack_from("<I", buf, p)
        p += 4
        if n > 65536:
            raise CodecError(f"roaring container count {n}", offset=p - 4, expected="at most 65536")
        flags = np.zeros(n, dtype=np.uint8)
        has_offsets = True
    else:
        raise CodecError(f"bad roaring cookie {cookie}", offset=pos, expected=f"{_NORUN_COOKIE} or {_RUN_COOKIE}")
    need(p, 4 * n, "container headers")
    hdr = np.frombuffer(buf, "<u2", 2 * n, p).reshape(n, 2)
    card = hdr[:, 1].astype(np.int64) + 1
    p += 4 * n
    if has_offsets:
        need(p, 4 * n, "container offsets")
        p += 4 * n
    sizes = np.where(card > 4096, 8192, 2 * card)
    if not flags.any():
        total = int(sizes.sum())
        need(p, total, "containers")
        return p + total - pos
    for i in range(n):  # run containers: their size is in their own first u16
        if flags[i]:
            need(p, 2, "run count")
            (nruns,) = struct.unpack_from("<H", buf, p)
            p += 2 + 4 * nruns
        else:
            p += int(sizes[i])
    need(p, 0, "containers")
    if p > end:
        raise CodecError("roaring containers run past the end", offset=end, expected=f"{p - end} more bytes",
                         kind="truncated")
    return p - pos


class Roaring32Bytes(Construct):
    """An embedded portable Roaring32 bitmap as raw bytes (its length found by a header scan): a
    read-only ``memoryview`` of the input when parsed from a :class:`ViewStream`, else ``bytes``."""

    def _parse(self, stream, context, path):
        if type(stream) is ViewStream:  # sized by a header scan in place, returned as a view
            try:
                n = roaring32_size(stream.buf, stream.pos, stream.size)
            except CodecError as e:
                if e.offset is not None:
                    e.offset += stream.base
                raise
            return stream.view(n)
        base = abs_pos(stream)
        start = stream.tell()
        rest = stream.read()
        stream.seek(start)
        try:
            n = roaring32_size(rest, 0)
        except CodecError as e:
            if e.offset is not None:
                e.offset += base
            raise
        return stream_read(stream, n, path)

    def _build(self, obj, stream, context, path):
        data = byte_string(obj)
        stream.write(data)
        return data


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


def crc32_signed(data: bytes | bytearray) -> int:
    """java.util.zip.CRC32 value as the signed int32 that ``DataOutput.writeInt`` stores."""
    v = zlib.crc32(data)
    return v - (1 << 32) if v >= 1 << 31 else v


# --------------------------------------------------------------------------------------------
# Kaitai objects -> the same plain shape the Construct codecs produce (for cross-checks)


def kaitai_to_plain(obj: Any, layout: dict, tname: str) -> Any:
    """Convert a Kaitai-parsed object of type ``tname`` into the Construct codec's shape.

    ``layout`` is the ``LAYOUT`` table a generated Construct module exports: per type its fields
    (``name``, kind ``prim|bytes|str|user|switch``, element type) and presentation rules.
    """
    info = layout[tname]
    if info.get("plain") == "mutf8":
        return mutf8_decode(obj.value)
    out = Container()
    for f in info["fields"]:
        v = getattr(obj, f["name"], None)
        out[f["name"]] = _plain_value(v, layout, f)
    if info.get("unwrap"):
        return out[info["unwrap"]]
    return out


def _plain_value(v: Any, layout: dict, f: dict) -> Any:
    if v is None:
        return None
    if isinstance(v, list):
        return [_plain_one(e, layout, f) for e in v]
    return _plain_one(v, layout, f)


def _plain_one(v: Any, layout: dict, f: dict) -> Any:
    if isinstance(v, (int, float, str, bytes, bool)):
        return v
    if f.get("embedded") == "roaring32_bytes":
        from .generated.construct import roaring32 as _r32  # noqa: PLC0415 - import cycle otherwise
        return _r32.Roaring32.build(kaitai_to_plain(v, _r32.LAYOUT, "roaring32"))
    cls = type(v).__name__
    tl = f.get("types", {})
    tname = tl.get(cls)
    if tname is None:
        raise TypeError(f"no layout for Kaitai class {cls} in field {f['name']}")
    mod_layout = layout
    if "." in tname:
        modname, tname = tname.split(".", 1)
        import importlib  # noqa: PLC0415

        mod_layout = importlib.import_module(f"{__package__}.generated.construct.{modname}").LAYOUT
    return kaitai_to_plain(v, mod_layout, tname)


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

    __hash__ = None  # type: ignore[assignment]

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
    out = {}
    for name, off, dtype, after in columns:
        if dtype is None:
            out[name] = ByteSlices(buf, st + var_at, lens)
        else:
            out[name] = _gather(buf, st + off + lens if after else st + off, dtype)
    return out
