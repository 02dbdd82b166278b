"""Bitmap index (``"bitmap"``) layout glue: the generated pieces of ``schemas/bitmap_index.ksy``
this index uses, the record packers of the writer and the record walkers of the reader.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ... import codec_runtime as _rt
from ...errors import (
    CorruptDataError,
    InvalidOptionError,
)
from ...fileio import ByteSource
from ...formats import translate_error
from ...generated.construct import bitmap_index as _gen
from ...generated.construct import paimon_key as _key
from ...roaring import serialize_optimized
from ..keys import KeyCodec
from ..options import parse_memory_size

_V1, _V2 = _gen.BITMAP_INDEX_VERSION_V1, _gen.BITMAP_INDEX_VERSION_V2
DEFAULT_VERSION = _V2
#: the ``version`` option (``file-index.bitmap.<column>.version``: "1" or "2") -> the stored version
_OPTION_VERSIONS = {"1": _V1, "2": _V2}
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
#: the length prefix of a string key (``paimon_key`` ``binary_string.len``)
_LEN_DT: np.dtype = _key.STRING_LENGTH_DTYPE
_LEN = _LEN_DT.itemsize
#: the int fields after a key in ``v1_entry`` / ``block_head`` (offset) and ``v2_entry`` (offset, length):
#: their dtypes do not depend on the key kind, so they are read off the generated int32-keyed records
def _int_fields(records: np.dtype | None) -> list[np.dtype]:
    """The dtypes of a generated record's fields after its ``key``."""
    assert records is not None and records.fields is not None and records.names is not None
    return [records.fields[n][0] for n in records.names[1:]]


_V1_FIELDS = _int_fields(_gen.ENTRIES_DTYPES["int32"])
_V2_FIELDS = _int_fields(_gen.INDEX_BLOCK_ENTRIES_DTYPES["int32"])
#: bytes of a V1 string record besides the key bytes, and of a V2 one
_V1_STRING_OVERHEAD = _LEN + sum(d.itemsize for d in _V1_FIELDS)
_V2_STRING_OVERHEAD = _LEN + sum(d.itemsize for d in _V2_FIELDS)


