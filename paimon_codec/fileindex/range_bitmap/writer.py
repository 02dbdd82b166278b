"""Range-bitmap index writer.

Dictionary-encodes the column with one ``np.unique`` (pyarrow for strings), packs chunks with numpy
arithmetic, and cuts bit slices with numpy bit operations; every bitmap is built in bulk.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from ...generated.construct import paimon_key as _key
from ...generated.construct import range_bitmap as _codec
from ...generated.construct.range_bitmap import VARIABLE_CHUNK_KEYS_KEY_OFFSETS_DTYPE as _KEY_OFFSET
from ...roaring import bitmap_of, serialize_optimized
from ...types import DataType
from .._key_order import serialized_strings, sorted_unique_strings
from ..bit_slices import ValueBatches, cut_slices
from ..keys import KeyCodec
from ._layout import _MAX_SLICES, VERSION, _as_type, _chunk_dtype, chunk_size_of


# ------------------------------------------------------------------------------------------ writer
class RangeBitmapWriter(ValueBatches):
    """Collects one column's values (in row order, ``None`` = null; :meth:`write` / :meth:`write_batch`
    with a list, numpy or pyarrow array) and serialises the index."""

    def __init__(self, dtype: DataType | str, options: dict | None = None) -> None:
        super().__init__()
        self.dtype = _as_type(dtype)
        self.codec = KeyCodec(self.dtype, index="range-bitmap")
        self.chunk_size = chunk_size_of(self.dtype, options)
        self.codec_kind = self.codec.kind

    # -- encoding
    def _encode(self) -> tuple[np.ndarray, np.ndarray, Any]:
        """``(valid, codes, keys)``; keys = stored int64 values (fixed) or list of bytes (strings)."""
        cols = [self.codec.column(b) for b in self.batches()]
        if self.codec.is_string:
            arrays = [c[1] for c in cols]
            if not arrays:
                return np.zeros(0, bool), np.zeros(0, np.int64), []
            arr = arrays[0] if len(arrays) == 1 else pa.concat_arrays(
                [a.cast(pa.large_binary()) for a in arrays])
            valid = np.concatenate([c[0] for c in cols])
            string_keys, codes = sorted_unique_strings(arr)
            return valid, codes, string_keys
        if not cols:
            return np.zeros(0, bool), np.zeros(0, np.int64), np.zeros(0, np.int64)
        valid = np.concatenate([c[0] for c in cols])
        sortable = np.concatenate([c[1] for c in cols])
        raw = np.concatenate([c[2] for c in cols])
        idx = np.flatnonzero(valid)
        _, first, inverse = np.unique(sortable[idx], return_index=True, return_inverse=True)
        keys = raw[idx][first]  # first occurrence: keeps the raw bits of the first NaN seen
        codes = np.full(valid.size, -1, dtype=np.int64)
        codes[idx] = inverse.reshape(-1)
        return valid, codes, keys

    def serialize(self) -> bytes:
        valid, codes, keys = self._encode()
        cardinality = len(keys)
        if self.codec.is_string:
            dictionary = _string_dictionary(keys, self.chunk_size)
            bounds = b"".join(_key.fast_build_paimon_key(k, kind="string") for k in (keys[0], keys[-1])) \
                if cardinality else b""
        else:
            dictionary = _fixed_dictionary(self.codec, keys, self.chunk_size)
            bounds = self.codec.encode_fixed(keys[[0, -1]]) if cardinality else b""
        bsi = _bsi_bytes(valid, codes, cardinality)
        kind = {"key_kind": self.codec_kind}
        header = (_codec.fast_build_range_bitmap_header_counts(
                      {"version": VERSION, "row_count": valid.size, "cardinality": cardinality}, **kind)
                  + bounds
                  + _codec.fast_build_range_bitmap_header_dictionary_length(
                      {"dictionary_length": len(dictionary)}, **kind))
        return b"".join((_codec.fast_build_range_bitmap_prefix({"header_length": len(header)}, **kind), header,
                         dictionary, bsi))


def _dictionary_bytes(chunk_count: int, offsets: np.ndarray, chunks: bytes, keys: bytes) -> bytes:
    head = _codec.fast_build_dictionary_header(
        {"version": _codec.DICTIONARY_VERSION_V1, "chunk_count": chunk_count, "chunks_length": len(chunks)})
    prefix = _codec.fast_build_dictionary_prefix({"dict_header_length": len(head)}, key_kind="string")
    return b"".join((prefix, head, offsets.astype(_codec.DICTIONARY_OFFSETS_DTYPE).tobytes(), chunks, keys))


def _fixed_dictionary(codec: KeyCodec, keys: np.ndarray, chunk_size: int) -> bytes:
    """Fixed-length chunks: each holds a first key (in its header) + up to chunk_size // width keys."""
    width = codec.width
    assert width is not None
    card = len(keys)
    per = chunk_size // width + 1
    firsts = np.arange(0, card, per, dtype=np.int64)
    count = firsts.size
    sizes = np.minimum(per, card - firsts) - 1
    keys_length = sizes * width
    keys_offset = np.concatenate(([0], np.cumsum(keys_length)[:-1])) if count else keys_length
    rec = np.zeros(count, dtype=_chunk_dtype(codec))
    rec["version"] = _codec.CHUNK_VERSION_V1
    rec["key"] = keys[firsts].astype(rec.dtype["key"])  # stored keys (float bits) as the header holds them
    rec["code"] = firsts
    rec["keys_offset"] = keys_offset
    rec["size"] = sizes
    rec["keys_length"] = keys_length
    rec["fixed_length"] = width
    rest = np.ones(card, dtype=bool)
    rest[firsts] = False
    offsets = np.arange(count, dtype=np.int64) * rec.dtype.itemsize
    return _dictionary_bytes(count, offsets, rec.tobytes(), codec.encode_fixed(keys[rest]))


