"""Bitmap file index (``"bitmap"``, FORMATS.md §2): V1 and V2 writer and lazy reader.

Writer (vectorised): keys are mapped per :mod:`.keys`, dictionary-encoded (numpy ``unique`` for
fixed-size keys, pyarrow ``dictionary_encode`` for strings), rows grouped per key with one stable
argsort, every non-singleton bitmap built from a contiguous slice and serialized after
``run_optimize()`` (Java's bytes).  Singletons are stored as ``-1 - row``.  Body order and the V1
dictionary order are Java ``HashMap`` order (:mod:`.javamap`); V2 entries are sorted by the
type's comparator and cut into index blocks by ``index-block-size``.

Reader (lazy): the head is parsed at construction; V1 reads its dictionary once on the first
lookup (numpy for fixed-size keys); V2 reads the block directory and then only the block(s)
holding the literals.  Bitmaps read once are cached.

Soundness: for TIMESTAMP(p > 6) keys are micros, so ``<>``/``NOT IN`` answer REMAIN instead of
Java's complement (which would drop rows differing only below a microsecond).
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

import construct
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from .. import codec_runtime as _rt
from ..errors import (
    CorruptDataError,
    InvalidOptionError,
    InvalidPredicateError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedTypeError,
    UnsupportedVersionError,
)
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import bitmap_index as _gen
from ..roaring import bitmap_of, serialize_optimized
from ..types import DataType, parse_type
from .javamap import hashmap_order
from .keys import KeyCodec
from .options import check_index_type, parse_memory_size
from .reader import FileIndexReader
from .result import REMAIN, BitmapResult, FileIndexResult

__all__ = [
    "BitmapIndexWriter",
    "BitmapIndexReader",
    "create_writer",
    "create_reader",
    "serialize_bitmap",
    "DEFAULT_VERSION",
    "DEFAULT_BLOCK_SIZE",
]

_V1, _V2 = _gen.BITMAP_INDEX_VERSION_V1, _gen.BITMAP_INDEX_VERSION_V2
DEFAULT_VERSION = _V2
DEFAULT_BLOCK_SIZE = 16 * 1024
#: bytes read with the head: a small payload (a V1 dictionary of a few dozen keys and its bitmaps) is
#: then answered without another read - a fresh reader per predicate is the common use
_PREFETCH = 4096
_EMPTY = BitMap()
_BYTE_LANES = np.arange(4)


#: Roaring portable bytes exactly as Paimon writes them (after ``runOptimize()``).
serialize_bitmap = serialize_optimized


# ---------------------------------------------------------------------------------------- layout
# Every byte layout is schemas/bitmap_index.ksy; these are the generated pieces this module uses.
# The fixed head (version .. null_bitmap_length) is parsed and built by the generated
# ``fast_parse_bitmap_index_head`` / ``fast_build_bitmap_index_head``; string-keyed records by the
# generated columnar parsers ``columns_*`` (parallel lists of key bytes and int32 fields, no object
# per record); fixed-size records by numpy with the generated record dtypes.
#: an int32 field of the generated codec (``index_block_count``, ``bitmap_body_offset``, ``entry_count``).
#: (a struct.Struct of the generated field's format: no Construct call per read)
_INT32 = struct.Struct(_gen.BitmapIndexV2Head.subcons[0].subcon.subcon.fmtstr)  # Renamed(Rebuild(Int32sb))


def _records_dtype(generated: np.dtype, codec: KeyCodec) -> np.dtype:
    """A generated record dtype with its ``key`` field read as the codec's comparator integers
    (float keys as raw bits, same offsets and size)."""
    fields = {name: (codec.be_dtype if name == "key" else generated.fields[name][0], generated.fields[name][1])
              for name in generated.names}
    return np.dtype({"names": list(generated.names), "formats": [f for f, _ in fields.values()],
                     "offsets": [o for _, o in fields.values()], "itemsize": generated.itemsize})


_V1_DTYPES: dict[str, np.dtype] = {}
_V2_DTYPES: dict[str, np.dtype] = {}


def _v1_dtype(codec: KeyCodec) -> np.dtype:
    """``v1_entry`` (key, offset); ``block_head`` (key, block_offset) has the same layout."""
    dt = _V1_DTYPES.get(codec.kind)
    if dt is None:  # depends on the key kind only: built once per kind
        dt = _V1_DTYPES[codec.kind] = _records_dtype(_gen.ENTRIES_DTYPES[codec.kind], codec)
    return dt


def _v2_dtype(codec: KeyCodec) -> np.dtype:
    """``v2_entry`` (key, offset, length)."""
    dt = _V2_DTYPES.get(codec.kind)
    if dt is None:
        dt = _V2_DTYPES[codec.kind] = _records_dtype(_gen.INDEX_BLOCK_ENTRIES_DTYPES[codec.kind], codec)
    return dt


def _int32(value: int) -> bytes:
    return _INT32.pack(value)


def _parse_options(options: Mapping[str, Any] | None) -> tuple[int, int]:
    options = options or {}
    try:
        version = int(str(options.get("version", DEFAULT_VERSION)).strip())
    except ValueError as exc:
        raise InvalidOptionError(f"bitmap version must be 1 or 2, got {options.get('version')!r}") from exc
    if version not in (_V1, _V2):
        raise InvalidOptionError(f"bitmap version must be 1 or 2, got {version}")
    block = parse_memory_size(options.get("index-block-size", DEFAULT_BLOCK_SIZE))
    if block > 0x7FFFFFFF:
        raise InvalidOptionError(f"index-block-size {block} exceeds an int")
    return version, block


# ---------------------------------------------------------------------------------------- packing
def _pack_records(codec: KeyCodec, keys: np.ndarray | pa.Array, fields: Sequence[np.ndarray]) -> bytes:
    """Concatenate ``key, int32 field...`` records (keys in the given order) - vectorised.

    One field: ``v1_entry`` / ``block_head``; two: ``v2_entry``.  Fixed-size keys use the generated
    record dtypes; string keys are packed by this numpy mirror of the same records (the generated
    builder encodes them one Python step at a time).
    """
    n = len(keys)
    if codec.kind != "string":
        dt = _v1_dtype(codec) if len(fields) == 1 else _v2_dtype(codec)
        rec = np.empty(n, dtype=dt)
        rec["key"] = keys
        for name, f in zip(dt.names[1:], fields, strict=True):
            rec[name] = f
        return rec.tobytes()
    if n == 0:
        return b""
    assert isinstance(keys, pa.Array)
    keys = keys.cast(pa.binary()) if not pa.types.is_binary(keys.type) else keys
    keys = pa.concat_arrays([keys]) if keys.offset else keys
    offs = np.frombuffer(keys.buffers()[1], dtype=np.int32, count=n + 1, offset=keys.offset * 4)
    data_buf = keys.buffers()[2]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    data = data[offs[0]:offs[-1]]
    lens = np.diff(offs).astype(np.int64)
    rec_size = 4 + lens + 4 * len(fields)
    ends = np.cumsum(rec_size)
    starts = ends - rec_size
    out = np.zeros(int(ends[-1]) if n else 0, dtype=np.uint8)
    ints = [lens.astype(">i4")] + [np.asarray(f).astype(">i4") for f in fields]
    int_pos = [starts] + [starts + 4 + lens + 4 * i for i in range(len(fields))]
    for vals, pos in zip(ints, int_pos, strict=True):
        b = vals.view(np.uint8).reshape(-1, 4)
        idx = pos[:, None] + np.arange(4)
        out[idx] = b
    if len(data):
        dest = np.repeat(starts + 4 - (offs[:-1] - offs[0]), lens) + np.arange(len(data))
        out[dest] = data
    return out.tobytes()


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
            arr = keys if nn is None else keys.take(pa.array(nn, type=pa.int64()))
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
        self.codec = KeyCodec(self.dtype)
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
        cost = 8 + codec.fixed_size  # type: ignore[operator]
        if 4 + cost > limit:
            raise InvalidOptionError(f"bitmap index entry of {cost} bytes does not fit an index block of "
                                     f"{limit} bytes (index fail)")
        per = (limit - 4) // cost
        return [(s, min(s + per, n)) for s in range(0, n, per)]
    lens = pc.binary_length(sorted_keys).to_numpy(zero_copy_only=False).astype(np.int64)
    costs = 12 + lens
    if int(costs.max()) + 4 > limit:
        raise InvalidOptionError(f"bitmap index entry of {int(costs.max())} bytes does not fit an index block "
                                 f"of {limit} bytes (index fail)")
    cum = np.concatenate(([0], np.cumsum(costs)))
    out = []
    s = 0
    while s < n:
        # largest e with cum[e] - cum[s] <= limit - 4
        e = int(np.searchsorted(cum, cum[s] + limit - 4, side="right")) - 1
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
    head = {"version": self.version, "row_count": n, "has_null_value": int(has_null),
            "null_value_offset": null_offset if has_null else None,
            "null_bitmap_length": len(null_bytes) if has_null and self.version == 2 else None}
    if self.version == 1:
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
        pos += 4 + len(b)
    firsts = np.array([s for s, _ in blocks], dtype=np.int64)
    directory = _pack_records(codec, _take_keys(sorted_keys, firsts), [np.array(block_offsets, np.int64)])
    head["index_blocks"] = {"blocks": [{"entries": range(e - s)} for s, e in blocks]}  # derives the key count
    return b"".join([_build_head(head, codec), _int32(len(blocks)), directory, _int32(pos), *block_parts, *body])


def _build_head(head: dict, codec: KeyCodec) -> bytes:
    try:
        return _gen.fast_build_bitmap_index_head(head, key_kind=codec.kind)
    except _rt.CodecError as exc:
        raise translate_error(exc, None, "bitmap index header") from None



# ---------------------------------------------------------------------------------------- reader
def _corrupt(msg: str, source: ByteSource, offset: int = 0) -> CorruptDataError:
    return CorruptDataError(msg, path=source.path, offset=source.base + offset)


class _NegativeLength(Exception):
    """A V1 string record with a negative key length, ``at`` bytes into the dictionary."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


