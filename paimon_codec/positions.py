"""Row-position sets: roaring bitmaps <-> ``[start, end)`` ranges and the golden JSON encodings.

A position set in JSON is ``{"cardinality": n, "ranges": [[start, end), ...]}`` or, in the
paimon-latest goldens, ``{"cardinality": n, "bitset_len": L, "bitset_hex": "..."}`` (bit i is byte
``i >> 3``, mask ``1 << (i & 7)``).  Conversions are vectorised with numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap, BitMap64

from .errors import CorruptDataError
from .runs import Runs, bitmap_runs, runs_of_sorted

__all__ = ["ranges_of", "iter_ranges", "run_arrays", "positions_from_json", "positions_to_json", "bitmap_from_ranges", "as_array"]


def as_array(positions: Any) -> np.ndarray:
    """Sorted unique positions as an int64 numpy array (one int64 per position: only for callers that
    really need every position; ranges and cardinalities come from :func:`iter_ranges`)."""
    if isinstance(positions, (BitMap, BitMap64)):  # bulk copy of the bitmap's array, no per-element loop
        width = np.uint64 if isinstance(positions, BitMap64) else np.uint32
        return np.frombuffer(positions.to_array(), dtype=width).astype(np.int64)
    arr = np.asarray(list(positions) if not isinstance(positions, (np.ndarray, Sequence)) else positions)
    return np.unique(arr.astype(np.int64))


def run_arrays(positions: Any) -> Runs:
    """Maximal runs of a position set as :class:`~paimon_codec.runs.Runs` (``starts``, inclusive ``lasts``;
    ``uint32`` for a 32-bit bitmap or deletion vector, ``int64`` otherwise).

    For roaring bitmaps (and anything with ``run_arrays``, e.g. a deletion vector) the runs come from the
    serialized containers - run containers as they are, array and bitmap containers one container at a
    time - so a bitmap of 2**31 positions in a few run containers costs a few runs, not 16 GiB of int64s,
    and the worst case (alternating bits) 8 bytes a run, 32x the container's bytes.
    """
    if hasattr(positions, "run_arrays"):
        return positions.run_arrays()
    if isinstance(positions, (BitMap, BitMap64)):
        return bitmap_runs(positions)
    return runs_of_sorted(as_array(positions))


def iter_ranges(positions: Any) -> Iterator[tuple[int, int]]:
    """Maximal ``[start, end)`` runs of a position set, in order, as Python ints (see :func:`run_arrays`)."""
    return run_arrays(positions).ranges()


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