def _string_dictionary(keys: list[bytes], chunk_size: int) -> bytes:
    """Variable-length chunks: extra keys fit a chunk_size key budget and a chunk_size offset budget."""
    card = len(keys)
    blob, ser = serialized_strings(keys)
    starts = np.concatenate(([0], np.cumsum(ser)))  # byte offset of key j in blob
    max_extra = chunk_size // _KEY_OFFSET.itemsize  # the offsets' budget
    headers: list[bytes] = []
    regions: list[bytes] = []
    offsets: list[int] = []
    chunk_pos = 0
    keys_offset = 0
    i = 0
    while i < card:
        lo = i + 1
        hi = int(np.searchsorted(starts, starts[lo] + chunk_size, side="right")) - 1 if lo <= card else lo
        extra = max(0, min(hi - lo, max_extra, card - lo))
        rel = (starts[lo:lo + extra] - starts[lo]).astype(_KEY_OFFSET).tobytes()
        key_bytes = blob[starts[lo]:starts[lo + extra]] if extra else b""
        region = rel + key_bytes
        header = _codec.fast_build_chunk(
            {"version": _codec.CHUNK_VERSION_V1, "key": keys[i], "code": i, "keys_offset": keys_offset,
             "size": extra, "offsets_length": _KEY_OFFSET.itemsize * extra, "keys_length": len(key_bytes)}, key_kind="string")
        offsets.append(chunk_pos)
        headers.append(header)
        regions.append(region)
        chunk_pos += len(header)
        keys_offset += len(region)
        i = lo + extra
    return _dictionary_bytes(len(headers), np.array(offsets, dtype=np.int64), b"".join(headers),
                             b"".join(regions))


def _slice_count(cardinality: int) -> int:
    return _MAX_SLICES if cardinality == 0 else max(1, (cardinality - 1).bit_length())


def _bsi_bytes(valid: np.ndarray, codes: np.ndarray, cardinality: int) -> bytes:
    slices = _slice_count(cardinality)
    rows = np.flatnonzero(valid)
    ebm = serialize_optimized(bitmap_of(rows))
    bodies = [serialize_optimized(bm) for bm in cut_slices(rows, codes[valid], slices)]
    refs = np.zeros(len(bodies), dtype=_codec.BSI_HEADER_SLICE_REFS_DTYPE)
    refs["length"] = [len(b) for b in bodies]
    refs["offset"][1:] = np.cumsum(refs["length"])[:-1]
    head = _codec.fast_build_bit_sliced_index_head(
        {"bsi_header": {"version": _codec.BIT_SLICE_INDEX_VERSION_V1, "ebm_length": len(ebm), "slice_refs": refs}})
    return b"".join((head, ebm, *bodies))
