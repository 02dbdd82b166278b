"""Bitmap index (``"bitmap"``) writer, V1 and V2 (vectorised).

Keys are mapped per :mod:`.keys`, dictionary-encoded (numpy ``unique`` for fixed-size keys, pyarrow
``dictionary_encode`` for strings), rows grouped per key with one stable argsort, every non-singleton
bitmap built from a contiguous slice and serialized after ``run_optimize()`` (Java's bytes).  Singletons
are stored as ``-1 - row``.  Body order and the V1 dictionary order are Java ``HashMap`` order
(:mod:`.javamap`); V2 entries are sorted by the type's comparator and cut into index blocks by
``index-block-size``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...errors import (
    InvalidOptionError,
)
from ...roaring import bitmap_of
from ...types import DataType, parse_type
from ..javamap import hashmap_order
from ..keys import KeyCodec
from ..options import check_index_type
from ._layout import (
    _INT32,
    _V1,
    _V2,
    _V2_STRING_OVERHEAD,
    _build_head,
    _int32,
    _pack_records,
    _parse_options,
    _v2_dtype,
    serialize_bitmap,
)


def _tiebreak(codec: KeyCodec, keys: np.ndarray | pa.Array):
    """``compareTo`` order of key ``j`` (for equal-hash keys in Java tree bins)."""
    def key(j: int):
        k = keys[j].as_py() if isinstance(keys, pa.Array) else int(keys[j])
        return codec.sort_key(k)
    return key


def _take_keys(keys: np.ndarray | pa.Array, idx: np.ndarray) -> np.ndarray | pa.Array:
    if isinstance(keys, pa.Array):
        return keys.take(pa.array(idx, type=pa.int64()))
    return keys[idx]


class _Encoded:
    """Dictionary encoding of the non-null rows of a column."""

    def __init__(self, codec: KeyCodec, keys: np.ndarray | pa.Array, valid: np.ndarray) -> None:
        self.row_count = len(valid)
        nn = None if valid.all() else np.flatnonzero(valid)
        self.nn = nn  # row positions of non-null values (None = all rows)
        if codec.kind == "string":
            skeys = cast("pa.Array", keys)  # string keys are a pyarrow binary array
            arr = skeys if nn is None else skeys.take(pa.array(nn, type=pa.int64()))
            enc = arr.dictionary_encode() if len(arr) else pa.DictionaryArray.from_arrays(
                pa.array([], pa.int32()), pa.array([], pa.binary()))
            self.codes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int64)
            self.dict_keys = enc.dictionary  # in insertion (first occurrence) order
            nd = len(self.dict_keys)
            self.insertion = np.arange(nd)
            self.sorted = pc.sort_indices(self.dict_keys).to_numpy() if nd else np.zeros(0, np.int64)
            self.first_pos = self._first_positions_in_order(nd)
        else:
            vals = np.asarray(keys)
            if nn is not None:
                vals = vals[nn]
            sk = codec.sort_keys(vals)
            uniq, first, inverse = np.unique(sk, return_index=True, return_inverse=True)
            self.codes = inverse.reshape(-1)
            self.dict_keys = vals[first]  # sorted order (codes are comparator ranks)
            self.sorted = np.arange(len(uniq))
            self.first_pos = first
            self.insertion = np.argsort(first, kind="stable")
        self.counts = np.bincount(self.codes, minlength=len(self.first_pos)) if len(self.codes) else \
            np.zeros(len(self.first_pos), np.int64)

    def _first_positions_in_order(self, nd: int) -> np.ndarray:
        """First occurrence of each code when codes are numbered in first-occurrence order."""
        codes = self.codes
        if nd == 0:
            return np.zeros(0, np.int64)
        run_max = np.maximum.accumulate(codes)
        new = np.empty(len(codes), dtype=bool)
        new[0] = True
        new[1:] = codes[1:] > run_max[:-1]
        return np.flatnonzero(new)

    def rows_of_code(self, pos: np.ndarray) -> np.ndarray:
        return pos if self.nn is None else self.nn[pos]


class BitmapIndexWriter:
    """Builds a bitmap index payload (V1 or V2) from column values."""

    index_type = "bitmap"

    def __init__(self, dtype: DataType | str, options: Mapping[str, Any] | None = None) -> None:
        self.dtype = parse_type(dtype)
        check_index_type("bitmap", self.dtype)
        self.codec = KeyCodec(self.dtype, index="bitmap")
        self.version, self.block_size = _parse_options(options)
        self._chunks: list[tuple[np.ndarray | pa.Array, np.ndarray]] = []
        self._pending: list[Any] = []

    def write_array(self, values: Any) -> None:
        """Append a column chunk (pyarrow / numpy array or list)."""
        self._flush_pending()
        self._chunks.append(self.codec.map_array(values))

    def write(self, value: Any) -> None:
        """Append one value (``None`` = null)."""
        self._pending.append(value)

    def _flush_pending(self) -> None:
        if self._pending:
            self._chunks.append(self.codec.map_array(self._pending))
            self._pending = []

    def _column(self) -> tuple[np.ndarray | pa.Array, np.ndarray]:
        self._flush_pending()
        if not self._chunks:
            return self.codec.map_array([])
        if len(self._chunks) == 1:
            return self._chunks[0]
        valid = np.concatenate([v for _, v in self._chunks])
        if self.codec.kind == "string":
            return pa.concat_arrays([k for k, _ in self._chunks]), valid
        return np.concatenate([np.asarray(k) for k, _ in self._chunks]), valid

    def serialize(self) -> bytes:
        """The index payload (V1 or V2 per the ``version`` option)."""
        return _serialize(self)


def _v2_blocks(codec: KeyCodec, sorted_keys: np.ndarray | pa.Array, limit: int) -> list[tuple[int, int]]:
    """Cut the sorted entries into blocks: ``[(first_entry, end_entry), ...]``."""
    n = len(sorted_keys)
    if n == 0:
        return []
    if codec.kind != "string":
        cost = _v2_dtype(codec).itemsize
        if _INT32.size + cost > limit:
            raise InvalidOptionError(f"bitmap index entry of {cost} bytes does not fit an index block of "
                                     f"{limit} bytes (index fail)")
        per = (limit - _INT32.size) // cost
        return [(s, min(s + per, n)) for s in range(0, n, per)]
    lens = pc.binary_length(sorted_keys).to_numpy(zero_copy_only=False).astype(np.int64)
    costs = _V2_STRING_OVERHEAD + lens
    if int(costs.max()) + _INT32.size > limit:
        raise InvalidOptionError(f"bitmap index entry of {int(costs.max())} bytes does not fit an index block "
                                 f"of {limit} bytes (index fail)")
    cum = np.concatenate(([0], np.cumsum(costs)))
    out = []
    s = 0
    while s < n:
        # largest e with cum[e] - cum[s] <= limit - (the block's entry count)
        e = int(np.searchsorted(cum, cum[s] + limit - _INT32.size, side="right")) - 1
        e = max(e, s + 1)
        out.append((s, e))
        s = e
    return out


def _serialize(self: BitmapIndexWriter) -> bytes:
    keys, valid = self._column()
    codec = self.codec
    enc = _Encoded(codec, keys, valid)
    n = enc.row_count
    if n > 0x7FFFFFFF:
        raise InvalidOptionError(f"bitmap index over {n} rows exceeds Java's int row count")
    nd = len(enc.first_pos)
    null_rows = np.flatnonzero(~valid) if enc.nn is not None else np.zeros(0, np.int64)
    has_null = len(null_rows) > 0
    null_bytes = serialize_bitmap(bitmap_of(null_rows)) if has_null else b""
    body: list[bytes] = []
    body_len = 0
    if len(null_rows) > 1:
        body.append(null_bytes)
        body_len = len(null_bytes)
        null_offset = 0
    elif has_null:
        null_offset = -1 - int(null_rows[0])
    else:
        null_offset = 0
    ins = enc.insertion
    ins_keys = _take_keys(enc.dict_keys, ins)
    hashes = codec.hash_codes(ins_keys.to_pylist() if isinstance(ins_keys, pa.Array) else ins_keys)
    trailing = nd > 0 and int(enc.first_pos[ins[-1]]) < len(enc.codes) - 1
    tiebreak = _tiebreak(codec, ins_keys)
    order = hashmap_order(hashes, trailing, tiebreak)
    hm_codes = ins[order]
    offsets = np.empty(nd, dtype=np.int64)
    lengths = np.full(nd, -1, dtype=np.int64)
    single = enc.counts == 1
    offsets[single] = -1 - enc.rows_of_code(enc.first_pos[single])
    multi_hm = hm_codes[~single[hm_codes]]
    if len(multi_hm):
        codes = enc.codes
        if nd <= 0xFFFF:  # 16-bit codes sort with numpy's radix sort
            codes = codes.astype(np.uint16)
        grouped = np.argsort(codes, kind="stable")
        starts = np.concatenate(([0], np.cumsum(enc.counts)[:-1]))
        rows = enc.rows_of_code(grouped)
        counts = enc.counts
        for c in multi_hm.tolist():
            s = starts[c]
            data = serialize_bitmap(bitmap_of(rows[s:s + counts[c]]))
            offsets[c] = body_len
            lengths[c] = len(data)
            body.append(data)
            body_len += len(data)
    if body_len > 0x7FFFFFFF:
        raise InvalidOptionError("bitmap index body exceeds 2 GiB")
    head: dict[str, Any] = {"version": self.version, "row_count": n, "has_null_value": int(has_null),
            "null_value_offset": null_offset if has_null else None,
            "null_bitmap_length": len(null_bytes) if has_null and self.version == _V2 else None}
    if self.version == _V1:
        head["entries"] = range(nd)  # the count non_null_bitmap_number is derived from
        entries = _pack_records(codec, _take_keys(enc.dict_keys, hm_codes), [offsets[hm_codes]])
        return b"".join([_build_head(head, codec), entries, *body])
    srt = enc.sorted
    sorted_keys = _take_keys(enc.dict_keys, srt)
    blocks = _v2_blocks(codec, sorted_keys, self.block_size)
    block_bytes = [_pack_records(codec, _take_keys(sorted_keys, np.arange(s, e)),
                                 [offsets[srt[s:e]], lengths[srt[s:e]]]) for s, e in blocks]
    block_parts: list[bytes] = []
    block_offsets = []
    pos = 0
    for (s, e), b in zip(blocks, block_bytes, strict=True):
        block_offsets.append(pos)
        block_parts.append(_int32(e - s))
        block_parts.append(b)
        pos += _INT32.size + len(b)
    firsts = np.array([s for s, _ in blocks], dtype=np.int64)
    directory = _pack_records(codec, _take_keys(sorted_keys, firsts), [np.array(block_offsets, np.int64)])
    head["index_blocks"] = {"blocks": [{"entries": range(e - s)} for s, e in blocks]}  # derives the key count
    return b"".join([_build_head(head, codec), _int32(len(blocks)), directory, _int32(pos), *block_parts, *body])
