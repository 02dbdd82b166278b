"""The range-bitmap file index (``"range-bitmap"``, Paimon >= 1.3.0): writer and lazy reader.

Layout (FORMATS §4): a header (row count, cardinality, min, max), a chunked sorted dictionary
(key -> dense code, codes ascending with the keys) and a bit-sliced index of every row's code with an
existence bitmap (EBM) of the non-null rows.

The writer dictionary-encodes the column with one ``np.unique`` (pyarrow for strings), packs chunks
with numpy arithmetic, and cuts bit slices with numpy bit operations; every bitmap is built in bulk.

The reader is lazy: constructing it reads only the header.  A comparison reads the dictionary's
chunk directory once, then only the chunk whose key range holds the literal, then the BSI header, the
EBM and the slices the O'Neil comparison walks (each read once and cached).  Literals outside
``[min, max]`` and IS [NOT] NULL never touch the dictionary or the slices.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ..errors import CorruptDataError, InvalidOptionError, UnsupportedVersionError
from ..fileio import ByteSource
from ..formats import key_kind_for, translate_error
from ..generated.construct import paimon_key as _key
from ..generated.construct import range_bitmap as _codec
from ..memory_size import parse_memory_size
from ..roaring import bitmap_of, read_bitmap, serialize_optimized
from ..types import DataType, parse_type
from ._range_keys import RangeKeyCodec, serialized_strings, sorted_unique_strings
from .bit_slices import BitSlices, ValueBatches, cut_slices, null_rows
from .reader import FileIndexReader
from .result import REMAIN, BitmapResult, FileIndexResult

__all__ = [
    "RangeBitmapWriter",
    "RangeBitmapReader",
    "create_writer",
    "create_reader",
    "chunk_size_of",
    "DEFAULT_CHUNK_SIZE",
]

VERSION = _codec.RANGE_BITMAP_VERSION_V1
DEFAULT_CHUNK_SIZE = 16 * 1024
_ONE_KEY_PER_CHUNK = ("BOOLEAN", "TINYINT", "SMALLINT")
_DICT_HEADER_LENGTH = _codec.DICTIONARY_HEADER_SIZE
#: the smallest header (no min/max keys: an empty dictionary)
_MIN_HEADER_LENGTH = _codec.RANGE_BITMAP_HEADER_COUNTS_SIZE + _codec.RANGE_BITMAP_HEADER_DICTIONARY_LENGTH_SIZE
_MAX_SLICES = 64
_SLICE_REF_SIZE = _codec.BSI_HEADER_SLICE_REFS_DTYPE.itemsize
MAX_DECODED_ROWS = 50_000_000  # row_codes()/describe() allocate per row


# ------------------------------------------------------------------------------------------ options
def chunk_size_of(dtype: DataType, options: dict | None) -> int:
    """``chunk-size`` option (per-index options dict) with Paimon's per-type default."""
    options = options or {}
    value = None
    for key, v in options.items():
        if key == "chunk-size" or key.endswith(".chunk-size"):
            value = v
    if value is None:
        return 0 if dtype.root in _ONE_KEY_PER_CHUNK else DEFAULT_CHUNK_SIZE
    size = parse_memory_size(value)
    if size < 0 or size > 2**31 - 1:
        raise InvalidOptionError(f"chunk-size {value!r} out of range")
    return size


def _as_type(dtype: DataType | str) -> DataType:
    return parse_type(dtype) if isinstance(dtype, str) else dtype


# ------------------------------------------------------------------------------------------ writer
class RangeBitmapWriter(ValueBatches):
    """Collects one column's values (in row order, ``None`` = null; :meth:`write` / :meth:`write_batch`
    with a list, numpy or pyarrow array) and serialises the index."""

    def __init__(self, dtype: DataType | str, options: dict | None = None) -> None:
        super().__init__()
        self.dtype = _as_type(dtype)
        self.codec = RangeKeyCodec(self.dtype)
        self.chunk_size = chunk_size_of(self.dtype, options)
        self.codec_kind = key_kind_for(self.dtype)

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
            keys, codes = sorted_unique_strings(arr)
            return valid, codes, keys
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