def _not_increasing(sort_keys: np.ndarray) -> bool:
    """True unless strictly increasing (compared, not subtracted: the int64 images of doubles span
    the whole range and their differences overflow)."""
    return bool(np.any(sort_keys[1:] <= sort_keys[:-1]))


def _int32_view(data: bytes) -> np.ndarray:
    """Big-endian int32 at every byte position of ``data`` (a strided view, no copy)."""
    return np.ndarray((max(len(data) - 3, 0),), dtype=">i4", buffer=data, strides=(1,))


def _string_record_bounds(data: bytes, nd: int) -> np.ndarray | None:
    """Starts of the first ``nd`` V1 string records of ``data`` (``int32 length, key, int32
    offset``) followed by the end of the last one - exact - or ``None`` when they run past
    ``data``; a negative length raises :class:`_NegativeLength`.

    The chain of record starts is sequential, so it is walked in Python - but on the cheapest
    step: one ``bytes`` index per record, the low byte of its length prefix in a copy of ``data``
    with 8 added to every byte (mod 256).  That guess is then verified exactly with numpy (every
    visited length prefix, all four bytes, is non-negative and is the step taken minus 8); keys of
    248 bytes or more, or garbage, fail the check and the records are walked again with full
    ``int32`` lengths.
    """
    bounds = np.empty(nd + 1, dtype=np.int64)
    bounds[0] = 0
    if nd == 0:
        return bounds
    n = len(data)
    steps = (np.frombuffer(data, dtype=np.uint8) + np.uint8(8)).tobytes()  # wraps like a byte
    p = 3  # the low byte of the first length prefix
    try:
        guess = [p := p + steps[p] for _ in repeat(None, nd)]
    except IndexError:  # ran past ``data``: walk exactly below
        guess = None
    if guess is not None and p - 3 <= n:
        bounds[1:] = np.fromiter(guess, np.int64, nd)
        bounds[1:] -= 3
        starts = bounds[:-1]
        try:
            lengths = _int32_view(data)[starts]
        except IndexError:  # a guessed start within 4 bytes of the end
            lengths = None
        if lengths is not None and lengths.min() >= 0 and np.array_equal(starts + lengths + 8, bounds[1:]):
            return bounds
    unpack = _INT32.unpack_from
    p = 0
    try:  # record ends; a negative length is caught below
        exact = [p := p + unpack(data, p)[0] + 8 for _ in repeat(None, nd)]
    except struct.error:  # a length prefix beyond what was read (or before it)
        return None
    bounds[1:] = np.fromiter(exact, np.int64, nd)
    bad = np.flatnonzero(np.diff(bounds) < 8)
    if len(bad):
        raise _NegativeLength(int(bounds[bad[0]]))
    return bounds if p <= n else None


