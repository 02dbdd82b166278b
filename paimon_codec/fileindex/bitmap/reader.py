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
    CorruptDataError,
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
from ._describe import BitmapDescribe
from ._dictionary import _FixedTable, _reader_codec, _SmallV1, _V1Dictionary
from ._layout import (
    _EMPTY,
    _INT32,
    _PREFETCH,
    _V1,
    _V1_STRING_OVERHEAD,
    _V2,
    _V2_STRING_OVERHEAD,
    _corrupt,
    _not_increasing,
    _v1_dtype,
    _v2_dtype,
)
from ._many import ManyLookups
from ._v1 import V1Reads
from ._visits import BitmapVisits


def _not_ascending(keys: Any) -> bool:
    """True unless strictly ascending: comparator-ordered ints (numpy) or string keys (bytes, unsigned order)."""
    if isinstance(keys, np.ndarray):
        return _not_increasing(keys)
    return any(b <= a for a, b in zip(keys, keys[1:], strict=False))


class BitmapIndexReader(V1Reads, ManyLookups, BitmapVisits, BitmapDescribe):
    """Lazy reader of a bitmap index payload (V1 or V2)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str,
                 options: Mapping[str, Any] | None = None) -> None:
        self.source = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype, self.codec = _reader_codec(dtype)
        self._cache: dict[Any, BitMap] = {}
        self._null: BitMap | None = None
        self._v1: _V1Dictionary | _SmallV1 | None = None
        self._spans: dict[int | bytes, tuple[int, int]] | None = None  # V1 string keys' bitmaps, see V1Reads._find_v1
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
        self._pre_view = memoryview(pre)
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
        if block_count > 1 and _not_ascending(self._block_first):  # lookups bisect them
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

    # ------------------------------------------------------------------ V2 blocks
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
            if len(blk) != count:
                raise _corrupt(f"index block {i} holds a key twice", src, start, "each key once")
        self._check_block_range(i, blk, start)
        self._blocks[i] = blk
        return blk

    def _check_block_range(self, i: int, blk: Any, start: int) -> None:
        """A block holds the keys from its directory key up to the next block's: a key outside (a corrupt byte)
        would be looked for in another block and not found there, or found where it is not."""
        keys = list(blk) if isinstance(blk, dict) else blk.keys
        if not len(keys):
            return
        if isinstance(blk, dict) and _not_ascending(keys):
            raise _corrupt(f"index block {i} keys are not sorted", self.source, start, "keys in ascending order")
        first, last = keys[0], keys[-1]
        nxt = self._block_first[i + 1] if i + 1 < len(self._block_first) else None
        if first != self._block_first[i] or (nxt is not None and not last < nxt):
            raise _corrupt(f"index block {i} holds keys outside its directory range", self.source, start,
                           "keys from the block's directory key to the next block's")

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
        """A key's (or the nulls') rows; a row at or past the row count makes the index corrupt by name - an
        answer naming rows the file does not have is never handed on."""
        return self._within_rows(self._decode_bitmap(off, length), off)

    def _within_rows(self, bm: BitMap, off: int) -> BitMap:
        """``bm`` (the bitmap at body offset ``off``) when every row it names is below the row count."""
        if bm and bm.max() >= self.row_count:
            src = self.source
            where = src.base + self.body_start + max(off, 0)
            raise CorruptDataError(f"bitmap at body offset {off} names row {bm.max()} of {self.row_count}",
                                   path=src.path, offset=where, expected=f"rows below {self.row_count}")
        return bm

    def _decode_bitmap(self, off: int, length: int) -> BitMap:
        if off < 0:
            return BitMap([-1 - off])
        src = self.source
        size = src.length
        if self.version == _V1:
            if length < 0:  # not worked out by the lookup (_v1_spans): up to the next bitmap
                length = self._v1_extent(off)
        elif length < 0:
            length = size - self.body_start - off
        start = self.body_start + off
        if start + length > size or length < 0:
            raise _corrupt(f"bitmap at body offset {off} ({length} bytes) runs past the payload", src, start,
                          f"a bitmap inside the body ({size - self.body_start} bytes)")
        data = self._view(start, length)
        if length >= 8:  # the checked decoder's fast path (a lookup at a time is what Java is fast at)
            try:
                return BitMap.deserialize(data)  # type: ignore[arg-type]  # any buffer: a view, no copy
            except Exception:  # noqa: BLE001 - decoded again below for the one error these bytes get
                pass
        # the checked decoder: a zero-length (or short) entry, a bad cookie and whatever pyroaring raises
        # on bad bytes (IndexError for an empty buffer) are one CorruptDataError at the bitmap's offset
        return read_bitmap(data, what=f"roaring bitmap at body offset {off}", path=src.path, offset=src.base + start)

    def _view(self, offset: int, size: int) -> bytes | memoryview:
        """:meth:`_read` without the copies where it can: a view of the head read with the header, or of an
        in-memory payload (a bitmap is decoded straight from it: one lookup at a time is what Java is fast at,
        and copying the key's bytes out first was a fifth of a lookup)."""
        pre = self._pre_view
        if offset >= 0 and size >= 0 and offset + size <= len(pre):
            return pre[offset:offset + size]
        return self.source.view(offset, size, "bitmap")

    # ------------------------------------------------------------------ lookups
    def _map_literal(self, literal: Any) -> int | bytes:
        """The key of a non-null literal."""
        try:
            key = self.codec.map_value(literal)
        except (TypeError, ValueError, struct.error, OverflowError) as exc:
            if isinstance(exc, PaimonCodecError):
                raise
            raise InvalidPredicateError(f"literal {literal!r} is not a value of type {self.dtype}") from exc
        if key is None:  # only None maps to None, and every caller handles a null literal itself
            raise InvalidPredicateError("a null literal has no key")
        return key

    def bitmap_of_key(self, key: int | bytes) -> BitMap:
        """Rows holding the (mapped) key; cached."""
        bm = self._cache.get(key)
        if bm is not None:
            return bm
        spans = self._spans
        if spans is not None:  # a reused reader of string keys: one dict lookup
            loc = spans.get(key)
        else:
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
