"""Bit-sliced indexes of unsigned values: cutting the slices and O'Neil's comparisons over them.

Both the deprecated BSI index (each signed half stores ``value - min``) and the range-bitmap index
(each row stores its dictionary code) keep one bitmap per bit of the stored value (slice ``i`` = the
rows whose value has bit ``i`` set) beside an existence bitmap (EBM) of the non-null rows.

:class:`BitSlices` answers ``<=``, ``>=``, ``=`` and top-k over such an index from the most
significant slice down (O'Neil & Quass), reading the EBM, the slice count and each slice only when a
comparison needs them: the accessors are callables so a reader can keep them lazy and cached.
:func:`cut_slices` builds the slices of many values at once with numpy, and :class:`ValueBatches` is
the write API both writers share (values one at a time or in batches, kept in row order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap

from ..roaring import bitmap_of, drop_first

__all__ = ["BitSlices", "cut_slices", "null_rows", "ValueBatches"]


def cut_slices(rows: np.ndarray, values: np.ndarray, count: int) -> list[BitMap]:
    """Slice ``i`` (``i < count``) = the ``rows`` whose unsigned ``values`` have bit ``i`` set.

    Bits at 63 and above are never set in a signed 64-bit value: their slices are empty.
    """
    rows = np.asarray(rows)
    values = np.asarray(values, dtype=np.int64)
    return [bitmap_of(rows[((values >> i) & 1).astype(bool)]) if i < 63 else BitMap() for i in range(count)]


def null_rows(row_count: int, ebm: BitMap) -> BitMap:
    """Rows ``[0, row_count)`` missing from the existence bitmap ``ebm``."""
    bm = BitMap()
    if row_count:
        bm.add_range(0, row_count)
    return bm - ebm


class BitSlices:
    """O'Neil comparisons over a bit-sliced index whose stored values lie in ``[0, max_value]``.

    ``max_value < 0`` means the index holds no value (every comparison answers no row).  Every
    answer is a fresh bitmap the caller may modify.
    """

    def __init__(self, max_value: int, slice_count: Callable[[], int], ebm: Callable[[], BitMap],
                 get_slice: Callable[[int], BitMap],
                 all_slices: Callable[[], Sequence[BitMap]] | None = None) -> None:
        self.max_value = max_value
        self._slice_count = slice_count
        self._ebm = ebm
        self._slice = get_slice
        self._all = all_slices

    def _slices(self) -> Sequence[BitMap]:
        """Every slice, least significant first: ``<=`` and ``>=`` walk them all, so a reader that decodes
        them in one pass (``all_slices``) saves a call per slice."""
        if self._all is not None:
            return self._all()
        return [self._slice(i) for i in range(self._slice_count())]

    def lte(self, value: int) -> BitMap:
        """Rows whose stored value is ``<= value``."""
        if value < 0 or self.max_value < 0:
            return BitMap()
        if value >= self.max_value:
            return self._ebm().copy()
        slices = self._slices()  # first: a reader may read the EBM with them
        lt, eq = BitMap(), self._ebm().copy()  # in-place updates on private copies
        for i in range(len(slices) - 1, -1, -1):
            sl = slices[i]
            if (value >> i) & 1:
                lt |= eq - sl
                eq &= sl
            else:
                eq -= sl
        lt |= eq
        return lt

    def gte(self, value: int) -> BitMap:
        """Rows whose stored value is ``>= value``."""
        if value > self.max_value or self.max_value < 0:
            return BitMap()
        if value <= 0:
            return self._ebm().copy()
        slices = self._slices()  # first: a reader may read the EBM with them
        gt, eq = BitMap(), self._ebm().copy()
        for i in range(len(slices) - 1, -1, -1):
            sl = slices[i]
            if (value >> i) & 1:
                eq &= sl
            else:
                gt |= eq & sl
                eq -= sl
        gt |= eq
        return gt

    def eq(self, value: int) -> BitMap:
        """Rows whose stored value is ``value`` (stops early once no row is left)."""
        if value < 0 or value > self.max_value:
            return BitMap()
        eq = self._ebm().copy()
        if self.max_value == 0:
            return eq
        for i in range(self._slice_count() - 1, -1, -1):
            if (value >> i) & 1:
                eq &= self._slice(i)
            else:
                eq -= self._slice(i)
            if not eq:
                break
        return eq

    def top(self, k: int, candidates: BitMap, *, largest: bool, strict: bool) -> BitMap:
        """The ``k`` rows of ``candidates`` with the largest (smallest) stored values (see topn)."""
        if self.max_value < 0:
            return BitMap()
        return oneil_top_k(self._slice_count(), self._slice, candidates, k, largest=largest, strict=strict)


class ValueBatches:
    """Row values written one at a time (:meth:`write`) or many at once (:meth:`write_batch`: a list,
    numpy or pyarrow array), handed to the encoder as batches in row order by :meth:`batches`."""

    def __init__(self) -> None:
        self._batches: list[Any] = []
        self._pending: list[Any] = []

    def write(self, value: Any) -> None:
        """Append one row value (``None`` = null)."""
        self._pending.append(value)

    def write_batch(self, values: Any) -> None:
        """Append many row values at once."""
        self._flush_pending()
        self._batches.append(values)

    write_array = write_batch

    def _flush_pending(self) -> None:
        if self._pending:
            self._batches.append(self._pending)
            self._pending = []

    def batches(self) -> list[Any]:
        """Every value written so far, as batches in row order."""
        self._flush_pending()
        return self._batches


def oneil_top_k(
    slice_count: int,
    get_slice: Callable[[int], BitMap],
    candidates: BitMap,
    k: int,
    *,
    largest: bool,
    strict: bool,
) -> BitMap:
    """Rows of ``candidates`` holding the ``k`` largest (or smallest) unsigned sliced values.

    ``get_slice(i)`` is the bitmap of rows whose value has bit ``i`` set.  Non-strict answers keep
    every row tied with the k-th value; strict answers drop the smallest positions among the tied.
    """
    if k <= 0 or not candidates:
        return BitMap()
    if len(candidates) <= k:
        return candidates.copy()
    g = BitMap()
    e = candidates
    for i in range(slice_count - 1, -1, -1):
        sl = get_slice(i)
        hit = e & sl if largest else e - sl
        x = g | hit
        n = len(x)
        if n > k:
            e = hit
        elif n < k:
            g = x
            e = e - sl if largest else e & sl
        else:
            e = hit
            break
    result = g | e
    if strict and len(result) > k:
        result = g | drop_first(e, len(result) - k)
    return result
