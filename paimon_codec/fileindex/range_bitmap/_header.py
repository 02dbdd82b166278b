"""The range-bitmap payload's headers: its own (row count, cardinality, min / max keys, dictionary length) and
the BSI's (slices, EBM, slice references), read through the generated codecs and checked; parsed heads are
remembered by their bytes (:mod:`..parse_memo`).  A mixin of :class:`~.reader.RangeBitmapReader`, like
:class:`~._dictionary._RangeDictionary`: it declares what it reads of the reader.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import CorruptDataError, UnsupportedVersionError
from ...fileio import ByteSource
from ...formats import translate_error
from ...generated.construct import paimon_key as _key
from ...generated.construct import range_bitmap as _codec
from .._field import number_at
from .._once import once
from ..keys import KeyCodec
from ..parse_memo import remembered
from ._layout import _DICT_HEADER_LENGTH, _MAX_SLICES, _MIN_HEADER_LENGTH, _SLICE_REF_SIZE, VERSION

__all__ = ["_RangeHeader"]


class _RangeHeader:
    """The base of :class:`~._dictionary._RangeDictionary`: the key conversions it calls (``_stored``,
    ``_cmp_key``) are the dictionary's."""

    src: ByteSource
    codec: KeyCodec
    key_kind: str
    cardinality: int
    _stored: Any
    _cmp_key: Any

    # -- errors
    def _corrupt(self, message: str, offset: int, expected: str | None = None) -> CorruptDataError:
        return CorruptDataError(message, path=self.src.path, offset=self.src.base + offset, expected=expected)

    def _length_prefix(self, src: ByteSource, what: str) -> int:
        """The int32 length that starts ``src`` (header, dictionary header or BSI header length)."""
        kind = self.key_kind
        if what == "range-bitmap header length":
            return _codec.fast_parse_range_bitmap_prefix(
                src.read(0, _codec.RANGE_BITMAP_PREFIX_SIZE, what), key_kind=kind)[0]["header_length"]
        if what == "dictionary header length":
            return _codec.fast_parse_dictionary_prefix(
                src.read(0, _codec.DICTIONARY_PREFIX_SIZE, what), key_kind=kind)[0]["dict_header_length"]
        return _codec.fast_parse_bit_sliced_index_prefix(
            src.read(0, _codec.BIT_SLICED_INDEX_PREFIX_SIZE, what))[0]["bsi_header_length"]

    # -- header
    def _read_header(self) -> None:
        src = self.src
        h = self._length_prefix(src, "range-bitmap header length")
        at = _codec.RANGE_BITMAP_PREFIX_SIZE
        if h < _MIN_HEADER_LENGTH or h > src.length - at:
            raise self._corrupt(f"header length {h} does not fit {src.length} bytes", 0,
                                f"{_MIN_HEADER_LENGTH}..{src.length - at}")
        head = src.read(at, h, "range-bitmap header")
        codec = self.codec
        # the same header bytes in a payload of the same size, for the same key type, parse the same
        (self.row_count, self.cardinality, self.min_key, self.max_key, self._min_cmp, self._max_cmp,
         dict_len) = remembered("range-bitmap header", (head, src.length, codec.kind, codec.root), len(head),
                                lambda: self._header_fields(head))
        self.header_length = h
        self.dictionary_offset = at + h
        self.dictionary_length = dict_len
        self.bsi_offset = at + h + dict_len
        self._dict_src = src.sub(self.dictionary_offset, dict_len)
        self._bsi_src = src.sub(self.bsi_offset, src.length - self.bsi_offset)

    def _header_fields(self, head: bytes) -> tuple[int, int, Any, Any, Any, Any, int]:
        """(row count, cardinality, min key, max key, their comparable forms, dictionary length), checked."""
        src = self.src
        at = _codec.RANGE_BITMAP_PREFIX_SIZE
        h = len(head)
        version = number_at(head, _codec.RANGE_BITMAP_VERSION_DTYPE, _codec.RANGE_BITMAP_VERSION_AT)
        where = at + _codec.RANGE_BITMAP_VERSION_AT
        if version > VERSION:
            raise UnsupportedVersionError(f"range-bitmap version {version} is not supported",
                                          path=src.path, offset=src.base + where, expected=f"<= {VERSION}")
        if version != VERSION:
            raise self._corrupt(f"range-bitmap version {version}", where, str(VERSION))
        parsed = self._parse_header(head)
        row_count, cardinality = parsed["row_count"], parsed["cardinality"]
        if row_count < 0 or cardinality < 0 or cardinality > row_count:
            raise self._corrupt(f"row count {row_count} / cardinality {cardinality} impossible", 5,
                                "0 <= cardinality <= row count")
        min_key: Any = None
        max_key: Any = None
        min_cmp: Any = None
        max_cmp: Any = None
        if cardinality > 0:
            if parsed["min"] is None or parsed["max"] is None:
                raise self._corrupt("header without min/max keys for a non-empty dictionary", at + _MIN_HEADER_LENGTH,
                                    "min and max keys when the cardinality is > 0")
            min_key = self._stored(parsed["min"])
            max_key = self._stored(parsed["max"])
        dict_len = parsed["dictionary_length"]
        if dict_len < _codec.DICTIONARY_PREFIX_SIZE + _DICT_HEADER_LENGTH or dict_len > src.length - at - h:
            raise self._corrupt(f"dictionary length {dict_len} does not fit", h,
                                f"{_codec.DICTIONARY_PREFIX_SIZE + _DICT_HEADER_LENGTH} to {src.length - at - h}")
        if cardinality > 0:
            min_cmp = self._cmp_key(min_key)
            max_cmp = self._cmp_key(max_key)
            if min_cmp > max_cmp:
                raise self._corrupt("min key is greater than max key", _codec.RANGE_BITMAP_PREFIX_SIZE + _MIN_HEADER_LENGTH,
                                    "min key <= max key")
        return row_count, cardinality, min_key, max_key, min_cmp, max_cmp, dict_len

    def _parse_header(self, head: bytes) -> Any:
        """The range-bitmap header: the generated straight-line parsers for fixed-width keys (the Construct
        codec costs ~150 us a header, the largest part of opening one of many files), Construct for strings."""
        kind = self.key_kind
        if kind == "string":
            return self._generated(_codec.RangeBitmapHeader, head, "range-bitmap header", _codec.RANGE_BITMAP_PREFIX_SIZE,
                                   key_kind=kind)
        try:
            parsed, p = _codec.fast_parse_range_bitmap_header_counts(head, key_kind=kind)
            parsed["min"] = parsed["max"] = None
            if parsed["cardinality"] > 0:
                parsed["min"] = (low := _key.fast_parse_paimon_key(head, p, kind=kind))[0]["value"]
                parsed["max"] = (high := _key.fast_parse_paimon_key(head, low[1], kind=kind))[0]["value"]
                p = high[1]
            parsed.update(_codec.fast_parse_range_bitmap_header_dictionary_length(head, p, key_kind=kind)[0])
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, self.src.path, "range-bitmap header").with_base_offset(
                self.src.base + _codec.RANGE_BITMAP_PREFIX_SIZE) from None
        return parsed

    def _generated(self, con: Any, data: bytes, what: str, at: int, **params: Any) -> Any:
        """Parse ``data`` (which sits at payload offset ``at``) with a generated Construct codec."""
        try:
            return con.parse(data, **params)
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, self.src.path, what).with_base_offset(self.src.base + at) from None


    @once
    def _bsi_head(self) -> tuple[int, int, np.ndarray, int, int]:
        """(slice count, ebm length, slice (offset, length) pairs, body offset, end of the slices after the EBM)."""
        b = self._bsi_src
        at = _codec.BIT_SLICED_INDEX_PREFIX_SIZE
        bhl = self._length_prefix(b, "bsi header length")
        if bhl < _codec.BSI_HEADER_FIXED_SIZE or bhl > b.length - at:
            raise CorruptDataError(f"bsi header length {bhl}", path=b.path, offset=b.base,
                                   expected=f"{_codec.BSI_HEADER_FIXED_SIZE} to {b.length - at}")
        head = b.read(at, bhl, "bsi header")
        # the same header bytes in a BSI of the same size and cardinality parse the same (parse_memo)
        return remembered("range-bitmap bsi header", (head, b.length, self.cardinality), len(head),
                          lambda: self._parsed_bsi_head(head, bhl))

    def _parsed_bsi_head(self, head: bytes, bhl: int) -> tuple[int, int, np.ndarray, int, int]:
        b = self._bsi_src
        version = number_at(head, _codec.BSI_HEADER_VERSION_DTYPE, _codec.BSI_HEADER_VERSION_AT)
        if version > _codec.BIT_SLICE_INDEX_VERSION_V1:
            raise UnsupportedVersionError(f"bsi version {version}", path=b.path,
                                          offset=b.base + _codec.BIT_SLICED_INDEX_PREFIX_SIZE
                                          + _codec.BSI_HEADER_VERSION_AT,
                                          expected=f"<= {_codec.BIT_SLICE_INDEX_VERSION_V1}")
        try:
            hb, at = _codec.fast_parse_bsi_header_fixed(head)
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, b.path, "bsi header").with_base_offset(
                b.base + _codec.BIT_SLICED_INDEX_PREFIX_SIZE) from None
        slices, ebm_len, index_len = hb["slice_count"], hb["ebm_length"], hb["indexes_length"]
        body = _codec.BIT_SLICED_INDEX_PREFIX_SIZE + bhl
        if slices < 1 or slices > _MAX_SLICES or index_len != _SLICE_REF_SIZE * slices or _codec.BSI_HEADER_FIXED_SIZE + index_len > bhl \
                or ebm_len < 8 or body + ebm_len > b.length:
            raise CorruptDataError(f"bsi header ({slices} slices, ebm {ebm_len} bytes) is inconsistent",
                                   path=b.path, offset=b.base,
                                   expected=f"1 to {_MAX_SLICES} slices with {_SLICE_REF_SIZE}-byte refs in the "
                                            f"header, an ebm of >= 8 bytes inside the payload")
        if self.cardinality > 0 and (1 << slices) < self.cardinality and slices < 63:
            raise CorruptDataError(f"{slices} slices cannot hold {self.cardinality} codes", path=b.path,
                                   offset=b.base, expected=f"2^slices >= {self.cardinality}")
        refs = np.frombuffer(head, _codec.BSI_HEADER_SLICE_REFS_DTYPE, slices, at)
        index = np.empty((slices, 2), dtype=np.int64)
        index[:, 0], index[:, 1] = refs["offset"], refs["length"]
        room = b.length - body - ebm_len
        end = int((index[:, 0] + index[:, 1]).max())
        if index.min() < 0 or end > room:
            raise CorruptDataError("bsi slice runs past the payload", path=b.path, offset=b.base,
                                   expected=f"slice offsets and lengths >= 0 within {room} bytes after the ebm")
        index.flags.writeable = False  # shared by every reader of these bytes (parse_memo)
        return slices, ebm_len, index, body, end

