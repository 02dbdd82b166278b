"""Roaring32 portable bitmaps as a self-delimiting bulk byte field of the generated codecs.
"""

from __future__ import annotations

import struct

import numpy as np
from construct import (
    Construct,
    stream_read,
)

from ..generated.construct.constants import ROARING_COOKIE_NO_RUN, ROARING_COOKIE_RUN
from .streams import CodecError, ViewStream, abs_pos
from .structs import byte_string

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