class _FixedTable:
    """Sorted-search table over fixed-size keys (keys as comparator-ordered ints)."""

    __slots__ = ("keys", "cols", "_perm", "_sorted", "_uses")

    def __init__(self, keys: np.ndarray, cols: tuple[np.ndarray, ...], already_sorted: bool) -> None:
        self.keys, self.cols = keys, cols
        self._perm: np.ndarray | None = None
        self._sorted = keys if already_sorted else None
        self._uses = 0

    def find(self, sk: int) -> int:
        """Index of the entry with comparator key ``sk`` or -1."""
        keys = self.keys
        try:
            keys.dtype.type(sk)
        except OverflowError:  # a literal outside the key type's range matches nothing
            return -1
        if self._sorted is not None:
            # a scalar of the array's dtype: a Python int makes numpy cast the whole array per call
            i = int(self._sorted.searchsorted(self._sorted.dtype.type(sk)))
            if i < len(self._sorted) and self._sorted[i] == sk:
                return i if self._perm is None else int(self._perm[i])
            return -1
        self._uses += 1
        if self._uses > 1 and len(keys) > 64:
            self._perm = np.argsort(keys, kind="stable")
            self._sorted = keys[self._perm]
            return self.find(sk)
        hit = np.flatnonzero(keys == keys.dtype.type(sk))
        return int(hit[0]) if len(hit) else -1