def _records_dtype(generated: np.dtype | None, codec: KeyCodec) -> np.dtype:
    """A generated record dtype with its ``key`` field read as the codec's comparator integers
    (float keys as raw bits, same offsets and size)."""
    assert generated is not None and generated.fields is not None and generated.names is not None
    fields: dict[str, tuple] = {name: (codec.be_dtype if name == "key" else generated.fields[name][0], generated.fields[name][1])
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
    raw = options.get("version")
    # the option's values are Paimon's names of the two versions, the stored byte is the schema's
    version = DEFAULT_VERSION if raw is None else _OPTION_VERSIONS.get(str(raw).strip())
    if version is None:
        raise InvalidOptionError(f"bitmap version must be 1 or 2, got {raw!r}")
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
        for name, f in zip((dt.names or ())[1:], fields, strict=True):
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
    field_dts = _V1_FIELDS if len(fields) == 1 else _V2_FIELDS
    widths = [d.itemsize for d in field_dts]
    rec_size = _LEN + lens + sum(widths)
    ends = np.cumsum(rec_size)
    starts = ends - rec_size
    out = np.zeros(int(ends[-1]) if n else 0, dtype=np.uint8)
    ints = [lens.astype(_LEN_DT)] + [np.asarray(f).astype(d) for f, d in zip(fields, field_dts, strict=True)]
    int_pos = [starts] + [starts + _LEN + lens + sum(widths[:i]) for i in range(len(fields))]
    for vals, pos in zip(ints, int_pos, strict=True):
        w = vals.dtype.itemsize
        b = vals.view(np.uint8).reshape(-1, w)
        idx = pos[:, None] + np.arange(w)
        out[idx] = b
    if len(data):
        dest = np.repeat(starts + _LEN - (offs[:-1] - offs[0]), lens) + np.arange(len(data))
        out[dest] = data
    return out.tobytes()


def _build_head(head: dict, codec: KeyCodec) -> bytes:
    try:
        return _gen.fast_build_bitmap_index_head(head, key_kind=codec.kind)
    except _rt.CodecError as exc:
        raise translate_error(exc, None, "bitmap index header") from None


# ---------------------------------------------------------------------------------------- reader
def _corrupt(msg: str, source: ByteSource, offset: int = 0, expected: str | None = None) -> CorruptDataError:
    return CorruptDataError(msg, path=source.path, offset=source.base + offset, expected=expected)


class _NegativeLength(Exception):
    """A V1 string record with a negative key length, ``at`` bytes into the dictionary."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


def _not_increasing(sort_keys: np.ndarray) -> bool:
    """True unless strictly increasing (compared, not subtracted: the int64 images of doubles span
    the whole range and their differences overflow)."""
    return bool(np.any(sort_keys[1:] <= sort_keys[:-1]))


def _view_at_every_byte(data: bytes, dtype: np.dtype) -> np.ndarray:
    """A ``dtype`` number at every byte position of ``data`` (a strided view, no copy)."""
    return np.ndarray((max(len(data) - dtype.itemsize + 1, 0),), dtype=dtype, buffer=data, strides=(1,))


def _string_record_bounds(data: bytes, nd: int) -> np.ndarray | None:
    """Starts of the first ``nd`` V1 string records of ``data`` (``length prefix, key, offset``, the
    generated ``v1_entry`` of string keys) followed by the end of the last one - exact - or ``None``
    when they run past ``data``; a negative length raises :class:`_NegativeLength`.

    The chain of record starts is sequential, so it is walked in Python - but on the cheapest
    step: one ``bytes`` index per record, the low byte of its length prefix in a copy of ``data``
    with the record overhead (prefix + offset bytes) added to every byte (mod 256).  That guess is then
    verified exactly with numpy (every visited length prefix, all its bytes, is non-negative and is the
    step taken minus the overhead); long keys, or garbage, fail the check and the records are walked
    again with full lengths.
    """
    bounds = np.empty(nd + 1, dtype=np.int64)
    bounds[0] = 0
    if nd == 0:
        return bounds
    n = len(data)
    over = _V1_STRING_OVERHEAD
    low = _LEN - 1 if _LEN_DT.byteorder == ">" else 0  # the low byte of a length prefix
    steps = (np.frombuffer(data, dtype=np.uint8) + np.uint8(over & 0xFF)).tobytes()  # wraps like a byte
    p = low
    try:
        guess = [p := p + steps[p] for _ in repeat(None, nd)]
    except IndexError:  # ran past ``data``: walk exactly below
        guess = None
    lengths_at = _view_at_every_byte(data, _LEN_DT)
    if guess is not None and p - low <= n:
        bounds[1:] = np.fromiter(guess, np.int64, nd)
        bounds[1:] -= low
        starts = bounds[:-1]
        try:
            lengths = lengths_at[starts]
        except IndexError:  # a guessed start within a prefix of the end
            lengths = None
        if lengths is not None and lengths.min() >= 0 and np.array_equal(starts + lengths + over, bounds[1:]):
            return bounds
    p = 0
    try:  # record ends; a negative length is caught below
        exact = [p := p + int(lengths_at[p]) + over for _ in repeat(None, nd)]
    except IndexError:  # a length prefix beyond what was read (or before it)
        return None
    bounds[1:] = np.fromiter(exact, np.int64, nd)
    bad = np.flatnonzero(np.diff(bounds) < over)
    if len(bad):
        raise _NegativeLength(int(bounds[bad[0]]))
    return bounds if p <= n else None


#: fixed-key V1 dictionaries up to this many entries are decoded into Python ints with one cached
#: ``struct.Struct``: below it numpy's per-call overhead (structured views, masked minima) costs more
#: than the whole lookup.
_SMALL_V1 = 128
_SMALL_V1_STRUCTS: dict[tuple[str, int], struct.Struct | None] = {}
_STRUCT_INT = {1: "b", 2: "h", 4: "i", 8: "q"}
_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"


def _small_v1_struct(codec: KeyCodec, n: int) -> struct.Struct | None:
    """``n`` ``v1_entry`` records as one Struct, built from the generated record dtype's fields (their
    widths and byte order); None when the fields differ in byte order (no one ``struct`` prefix reads them)."""
    if (codec.kind, n) in _SMALL_V1_STRUCTS:
        return _SMALL_V1_STRUCTS[(codec.kind, n)]
    dt = _v1_dtype(codec)
    assert dt.fields is not None and dt.names is not None
    orders = {_NATIVE_ORDER if f.byteorder == "=" else f.byteorder
              for f in (dt.fields[name][0] for name in dt.names) if f.byteorder != "|"}
    st = None
    if len(orders) <= 1:
        # struct's standard-size code of each signed int field (numpy's ``char`` is native-size)
        record = "".join(_STRUCT_INT[dt.fields[name][0].itemsize] for name in dt.names)
        st = struct.Struct((orders.pop() if orders else "=") + record * n)
        if st.size != n * dt.itemsize:  # pragma: no cover - the records are packed ints
            raise AssertionError(f"v1_entry struct {record!r} does not match {dt}")
    _SMALL_V1_STRUCTS[(codec.kind, n)] = st
    return st
