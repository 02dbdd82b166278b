"""Row-position sets: roaring bitmaps <-> ``[start, end)`` ranges and the golden JSON encodings.

A position set in JSON is ``{"cardinality": n, "ranges": [[start, end), ...]}`` or, in the
paimon-latest goldens, ``{"cardinality": n, "bitset_len": L, "bitset_hex": "..."}`` (bit i is byte
``i >> 3``, mask ``1 << (i & 7)``).  Conversions are vectorised with numpy.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap, BitMap64

from .errors import CorruptDataError

__all__ = ["ranges_of", "iter_ranges", "run_arrays", "positions_from_json", "positions_to_json", "bitmap_from_ranges", "as_array"]


def as_array(positions: Any) -> np.ndarray:
    """Sorted unique positions as an int64 numpy array (one int64 per position: only for callers that
    really need every position; ranges and cardinalities come from :func:`iter_ranges`)."""
    if isinstance(positions, (BitMap, BitMap64)):  # bulk copy of the bitmap's array, no per-element loop
        width = np.uint64 if isinstance(positions, BitMap64) else np.uint32
        return np.frombuffer(positions.to_array(), dtype=width).astype(np.int64)
    arr = np.asarray(list(positions) if not isinstance(positions, (np.ndarray, Sequence)) else positions)
    return np.unique(arr.astype(np.int64))


_U16 = np.dtype("<u2")
_COOKIE_RUN, _COOKIE_NO_RUN = 12347, 12346


def _container_runs(kind: str, body: memoryview) -> tuple[np.ndarray, np.ndarray]:
    """``[start, end)`` runs (within 0..65536) of one serialized roaring container, as two int64 arrays."""
    if kind == "run":
        pairs = np.frombuffer(body, dtype=_U16).astype(np.int64).reshape(-1, 2)
        return pairs[:, 0], pairs[:, 0] + pairs[:, 1] + 1
    if kind == "array":
        vals = np.frombuffer(body, dtype=_U16).astype(np.int64)
    else:  # bitmap container: 1024 little-endian words
        vals = np.flatnonzero(np.unpackbits(np.frombuffer(body, dtype=np.uint8), bitorder="little"))
    breaks = np.flatnonzero(np.diff(vals) != 1)
    return np.concatenate((vals[:1], vals[breaks + 1])), np.concatenate((vals[breaks], vals[-1:])) + 1


def _roaring32_runs(data: bytes | memoryview, base: int = 0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Runs of a portable roaring32 bitmap written by pyroaring (trusted bytes: our own ``serialize``),
    container by container: work and memory proportional to the serialized size, never to the cardinality.
    Run containers holding one run (what huge computed ranges are made of) are read in one vectorised step
    through the offset header."""
    mv = memoryview(data)
    cookie = struct.unpack_from("<I", mv, 0)[0]
    if cookie & 0xFFFF == _COOKIE_RUN:
        n = (cookie >> 16) + 1
        flags = np.unpackbits(np.frombuffer(mv[4:4 + (n + 7) // 8], dtype=np.uint8), bitorder="little")[:n]
        pos = 4 + (n + 7) // 8
        has_offsets = n >= 4
    else:
        n = struct.unpack_from("<I", mv, 4)[0]
        flags, pos, has_offsets = np.zeros(n, np.uint8), 8, True
    heads = np.frombuffer(mv[pos:pos + 4 * n], dtype=_U16).reshape(-1, 2).astype(np.int64)
    keys, cards = heads[:, 0], heads[:, 1] + 1
    pos += 4 * n
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    rest = np.arange(n)
    single_taken = False
    if has_offsets and n:
        offs = np.frombuffer(mv[pos:pos + 4 * n], dtype="<u4").astype(np.int64)
        raw = np.frombuffer(mv, dtype=np.uint8)
        u16 = lambda at: raw[at].astype(np.int64) | (raw[at + 1].astype(np.int64) << 8)  # noqa: E731
        run_idx = np.flatnonzero(flags)
        single = run_idx[u16(offs[run_idx]) == 1]
        if single.size:
            first, length = u16(offs[single] + 2), u16(offs[single] + 4)
            starts.append(first + (keys[single] << 16) + base)
            ends.append(starts[-1] + length + 1)
            rest = np.setdiff1d(rest, single, assume_unique=True)
            single_taken = True
        pos += 4 * n
    # the other containers, one at a time (positions from the offsets, or walked when there are none)
    at = pos
    for i in rest.tolist():
        if has_offsets:
            at = int(offs[i])
        if flags[i]:
            nruns = struct.unpack_from("<H", mv, at)[0]
            kind, size, at = "run", 4 * nruns, at + 2
        elif cards[i] > 4096:
            kind, size = "bitmap", 8192
        else:
            kind, size = "array", 2 * int(cards[i])
        s_, e_ = _container_runs(kind, mv[at:at + size])
        high = base + (int(keys[i]) << 16)
        starts.append(s_ + high)
        ends.append(e_ + high)
        at += size
    if len(starts) > 1 and single_taken and rest.size:  # back in position order (single-run ones came first)
        s_all, e_all = np.concatenate(starts), np.concatenate(ends)
        order = np.argsort(s_all, kind="stable")
        return [s_all[order]], [e_all[order]]
    return starts, ends


def _bitmap_runs(bm: BitMap | BitMap64) -> tuple[list[np.ndarray], list[np.ndarray]]:
    from .roaring import portable_size  # roaring imports this module's neighbours; keep the import local

    if isinstance(bm, BitMap):
        return _roaring32_runs(bm.serialize())
    data = memoryview(bm.serialize())  # portable 64-bit: u64 bucket count, then (u32 high key, roaring32)*
    pos = 8
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    for _ in range(struct.unpack_from("<Q", data, 0)[0]):
        high = struct.unpack_from("<I", data, pos)[0]
        size = portable_size(data, pos + 4)
        a, b = _roaring32_runs(data[pos + 4:pos + 4 + size], high << 32)
        starts += a
        ends += b
        pos += 4 + size
    return starts, ends


def run_arrays(positions: Any) -> tuple[np.ndarray, np.ndarray]:
    """Maximal ``[start, end)`` runs of a position set as two int64 arrays (starts, ends).

    For roaring bitmaps (and anything with ``run_arrays``, e.g. a deletion vector) the runs come from the
    serialized containers - run containers as they are, array and bitmap containers one container at a
    time - so a bitmap of 2**31 positions in a few run containers costs a few runs, not 16 GiB of int64s.
    """
    if hasattr(positions, "run_arrays"):
        starts, ends = positions.run_arrays()
    elif isinstance(positions, (BitMap, BitMap64)):
        parts = _bitmap_runs(positions)
        if not parts[0]:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        starts = parts[0][0] if len(parts[0]) == 1 else np.concatenate(parts[0])
        parts[0].clear()
        ends = parts[1][0] if len(parts[1]) == 1 else np.concatenate(parts[1])
        parts[1].clear()
    else:
        arr = as_array(positions)
        breaks = np.flatnonzero(np.diff(arr) != 1)
        starts = np.concatenate((arr[:1], arr[breaks + 1]))
        ends = np.concatenate((arr[breaks], arr[-1:])) + 1
    if starts.size > 1:  # runs touching across container / part boundaries become one
        touching = starts[1:] == ends[:-1]
        if touching.any():
            keep = np.concatenate(([True], ~touching))
            last = np.concatenate((~touching, [True]))
            del touching
            starts = starts[keep]  # one array copied at a time: the old one is freed before the next copy
            ends = ends[last]
    return starts, ends


def iter_ranges(positions: Any) -> Iterator[tuple[int, int]]:
    """Maximal ``[start, end)`` runs of a position set, in order (see :func:`run_arrays`)."""
    starts, ends = run_arrays(positions)
    return zip(starts.tolist(), ends.tolist(), strict=True)


def ranges_of(positions: Any) -> list[list[int]]:
    """Maximal ``[start, end)`` runs of a position set (bitmap, deletion vector, array or iterable)."""
    return [[a, b] for a, b in iter_ranges(positions)]


def bitmap_from_ranges(ranges: Iterable[Sequence[int]], *, wide: bool = False) -> BitMap | BitMap64:
    """Build a BitMap (or BitMap64 when ``wide`` or any end exceeds 2**32) from ``[start, end)`` runs."""
    ranges = [(int(a), int(b)) for a, b in ranges]
    if wide or any(b > 2**32 for _, b in ranges):
        bm64 = BitMap64()
        for a, b in ranges:
            bm64.add_range(a, b)
        return bm64
    bm = BitMap()
    for a, b in ranges:
        bm.add_range(a, b)
    return bm


def positions_from_json(obj: dict, *, wide: bool = False) -> BitMap | BitMap64:
    """Decode a golden position set (ranges or bitset form) into a roaring bitmap.

    A malformed object (missing fields, bad hex, ranges that are not ``[start, end)`` pairs of
    non-negative ints, a cardinality that does not match) raises :class:`CorruptDataError`.
    """
    try:
        if "ranges" in obj:
            bm = bitmap_from_ranges(obj["ranges"], wide=wide)
        else:
            raw = np.frombuffer(bytes.fromhex(obj["bitset_hex"]), dtype=np.uint8)
            bits = np.unpackbits(raw, bitorder="little")[: int(obj.get("bitset_len", raw.size * 8))]
            idx = np.flatnonzero(bits)
            bm = BitMap64(idx.astype(np.uint64)) if wide else BitMap(idx.astype(np.uint32))
        claimed = int(obj["cardinality"]) if "cardinality" in obj else None
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise CorruptDataError(f"malformed position set: {type(exc).__name__}: {exc}") from None
    if claimed is not None and len(bm) != claimed:
        raise CorruptDataError(f"position set claims cardinality {claimed} but holds {len(bm)}",
                               expected=f"cardinality {len(bm)}")
    return bm


def positions_to_json(positions: Any) -> dict:
    """``{"cardinality": n, "ranges": [[start, end), ...]}`` of a position set."""
    rs = ranges_of(positions)
    return {"cardinality": sum(b - a for a, b in rs), "ranges": rs}