class _V1Dictionary:
    """A V1 dictionary as read: bitmap offsets in file order plus what finds the keys.

    Fixed-size keys keep the big-endian record view (``raw_keys``); string keys keep the dictionary
    bytes and the record starts.  The first lookup scans (no table built for one lookup, which is
    what a fresh reader per predicate does); later lookups build a hash / sorted table once.
    """

    __slots__ = ("offsets", "raw_keys", "data", "starts", "body_len", "lookups", "extents_asked",
                 "sorted_starts", "_table", "_keys")

    def __init__(self, offsets: np.ndarray, *, raw_keys: np.ndarray | None = None, data: bytes = b"",
                 starts: np.ndarray | None = None) -> None:
        self.offsets, self.raw_keys, self.data, self.starts = offsets, raw_keys, data, starts
        self.body_len = 0
        self.lookups = 0
        self.extents_asked = False
        self.sorted_starts: np.ndarray | None = None
        self._table: Any = None
        self._keys: list | None = None

    def file_keys(self, codec: KeyCodec) -> list:
        """Keys in file order (``bytes`` or ints)."""
        if self._keys is None:
            if self.raw_keys is not None:
                self._keys = self.raw_keys.astype(codec.np_dtype).tolist()
            else:
                data, bounds = self.data, self.starts.tolist()  # type: ignore[union-attr]
                self._keys = [data[s + 4:e - 4] for s, e in zip(bounds, bounds[1:], strict=False)]
        return self._keys

    def find_fixed_once(self, key: int) -> int:
        keys = self.raw_keys
        assert keys is not None
        try:
            target = keys.dtype.type(key)
        except OverflowError:  # a literal outside the key type's range matches nothing
            return -1
        hit = np.flatnonzero(keys == target)
        return int(hit[0]) if len(hit) else -1

    def fixed_table(self, codec: KeyCodec) -> _FixedTable:
        if self._table is None:
            keys = self.raw_keys.astype(codec.np_dtype)  # type: ignore[union-attr]
            self._table = _FixedTable(codec.sort_keys(keys), (), already_sorted=False)
        return self._table

    def find_string_once(self, key: bytes) -> int:
        """Index of the first record holding ``key``: ``bytes.find`` of the length-prefixed key,
        accepted only at a record start (a hit inside another record's bytes is skipped)."""
        starts = self.starts
        assert starts is not None
        needle = _INT32.pack(len(key)) + key
        data, end = self.data, int(starts[-1])
        q = data.find(needle, 0, end)
        while q >= 0:
            i = int(starts.searchsorted(q))
            if starts[i] == q:
                return i
            q = data.find(needle, q + 1, end)
        return -1

    def string_table(self) -> dict:
        if self._table is None:
            keys = self.file_keys(None)  # type: ignore[arg-type]
            # the first entry wins
            self._table = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
        return self._table



