"""Roaring32 helpers shared by every index that stores pyroaring bitmaps (DVs, range bitmap, BSI).

* :func:`serialize_optimized` - Paimon's ``runOptimize(); serialize()``: the exact portable bytes Java's
  RoaringBitmap writes (pyroaring's ``serialize`` alone does not run-optimise).
* :func:`bitmap_of` - a ``BitMap`` from a numpy position array through the buffer protocol (about 8x
  faster than handing pyroaring a numpy array, which it iterates element by element).
* :func:`portable_size` - where a self-delimiting portable bitmap ends (64-bit DV buckets, deprecated
  BSI files store bitmaps back to back without lengths), from its header alone and checked against
  the end of the data before anything is read or allocated.  pyroaring says nothing about where a
  bitmap ended and silently ignores trailing bytes, so this is also how stray bytes are found.
* :func:`read_bitmap` / :func:`deserialize_exact` - safe deserialisation: every failure becomes one
  of our errors (hostile input never reaches pyroaring unchecked).
* :func:`first_n` / :func:`drop_first` - cut a bitmap at its n-th position without materialising it.
"""

from __future__ import annotations

import array
import struct
from collections.abc import Callable

import numpy as np
from pyroaring import BitMap

from .errors import CorruptDataError, TruncatedDataError
from .fileio import ByteSource

__all__ = [
    "EMPTY_PORTABLE",
    "bitmap_of",
    "serialize_optimized",
    "portable_size",
    "read_bitmap",
    "deserialize_exact",
    "first_n",
    "drop_first",
]

_SERIAL_COOKIE_NO_RUN = 12346
_SERIAL_COOKIE = 12347
#: RoaringFormatSpec: run-cookie bitmaps with fewer containers than this carry no offset header.
_NO_OFFSET_THRESHOLD = 4
_MAX_CONTAINERS = 65536
#: The empty bitmap in portable form (cookie 12346, zero containers).
EMPTY_PORTABLE = b"\x3a\x30\x00\x00\x00\x00\x00\x00"
_U32 = struct.Struct("<I")
_U16 = struct.Struct("<H")


def bitmap_of(positions: np.ndarray) -> BitMap:
    """A BitMap of non-negative positions (< 2**32) given as a numpy integer array."""
    if positions.size == 0:
        return BitMap()
    return BitMap(array.array("I", np.ascontiguousarray(positions, dtype=np.uint32).tobytes()))


def serialize_optimized(bm: BitMap) -> bytes:
    """Portable bytes after ``runOptimize()`` - the exact bytes Paimon writes for every bitmap.

    ``run_optimize`` runs on ``bm`` itself: it changes only the container representation, never the
    positions, and saves a copy on the write hot paths.
    """
    bm.run_optimize()
    return bm.serialize()


def _bounded_reader(buf: bytes | memoryview, end: int, what: str, path: str | None,
                    base: int) -> Callable[[int, int, str], bytes | memoryview]:
    def read(pos: int, size: int, part: str) -> bytes | memoryview:
        if pos + size > end:
            raise TruncatedDataError(f"{what} {part} runs past the end of the data", path=path,
                                     offset=base + pos, expected=f"{size} bytes")
        return buf[pos:pos + size]
    return read


