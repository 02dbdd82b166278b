"""Bitmap index (``"bitmap"``) lazy reader, V1 and V2.

The head is parsed at construction; V1 reads its dictionary once on the first lookup (numpy for
fixed-size keys); V2 reads the block directory and then only the block(s) holding the literals.
Bitmaps read once are cached.

Soundness: for TIMESTAMP(p > 6) keys are micros, so ``<>``/``NOT IN`` answer REMAIN instead of
Java's complement (which would drop rows differing only below a microsecond).
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Mapping
from typing import Any

import construct
import numpy as np
from pyroaring import BitMap

from ... import codec_runtime as _rt
from ...errors import (
    InvalidPredicateError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedVersionError,
)
from ...fileio import ByteSource
from ...formats import translate_error
from ...generated.construct import bitmap_index as _gen
from ...roaring import read_bitmap
from ...types import DataType
from ._dictionary import _FixedTable, _reader_codec, _SmallV1, _V1Dictionary
from ._layout import (
    _EMPTY,
    _INT32,
    _PREFETCH,
    _SMALL_V1,
    _V1,
    _V1_FIELDS,
    _V1_STRING_OVERHEAD,
    _V2,
    _V2_STRING_OVERHEAD,
    _corrupt,
    _NegativeLength,
    _not_increasing,
    _small_v1_struct,
    _string_record_bounds,
    _v1_dtype,
    _v2_dtype,
    _view_at_every_byte,
)
from ._visits import BitmapVisits


class BitmapIndexReader(BitmapVisits):
    """Lazy reader of a bitmap index payload (V1 or V2)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str,
                 options: Mapping[str, Any] | None = None) -> None:
        self.source = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype, self.codec = _reader_codec(dtype)
        self._cache: dict[Any, BitMap] = {}
        self._null: BitMap | None = None
        self._v1: _V1Dictionary | _SmallV1 | None = None
        self._block_first: Any = None  # comparator keys of the V2 block heads (ints, or bytes for strings)
        self._block_first_keys: Any = None
        self._blocks: dict[int, Any] = {}
        self._read_head()

    # ------------------------------------------------------------------ head
    def _read_head(self) -> None:
        src = self.source
        if len(src) < 1:
            raise TruncatedDataError("empty bitmap index payload", path=src.path, offset=src.base,
                                     expected="at least the version byte")
        # one read: the head and, for a small payload, everything a lookup needs (see _PREFETCH)
        pre = self._pre = src.read(0, min(len(src), _PREFETCH), "bitmap index header")
        version = pre[0]
        if version > _V2 and version < 128:
            raise UnsupportedVersionError(f"bitmap index version {version} (this reader supports 1 and 2)",
                                          path=src.path, offset=src.base, expected="version 1 or 2")
        if version not in (_V1, _V2):
            raise _corrupt(f"bad bitmap index version byte {version}", src, 0, "version byte 1 or 2")
        self.version = version
        try:
            head, pos = _gen.fast_parse_bitmap_index_head(pre, key_kind=self.codec.kind)
        except _rt.CodecError as exc:
            if exc.offset is not None:
                exc.offset += src.base
            raise translate_error(exc, src.path, "bitmap index header") from None
        self.row_count, self.non_null_bitmap_number = head["row_count"], head["non_null_bitmap_number"]
        self.has_null_value = head["has_null_value"] != 0
        if self.row_count < 0 or self.non_null_bitmap_number < 0:
            raise _corrupt(f"negative row count {self.row_count} or key count {self.non_null_bitmap_number}", src, 1,
                          "row count and key count >= 0")
        self.null_value_offset = head["null_value_offset"] if self.has_null_value else 0
        self.null_bitmap_length = head["null_bitmap_length"] if head["null_bitmap_length"] is not None else -1
        nd = self.non_null_bitmap_number
        min_entry = _v1_dtype(self.codec).itemsize if self.codec.kind != "string" else _V1_STRING_OVERHEAD
        if nd * min_entry > len(src) - pos:
            raise _corrupt(f"{nd} dictionary entries cannot fit in {len(src) - pos} bytes", src, 5,
                          f"at most {(len(src) - pos) // min_entry} entries of >= {min_entry} bytes")
        if version == _V1:
            self._dict_start = pos
            if self.codec.kind != "string":
                self.body_start = pos + nd * _v1_dtype(self.codec).itemsize
            else:
                self.body_start = -1  # known after the dictionary is parsed
            return
        block_count = self._int32(pos, "index block count")
        pos += _INT32.size
        if block_count < 0 or block_count * min_entry > len(src) - pos or block_count > nd or \
                (nd > 0 and block_count == 0):
            raise _corrupt(f"bad index block count {block_count} for {nd} keys", src, pos - _INT32.size,
                          f"1 to {min(nd, max(0, (len(src) - pos) // min_entry))} blocks (0 only without keys)")
        codec = self.codec
        if codec.kind != "string":
            dt = _v1_dtype(codec)  # block_head: key, block_offset
            raw = np.frombuffer(self._read(pos, block_count * dt.itemsize, "index block directory"), dtype=dt)
            pos += block_count * dt.itemsize
            self._block_first_keys = raw["key"].astype(codec.np_dtype)
            self._block_first = codec.sort_keys(self._block_first_keys)
            block_offsets = raw["offset"].astype(np.int64)
        else:
            firsts, block_offsets, pos = self._string_directory(pos, block_count)
            self._block_first = firsts  # bytes compare like the comparator
            self._block_first_keys = firsts
        body_offset = self._int32(pos, "bitmap body offset")
        pos += _INT32.size
        self.index_block_start = pos
        self.body_start = pos + body_offset
        if body_offset < 0 or self.body_start > len(src):
            raise _corrupt(f"bitmap body offset {body_offset} outside the payload", src, pos - _INT32.size,
                          f"0 to {len(src) - pos}")
        ends = np.append(block_offsets[1:], body_offset)
        if block_count and (block_offsets[0] != 0 or np.any(ends - block_offsets < _INT32.size)):
            raise _corrupt("index block offsets are not increasing from 0", src, self.index_block_start,
                          "block offsets from 0, each block at least 4 bytes, the last before the body offset")
        self._block_offsets = block_offsets
        self._block_ends = ends
        if codec.kind != "string" and block_count > 1 and _not_increasing(self._block_first):
            raise _corrupt("index block first keys are not sorted", src, self.index_block_start,
                          "block first keys in ascending order")

    def _int32(self, pos: int, what: str) -> int:
        return _INT32.unpack(self._read(pos, _INT32.size, what))[0]

    def _read(self, offset: int, size: int, what: str) -> bytes:
        """``size`` bytes at ``offset``: from the bytes read with the head when they hold them."""
        pre = self._pre
        if offset >= 0 and size >= 0 and offset + size <= len(pre):
            return pre[offset:offset + size]
        return self.source.read(offset, size, what)

    def _string_records(self, start: int, count: int, columns: Any, what: str) -> tuple[dict, int]:
        """``count`` string-keyed records at ``start`` parsed by the generated columnar parser
        ``columns`` into parallel lists (keys as bytes), and the offset after the last one.

        Reads a guess, and more while the records run past what was read (never past the payload).
        """
        src = self.source
        avail = len(src) - start
        size = min(avail, max(4096, count * 24))
        data = self._read(start, size, what)
        while True:
            try:
                cols, end = columns(data, 0, len(data), count, "string")
                return cols, end
            except _rt.CodecError as exc:
                if exc.kind not in ("truncated", "count") or size == avail:
                    raise _corrupt(f"{what} runs past the payload or holds a negative length ({exc})", src,
                                   start + (exc.offset or 0), f"{count} records inside the payload") from None
            # the records run past what was read: read more and parse again
            size = min(avail, size * 2)
            data = data + src.read(start + len(data), size - len(data), what)

    def _string_directory(self, pos: int, block_count: int) -> tuple[list[bytes], np.ndarray, int]:
        """The V2 block directory of string keys (``block_head`` records: key, block_offset)."""
        if block_count == 0:
            return [], np.zeros(0, np.int64), pos
        cols, end = self._string_records(pos, block_count, _gen.columns_bitmap_index_v2_head_block_heads,
                                         "index block directory")
        return list(cols["key"]), np.asarray(cols["block_offset"], dtype=np.int64), pos + end

    # ------------------------------------------------------------------ dictionary access
    def _load_v1(self) -> _V1Dictionary | _SmallV1:
        """The V1 dictionary: read once, validated (every bitmap offset inside the body)."""
        if self._v1 is not None:
            return self._v1
        src, codec, nd = self.source, self.codec, self.non_null_bitmap_number
        if codec.kind != "string":
            dt = _v1_dtype(codec)
            data = self._read(self._dict_start, nd * dt.itemsize, "bitmap dictionary")
            v1: _V1Dictionary | _SmallV1
            if nd <= _SMALL_V1:
                ints = _small_v1_struct(codec, nd).unpack(data)
                small = v1 = _SmallV1(ints[0::2], ints[1::2])
                top = max(small.offsets, default=-1)
            else:
                raw = np.frombuffer(data, dtype=dt)
                full = v1 = _V1Dictionary(raw["offset"], raw_keys=raw["key"])  # big-endian views, no copy
                top = int(full.offsets.max())
        else:
            walked = v1 = self._walk_string_dictionary()
            top = int(walked.offsets.max()) if nd else -1
        if self.body_start > len(src):
            raise _corrupt("bitmap dictionary runs past the payload", src, self._dict_start,
                          f"the dictionary inside the payload ({len(src)} bytes)")
        body_len = len(src) - self.body_start
        if self.has_null_value and self.null_value_offset > top:
            top = self.null_value_offset
        if top >= body_len:
            raise _corrupt(f"bitmap offset {top} beyond the body ({body_len} bytes)", src, self.body_start,
                          f"bitmap offsets below {body_len}")
        v1.body_len = body_len
        self._v1 = v1
        return v1

    def _walk_string_dictionary(self) -> _V1Dictionary:
        """Walk the V1 string records (``int32 length, key bytes, int32 offset``) once.

        Only the record bounds are collected (:func:`_string_record_bounds`); offsets are then gathered
        with numpy and keys sliced only if a lookup table or ``describe`` needs them.
        Reads a guess, and more while the records run past what was read (never past the payload).
        """
        src, nd, start = self.source, self.non_null_bitmap_number, self._dict_start
        avail = len(src) - start
        size = min(avail, max(4096, nd * 24))
        data = self._read(start, size, "bitmap dictionary")
        while True:
            try:
                starts = _string_record_bounds(data, nd)
            except _NegativeLength as exc:
                raise _corrupt("bitmap dictionary holds a negative key length", src, start + exc.at,
                               "key length >= 0") from None
            if starts is not None:
                break
            if size == avail:
                raise _corrupt("bitmap dictionary runs past the payload or holds a negative length", src,
                               start, f"{nd} records inside the payload ({avail} bytes from here)")
            size = min(avail, size * 2)  # the records run past what was read: read more and walk again
            data = data + src.read(start + len(data), size - len(data), "bitmap dictionary")
        self.body_start = start + int(starts[-1])
        if nd:
            off = _V1_FIELDS[0]
            offsets = _view_at_every_byte(data, off)[starts[1:] - off.itemsize].astype(np.int64)
        else:
            offsets = np.zeros(0, np.int64)
        return _V1Dictionary(offsets, data=data, starts=starts)

    def _v1_extent(self, off: int) -> int:
        """Bytes from body offset ``off`` to the next bitmap (or the end of the payload)."""
        v1 = self._load_v1()
        if isinstance(v1, _SmallV1):
            return v1.extent(off, self.null_value_offset if self.has_null_value and self.null_value_offset >= 0
                             else None)
        if v1.sorted_starts is None and not v1.extents_asked:
            v1.extents_asked = True  # one bitmap: a masked minimum, no sort
            later = v1.offsets[v1.offsets > off]
            nxt = int(later.min()) if len(later) else v1.body_len
        else:
            if v1.sorted_starts is None:
                starts = v1.offsets[v1.offsets >= 0]
                if self.has_null_value and self.null_value_offset >= 0:
                    starts = np.append(starts, self.null_value_offset)
                v1.sorted_starts = np.sort(starts)
            starts = v1.sorted_starts
            i = int(np.searchsorted(starts, off, side="right"))
            return (int(starts[i]) if i < len(starts) else v1.body_len) - off
        if self.has_null_value and off < self.null_value_offset < nxt:
            nxt = self.null_value_offset
        return nxt - off

    def _find_v1(self, key: int | bytes) -> tuple[int, int] | None:
        v1 = self._load_v1()
        if isinstance(v1, _SmallV1):
            i = v1.find(key) if isinstance(key, int) else -1  # small dictionaries hold fixed keys only
            return None if i < 0 else (v1.offsets[i], -1)
        v1.lookups += 1
        if self.codec.kind == "string":
            if v1.lookups == 1:
                # kind "string": the codec maps literals to bytes (KeyCodec's int | bytes is split by kind)
                i = v1.find_string_once(key)  # type: ignore[arg-type]
            else:
                i = v1.string_table().get(key, -1)
            return None if i < 0 else (int(v1.offsets[i]), -1)
        if v1.lookups == 1:
            # a fixed kind: the codec maps literals to ints
            i = v1.find_fixed_once(key)  # type: ignore[arg-type]
        else:
            i = v1.fixed_table(self.codec).find(self.codec.sort_key(key))
        return None if i < 0 else (int(v1.offsets[i]), -1)

    def _block(self, i: int) -> Any:
        blk = self._blocks.get(i)
        if blk is not None:
            return blk
        src, codec = self.source, self.codec
        start = self.index_block_start + int(self._block_offsets[i])
        size = int(self._block_ends[i] - self._block_offsets[i])
        data = self._read(start, size, "index block")
        if codec.kind != "string":
            try:
                parsed = _gen.IndexBlock.parse(data, key_kind=codec.kind)
            except construct.ConstructError as exc:
                raise _corrupt(f"index block {i}: {translate_error(exc, None, 'index block')}", src, start,
                               f"an entry count and its entries within the block ({size} bytes)") from None
            raw = parsed.entries.view(_v2_dtype(codec))
            if _INT32.size + len(raw) * raw.dtype.itemsize != size:
                raise _corrupt(f"index block {i} holds {len(raw)} entries but is {size} bytes", src, start,
                               f"4 + {len(raw)} x {raw.dtype.itemsize} bytes")
            sk = codec.sort_keys(raw["key"].astype(codec.np_dtype))
            if len(raw) > 1 and _not_increasing(sk):
                raise _corrupt(f"index block {i} keys are not sorted", src, start, "keys in ascending order")
            blk = _FixedTable(sk, (raw["offset"].astype(np.int64), raw["length"].astype(np.int64)),
                              already_sorted=True)
        else:
            count = _INT32.unpack_from(data)[0] if size >= _INT32.size else -1
            if count < 0 or count * _V2_STRING_OVERHEAD > size - _INT32.size:
                raise _corrupt(f"index block {i} holds {count} entries but is {size} bytes", src, start,
                               f"0 to {max(0, size - _INT32.size) // _V2_STRING_OVERHEAD} entries")
            try:
                cols, end = _gen.columns_index_block_entries(data, _INT32.size, size, count, "string")
            except _rt.CodecError as exc:
                raise _corrupt(f"index block {i}: {exc}", src, start + (exc.offset or 0),
                               f"{count} entries within the block ({size} bytes)") from None
            if end != size:
                raise _corrupt(f"index block {i} entries do not fill the block", src, start + end,
                               f"entries ending at the block's end ({size} bytes)")
            offs = np.asarray(cols["offset"], dtype=np.int64).tolist()
            lns = np.asarray(cols["length"], dtype=np.int64).tolist()
            blk = dict(zip(list(cols["key"]), zip(offs, lns, strict=True), strict=True))
        self._blocks[i] = blk
        return blk

    def _find_v2(self, key: int | bytes) -> tuple[int, int] | None:
        if not len(self._block_offsets):
            return None
        sk = self.codec.sort_key(key)
        if self.codec.kind == "string":
            i = bisect.bisect_right(self._block_first, sk) - 1
        else:
            try:
                i = int(self._block_first.searchsorted(self._block_first.dtype.type(sk), side="right")) - 1
            except OverflowError:  # a literal outside the key type's range matches nothing
                return None
        if i < 0:
            return None
        blk = self._block(i)
        if self.codec.kind == "string":
            return blk.get(key)
        j = blk.find(sk)
        return None if j < 0 else (int(blk.cols[0][j]), int(blk.cols[1][j]))

    def _read_bitmap(self, off: int, length: int) -> BitMap:
        if off < 0:
            return BitMap([-1 - off])
        src = self.source
        if self.version == _V1:
            length = self._v1_extent(off)
        elif length < 0:
            length = len(src) - self.body_start - off
        start = self.body_start + off
        if start + length > len(src) or length < 0:
            raise _corrupt(f"bitmap at body offset {off} ({length} bytes) runs past the payload", src, start,
                          f"a bitmap inside the body ({len(src) - self.body_start} bytes)")
        data = self._read(start, length, "bitmap")
        # the checked decoder: a zero-length (or short) entry, a bad cookie and whatever pyroaring raises
        # on bad bytes (IndexError for an empty buffer) are one CorruptDataError at the bitmap's offset
        return read_bitmap(data, what=f"roaring bitmap at body offset {off}", path=src.path, offset=src.base + start)

    # ------------------------------------------------------------------ lookups
    def _map_literal(self, literal: Any) -> int | bytes:
        try:
            return self.codec.map_value(literal)
        except (TypeError, ValueError, struct.error, OverflowError) as exc:
            if isinstance(exc, PaimonCodecError):
                raise
            raise InvalidPredicateError(f"literal {literal!r} is not a value of type {self.dtype}") from exc

    def bitmap_of_key(self, key: int | bytes) -> BitMap:
        """Rows holding the (mapped) key; cached."""
        bm = self._cache.get(key)
        if bm is not None:
            return bm
        loc = self._find_v1(key) if self.version == _V1 else self._find_v2(key)
        bm = _EMPTY if loc is None else self._read_bitmap(*loc)
        self._cache[key] = bm
        return bm

    def lookup(self, literal: Any) -> BitMap:
        """Rows equal to ``literal`` (a column value); ``None`` gives the null rows (as Java)."""
        if literal is None:
            return self.null_bitmap()
        return self.bitmap_of_key(self._map_literal(literal))

    def null_bitmap(self) -> BitMap:
        if self._null is None:
            if not self.has_null_value:
                self._null = _EMPTY
            elif self.version == _V1:
                self._null = self._read_bitmap(self.null_value_offset, -1)
            else:
                self._null = self._read_bitmap(self.null_value_offset, self.null_bitmap_length)
        return self._null

    # ------------------------------------------------------------------ structure (tests / inspect)
    def describe(self) -> dict:
        """The decoded structure (reads everything), in the golden ``expected_meta`` shape."""
        from ._describe import describe

        return describe(self)
