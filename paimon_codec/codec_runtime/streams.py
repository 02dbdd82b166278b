"""Streams of the generated codecs: :class:`CodecError`, bounded substreams that remember their absolute
base offset, zero-copy views, the build stream and bounds checks.
"""

from __future__ import annotations

import io
from typing import Any

from construct import (
    ConstructError,
    stream_read,
)


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

    def read(self, n: int | None = -1) -> bytes:
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