#: fixed-key V1 dictionaries up to this many entries are decoded into Python ints with one cached
#: ``struct.Struct``: below it numpy's per-call overhead (structured views, masked minima) costs more
#: than the whole lookup.
_SMALL_V1 = 128
_SMALL_V1_STRUCTS: dict[tuple[str, int], struct.Struct] = {}
_STRUCT_INT = {1: "b", 2: "h", 4: "i", 8: "q"}


def _small_v1_struct(codec: KeyCodec, n: int) -> struct.Struct:
    """``n`` ``v1_entry`` records as one Struct, built from the generated record dtype's fields."""
    st = _SMALL_V1_STRUCTS.get((codec.kind, n))
    if st is None:
        dt = _v1_dtype(codec)
        # struct's standard-size code of each signed big-endian int field (numpy's ``char`` is native-size)
        record = "".join(_STRUCT_INT[dt.fields[name][0].itemsize] for name in dt.names)
        st = struct.Struct(">" + record * n)
        if st.size != n * dt.itemsize:  # pragma: no cover - the records are packed big-endian ints
            raise AssertionError(f"v1_entry struct {record!r} does not match {dt}")
        _SMALL_V1_STRUCTS[(codec.kind, n)] = st
    return st


class _SmallV1:
    """A small fixed-key V1 dictionary as Python tuples (keys as the codec's raw ints)."""

    __slots__ = ("keys", "offsets", "body_len", "_starts")

    def __init__(self, keys: tuple[int, ...], offsets: tuple[int, ...]) -> None:
        self.keys, self.offsets = keys, offsets
        self.body_len = 0
        self._starts: list[int] | None = None

    def find(self, key: int) -> int:
        """Index of the first entry holding ``key`` or -1 (out-of-range literals match nothing)."""
        try:
            return self.keys.index(key)
        except ValueError:
            return -1

    def extent(self, off: int, null_offset: int | None) -> int:
        """Bytes from body offset ``off`` to the next bitmap start (or the end of the body)."""
        starts = self._starts
        if starts is None:
            starts = self._starts = sorted(self.offsets if null_offset is None else (*self.offsets, null_offset))
        i = bisect.bisect_right(starts, off)
        return (starts[i] if i < len(starts) else self.body_len) - off

    def file_keys(self, codec: KeyCodec) -> list:
        return list(self.keys)


#: column type (text, or DataType by identity) -> (DataType, KeyCodec): a reader is created per
#: predicate (as Java does), so the type parsing and KeyCodec are derived once per column type.
_CODECS: dict[Any, tuple[Any, DataType, KeyCodec]] = {}


def _reader_codec(dtype: DataType | str) -> tuple[DataType, KeyCodec]:
    key = dtype if isinstance(dtype, str) else id(dtype)
    hit = _CODECS.get(key)
    if hit is not None and (hit[0] is dtype or key is dtype):  # a str key: equal text
        return hit[1], hit[2]
    parsed = parse_type(dtype)
    try:
        check_index_type("bitmap", parsed)
    except InvalidOptionError as exc:  # pragma: no cover - bitmap is always known
        raise UnsupportedTypeError(str(exc)) from exc
    codec = KeyCodec(parsed)
    if len(_CODECS) > 256:
        _CODECS.clear()
    _CODECS[key] = (dtype, parsed, codec)  # holds ``dtype``: its id cannot be reused while cached
    return parsed, codec


