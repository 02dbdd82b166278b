"""Bounds-checked helpers around the Roaring32 *portable* serialisation.

pyroaring deserialises a portable bitmap but silently ignores bytes after it, and says nothing about
where it ended.  The 64-bit deletion-vector layout concatenates several bitmaps, so we need the exact
serialised size of each one; :func:`portable_size` computes it from the header (RoaringFormatSpec)
without decoding the containers, checking every offset against the buffer first.
"""

from __future__ import annotations

import struct

from pyroaring import BitMap

from ..errors import CorruptDataError, TruncatedDataError

__all__ = ["portable_size", "deserialize_exact", "serialize_optimized", "EMPTY_PORTABLE"]

_SERIAL_COOKIE_NO_RUN = 12346
_SERIAL_COOKIE = 12347
_NO_OFFSET_THRESHOLD = 4
#: The empty bitmap in portable form (cookie 12346, zero containers).
EMPTY_PORTABLE = b"\x3a\x30\x00\x00\x00\x00\x00\x00"
_U32 = struct.Struct("<I")
_U16 = struct.Struct("<H")


def _need(buf_len: int, pos: int, size: int, what: str, path: str | None, base: int) -> None:
    if pos + size > buf_len:
        raise TruncatedDataError(f"roaring bitmap {what} runs past the end of the data", path=path,
                                 offset=base + pos, expected=f"{size} bytes")


def portable_size(buf: bytes | memoryview, start: int = 0, end: int | None = None, *,
                  path: str | None = None, base: int = 0) -> int:
    """Byte size of the portable Roaring32 bitmap at ``buf[start:end]`` (validated against ``end``).

    O(1) when the offset header is present (only the last container is sized); otherwise (run
    containers and fewer than 4 containers) walks at most three containers.
    """
    end = len(buf) if end is None else end
    pos = start
    _need(end, pos, 4, "cookie", path, base)
    (cookie,) = _U32.unpack_from(buf, pos)
    pos += 4
    if cookie & 0xFFFF == _SERIAL_COOKIE:
        n = (cookie >> 16) + 1
        flags_at = pos
        pos += (n + 7) // 8
        _need(end, flags_at, pos - flags_at, "run flags", path, base)
        has_offsets = n >= _NO_OFFSET_THRESHOLD
    elif cookie == _SERIAL_COOKIE_NO_RUN:
        _need(end, pos, 4, "container count", path, base)
        (n,) = _U32.unpack_from(buf, pos)
        pos += 4
        flags_at = -1
        has_offsets = True
        if n > 65536:
            raise CorruptDataError(f"roaring bitmap claims {n} containers", path=path, offset=base + start,
                                   expected="at most 65536")
    else:
        raise CorruptDataError(f"bad roaring cookie {cookie:#x}", path=path, offset=base + start,
                               expected="12346 or 12347 in the low 16 bits")
    header_at = pos
    pos += 4 * n
    _need(end, header_at, 4 * n, "key/cardinality header", path, base)
    if n == 0:
        return pos - start

    def container_size(i: int, cpos: int) -> int:
        if flags_at >= 0 and buf[flags_at + (i >> 3)] >> (i & 7) & 1:
            _need(end, cpos, 2, "run count", path, base)
            (nruns,) = _U16.unpack_from(buf, cpos)
            return 2 + 4 * nruns
        (card_minus_1,) = _U16.unpack_from(buf, header_at + 4 * i + 2)
        return 8192 if card_minus_1 >= 4096 else 2 * (card_minus_1 + 1)

    if has_offsets:
        _need(end, pos, 4 * n, "container offsets", path, base)
        (last,) = _U32.unpack_from(buf, pos + 4 * (n - 1))
        data_start = pos + 4 * n - start
        if last < data_start:
            raise CorruptDataError("roaring container offset points into the header", path=path,
                                   offset=base + pos, expected=f"at least {data_start}")
        total = last + container_size(n - 1, start + last)
    else:
        cpos = pos
        for i in range(n):
            cpos += container_size(i, cpos)
        total = cpos - start
    _need(end, start, total, "containers", path, base)
    return total


def deserialize_exact(buf: bytes | memoryview, start: int = 0, end: int | None = None, *,
                      path: str | None = None, base: int = 0) -> tuple[BitMap, int]:
    """Decode the bitmap at ``buf[start:]``; return it and its serialised size."""
    size = portable_size(buf, start, end, path=path, base=base)
    view = memoryview(buf)[start:start + size]
    try:
        bm = BitMap.deserialize(view)
    except (ValueError, IndexError) as exc:
        raise CorruptDataError(f"invalid roaring bitmap: {exc}", path=path, offset=base + start) from None
    return bm, size


def serialize_optimized(bm: BitMap) -> bytes:
    """Portable bytes after ``runOptimize()`` - the exact bytes Java's RoaringBitmap writes."""
    bm.run_optimize()
    return bm.serialize()
