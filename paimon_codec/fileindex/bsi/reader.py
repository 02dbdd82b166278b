"""The deprecated BSI file index (``"bsi"``, Paimon 1.0-1.2; superseded by range-bitmap).

Layout: ``schemas/bsi.ksy`` (FORMATS §5); the writer builds it with the generated codec, the
reader walks it with the generated ``fast_parse_bsi_*`` head functions.

Values are longs (timestamps as millis/micros, DECIMAL as the unscaled long).  Non-negative values
live in the *positive* BSI; negative values are stored as their absolute value in the *negative* BSI,
so a negative literal compares against the negative BSI with the direction reversed.  Bitmaps are
self-delimiting (no lengths), so opening a reader walks only their headers to find where each one
starts; bitmaps themselves are deserialised on first use and cached.
``Long.MIN_VALUE`` cannot be stored: ``=``, IN, ``<``, ``<=`` against it match nothing, ``>`` and
``>=`` match every non-null row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

from pyroaring import BitMap

from ...codec_runtime import CodecError
from ...errors import CorruptDataError, UnsupportedVersionError
from ...fileio import ByteSource
from ...generated.construct import bsi as _generated_bsi
from ...roaring import portable_size, read_bitmap
from ...types import DataType, parse_type
from .._field import number_at
from ..bit_slices import BitSlices, null_rows
from ..reader import FileIndexReader
from ..result import REMAIN, BitmapResult, FileIndexResult
from ._layout import LONG_MIN, PART_VERSION, VERSION, key_codec

__all__ = ["BsiReader"]


class _SignedPart:
    """One bit-sliced index (the positive or the negative half): stored value = value - min."""

    def __init__(self, src: ByteSource, offset: int, label: str) -> None:
        self.src = src
        self.label = label
        size = _generated_bsi.BSI_PART_HEAD_SIZE
        head, _ = _generated_bsi.fast_parse_bsi_part_head(src.read(offset, size, f"{label} bsi header"))
        version, self.min, self.max = head["version"], head["min"], head["max"]
        if version > PART_VERSION:
            raise UnsupportedVersionError(f"{label} bsi version {version}", path=src.path,
                                          offset=src.base + offset, expected=f"<= {PART_VERSION}")
        if self.max < self.min:
            raise CorruptDataError(f"{label} bsi max {self.max} < min {self.min}", path=src.path,
                                   offset=src.base + offset, expected="max >= min")
        pos = offset + size
        size = portable_size(src, pos, what=f"{label} bsi ebm")
        self._ebm_at = (pos, size)
        pos += size
        size = _generated_bsi.BSI_PART_SLICE_COUNT_SIZE
        self.slice_count = _generated_bsi.fast_parse_bsi_part_slice_count(
            src.read(pos, size, f"{label} bsi slice count"))[0]["slice_count"]
        if self.slice_count < 0 or self.slice_count > 64:
            raise CorruptDataError(f"{label} bsi has {self.slice_count} slices", path=src.path,
                                   offset=src.base + pos, expected="0..64")
        if (self.max - self.min).bit_length() > self.slice_count:
            # the slices cannot hold max - min: compares would use only the literal's low bits (Paimon's
            # writer sizes the slices by max - min, so no file it writes is like this)
            raise CorruptDataError(f"{label} bsi max {self.max} - min {self.min} needs "
                                   f"{(self.max - self.min).bit_length()} bits, the part has {self.slice_count} slices",
                                   path=src.path, offset=src.base + offset,
                                   expected=f"at most {self.slice_count}-bit max - min")
        pos += size
        self._slice_at = []
        for i in range(self.slice_count):
            size = portable_size(src, pos, what=f"{label} bsi slice {i}")
            self._slice_at.append((pos, size))
            pos += size
        self.end = pos
        self._slices: dict[int, BitMap] = {}

    @cached_property
    def ebm(self) -> BitMap:
        pos, size = self._ebm_at
        return read_bitmap(self.src.read(pos, size, "bsi ebm"), what=f"{self.label} bsi ebm",
                           offset=self.src.base + pos, path=self.src.path)

    def slice(self, i: int) -> BitMap:
        bm = self._slices.get(i)
        if bm is None:
            pos, size = self._slice_at[i]
            bm = read_bitmap(self.src.read(pos, size, "bsi slice"), what=f"{self.label} bsi slice {i}",
                             offset=self.src.base + pos, path=self.src.path)
            self._slices[i] = bm
        return bm

    @property
    def span(self) -> int:
        return self.max - self.min

    @cached_property
    def _bits(self) -> BitSlices:
        return BitSlices(self.span, lambda: self.slice_count, lambda: self.ebm, self.slice)

    def lte(self, value: int) -> BitMap:
        """Rows whose value <= ``value`` (``value`` relative to min)."""
        return self._bits.lte(value - self.min)

    def gte(self, value: int) -> BitMap:
        """Rows whose value >= ``value``."""
        return self._bits.gte(value - self.min)

    def eq(self, value: int) -> BitMap:
        return self._bits.eq(value - self.min)

    def top(self, k: int, candidates: BitMap, largest: bool, strict: bool) -> BitMap:
        return self._bits.top(k, candidates & self.ebm, largest=largest, strict=strict)


class _EmptyPart:
    """A missing half: no rows."""

    slice_count = 0
    ebm = BitMap()

    def lte(self, value: int) -> BitMap:
        return BitMap()

    gte = eq = lte

    def top(self, k: int, candidates: BitMap, largest: bool, strict: bool) -> BitMap:
        return BitMap()


class BsiReader(FileIndexReader):
    """Reader of one BSI payload (implements :class:`FileIndexReader` and the top-N protocol)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> None:
        self.src = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype = parse_type(dtype) if isinstance(dtype, str) else dtype
        self.codec = key_codec(self.dtype)
        src = self.src
        size = _generated_bsi.BSI_HEAD_SIZE
        try:
            head, pos = _generated_bsi.fast_parse_bsi_head(src.read(0, size, "bsi header"))
        except CodecError as exc:  # the version byte is checked by the schema's ``valid``
            dt, at = _generated_bsi.BSI_VERSION_DTYPE, _generated_bsi.BSI_VERSION_AT
            version = number_at(src.read(at, dt.itemsize, "bsi version"), dt, 0)
            if version > VERSION:
                raise UnsupportedVersionError(f"bsi version {version} is not supported", path=src.path,
                                              offset=src.base, expected=f"<= {VERSION}") from None
            raise CorruptDataError(f"bad bsi header: {exc}", path=src.path, offset=src.base,
                                   expected=f"version {VERSION}, row count, positive flag") from None
        version, self.row_count, has_pos = head["version"], head["row_count"], head["has_positive"]
        if version > VERSION:
            raise UnsupportedVersionError(f"bsi version {version} is not supported", path=src.path,
                                          offset=src.base, expected=f"<= {VERSION}")
        if version != VERSION or self.row_count < 0 or has_pos > 1:
            raise CorruptDataError(f"bad bsi header (version {version}, row count {self.row_count}, positive flag "
                                   f"{has_pos})", path=src.path, offset=src.base,
                                   expected=f"version {VERSION}, row count >= 0, flag 0 or 1")
        self.positive: Any = _EmptyPart()
        if has_pos:
            self.positive = _SignedPart(src, pos, "positive")
            pos = self.positive.end
        size = _generated_bsi.BSI_HAS_NEGATIVE_SIZE
        has_neg = _generated_bsi.fast_parse_bsi_has_negative(
            src.read(pos, size, "bsi negative flag"))[0]["has_negative"]
        if has_neg > 1:
            raise CorruptDataError(f"bad negative flag {has_neg}", path=src.path, offset=src.base + pos,
                                   expected="0 or 1")
        self.negative: Any = _EmptyPart()
        if has_neg:
            self.negative = _SignedPart(src, pos + size, "negative")

    # -- helpers
    @cached_property
    def _non_null(self) -> BitMap:
        bm = self.positive.ebm | self.negative.ebm
        if bm and bm.max() >= self.row_count:
            raise CorruptDataError(f"bsi ebm holds row {bm.max()} beyond row count {self.row_count}",
                                   path=self.src.path, offset=self.src.base,
                                   expected=f"rows below {self.row_count}")
        return bm

    def _value(self, literal: Any) -> int:
        return self.codec.scalar(literal)

    def _eq(self, v: int) -> BitMap:
        if v == LONG_MIN:
            return BitMap()
        return self.positive.eq(v) if v >= 0 else self.negative.eq(-v)

    def _lte(self, v: int) -> BitMap:
        if v == LONG_MIN:
            return BitMap()
        if v >= 0:
            return self.positive.lte(v) | self.negative.ebm
        return self.negative.gte(-v)

    def _gte(self, v: int) -> BitMap:
        if v == LONG_MIN:
            return self._non_null.copy()
        if v >= 0:
            return self.positive.gte(v)
        return self.negative.lte(-v) | self.positive.ebm

    def _lt(self, v: int) -> BitMap:
        return BitMap() if v == LONG_MIN else self._lte(v - 1)

    def _gt(self, v: int) -> BitMap:
        return self._non_null.copy() if v == LONG_MIN else self._gte(v + 1)

    def _lazy(self, literal: Any, fn: Callable[[int], BitMap]) -> FileIndexResult:
        if literal is None:
            return REMAIN
        v = self._value(literal)
        return BitmapResult(lambda: fn(v))

    # -- predicates
    def visit_equal(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, self._eq)

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, lambda v: self._non_null - self._eq(v))

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if any(v is None for v in literals):
            return REMAIN
        values = [self._value(v) for v in literals]
        return BitmapResult(lambda: BitMap.union(BitMap(), *(self._eq(v) for v in values)))

    def visit_not_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if any(v is None for v in literals):
            return REMAIN
        values = [self._value(v) for v in literals]
        return BitmapResult(lambda: self._non_null - BitMap.union(BitMap(), *(self._eq(v) for v in values)))

    def visit_is_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self.null_rows())

    def visit_is_not_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self._non_null.copy())

    def visit_lt(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, self._lt)

    def visit_lte(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, self._lte)

    def visit_gt(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, self._gt)

    def visit_gte(self, literal: Any) -> FileIndexResult:
        return self._lazy(literal, self._gte)

    def visit_between(self, low: Any, high: Any) -> FileIndexResult:
        if low is None or high is None:
            return REMAIN
        lo, hi = self._value(low), self._value(high)
        return BitmapResult(lambda: self._gte(lo) & self._lte(hi))

    # -- top-N (Paimon pushes top-N only to range bitmaps; offered here with the same semantics)
    def null_rows(self) -> BitMap:
        return null_rows(self.row_count, self._non_null)

    def top_values(self, k: int, found_set: BitMap | None, strict: bool, descending: bool) -> BitMap:
        """Non-null rows with the k largest (descending) or smallest values within ``found_set``.

        Descending: the largest non-negative values first, then the negatives of smallest magnitude;
        ascending: the negatives of largest magnitude first, then the smallest non-negative values.
        """
        if k <= 0:
            return BitMap()
        cand = self._non_null if found_set is None else self._non_null & found_set
        if len(cand) <= k:
            return cand.copy()
        first, second = (self.positive, self.negative) if descending else (self.negative, self.positive)
        first_cand = cand & first.ebm
        # the first half is ranked by largest magnitude (positive values descending, negative
        # values' absolute values ascending-order-of-value), the second by smallest magnitude
        if len(first_cand) >= k:
            return first.top(k, first_cand, True, strict)
        return first_cand | second.top(k - len(first_cand), cand & second.ebm, False, strict)