def _chunk_dtype(codec: RangeKeyCodec) -> np.dtype:
    """The generated fixed-length chunk header record, with a float key read as its raw IEEE bits
    (u4 / i8: how range keys of FLOAT / DOUBLE columns are ordered and stored here)."""
    dt = _codec.CHUNK_DTYPES[key_kind_for(codec.dtype)]
    if not codec.is_float:
        return dt
    bits = np.dtype(">u4" if codec.width == 4 else ">i8")
    return np.dtype({"names": dt.names, "formats": [bits if n == "key" else dt[n] for n in dt.names],
                     "offsets": [dt.fields[n][1] for n in dt.names], "itemsize": dt.itemsize})


def _fixed_dictionary(codec: RangeKeyCodec, keys: np.ndarray, chunk_size: int) -> bytes:
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
    rec["key"] = keys[firsts].astype(np.uint32 if rec.dtype["key"] == np.dtype(">u4") else np.int64)
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
    max_extra = chunk_size // 4
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
        rel = (starts[lo:lo + extra] - starts[lo]).astype(">i4").tobytes()
        key_bytes = blob[starts[lo]:starts[lo + extra]] if extra else b""
        region = rel + key_bytes
        header = _codec.fast_build_chunk(
            {"version": _codec.CHUNK_VERSION_V1, "key": keys[i], "code": i, "keys_offset": keys_offset,
             "size": extra, "offsets_length": 4 * extra, "keys_length": len(key_bytes)}, key_kind="string")
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


# ------------------------------------------------------------------------------------------ reader
class _Chunk:
    __slots__ = ("first", "code", "keys_offset", "size", "offsets_length", "keys_length")

    def __init__(self, first: Any, code: int, keys_offset: int, size: int, offsets_length: int,
                 keys_length: int) -> None:
        self.first, self.code, self.keys_offset, self.size = first, code, keys_offset, size
        self.offsets_length, self.keys_length = offsets_length, keys_length


