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

import numpy as np
from pyroaring import BitMap

from .errors import CorruptDataError, TruncatedDataError
from .fileio import ByteSource
from .generated.construct.constants import ROARING_COOKIE_NO_RUN, ROARING_COOKIE_RUN

__all__ = [
    "EMPTY_PORTABLE",
    "all_rows",
    "bitmap_of",
    "serialize_optimized",
    "portable_size",
    "read_bitmap",
    "deserialize_exact",
    "first_n",
    "drop_first",
]

_SERIAL_COOKIE_NO_RUN = ROARING_COOKIE_NO_RUN
_SERIAL_COOKIE = ROARING_COOKIE_RUN
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


def _header_shape(cookie: int, count: int | None, *, what: str, path: str | None, offset: int
                  ) -> tuple[int, int, int, bool]:
    """``(containers, bytes before the key/cardinality header, run-flag bytes, offset header?)``.

    ``count`` is the u32 after a no-run cookie (None when not needed).  RoaringFormatSpec.
    """
    if cookie & 0xFFFF == _SERIAL_COOKIE:
        n = (cookie >> 16) + 1
        return n, 4 + (n + 7) // 8, (n + 7) // 8, n >= _NO_OFFSET_THRESHOLD
    if cookie == _SERIAL_COOKIE_NO_RUN:
        if count is None or count > _MAX_CONTAINERS:
            raise CorruptDataError(f"{what} claims {count} containers", path=path, offset=offset,
                                   expected=f"at most {_MAX_CONTAINERS}")
        return count, 8, 0, True
    raise CorruptDataError(f"{what}: bad roaring cookie {cookie:#x}", path=path, offset=offset,
                           expected=f"{_SERIAL_COOKIE_NO_RUN} or {_SERIAL_COOKIE} in the low 16 bits")


def portable_size(data: bytes | memoryview | ByteSource, start: int = 0, end: int | None = None, *,
                  what: str = "roaring bitmap", path: str | None = None, base: int = 0) -> int:
    """Byte size of the portable Roaring32 bitmap at ``data[start:]`` (validated against ``end``).

    ``data`` is a buffer (``end`` defaults to its length; ``path``/``base`` place errors in a file) or
    a :class:`ByteSource` (bounded by its window; only the header and at most three run counts are
    read, so the read stays lazy).  O(1) container work when the offset header is present (only the
    last container is sized); otherwise (run containers, fewer than 4 containers) walks at most three.
    """
    head: bytes | memoryview
    if isinstance(data, ByteSource):
        path, base, end = data.path, data.base, data.length
        head = data.read(start, min(8, max(end - start, 0)), what)
    else:
        end = len(data) if end is None else end
        head = data[start:min(start + 8, end)]
    if len(head) < 4:
        raise TruncatedDataError(f"{what} cookie runs past the end of the data", path=path,
                                 offset=base + start, expected="4 bytes")
    (cookie,) = _U32.unpack_from(head, 0)
    count = _U32.unpack_from(head, 4)[0] if len(head) == 8 else None
    if cookie == _SERIAL_COOKIE_NO_RUN and count is None:
        raise TruncatedDataError(f"{what} container count runs past the end of the data", path=path,
                                 offset=base + start + 4, expected="4 bytes")
    n, desc_at, nflags, has_offsets = _header_shape(cookie, count, what=what, path=path, offset=base + start)
    header_len = desc_at + 4 * n + (4 * n if has_offsets else 0)
    if start + header_len > end:
        raise TruncatedDataError(f"{what} header of {n} containers runs past the end of the data", path=path,
                                 offset=base + start, expected=f"{header_len} bytes")
    header: bytes | memoryview
    if isinstance(data, ByteSource):
        src = data
        header = src.read(start, header_len, what + " header")

        def fetch2(pos: int) -> bytes | memoryview:
            return src.read(pos, 2, what + " run count")
    else:
        buf = memoryview(data)
        header = buf[start:start + header_len]

        def fetch2(pos: int) -> bytes | memoryview:
            return buf[pos:pos + 2]
    if n == 0:
        return header_len
    flags = header[4:4 + nflags]

    def container_size(i: int, rel: int) -> int:
        if nflags and flags[i >> 3] >> (i & 7) & 1:
            if start + rel + 2 > end:
                raise TruncatedDataError(f"{what} run count runs past the end of the data", path=path,
                                         offset=base + start + rel, expected="2 bytes")
            return 2 + 4 * _U16.unpack_from(fetch2(start + rel), 0)[0]
        card_minus_1 = _U16.unpack_from(header, desc_at + 4 * i + 2)[0]
        return 8192 if card_minus_1 >= 4096 else 2 * (card_minus_1 + 1)

    if has_offsets:
        (last,) = _U32.unpack_from(header, header_len - 4)
        if last < header_len:
            raise CorruptDataError(f"{what}: container offset points into the header", path=path,
                                   offset=base + start + header_len - 4, expected=f"at least {header_len}")
        total = last + container_size(n - 1, last)
    else:
        total = header_len
        for i in range(n):
            total += container_size(i, total)
    if start + total > end:
        raise TruncatedDataError(f"{what} containers run past the end of the data", path=path,
                                 offset=base + start, expected=f"{total} bytes")
    return total


