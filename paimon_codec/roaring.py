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
from collections.abc import Callable

import numpy as np
from pyroaring import BitMap

from .errors import CorruptDataError, TruncatedDataError
from .fileio import ByteSource
from .generated.construct import constants as _codec
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

# Every width, count and threshold below is the generated codec's (schemas/roaring32.ksy): its field dtypes and its
# value functions (which containers are arrays or bitmaps, when the offset header is present).  The schema is
# marked -runtime-layout, so they sit in the generated constants module, which imports no codec: the codec
# runtime sizes embedded bitmaps with this scan without an import cycle.
_COOKIE = _codec.COOKIE_DTYPE
_COUNT = _codec.CONTAINER_COUNT_DTYPE
_HEADER = _codec.DESCRIPTIVE_HEADER_DTYPE  # (key, cardinality_minus_1) per container
_CARD_AT = _HEADER.fields["cardinality_minus_1"][1]
_CARD = _HEADER.fields["cardinality_minus_1"][0]
_OFFSET = _codec.OFFSETS_DTYPE
_NUM_RUNS = _codec.NUM_RUNS_DTYPE
_RUN = _codec.CONTAINER_RUNS_DTYPE.itemsize
_VALUE = _codec.CONTAINER_VALUES_DTYPE.itemsize
_BITMAP_BYTES = _codec.container_bitmap_words() * _codec.CONTAINER_BITMAP_DTYPE.itemsize
#: One container per value of the key field (the high bits of a position).
_MAX_CONTAINERS = 1 << (8 * _HEADER.fields["key"][0].itemsize)
#: The empty bitmap in portable form (the no-run cookie, zero containers).
EMPTY_PORTABLE = np.array(ROARING_COOKIE_NO_RUN, _COOKIE).tobytes() + np.array(0, _COUNT).tobytes()
#: A no-run cookie's head (cookie and count): the most read before the header's size is known.
_HEAD = _COOKIE.itemsize + _COUNT.itemsize


def _number_reader(dtype: np.dtype) -> Callable[[bytes | memoryview, int], int]:
    """``read(buf, pos)``: the ``dtype`` number at ``buf[pos]`` - a memoryview cast when the dtype is native
    (several times cheaper than ``np.frombuffer`` for one number; the size scan reads a handful per bitmap)."""
    w, code = dtype.itemsize, str(dtype.char)
    if dtype.isnative:
        def native(buf: bytes | memoryview, pos: int) -> int:
            # typeshed takes cast()'s format as a literal; a native number dtype's char is one of them
            return int(memoryview(buf)[pos:pos + w].cast(code)[0])  # type: ignore[call-overload]
        return native
    return lambda buf, pos: int(np.frombuffer(buf, dtype, 1, pos)[0])


_read_cookie = _number_reader(_COOKIE)
_read_count = _number_reader(_COUNT)
_read_card = _number_reader(_CARD)
_read_offset = _number_reader(_OFFSET)
_read_num_runs = _number_reader(_NUM_RUNS)


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
    """``(containers, bytes before the descriptive header, run-flag bytes, offset header?)``.

    ``count`` is the container count after a no-run cookie (None when not needed).  RoaringFormatSpec.
    """
    if _codec.roaring32_has_run_containers(cookie):
        flags = _codec.roaring32_run_flags_size(cookie, None)
        return (_codec.roaring32_num_containers(cookie, None), _COOKIE.itemsize + flags, flags,
                _codec.roaring32_has_offsets(cookie, None))
    if cookie == ROARING_COOKIE_NO_RUN:
        if count is None or count > _MAX_CONTAINERS:
            raise CorruptDataError(f"{what} claims {count} containers", path=path, offset=offset,
                                   expected=f"at most {_MAX_CONTAINERS}")
        return count, _HEAD, 0, _codec.roaring32_has_offsets(cookie, count)
    raise CorruptDataError(f"{what}: bad roaring cookie {cookie:#x}", path=path, offset=offset,
                           expected=f"{ROARING_COOKIE_NO_RUN} or {ROARING_COOKIE_RUN} in the low 16 bits")


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
        head = data.read(start, min(_HEAD, max(end - start, 0)), what)
    else:
        end = len(data) if end is None else end
        head = data[start:min(start + _HEAD, end)]
    if len(head) < _COOKIE.itemsize:
        raise TruncatedDataError(f"{what} cookie runs past the end of the data", path=path,
                                 offset=base + start, expected=f"{_COOKIE.itemsize} bytes")
    cookie = _read_cookie(head, 0)
    count = _read_count(head, _COOKIE.itemsize) if len(head) == _HEAD else None
    if cookie == ROARING_COOKIE_NO_RUN and count is None:
        raise TruncatedDataError(f"{what} container count runs past the end of the data", path=path,
                                 offset=base + start + _COOKIE.itemsize, expected=f"{_COUNT.itemsize} bytes")
    n, desc_at, nflags, has_offsets = _header_shape(cookie, count, what=what, path=path, offset=base + start)
    header_len = desc_at + _HEADER.itemsize * n + (_OFFSET.itemsize * n if has_offsets else 0)
    if start + header_len > end:
        raise TruncatedDataError(f"{what} header of {n} containers runs past the end of the data", path=path,
                                 offset=base + start, expected=f"{header_len} bytes")
    header: bytes | memoryview
    if isinstance(data, ByteSource):
        src = data
        header = src.read(start, header_len, what + " header")

        def run_count(pos: int) -> int:
            return _read_num_runs(src.read(pos, _NUM_RUNS.itemsize, what + " run count"), 0)
    else:
        buf = memoryview(data)
        header = buf[start:start + header_len]

        def run_count(pos: int) -> int:
            return _read_num_runs(buf, pos)
    if n == 0:
        return header_len
    flags = header[_COOKIE.itemsize:_COOKIE.itemsize + nflags]

    def container_size(i: int, rel: int) -> int:
        is_run = bool(nflags) and flags[i >> 3] >> (i & 7) & 1 == 1
        if is_run:
            if start + rel + _NUM_RUNS.itemsize > end:
                raise TruncatedDataError(f"{what} run count runs past the end of the data", path=path,
                                         offset=base + start + rel, expected=f"{_NUM_RUNS.itemsize} bytes")
            return _NUM_RUNS.itemsize + _RUN * run_count(start + rel)
        card_minus_1 = _read_card(header, desc_at + _HEADER.itemsize * i + _CARD_AT)
        if _codec.container_is_bitmap(False, card_minus_1):
            return _BITMAP_BYTES
        return _VALUE * (card_minus_1 + 1)

    if has_offsets:
        last_at = header_len - _OFFSET.itemsize
        last = _read_offset(header, last_at)
        if last < header_len:
            raise CorruptDataError(f"{what}: container offset points into the header", path=path,
                                   offset=base + start + last_at, expected=f"at least {header_len}")
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
    if len(data) < len(EMPTY_PORTABLE):
        raise CorruptDataError(f"{what}: {len(data)} bytes cannot hold a roaring bitmap", path=path,
                               offset=offset, expected=f"at least {len(EMPTY_PORTABLE)} bytes")
    cookie = _read_cookie(data, 0)
    if not _codec.roaring32_has_run_containers(cookie) and cookie != ROARING_COOKIE_NO_RUN:
        raise CorruptDataError(f"{what}: bad roaring cookie 0x{cookie:08x}", path=path, offset=offset,
                               expected=f"{ROARING_COOKIE_NO_RUN} or {ROARING_COOKIE_RUN} in the low 16 bits")
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