class RangeBitmapReader(FileIndexReader):
    """Lazy reader of one range-bitmap payload (implements :class:`FileIndexReader` and top-N)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> None:
        self.src = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype = _as_type(dtype)
        self.codec = RangeKeyCodec(self.dtype)
        self.key_kind = key_kind_for(self.dtype)
        self._chunk_cache: dict[int, Any] = {}
        self._slice_cache: dict[int, BitMap] = {}
        self._read_header()

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
        version = head[0]
        if version > VERSION:
            raise UnsupportedVersionError(f"range-bitmap version {version} is not supported",
                                          path=src.path, offset=src.base + 4, expected=f"<= {VERSION}")
        if version != VERSION:
            raise self._corrupt(f"range-bitmap version {version}", 4, "1")
        parsed = self._generated(_codec.RangeBitmapHeader, head, "range-bitmap header", 4, key_kind=self.key_kind)
        self.row_count, self.cardinality = parsed["row_count"], parsed["cardinality"]
        if self.row_count < 0 or self.cardinality < 0 or self.cardinality > self.row_count:
            raise self._corrupt(f"row count {self.row_count} / cardinality {self.cardinality} impossible", 5)
        self.min_key: Any = None
        self.max_key: Any = None
        if self.cardinality > 0:
            if parsed["min"] is None or parsed["max"] is None:
                raise self._corrupt("header without min/max keys for a non-empty dictionary", at + _MIN_HEADER_LENGTH)
            self.min_key = self._stored(parsed["min"])
            self.max_key = self._stored(parsed["max"])
        dict_len = parsed["dictionary_length"]
        if dict_len < _codec.DICTIONARY_PREFIX_SIZE + _DICT_HEADER_LENGTH or dict_len > src.length - at - h:
            raise self._corrupt(f"dictionary length {dict_len} does not fit", h)
        self.header_length = h
        self.dictionary_offset = at + h
        self.dictionary_length = dict_len
        self.bsi_offset = at + h + dict_len
        self._dict_src = src.sub(self.dictionary_offset, dict_len)
        self._bsi_src = src.sub(self.bsi_offset, src.length - self.bsi_offset)
        if self.cardinality > 0:
            self._min_cmp = self._cmp_key(self.min_key)
            self._max_cmp = self._cmp_key(self.max_key)
            if self._min_cmp > self._max_cmp:
                raise self._corrupt("min key is greater than max key", _codec.RANGE_BITMAP_PREFIX_SIZE + _MIN_HEADER_LENGTH)

    def _generated(self, con: Any, data: bytes, what: str, at: int, **params: Any) -> Any:
        """Parse ``data`` (which sits at payload offset ``at``) with a generated Construct codec."""
        try:
            return con.parse(data, **params)
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, self.src.path, what).with_base_offset(self.src.base + at) from None

    def _stored(self, value: Any) -> Any:
        """Stored key (int / raw float bits / UTF-8 bytes) of a key value decoded by the codec."""
        if self.codec.is_string:
            return value.encode("utf-8", "surrogatepass")
        if self.codec.is_float:
            return self.codec.scalar(float(value))
        return int(value)

    def _key_at(self, buf: bytes, pos: int) -> tuple[Any, int]:
        """Decode one serialised key at ``pos`` of ``buf``: (stored key, next position)."""
        if self.codec.is_string:
            if pos + 4 > len(buf):
                raise self._corrupt("key length runs past the header", pos)
            n = struct.unpack_from(">i", buf, pos)[0]
            if n < 0 or pos + 4 + n > len(buf):
                raise self._corrupt(f"string key of {n} bytes does not fit", pos)
            return bytes(buf[pos + 4:pos + 4 + n]), pos + 4 + n
        w = self.codec.width
        assert w is not None
        if pos + w > len(buf):
            raise self._corrupt("key runs past its region", pos, f"{w} bytes")
        return int(self.codec.decode_fixed(bytes(buf[pos:pos + w]), 1)[0]), pos + w

    def _cmp_key(self, key: Any) -> Any:
        """Comparable form of a stored key (sortable int or bytes)."""
        if self.codec.is_string:
            return key
        if self.codec.is_float:
            return int(self.codec.sortable(np.array([key], dtype=np.int64))[0])
        return int(key)

    # -- dictionary
    @cached_property
    def _directory(self) -> tuple[Any, list[_Chunk], int]:
        """(comparable first keys, chunk list, keys base) - read once per reader."""
        d = self._dict_src
        dhl = self._length_prefix(d, "dictionary header length")
        at = _codec.DICTIONARY_PREFIX_SIZE
        if dhl < _DICT_HEADER_LENGTH or dhl > d.length - at:
            raise CorruptDataError(f"dictionary header length {dhl}", path=d.path, offset=d.base)
        dict_head = d.read(at, _DICT_HEADER_LENGTH, "dictionary header")
        if dict_head[0] > 1:
            raise UnsupportedVersionError(f"dictionary version {dict_head[0]}", path=d.path, offset=d.base + 4)
        hd = self._generated(_codec.DictionaryHeader, dict_head, "dictionary header", self.dictionary_offset + 4)
        count, offsets_length, chunks_length = hd["chunk_count"], hd["offsets_length"], hd["chunks_length"]
        base = at + dhl
        if count < 0 or offsets_length != 4 * count or chunks_length < 0 or \
                base + offsets_length + chunks_length > d.length:
            raise CorruptDataError(f"dictionary of {count} chunks ({offsets_length}+{chunks_length} bytes) "
                                   f"does not fit {d.length} bytes", path=d.path, offset=d.base)
        if (count == 0) != (self.cardinality == 0):
            raise CorruptDataError(f"{count} chunks for cardinality {self.cardinality}", path=d.path,
                                   offset=d.base)
        offsets = np.frombuffer(d.read(base, offsets_length, "chunk offsets"),
                                dtype=_codec.DICTIONARY_OFFSETS_DTYPE).astype(np.int64)
        area = d.read(base + offsets_length, chunks_length, "chunk headers")
        keys_base = base + offsets_length + chunks_length
        chunks = self._parse_chunks(offsets, area)
        expect = 0
        for c in chunks:
            if c.code != expect or c.size < 0:
                raise CorruptDataError(f"chunk code {c.code} where {expect} was expected", path=d.path,
                                       offset=d.base + keys_base)
            expect = c.code + c.size + 1
            if c.keys_offset < 0 or keys_base + c.keys_offset + c.offsets_length + c.keys_length > d.length:
                raise CorruptDataError("chunk keys run past the dictionary", path=d.path,
                                       offset=d.base + keys_base + max(c.keys_offset, 0))
        if expect != self.cardinality:
            raise CorruptDataError(f"dictionary holds {expect} keys, header says {self.cardinality}",
                                   path=d.path, offset=d.base)
        firsts = [self._cmp_key(c.first) for c in chunks]
        if self.codec.is_string:
            if any(a >= b for a, b in zip(firsts, firsts[1:], strict=False)):
                raise CorruptDataError("chunk first keys are not ascending", path=d.path, offset=d.base)
            first_keys: Any = firsts
        else:
            first_keys = np.array(firsts, dtype=np.int64)
            if np.any(first_keys[1:] <= first_keys[:-1]):
                raise CorruptDataError("chunk first keys are not ascending", path=d.path, offset=d.base)
        return first_keys, chunks, keys_base

    def _parse_chunks(self, offsets: np.ndarray, area: bytes) -> list[_Chunk]:
        n = offsets.size
        d = self._dict_src
        w = self.codec.width
        if w is not None:
            dt = _chunk_dtype(self.codec)
            if n and np.array_equal(offsets, np.arange(n) * dt.itemsize) and len(area) >= n * dt.itemsize:
                rec = np.frombuffer(area, count=n, dtype=dt)
                if np.any(rec["version"] > 1):
                    raise UnsupportedVersionError("chunk version > 1", path=d.path, offset=d.base)
                if np.any(rec["fixed_length"] != w) or np.any(rec["keys_length"] != rec["size"] * w):
                    raise CorruptDataError(f"fixed-length chunk with a key width other than {w}",
                                           path=d.path, offset=d.base)
                return [_Chunk(int(k), int(c), int(o), int(s), 0, int(kl)) for k, c, o, s, kl in zip(
                    rec["key"].astype(np.int64), rec["code"], rec["keys_offset"], rec["size"],
                    rec["keys_length"], strict=True)]
        chunks = []
        for off in offsets.tolist():
            if off < 0 or off >= len(area):
                raise CorruptDataError(f"chunk offset {off} outside the chunk area", path=d.path, offset=d.base)
            if area[off] > 1:
                raise UnsupportedVersionError(f"chunk version {area[off]}", path=d.path, offset=d.base + off)
            head = self._generated(_codec.Chunk, area[off:], "chunk header",
                                   self.dictionary_offset + off, key_kind=self.key_kind)
            key = self._stored(head["key"])
            code, keys_offset, size = head["code"], head["keys_offset"], head["size"]
            a, b = (head["keys_length"], head["fixed_length"]) if w is not None else (
                head["offsets_length"], head["keys_length"])
            if w is not None:  # keys_length, fixed_length
                if b != w or a != size * w:
                    raise CorruptDataError(f"fixed-length chunk with a key width other than {w}",
                                           path=d.path, offset=d.base + off)
                chunks.append(_Chunk(key, code, keys_offset, size, 0, a))
            else:  # offsets_length, keys_length
                if a != 4 * size or b < 0:
                    raise CorruptDataError("variable-length chunk with inconsistent lengths", path=d.path,
                                           offset=d.base + off)
                chunks.append(_Chunk(key, code, keys_offset, size, a, b))
        return chunks

    def _chunk_keys(self, index: int) -> Any:
        """Comparable keys stored in chunk ``index``'s key region (cached)."""
        cached = self._chunk_cache.get(index)
        if cached is not None:
            return cached
        _, chunks, keys_base = self._directory
        c = chunks[index]
        d = self._dict_src
        start = keys_base + c.keys_offset
        if self.codec.is_string:
            raw = d.read(start, c.offsets_length + c.keys_length, "chunk keys")
            rel = np.frombuffer(raw, dtype=">i4", count=c.size).astype(np.int64)
            body = raw[c.offsets_length:]
            keys = []
            for r in rel.tolist():
                if r < 0:
                    raise CorruptDataError("negative key offset", path=d.path, offset=d.base + start)
                k, _ = self._key_at(body, r)
                keys.append(k)
            if any(a >= b for a, b in zip([c.first, *keys], keys, strict=False)):
                raise CorruptDataError("chunk keys are not ascending", path=d.path, offset=d.base + start)
            out: Any = keys
        else:
            raw = d.read(start, c.keys_length, "chunk keys")
            stored = self.codec.decode_fixed(raw, c.size)
            out = self.codec.sortable(stored)
            chain = np.concatenate(([self._cmp_key(c.first)], out))
            if np.any(chain[1:] <= chain[:-1]):
                raise CorruptDataError("chunk keys are not ascending", path=d.path, offset=d.base + start)
        self._chunk_cache[index] = out
        return out

    def find(self, key: Any) -> int:
        """Code of comparable ``key``, or ``-(insertion code) - 1`` when absent (Paimon's find)."""
        if self.cardinality == 0:
            return -1
        if key < self._min_cmp:
            return -1
        if key > self._max_cmp:
            return -self.cardinality - 1
        firsts, chunks, _ = self._directory
        if self.codec.is_string:
            i = bisect.bisect_right(firsts, key) - 1
        else:
            i = int(np.searchsorted(firsts, key, side="right")) - 1
        if i < 0:
            return -1
        c = chunks[i]
        if firsts[i] == key:
            return c.code
        keys = self._chunk_keys(i)
        if self.codec.is_string:
            j = bisect.bisect_left(keys, key)
        else:
            j = int(np.searchsorted(keys, key, side="left"))
        if j < len(keys) and keys[j] == key:
            return c.code + 1 + j
        return -(c.code + 1 + j) - 1

    def keys_by_code(self) -> list[Any]:
        """Every stored key in code order (reads the whole dictionary)."""
        _, chunks, _ = self._directory
        out: list[Any] = []
        for i, c in enumerate(chunks):
            out.append(c.first)
            keys = self._chunk_keys(i)
            if self.codec.is_string:
                out.extend(keys)
            else:
                raw = self._dict_src.read(self._directory[2] + c.keys_offset, c.keys_length, "chunk keys")
                out.extend(self.codec.decode_fixed(raw, c.size).tolist())
        return out

    # -- bit-sliced index
    @cached_property
    def _bsi_head(self) -> tuple[int, int, np.ndarray, int]:
        """(slice count, ebm length, slice (offset, length) pairs, body offset)."""
        b = self._bsi_src
        bhl = self._length_prefix(b, "bsi header length")
        if bhl < _codec.BSI_HEADER_FIXED_SIZE or bhl > b.length - _codec.BIT_SLICED_INDEX_PREFIX_SIZE:
            raise CorruptDataError(f"bsi header length {bhl}", path=b.path, offset=b.base)
        head = b.read(4, bhl, "bsi header")
        if head[0] > 1:
            raise UnsupportedVersionError(f"bsi version {head[0]}", path=b.path, offset=b.base + 4)
        hb = self._generated(_codec.BsiHeader, head, "bsi header", self.bsi_offset + 4)
        slices, ebm_len, index_len = hb["slice_count"], hb["ebm_length"], hb["indexes_length"]
        body = _codec.BIT_SLICED_INDEX_PREFIX_SIZE + bhl
        if slices < 1 or slices > _MAX_SLICES or index_len != _SLICE_REF_SIZE * slices or _codec.BSI_HEADER_FIXED_SIZE + index_len > bhl \
                or ebm_len < 8 or body + ebm_len > b.length:
            raise CorruptDataError(f"bsi header ({slices} slices, ebm {ebm_len} bytes) is inconsistent",
                                   path=b.path, offset=b.base)
        if self.cardinality > 0 and (1 << slices) < self.cardinality and slices < 63:
            raise CorruptDataError(f"{slices} slices cannot hold {self.cardinality} codes", path=b.path,
                                   offset=b.base)
        refs = hb["slice_refs"]
        index = np.stack([np.asarray(refs["offset"], dtype=np.int64), np.asarray(refs["length"], dtype=np.int64)],
                         axis=1) if slices else np.zeros((0, 2), dtype=np.int64)
        room = b.length - body - ebm_len
        if np.any(index < 0) or np.any(index[:, 0] + index[:, 1] > room):
            raise CorruptDataError("bsi slice runs past the payload", path=b.path, offset=b.base)
        return slices, ebm_len, index, body

    @cached_property
    def _ebm(self) -> BitMap:
        slices, ebm_len, _, body = self._bsi_head
        b = self._bsi_src
        bm = read_bitmap(b.read(body, ebm_len, "bsi ebm"), what="bsi ebm", offset=b.base + body, path=b.path)
        if bm and bm.max() >= self.row_count:
            raise CorruptDataError(f"ebm holds row {bm.max()} beyond row count {self.row_count}",
                                   path=b.path, offset=b.base + body)
        return bm

    def _slice(self, i: int) -> BitMap:
        bm = self._slice_cache.get(i)
        if bm is None:
            _, ebm_len, index, body = self._bsi_head
            off, length = (int(x) for x in index[i])
            b = self._bsi_src
            start = body + ebm_len + off
            bm = read_bitmap(b.read(start, length, f"bsi slice {i}"), what=f"bsi slice {i}",
                             offset=b.base + start, path=b.path)
            if bm and bm.max() >= self.row_count:
                raise CorruptDataError(f"bsi slice {i} holds row {bm.max()} beyond row count {self.row_count}",
                                       path=b.path, offset=b.base + start)
            self._slice_cache[i] = bm
        return bm

    @property
    def slice_count(self) -> int:
        return self._bsi_head[0]

    def _max_code(self) -> int:
        return self.cardinality - 1

    @cached_property
    def _bits(self) -> BitSlices:
        """O'Neil comparisons of the row codes (reads the BSI header, EBM and slices on use)."""
        return BitSlices(self._max_code(), lambda: self.slice_count, lambda: self._ebm, self._slice)

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
        return self.find(self.codec.literal(literal))

    def visit_equal(self, literal: Any) -> FileIndexResult:
        r = self._lookup(literal)
        if r is None:
            return REMAIN
        return BitmapResult(self._bits.eq(r) if r >= 0 else BitMap())

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        r = self._lookup(literal)
        if r is None:
            return REMAIN
        return BitmapResult(lambda: self._ebm - self._bits.eq(r) if r >= 0 else self._ebm.copy())

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
                out |= self._bits.eq(r)
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
                return self._bits.lte(b)
            if b >= self._max_code():
                return self._bits.gte(a)
            return self._bits.gte(a) & self._bits.lte(b)

        return BitmapResult(compute)

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

    # -- structure
    def describe(self) -> dict:
        """Decoded structure in the shape of the golden sidecars' ``expected_meta``."""
        firsts, chunks, keys_base = self._directory
        slices, ebm_len, index, body = self._bsi_head
        is_str = self.codec.is_string
        kv = self.codec.key_value
        headers = []
        for c in chunks:
            h = {"class": "VariableLengthChunk" if is_str else "FixedLengthChunk", "key": kv(c.first),
                 "code": c.code, "keys_offset": c.keys_offset, "size": c.size}
            if is_str:
                h.update(offsets_length=c.offsets_length, keys_length=c.keys_length)
            else:
                h.update(keys_length=c.keys_length, fixed_length=self.codec.width)
            headers.append(h)
        d = self._dict_src
        dhl = self._length_prefix(d, "dictionary header length")
        hd, _ = _codec.fast_parse_dictionary_header(
            d.read(_codec.DICTIONARY_PREFIX_SIZE, _DICT_HEADER_LENGTH, "dictionary header"))
        count, offsets_length, chunks_length = hd["chunk_count"], hd["offsets_length"], hd["chunks_length"]
        codes = self.row_codes()
        meta: dict[str, Any] = {
            "header_length": self.header_length, "version": VERSION, "row_count": self.row_count,
            "cardinality": self.cardinality,
            "min": None if self.min_key is None else kv(self.min_key),
            "max": None if self.max_key is None else kv(self.max_key),
            "dictionary_offset": self.dictionary_offset, "dictionary_length": self.dictionary_length,
            "bsi_offset": self.bsi_offset,
            "bsi": {"slices": slices, "ebm_length": ebm_len, "body_offset": self.bsi_offset + body,
                    "slice_offset_length": index.tolist(),
                    "row_codes": [None if c < 0 else c for c in codes.tolist()]},
        }
        if self.cardinality > 0:
            meta["dictionary"] = {
                "chunks": count, "offsets_length": offsets_length, "chunks_length": chunks_length,
                "body_offset": self.dictionary_offset + _codec.DICTIONARY_PREFIX_SIZE + dhl, "chunk_headers": headers,
                "keys_by_code": [kv(k) for k in self.keys_by_code()]}
            if self.codec.is_float:
                digits = 2 * (self.codec.width or 0)
                mask = (1 << (4 * digits)) - 1
                meta["dictionary"]["keys_by_code_bits"] = [
                    format(int(k) & mask, f"0{digits}x") for k in self.keys_by_code()]
        return meta


# ------------------------------------------------------------------------------------------ registry
def create_writer(dtype: DataType | str, options: dict | None = None) -> RangeBitmapWriter:
    return RangeBitmapWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> RangeBitmapReader:
    return RangeBitmapReader(source, dtype, options)