class BitmapIndexReader(FileIndexReader):
    """Lazy reader of a bitmap index payload (V1 or V2)."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str,
                 options: Mapping[str, Any] | None = None) -> None:
        self.source = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype, self.codec = _reader_codec(dtype)
        self._cache: dict[Any, BitMap] = {}
        self._null: BitMap | None = None
        self._v1: tuple | None = None
        self._blocks: dict[int, Any] = {}
        self._read_head()

    # ------------------------------------------------------------------ head
    def _read_head(self) -> None:
        src = self.source
        if len(src) < 1:
            raise TruncatedDataError("empty bitmap index payload", path=src.path, offset=src.base)
        # one read: the head and, for a small payload, everything a lookup needs (see _PREFETCH)
        pre = self._pre = src.read(0, min(len(src), _PREFETCH), "bitmap index header")
        version = pre[0]
        if version > _V2 and version < 128:
            raise UnsupportedVersionError(f"bitmap index version {version} (this reader supports 1 and 2)",
                                          path=src.path, offset=src.base, expected="version 1 or 2")
        if version not in (_V1, _V2):
            raise _corrupt(f"bad bitmap index version byte {version}", src)
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
            raise _corrupt(f"negative row count {self.row_count} or key count {self.non_null_bitmap_number}", src, 1)
        self.null_value_offset = head["null_value_offset"] if self.has_null_value else 0
        self.null_bitmap_length = head["null_bitmap_length"] if head["null_bitmap_length"] is not None else -1
        nd = self.non_null_bitmap_number
        min_entry = (self.codec.fixed_size or 4) + 4
        if nd * min_entry > len(src) - pos:
            raise _corrupt(f"{nd} dictionary entries cannot fit in {len(src) - pos} bytes", src, 5)
        if version == 1:
            self._dict_start = pos
            if self.codec.kind != "string":
                self.body_start = pos + nd * (self.codec.fixed_size + 4)  # type: ignore[operator]
            else:
                self.body_start = -1  # known after the dictionary is parsed
            return
        block_count = self._int32(pos, "index block count")
        pos += 4
        if block_count < 0 or block_count * min_entry > len(src) - pos or block_count > nd or \
                (nd > 0 and block_count == 0):
            raise _corrupt(f"bad index block count {block_count} for {nd} keys", src, pos - 4)
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
        pos += 4
        self.index_block_start = pos
        self.body_start = pos + body_offset
        if body_offset < 0 or self.body_start > len(src):
            raise _corrupt(f"bitmap body offset {body_offset} outside the payload", src, pos - 4)
        ends = np.append(block_offsets[1:], body_offset)
        if block_count and (block_offsets[0] != 0 or np.any(ends - block_offsets < 4)):
            raise _corrupt("index block offsets are not increasing from 0", src, self.index_block_start)
        self._block_offsets = block_offsets
        self._block_ends = ends
        if codec.kind != "string" and block_count > 1 and _not_increasing(self._block_first):
            raise _corrupt("index block first keys are not sorted", src, self.index_block_start)

    def _int32(self, pos: int, what: str) -> int:
        return _INT32.unpack(self._read(pos, 4, what))[0]

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
                                   start + (exc.offset or 0)) from None
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
            if nd <= _SMALL_V1:
                ints = _small_v1_struct(codec, nd).unpack(data)
                v1 = _SmallV1(ints[0::2], ints[1::2])
                top = max(v1.offsets, default=-1)
            else:
                raw = np.frombuffer(data, dtype=dt)
                v1 = _V1Dictionary(raw["offset"], raw_keys=raw["key"])  # big-endian views, no copy
                top = int(v1.offsets.max())
        else:
            v1 = self._walk_string_dictionary()
            top = int(v1.offsets.max()) if nd else -1
        if self.body_start > len(src):
            raise _corrupt("bitmap dictionary runs past the payload", src, self._dict_start)
        body_len = len(src) - self.body_start
        if self.has_null_value and self.null_value_offset > top:
            top = self.null_value_offset
        if top >= body_len:
            raise _corrupt(f"bitmap offset {top} beyond the body ({body_len} bytes)", src, self.body_start)
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
                raise _corrupt("bitmap dictionary holds a negative key length", src, start + exc.at) from None
            if starts is not None:
                break
            if size == avail:
                raise _corrupt("bitmap dictionary runs past the payload or holds a negative length", src,
                               start)
            size = min(avail, size * 2)  # the records run past what was read: read more and walk again
            data = data + src.read(start + len(data), size - len(data), "bitmap dictionary")
        self.body_start = start + int(starts[-1])
        if nd:
            offsets = _int32_view(data)[starts[1:] - 4].astype(np.int64)
        else:
            offsets = np.zeros(0, np.int64)
        return _V1Dictionary(offsets, data=data, starts=starts)

    def _v1_extent(self, off: int) -> int:
        """Bytes from body offset ``off`` to the next bitmap (or the end of the payload)."""
        v1 = self._load_v1()
        if type(v1) is _SmallV1:
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
        if type(v1) is _SmallV1:
            i = v1.find(key)  # type: ignore[arg-type]
            return None if i < 0 else (v1.offsets[i], -1)
        v1.lookups += 1
        if self.codec.kind == "string":
            if v1.lookups == 1:
                i = v1.find_string_once(key)  # type: ignore[arg-type]
            else:
                i = v1.string_table().get(key, -1)
            return None if i < 0 else (int(v1.offsets[i]), -1)
        if v1.lookups == 1:
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
                raise _corrupt(f"index block {i}: {translate_error(exc, None, 'index block')}", src, start) from None
            raw = parsed.entries.view(_v2_dtype(codec))
            if 4 + len(raw) * raw.dtype.itemsize != size:
                raise _corrupt(f"index block {i} holds {len(raw)} entries but is {size} bytes", src, start)
            sk = codec.sort_keys(raw["key"].astype(codec.np_dtype))
            if len(raw) > 1 and _not_increasing(sk):
                raise _corrupt(f"index block {i} keys are not sorted", src, start)
            blk = _FixedTable(sk, (raw["offset"].astype(np.int64), raw["length"].astype(np.int64)),
                              already_sorted=True)
        else:
            count = _INT32.unpack_from(data)[0] if size >= 4 else -1
            if count < 0 or count * 12 > size - 4:
                raise _corrupt(f"index block {i} holds {count} entries but is {size} bytes", src, start)
            try:
                cols, end = _gen.columns_index_block_entries(data, 4, size, count, "string")
            except _rt.CodecError as exc:
                raise _corrupt(f"index block {i}: {exc}", src, start + (exc.offset or 0)) from None
            if end != size:
                raise _corrupt(f"index block {i} entries do not fill the block", src, start + end)
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
        if self.version == 1:
            length = self._v1_extent(off)
        elif length < 0:
            length = len(src) - self.body_start - off
        start = self.body_start + off
        if start + length > len(src) or length < 0:
            raise _corrupt(f"bitmap at body offset {off} ({length} bytes) runs past the payload", src, start)
        data = self._read(start, length, "bitmap")
        try:
            return BitMap.deserialize(data)
        except ValueError as exc:
            raise _corrupt(f"bad roaring bitmap at body offset {off}: {exc}", src, start) from exc

    # ------------------------------------------------------------------ lookups
    def _map_literal(self, literal: Any) -> int | bytes:
        try:
            return self.codec.map_value(literal)  # type: ignore[return-value]
        except (TypeError, ValueError, struct.error, OverflowError) as exc:
            if isinstance(exc, PaimonCodecError):
                raise
            raise InvalidPredicateError(f"literal {literal!r} is not a value of type {self.dtype}") from exc

    def bitmap_of_key(self, key: int | bytes) -> BitMap:
        """Rows holding the (mapped) key; cached."""
        bm = self._cache.get(key)
        if bm is not None:
            return bm
        loc = self._find_v1(key) if self.version == 1 else self._find_v2(key)
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
            elif self.version == 1:
                self._null = self._read_bitmap(self.null_value_offset, -1)
            else:
                self._null = self._read_bitmap(self.null_value_offset, self.null_bitmap_length)
        return self._null

    def _union(self, literals: Sequence[Any]) -> BitMap:
        maps = [self.lookup(lit) for lit in literals]
        if not maps:
            return BitMap()
        return BitMap.union(*maps) if len(maps) > 1 else maps[0]

    def visit_equal(self, literal: Any) -> FileIndexResult:
        key = None if literal is None else self._map_literal(literal)
        return BitmapResult(lambda: self.null_bitmap() if key is None else self.bitmap_of_key(key))

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        lits = list(literals)
        for lit in lits:
            if lit is not None:
                self._map_literal(lit)
        return BitmapResult(lambda: self._union(lits))

    @property
    def lossy_keys(self) -> bool:
        """TIMESTAMP(p > 6) keys are micros: distinct values may share a key (Java is unsound there)."""
        return self.codec.precision is not None and self.codec.precision > 6

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        if self.lossy_keys and literal is not None:
            self._map_literal(literal)
            return REMAIN  # rows sharing the key may still differ below a microsecond
        eq = self.visit_equal(literal)
        return BitmapResult(lambda: eq.bitmap.flip(0, self.row_count))  # type: ignore[attr-defined]

    def visit_not_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if self.lossy_keys and any(lit is not None for lit in literals):
            for lit in literals:
                if lit is not None:
                    self._map_literal(lit)
            return REMAIN
        inn = self.visit_in(literals)
        return BitmapResult(lambda: inn.bitmap.flip(0, self.row_count))  # type: ignore[attr-defined]

    def visit_is_null(self) -> FileIndexResult:
        return BitmapResult(self.null_bitmap)

    def visit_is_not_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self.null_bitmap().flip(0, self.row_count))

    # ------------------------------------------------------------------ structure (tests / inspect)
    def describe(self) -> dict:
        """The decoded structure (reads everything), in the golden ``expected_meta`` shape."""
        codec = self.codec
        out: dict[str, Any] = {
            "version": self.version, "row_count": self.row_count,
            "non_null_bitmap_number": self.non_null_bitmap_number,
            "has_null_value": self.has_null_value, "null_value_offset": self.null_value_offset,
        }
        if self.version == 1:
            v1 = self._load_v1()
            out["body_start"] = self.body_start
            out["entries_in_file_order"] = [[codec.to_python(k), int(o)]
                                            for k, o in zip(v1.file_keys(codec), list(v1.offsets), strict=True)]
            return out
        out["null_bitmap_length"] = self.null_bitmap_length if self.has_null_value else None
        out["index_block_start"] = self.index_block_start
        out["body_start"] = self.body_start
        blocks = []
        for i in range(len(self._block_offsets)):
            blk = self._block(i)
            if codec.kind == "string":
                entries = [[codec.to_python(k), o, ln] for k, (o, ln) in blk.items()]
            else:
                start = self.index_block_start + int(self._block_offsets[i])
                dt = _v2_dtype(codec)
                raw = np.frombuffer(self.source.read(start + 4, len(blk.keys) * dt.itemsize), dtype=dt)
                entries = [[codec.to_python(k), o, ln] for k, o, ln in
                           zip(raw["key"].tolist(), raw["offset"].tolist(), raw["length"].tolist(), strict=True)]
            first = self._block_first_keys[i]
            blocks.append({"first_key": codec.to_python(first if isinstance(first, bytes) else int(first)),
                           "offset": int(self._block_offsets[i]), "entries": entries})
        out["index_blocks"] = blocks
        return out


def create_writer(dtype: DataType | str, options: Mapping[str, Any] | None = None) -> BitmapIndexWriter:
    return BitmapIndexWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str,
                  options: Mapping[str, Any] | None = None) -> BitmapIndexReader:
    return BitmapIndexReader(source, dtype, options)
