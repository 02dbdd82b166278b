"""Bounds-checked helpers around the Roaring32 *portable* serialisation.

pyroaring deserialises a portable bitmap but silently ignores bytes after it, and says nothing about
where it ended.  The 64-bit deletion-vector layout concatenates several bitmaps, so we need the exact
serialised size of each one; :func:`portable_size` computes it from the header (RoaringFormatSpec)
without decoding the containers, checking every offset against the buffer first.
"""

from __future__ import annotations

import struct

import numpy as np
from pyroaring import BitMap

from ..errors import CorruptDataError, TruncatedDataError

__all__ = ["portable_size", "deserialize_exact", "serialize_optimized", "EMPTY_PORTABLE"]

_SERIAL_COOKIE_NO_RUN = 12346
_SERIAL_COOKIE = 12347
_NO_OFFSET_THRESHOLD = 4
#: The empty bitmap in portable form (cookie 12346, zero containers).
EMPTY_PORTABLE = b"\x3a\x30\x00\x00\x00\x00\x00\x00"


def _need(buf_len: int, pos: int, size: int, what: str, path: str | None, base: int) -> None:
    if pos + size > buf_len:
        raise TruncatedDataError(f"roaring bitmap {what} runs past the end of the data", path=path,
                                 offset=base + pos, expected=f"{size} bytes")


def portable_size(buf: bytes | memoryview, start: int = 0, end: int | None = None, *,
                  path: str | None = None, base: int = 0) -> int:
    """Byte size of the portable Roaring32 bitmap at ``buf[start:end]`` (validated against ``end``)."""
    end = len(buf) if end is None else end
    n_avail = end
    pos = start
    _need(n_avail, pos, 4, "cookie", path, base)
    (cookie,) = struct.unpack_from("<I", buf, pos)
    pos += 4
    if cookie & 0xFFFF == _SERIAL_COOKIE:
        n = (cookie >> 16) + 1
        run_flag_bytes = (n + 7) // 8
        _need(n_avail, pos, run_flag_bytes, "run flags", path, base)
        run_flags = np.unpackbits(np.frombuffer(buf, np.uint8, run_flag_bytes, pos), bitorder="little")[:n]
        pos += run_flag_bytes
        has_offsets = n >= _NO_OFFSET_THRESHOLD
    elif cookie == _SERIAL_COOKIE_NO_RUN:
        _need(n_avail, pos, 4, "container count", path, base)
        (n,) = struct.unpack_from("<I", buf, pos)
        pos += 4
        run_flags = None
        has_offsets = True
    else:
        raise CorruptDataError(f"bad roaring cookie {cookie:#x}", path=path, offset=base + start,
                               expected="12346 or 12347 in the low 16 bits")
    if n > 65536:
        raise CorruptDataError(f"roaring bitmap claims {n} containers", path=path, offset=base + start,
                               expected="at most 65536")
    _need(n_avail, pos, 4 * n, "key/cardinality header", path, base)
    header = np.frombuffer(buf, "<u2", 2 * n, pos).reshape(n, 2) if n else np.zeros((0, 2), "<u2")
    pos += 4 * n
    if n == 0:
        return pos - start
    cards = header[:, 1].astype(np.int64) + 1

    def container_size(i: int, cpos: int) -> int:
        if run_flags is not None and run_flags[i]:
            _need(n_avail, cpos, 2, "run count", path, base)
            (nruns,) = struct.unpack_from("<H", buf, cpos)
            return 2 + 4 * nruns
        return 8192 if cards[i] > 4096 else 2 * int(cards[i])

    if has_offsets:
        _need(n_avail, pos, 4 * n, "container offsets", path, base)
        offsets = np.frombuffer(buf, "<u4", n, pos)
        last = int(offsets[-1])
        if last < pos + 4 * n - start:
            raise CorruptDataError("roaring container offset points into the header", path=path,
                                   offset=base + pos, expected=f"at least {pos + 4 * n - start}")
        total = last + container_size(n - 1, start + last)
    else:
        cpos = pos
        for i in range(n):
            cpos += container_size(i, cpos)
        total = cpos - start
    _need(n_avail, start, total, "containers", path, base)
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