def portable_size(data: bytes | memoryview | ByteSource, start: int = 0, end: int | None = None, *,
                  what: str = "roaring bitmap", path: str | None = None, base: int = 0) -> int:
    """Byte size of the portable Roaring32 bitmap at ``data[start:]`` (validated against ``end``).

    ``data`` is a buffer (``end`` defaults to its length; ``path``/``base`` place errors in a file) or
    a :class:`ByteSource` (bounded by its window; only the header bytes are read).  O(1) container
    work when the offset header is present (only the last container is sized); otherwise (run
    containers and fewer than 4 containers) walks at most three containers.
    """
    if isinstance(data, ByteSource):
        read = lambda pos, size, part: data.read(pos, size, f"{what} {part}")  # noqa: E731
        end, path, base = data.length, data.path, data.base
    else:
        end = len(data) if end is None else end
        read = _bounded_reader(memoryview(data), end, what, path, base)
    (cookie,) = _U32.unpack(read(start, 4, "cookie"))
    pos = start + 4
    if cookie & 0xFFFF == _SERIAL_COOKIE:
        n = (cookie >> 16) + 1
        run_flags = bytes(read(pos, (n + 7) // 8, "run flags"))
        pos += (n + 7) // 8
        has_offsets = n >= _NO_OFFSET_THRESHOLD
    elif cookie == _SERIAL_COOKIE_NO_RUN:
        (n,) = _U32.unpack(read(pos, 4, "container count"))
        pos += 4
        run_flags = b""
        has_offsets = True
        if n > _MAX_CONTAINERS:
            raise CorruptDataError(f"{what} claims {n} containers", path=path, offset=base + start,
                                   expected=f"at most {_MAX_CONTAINERS}")
    else:
        raise CorruptDataError(f"{what}: bad roaring cookie {cookie:#x}", path=path, offset=base + start,
                               expected="12346 or 12347 in the low 16 bits")
    if pos + 4 * n > end:
        raise TruncatedDataError(f"{what}: {n} container headers run past the end of the data", path=path,
                                 offset=base + pos, expected=f"{4 * n} bytes")
    header = bytes(read(pos, 4 * n, "key/cardinality header"))
    pos += 4 * n
    if n == 0:
        return pos - start

    def container_size(i: int, cpos: int) -> int:
        if run_flags and run_flags[i >> 3] >> (i & 7) & 1:
            (nruns,) = _U16.unpack(read(cpos, 2, "run count"))
            return 2 + 4 * nruns
        (card_minus_1,) = _U16.unpack_from(header, 4 * i + 2)
        return 8192 if card_minus_1 >= 4096 else 2 * (card_minus_1 + 1)

    if has_offsets:
        (last,) = _U32.unpack(read(pos + 4 * (n - 1), 4, "container offsets"))
        data_start = pos + 4 * n - start
        if last < data_start:
            raise CorruptDataError(f"{what}: container offset points into the header", path=path,
                                   offset=base + pos, expected=f"at least {data_start}")
        total = last + container_size(n - 1, start + last)
    else:
        cpos = pos
        for i in range(n):
            cpos += container_size(i, cpos)
        total = cpos - start
    if start + total > end:
        raise TruncatedDataError(f"{what} containers run past the end of the data", path=path,
                                 offset=base + start, expected=f"{total} bytes")
    return total


def read_bitmap(data: bytes | memoryview, *, what: str = "bitmap", offset: int | None = None,
                path: str | None = None) -> BitMap:
    """Deserialize a portable Roaring32 bitmap held in ``data`` (trailing bytes are not checked)."""
    if len(data) < 8:
        raise CorruptDataError(f"{what}: {len(data)} bytes cannot hold a roaring bitmap", path=path,
                               offset=offset, expected="at least 8 bytes")
    (cookie,) = _U32.unpack_from(data, 0)
    if (cookie & 0xFFFF) != _SERIAL_COOKIE and cookie != _SERIAL_COOKIE_NO_RUN:
        raise CorruptDataError(f"{what}: bad roaring cookie 0x{cookie:08x}", path=path, offset=offset,
                               expected="12346 or 12347 in the low 16 bits")
    try:
        return BitMap.deserialize(data)
    except (ValueError, IndexError, OverflowError, MemoryError, RuntimeError) as exc:
        raise CorruptDataError(f"{what}: invalid roaring bitmap ({exc})", path=path, offset=offset) from None


def deserialize_exact(buf: bytes | memoryview, start: int = 0, end: int | None = None, *,
                      path: str | None = None, base: int = 0) -> tuple[BitMap, int]:
    """Decode the bitmap at ``buf[start:]``; return it and its serialised size."""
    size = portable_size(buf, start, end, path=path, base=base)
    bm = read_bitmap(memoryview(buf)[start:start + size], what="roaring bitmap", offset=base + start, path=path)
    return bm, size


def first_n(bm: BitMap, n: int) -> BitMap:
    """The ``n`` smallest positions of ``bm`` (select + range cut; never materialises ``bm``)."""
    if n <= 0:
        return BitMap()
    if n >= len(bm):
        return bm.copy()
    cut = BitMap()
    cut.add_range(0, bm[n - 1] + 1)
    return bm & cut


def drop_first(bm: BitMap, n: int) -> BitMap:
    """``bm`` without its ``n`` smallest positions."""
    if n <= 0:
        return bm.copy()
    if n >= len(bm):
        return BitMap()
    cut = BitMap()
    cut.add_range(0, bm[n])
    return bm - cut