_VALID = ("a portable roaring bitmap (container keys and values strictly increasing, runs disjoint, "
          "sizes as declared)")


def read_bitmap(data: bytes | memoryview, *, what: str = "bitmap", offset: int | None = None,
                path: str | None = None) -> BitMap:
    """Deserialize a portable Roaring32 bitmap held in ``data`` (trailing bytes are not checked)."""
    if len(data) < 8:
        raise CorruptDataError(f"{what}: {len(data)} bytes cannot hold a roaring bitmap", path=path,
                               offset=offset, expected="at least 8 bytes")
    (cookie,) = _U32.unpack_from(data, 0)
    if (cookie & 0xFFFF) != _SERIAL_COOKIE and cookie != _SERIAL_COOKIE_NO_RUN:
        raise CorruptDataError(f"{what}: bad roaring cookie 0x{cookie:08x}", path=path, offset=offset,
                               expected=f"{_SERIAL_COOKIE_NO_RUN} or {_SERIAL_COOKIE} in the low 16 bits")
    try:
        # pyroaring's stub says ``bytes``; its Cython signature takes any buffer (memoryview: no copy)
        return BitMap.deserialize(data)  # type: ignore[arg-type]
    except (ValueError, IndexError, OverflowError, MemoryError, RuntimeError) as exc:
        raise CorruptDataError(f"{what}: invalid roaring bitmap ({exc})", path=path, offset=offset,
                               expected=_VALID) from None


def deserialize_exact(buf: bytes | memoryview, start: int = 0, end: int | None = None, *,
                      path: str | None = None, base: int = 0) -> tuple[BitMap, int]:
    """Decode the bitmap at ``buf[start:]``; return it and its serialised size."""
    size = portable_size(buf, start, end, path=path, base=base)
    bm = read_bitmap(memoryview(buf)[start:start + size], what="roaring bitmap", offset=base + start, path=path)
    return bm, size


def all_rows(row_count: int, *, path: str | None = None) -> BitMap:
    """Positions ``0 .. row_count - 1`` as one run (a few bytes whatever the count: a row count read from
    metadata is a declared size, never a reason to allocate one slot per row).  A count beyond 32-bit
    positions is refused, naming ``path``."""
    if row_count < 0 or row_count > 1 << 32:
        raise CorruptDataError(f"row count {row_count} is outside 32-bit row positions", path=path,
                               expected="0 .. 2^32 rows")
    bm = BitMap()
    if row_count:
        bm.add_range(0, row_count)
    return bm


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
