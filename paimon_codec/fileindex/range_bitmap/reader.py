"""Range-bitmap index lazy reader.

Constructing it reads only the header.  A comparison reads the dictionary's chunk directory once
(:mod:`._dictionary`), then only the chunk whose key range holds the literal, then the BSI
header, the EBM, then every slice in one read; each slice is decoded when the O'Neil comparison
first walks it, and cached.  Literals
outside ``[min, max]`` and IS [NOT] NULL never touch the dictionary or the slices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap

from ...errors import CorruptDataError
from ...fileio import ByteSource
from ...roaring import read_bitmap
from ...types import DataType
from .._once import once
from ..bit_slices import BitSlices, null_rows
from ..keys import KeyCodec
from ..reader import FileIndexReader
from ..result import REMAIN, BitmapResult, FileIndexResult
from ._compiled import compiled_between, jit_kernels, note_reference_rows, scratch_bsi
from ._describe import RangeBitmapDescribe
from ._dictionary import _RangeDictionary
from ._layout import (
    MAX_DECODED_ROWS,
    _as_type,
)

#: DataType by identity -> (the DataType, its codec): a planner opens one reader per file of a scan, all with
#: the same DataType object, and hashing a DataType (every field of it) costs more than the lookup saves
_CODECS: dict[int, tuple[DataType, KeyCodec]] = {}
_MEMO_TYPES = (int, str, bytes)
_MEMO_TYPES_OR_NONE = (*_MEMO_TYPES, type(None))


def _codec_of(dtype: DataType) -> KeyCodec:
    """The range-bitmap key codec of ``dtype``, built once per type object (a codec is immutable)."""
    hit = _CODECS.get(id(dtype))
    if hit is not None and hit[0] is dtype:
        return hit[1]
    codec = KeyCodec(dtype, index="range-bitmap")
    if len(_CODECS) > 256:
        _CODECS.clear()
    _CODECS[id(dtype)] = (dtype, codec)  # holds ``dtype``: its id cannot be reused while cached
    return codec


class RangeBitmapReader(_RangeDictionary, FileIndexReader, RangeBitmapDescribe):
    """Lazy reader of one range-bitmap payload (implements :class:`FileIndexReader` and top-N)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> None:
        self.src = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype = _as_type(dtype)
        self.codec = _codec_of(self.dtype)
        self.key_kind = self.codec.kind
        self._chunk_cache: dict[int, Any] = {}
        self._slice_cache: dict[int, BitMap] = {}
        self._found: dict[tuple[type, Any], int] = {}
        self._answers: dict[tuple[Any, ...], FileIndexResult] = {}
        self._read_header()

    @once
    def _slice_area(self) -> memoryview:
        """Every slice, read at once: a comparison walks most slices, and one read of a hundred kilobytes
        costs less than ~20 small ones (on an object store the BSI is one request anyway).  When the EBM
        (just before the slices) has not been read yet, it comes with them in the same read - the same
        bytes, one request and one system call less a file."""
        _, ebm_len, _, body, end = self._bsi_head
        if self._ebm_data is not None:
            return memoryview(self._bsi_src.read(body + ebm_len, end, "bsi slices"))
        both = memoryview(self._bsi_src.read(body, ebm_len + end, "bsi ebm and slices"))
        self._ebm_data = both[:ebm_len]
        return both[ebm_len:]

    #: the EBM's serialized bytes once read (with the slices, or by :attr:`_ebm`): the compiled comparisons read them
    _ebm_data: bytes | memoryview | None = None

    @once
    def _ebm(self) -> BitMap:
        _, ebm_len, _, body, _ = self._bsi_head
        b = self._bsi_src
        data = self._ebm_data
        if data is None:
            data = self._ebm_data = b.read(body, ebm_len, "bsi ebm")
        bm = read_bitmap(data, what="bsi ebm", offset=b.base + body, path=b.path)
        if bm and bm.max() >= self.row_count:
            raise CorruptDataError(f"ebm holds row {bm.max()} beyond row count {self.row_count}",
                                   path=b.path, offset=b.base + body, expected=f"rows below {self.row_count}")
        return bm

    def _slice(self, i: int) -> BitMap:
        bm = self._slice_cache.get(i)
        if bm is None:
            if self._all_slices is not None:
                return self._all_slices[i]
            _, ebm_len, index, body, _ = self._bsi_head
            off, length = index[i].tolist()
            bm = self._decoded_slice(i, off, length, body + ebm_len)
            self._slice_cache[i] = bm
        return bm

    def _decoded_slice(self, i: int, off: int, length: int, area_at: int) -> BitMap:
        b = self._bsi_src
        bm = read_bitmap(self._slice_area[off:off + length], what=f"bsi slice {i}",
                         offset=b.base + area_at + off, path=b.path)
        if bm and bm.max() >= self.row_count:
            raise CorruptDataError(f"bsi slice {i} holds row {bm.max()} beyond row count {self.row_count}",
                                   path=b.path, offset=b.base + area_at + off, expected=f"rows below {self.row_count}")
        return bm

    _all_slices: list[BitMap] | None = None

    def slices(self) -> list[BitMap]:
        """Every slice, least significant first, decoded in one pass (``<=`` / ``>=`` walk them all): the
        portable bitmaps straight from the slice area, each checked as :meth:`_slice` checks one."""
        out = self._all_slices
        if out is not None:
            return out
        _, ebm_len, index, body, _ = self._bsi_head
        area = self._slice_area
        rows = self.row_count
        out = []
        deserialize = BitMap.deserialize
        for off, length in index.tolist():
            bm = self._slice_cache.get(len(out))
            if bm is None:
                try:  # the fast path of read_bitmap; a failure is decoded again by it for the one error
                    # pyroaring's stub names bytes; it reads any buffer, a memoryview slice here (no copy)
                    bm = deserialize(area[off:off + length])  # type: ignore[arg-type]
                except Exception:  # noqa: BLE001 - re-decoded below to raise our error
                    bm = None
                if bm is None or (bm and bm.max() >= rows) or length < 8:
                    bm = self._decoded_slice(len(out), off, length, body + ebm_len)
            out.append(bm)
        self._all_slices = out
        return out

    @property
    def slice_count(self) -> int:
        return self._bsi_head[0]

    def _max_code(self) -> int:
        return self.cardinality - 1

    @once
    def _bits(self) -> BitSlices:
        """O'Neil comparisons of the row codes (reads the BSI header, EBM and slices on use)."""
        return BitSlices(self._max_code(), lambda: self.slice_count, lambda: self._ebm, self._slice, self.slices)

    def row_codes(self) -> np.ndarray:
        """Code of every row (-1 for null), decoded from all slices (vectorised).

        Allocates one int64 per row: refuses row counts above :data:`MAX_DECODED_ROWS`.
        """
        if self.row_count > MAX_DECODED_ROWS:
            raise CorruptDataError(f"refusing to decode {self.row_count} row codes",
                                   path=self.src.path, expected=f"at most {MAX_DECODED_ROWS} rows")
        codes = np.zeros(self.row_count, dtype=np.int64)
        for i in range(self.slice_count):
            arr = np.frombuffer(self._slice(i).to_array(), dtype=np.uint32)
            codes[arr] |= np.int64(1) << np.int64(i)
        nulls = np.ones(self.row_count, dtype=bool)
        nulls[np.frombuffer(self._ebm.to_array(), dtype=np.uint32)] = False
        codes[nulls] = -1
        return codes

    # -- predicates
    def _lookup(self, literal: Any) -> int | None:
        if literal is None:
            return None
        # asked again by the planner's exactness check: the first ask's answer.  Only ints, strings and bytes
        # are memoised, keyed with their type: values that compare equal across types (1, 1.0, True,
        # Decimal(1); -0.0 and 0.0) may stand for different keys
        memo = type(literal) in _MEMO_TYPES
        if memo:
            code = self._found.get((type(literal), literal))
            if code is not None:
                return code
        code = self.find(self.codec.literal(literal))
        if memo and len(self._found) < 64:
            self._found[(type(literal), literal)] = code
        return code

    # -- the comparisons: compiled (._jit) when loaded, else (and whenever it declines) BitSlices over pyroaring
    def _compiled(self, low: int | None, high: int | None) -> BitMap | None:
        """Rows of the EBM whose code is ``>= low`` and ``<= high`` (None: that side unchecked), by the compiled
        kernel; None when it is not loaded or declines (the caller then asks :class:`BitSlices`)."""
        jit = jit_kernels()
        if jit is None:
            note_reference_rows(self.row_count)
            return None
        if "_slice_area" not in self.__dict__ and self._ebm_data is None:
            # the first comparison of a local file's index: its EBM and slices in the thread's reused buffer (the
            # answer is a bitmap of its own; a later comparison reads them again)
            _, ebm_len, index, body, end = self._bsi_head
            scratch = scratch_bsi(self._bsi_src, body, ebm_len + end)
            if scratch is not None:
                return compiled_between(jit, scratch[:ebm_len], scratch[ebm_len:], index, self.row_count, low, high)
        area = self._slice_area  # first: the EBM comes with the slices when not read yet
        ebm = self._ebm_data
        if ebm is None:
            return None
        return compiled_between(jit, ebm, area, self._bsi_head[2], self.row_count, low, high)

    def _eq(self, value: int) -> BitMap:
        """Rows whose code is ``value`` (:meth:`BitSlices.eq`; the same shortcuts before the kernel)."""
        if 0 < self._max_code() and 0 <= value <= self._max_code():
            bm = self._compiled(value, value)
            if bm is not None:
                return bm
        return self._bits.eq(value)

    def _lte(self, value: int) -> BitMap:
        if 0 <= value < self._max_code():
            bm = self._compiled(None, value)
            if bm is not None:
                return bm
        return self._bits.lte(value)

    def _gte(self, value: int) -> BitMap:
        if 0 < value <= self._max_code():
            bm = self._compiled(value, None)
            if bm is not None:
                return bm
        return self._bits.gte(value)

    def _between(self, low: int, high: int) -> BitMap:
        """``gte(low) & lte(high)`` for ``0 < low <= high < max code``."""
        bm = self._compiled(low, high)
        return bm if bm is not None else self._bits.gte(low) & self._bits.lte(high)

    def visit_equal(self, literal: Any) -> FileIndexResult:
        r = self._lookup(literal)
        if r is None:
            return REMAIN
        return BitmapResult(self._eq(r) if r >= 0 else BitMap())

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        r = self._lookup(literal)
        if r is None:
            return REMAIN
        return BitmapResult(lambda: self._ebm - self._eq(r) if r >= 0 else self._ebm.copy())

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if any(v is None for v in literals):
            return REMAIN
        return BitmapResult(lambda: self._in_rows(literals))

    def visit_not_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if any(v is None for v in literals):
            return REMAIN
        return BitmapResult(lambda: self._ebm - self._in_rows(literals))

    def _in_rows(self, literals: Sequence[Any]) -> BitMap:
        out = BitMap()
        for lit in literals:
            r = self._lookup(lit)
            if r is not None and r >= 0:
                out |= self._eq(r)
        return out

    def visit_is_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self.null_rows())

    def visit_is_not_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self._ebm.copy())

    @staticmethod
    def _below(r: int, inclusive: bool) -> int:
        """Largest code satisfying ``< literal`` (or ``<=``) given find()'s answer."""
        if r >= 0:
            return r if inclusive else r - 1
        return -r - 2

    @staticmethod
    def _above(r: int, inclusive: bool) -> int:
        """Smallest code satisfying ``> literal`` (or ``>=``)."""
        if r >= 0:
            return r if inclusive else r + 1
        return -r - 1

    def _range(self, low: Any, low_incl: bool, high: Any, high_incl: bool) -> FileIndexResult:
        # asked again by the planner's exactness check: the first ask's answer (results are never changed in
        # place), for the literals :meth:`_lookup` memoises, keyed with their types as there
        key = None
        if type(low) in _MEMO_TYPES_OR_NONE and type(high) in _MEMO_TYPES_OR_NONE:
            key = (type(low), low, low_incl, type(high), high, high_incl)
            hit = self._answers.get(key)
            if hit is not None:
                return hit
        lo = None if low is None else self._lookup(low)
        hi = None if high is None else self._lookup(high)

        def compute() -> BitMap:
            if self.cardinality == 0:
                return BitMap()
            a = 0 if lo is None else self._above(lo, low_incl)
            b = self._max_code() if hi is None else self._below(hi, high_incl)
            if a > b:
                return BitMap()
            if a <= 0:
                return self._lte(b)
            if b >= self._max_code():
                return self._gte(a)
            return self._between(a, b)

        answer = BitmapResult(compute)
        if key is not None and len(self._answers) < 64:
            self._answers[key] = answer
        return answer

    def visit_lt(self, literal: Any) -> FileIndexResult:
        return REMAIN if literal is None else self._range(None, True, literal, False)

    def visit_lte(self, literal: Any) -> FileIndexResult:
        return REMAIN if literal is None else self._range(None, True, literal, True)

    def visit_gt(self, literal: Any) -> FileIndexResult:
        return REMAIN if literal is None else self._range(literal, False, None, True)

    def visit_gte(self, literal: Any) -> FileIndexResult:
        return REMAIN if literal is None else self._range(literal, True, None, True)

    def visit_between(self, low: Any, high: Any) -> FileIndexResult:
        if low is None or high is None:
            return REMAIN
        return self._range(low, True, high, True)

    def rebind(self, source: ByteSource) -> None:
        """Read the rest of this payload through ``source``: the same bytes through another handle (a
        planner closes the handle that read the header of each of many files and reopens only the few
        whose slices it needs); what was parsed and cached stays."""
        if source.length != self.src.length:
            raise self._corrupt(f"payload of {source.length} bytes where {self.src.length} were read", 0,
                                f"{self.src.length} bytes")
        self.src = source
        self._dict_src = source.sub(self.dictionary_offset, self.dictionary_length)
        self._bsi_src = source.sub(self.bsi_offset, source.length - self.bsi_offset)

    def prefetch_bit_slices(self) -> None:
        """Announce the BSI (header, EBM, slices) is about to be walked: one request on an object store."""
        self._bsi_src.prefetch(0, self._bsi_src.length)

    # -- top-N
    def top_n_shortcut(self) -> BitMap | None:
        """Paimon quirk: an index without any non-null value answers every top-N query with all its
        (null) rows, whatever k, null ordering, strictness or found set."""
        return self.null_rows() if self.cardinality == 0 else None

    def null_rows(self) -> BitMap:
        return null_rows(self.row_count, self._ebm)

    def top_values(self, k: int, found_set: BitMap | None, strict: bool, descending: bool) -> BitMap:
        """Non-null rows with the k largest (descending) or smallest codes, within ``found_set``."""
        if k <= 0 or self.cardinality == 0:
            return BitMap()
        cand = self._ebm if found_set is None else self._ebm & found_set
        return self._bits.top(k, cand, largest=descending, strict=strict)
