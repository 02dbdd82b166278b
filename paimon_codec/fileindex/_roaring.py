"""Small Roaring32 helpers shared by the range-bitmap and BSI indexes.

* :func:`bitmap_of` builds a ``BitMap`` from a numpy position array through the buffer protocol
  (about 8x faster than handing pyroaring a numpy array, which it iterates element by element).
* :func:`serialize_optimized` is Paimon's ``runOptimize(); serialize()`` (byte-exact, FORMATS §0).
* :func:`read_bitmap` deserialises a bounded slice and maps every failure to our errors.
* :func:`portable_size` finds where a self-delimiting portable bitmap ends (the deprecated BSI format
  stores bitmaps back to back without lengths) by walking only its header and container sizes.
"""

from __future__ import annotations

import array
import struct

import numpy as np
from pyroaring import BitMap

from ..errors import CorruptDataError
from ..fileio import ByteSource

__all__ = ["bitmap_of", "serialize_optimized", "read_bitmap", "portable_size", "first_n", "drop_first"]

_SERIAL_COOKIE_NO_RUN = 12346
_SERIAL_COOKIE = 12347


def bitmap_of(positions: np.ndarray) -> BitMap:
    """A BitMap of non-negative positions (< 2**32) given as a numpy integer array."""
    if positions.size == 0:
        return BitMap()
    return BitMap(array.array("I", np.ascontiguousarray(positions, dtype=np.uint32).tobytes()))


def serialize_optimized(bm: BitMap) -> bytes:
    """Portable serialisation after run optimisation, as Paimon writes every bitmap."""
    bm = bm.copy()
    bm.run_optimize()
    return bm.serialize()


def read_bitmap(data: bytes, *, what: str = "bitmap", offset: int | None = None,
                path: str | None = None) -> BitMap:
    """Deserialize a portable Roaring32 bitmap held exactly in ``data``."""
    if len(data) < 8:
        raise CorruptDataError(f"{what}: {len(data)} bytes cannot hold a roaring bitmap", path=path,
                               offset=offset, expected="at least 8 bytes")
    cookie = struct.unpack_from("<I", data, 0)[0]
    if (cookie & 0xFFFF) != _SERIAL_COOKIE and cookie != _SERIAL_COOKIE_NO_RUN:
        raise CorruptDataError(f"{what}: bad roaring cookie 0x{cookie:08x}", path=path, offset=offset,
                               expected="12346 or 12347 in the low 16 bits")
    try:
        return BitMap.deserialize(data)
    except (ValueError, OverflowError, MemoryError, RuntimeError) as exc:
        raise CorruptDataError(f"{what}: invalid roaring bitmap ({exc})", path=path, offset=offset) from exc


def portable_size(src: ByteSource, offset: int, what: str = "bitmap") -> int:
    """Size in bytes of the portable Roaring32 bitmap starting at ``offset`` of ``src``."""
    cookie = struct.unpack("<I", src.read(offset, 4, what))[0]
    pos = offset + 4
    if (cookie & 0xFFFF) == _SERIAL_COOKIE:
        n = (cookie >> 16) + 1
        run_flags = src.read(pos, (n + 7) // 8, what + " run flags")
        pos += (n + 7) // 8
    elif cookie == _SERIAL_COOKIE_NO_RUN:
        n = struct.unpack("<I", src.read(pos, 4, what))[0]
        pos += 4
        run_flags = b""
    else:
        raise CorruptDataError(f"{what}: bad roaring cookie 0x{cookie:08x}", path=src.path,
                               offset=src.base + offset, expected="12346 or 12347")
    if n > 65536 or 4 * n > src.length - pos:
        raise CorruptDataError(f"{what}: {n} containers cannot fit", path=src.path, offset=src.base + offset)
    desc = np.frombuffer(src.read(pos, 4 * n, what + " descriptors"), dtype="<u2").reshape(n, 2)
    pos += 4 * n
    cards = desc[:, 1].astype(np.int64) + 1
    runs = np.zeros(n, dtype=bool)
    if run_flags:
        runs = np.unpackbits(np.frombuffer(run_flags, dtype=np.uint8), bitorder="little")[:n].astype(bool)
    if cookie == _SERIAL_COOKIE_NO_RUN or n >= 4:
        pos += 4 * n  # offset header
    sizes = np.where(cards > 4096, 8192, 2 * cards)
    if runs.any():
        for i in np.flatnonzero(runs):  # run containers hold their own length
            start = pos + int(sizes[:i].sum())
            nruns = struct.unpack("<H", src.read(start, 2, what + " run count"))[0]
            sizes[i] = 2 + 4 * nruns
    end = pos + int(sizes.sum())
    if end > src.length:
        raise CorruptDataError(f"{what}: containers run past the end", path=src.path,
                               offset=src.base + offset, expected=f"{end - offset} bytes")
    return end - offset


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
