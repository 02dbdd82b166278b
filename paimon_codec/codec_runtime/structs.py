"""Structs, validation (``valid``, magics) and build-time measurement of sized fields (a length field
derived from the bytes of a field that follows it).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from construct import (
    Construct,
    Container,
    Subconstruct,
    stream_write,
)
from construct import (
    Struct as _CStruct,
)

from .streams import CodecError, SubStream, ViewStream, _ev, _read, _view, abs_pos, remaining

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

    def __init__(self, size: Callable | int | None, subcon: Construct, name: str, pad: bool = False) -> None:
        super().__init__(subcon)
        self.size = size
        self.fname = name
        self.pad = pad  # a fixed size around cases of different widths: zero-pad the narrower on build

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
            if self.pad and len(data) < n:
                data += bytes(n - len(data))
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
