"""Key order of the range-bitmap dictionary and of the BSI index, vectorised (part of the one key model).

Range-bitmap keys (FORMATS §4): big-endian fixed-width integers (TINYINT 1 B, SMALLINT 2 B,
INT/DATE/TIME 4 B, BIGINT/timestamps/DECIMAL 8 B), FLOAT/DOUBLE as their *raw* IEEE bits, BOOLEAN
as one byte, strings as int32 length + UTF-8.  Ordering: signed numeric; ``Float.compare`` for
floats (-inf < ... < -0.0 < 0.0 < ... < +inf < NaN, every NaN equal); unsigned byte-wise for
strings (a proper prefix first).

Every fixed-width key has a *sortable* int64 image (the ordering above as plain integer order),
which lets the writer dictionary-encode a column with one ``np.unique`` and the reader binary-search
chunk first keys with ``np.searchsorted``.  String keys are ``bytes`` (Python compares ``bytes``
unsigned byte-wise, prefix first - exactly ``BinaryString.compareTo``).
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InvalidPredicateError
from ..generated.construct.paimon_key import KEY_DTYPES, KEY_STRUCTS
from ..generated.construct.paimon_key import STRING_LENGTH_DTYPE as _STRING_LENGTH
from ..types import DataType
from ..values import Timestamp, decimal_unscaled, from_json, timestamp_key

__all__ = ["STORED_DTYPES", "KeyOrdering", "float_bits", "float_from_bits", "serialized_strings",
           "sorted_unique_strings"]

#: key kind -> numpy dtype of its stored keys as this codec holds them: the generated key dtype's width and
#: byte order (schemas/paimon_key.ksy), as an integer - FLOAT as its unsigned raw bits, DOUBLE as its signed
#: bits, BOOLEAN as a signed byte.  Strings have none.
STORED_DTYPES: dict[str, np.dtype] = {
    kind: np.dtype(f"{'u' if kind == 'float32' else 'i'}{dt.itemsize}").newbyteorder(dt.byteorder)
    for kind, dt in KEY_DTYPES.items() if dt is not None
}

# Java's floatToRawIntBits / doubleToRawLongBits (and back) through the generated key structs: a float key's
# bytes read as the integer key of its width.  Both structs come from one schema; they must agree on byte order.
_F32, _I32 = KEY_STRUCTS["float32"], KEY_STRUCTS["int32"]
_F64, _I64 = KEY_STRUCTS["float64"], KEY_STRUCTS["int64"]
if _F32.format[:1] != _I32.format[:1] or _F64.format[:1] != _I64.format[:1]:
    raise ImportError("schemas/paimon_key.ksy: float keys and the integer keys of their width differ in byte order")


def float_bits(value: float, double: bool) -> int:
    """Signed raw IEEE bits of ``value`` as a FLOAT (int32) or DOUBLE (int64), NaN payloads kept."""
    if double:
        return int(_I64.unpack(_F64.pack(value))[0])
    return int(_I32.unpack(_F32.pack(value))[0])


def float_from_bits(bits: int, double: bool) -> float:
    """The FLOAT / DOUBLE whose raw IEEE bits are ``bits`` (signed or unsigned)."""
    if double:
        b = bits & 0xFFFFFFFFFFFFFFFF
        return float(_F64.unpack(_I64.pack(b - (1 << 64) if b >> 63 else b))[0])
    b = bits & 0xFFFFFFFF
    return float(_F32.unpack(_I32.pack(b - (1 << 32) if b >> 31 else b))[0])


def _float_sortable(bits: np.ndarray, double: bool) -> np.ndarray:
    """int64 images of raw IEEE bits whose integer order is ``Float.compare`` / ``Double.compare``."""
    if double:
        b = bits.astype(np.uint64).view(np.int64)
        nan = (b & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000
        b = np.where(nan, np.int64(0x7FF8000000000000), b)
        return np.where(b < 0, b ^ np.int64(0x7FFFFFFFFFFFFFFF), b)
    b = bits.astype(np.uint32).view(np.int32).astype(np.int64)
    nan = (b & 0x7FFFFFFF) > 0x7F800000
    b = np.where(nan, np.int64(0x7FC00000), b)
    return np.where(b < 0, b ^ np.int64(0x7FFFFFFF), b)


class KeyOrdering:
    """The range-bitmap / BSI half of :class:`paimon_codec.fileindex.keys.KeyCodec` (a mixin).

    These methods work on *stored* values as int64 (FLOAT raw bits unsigned) and their *sortable*
    images, where every NaN is one value (``Float.compare``).  The bitmap half (``sort_keys``) keeps
    NaN payloads apart instead, as Java's bitmap HashMap does.  The attributes below are set by
    ``KeyCodec.__init__``.
    """

    dtype: DataType
    root: str
    kind: str
    is_float: bool
    is_string: bool
    is_bool: bool
    width: int | None

    def map_array(self, values: Any) -> tuple[np.ndarray | pa.Array, np.ndarray]:
        raise NotImplementedError  # KeyCodec's

    # ----------------------------------------------------------------- values -> keys (bulk)
    def column(self, values: Any) -> tuple[np.ndarray, Any, Any]:
        """Map a column to ``(valid_mask, sortable, raw)``.

        The value mapping is :meth:`KeyCodec.map_array` (the range-bitmap and BSI rules keep NaN
        payloads: ``raw_float_bits``).  Fixed keys: ``sortable`` is
        an int64 array (order image, every NaN equal), ``raw`` the int64 stored value (raw bits for
        floats).  Strings: ``sortable`` is a pyarrow binary array (nulls kept), ``raw`` None.
        """
        keys, valid = self.map_array(values)
        valid = np.asarray(valid, dtype=bool)
        if self.is_string:
            skeys = cast("pa.Array | pa.ChunkedArray", keys)  # KeyCodec maps strings to pyarrow binary
            if isinstance(skeys, pa.ChunkedArray):
                skeys = skeys.combine_chunks()
            if valid.size and not valid.all():
                skeys = pc.if_else(pa.array(valid), skeys, pa.scalar(None, type=skeys.type))
            return valid, skeys, None
        raw = np.asarray(keys).astype(np.int64)
        if self.is_float and self.width == 4:
            raw &= 0xFFFFFFFF  # stored as unsigned 32-bit raw bits
        return valid, self.sortable(raw), raw

    def sortable(self, raw: np.ndarray) -> np.ndarray:
        """Order images (int64) of fixed-width stored values."""
        if self.is_float:
            return _float_sortable(raw, self.root == "DOUBLE")
        return raw.astype(np.int64, copy=False)

    # ----------------------------------------------------------------- one value
    def scalar(self, value: Any) -> int:
        """The stored integer of one non-null fixed-width value (raw bits for floats)."""
        r = self.root
        if self.is_float:
            if isinstance(value, (dict, str)):
                value = from_json(self.dtype, value)
            if r == "FLOAT":
                return float_bits(float(value), False) & 0xFFFFFFFF
            return float_bits(float(value), True)
        if self.dtype.is_timestamp:
            if not isinstance(value, Timestamp):
                value = from_json(self.dtype, value)
            return timestamp_key(value, self.dtype.precision if self.dtype.precision is not None else 6)
        if r == "DECIMAL":
            if isinstance(value, dict):
                return int(value["unscaled"])
            if not isinstance(value, (decimal.Decimal, int)):
                value = from_json(self.dtype, value)
            return decimal_unscaled(value, self.dtype.scale or 0)
        if self.is_bool:
            if not isinstance(value, (bool, np.bool_)):
                raise InvalidPredicateError(f"{value!r} is not a BOOLEAN")
            return int(bool(value))
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            value = from_json(self.dtype, value)
        return int(value)

    def literal(self, value: Any) -> Any:
        """Comparable key of a query literal: sortable int for fixed keys, UTF-8 bytes for strings."""
        if value is None:
            raise InvalidPredicateError("a NULL literal cannot be compared")
        if self.is_string:
            if isinstance(value, bytes):
                return value
            return str(value).encode("utf-8", "surrogatepass")
        raw = self.scalar(value)
        if self.is_float:
            return int(self.sortable(np.array([raw], dtype=np.int64))[0])
        return raw

    # ----------------------------------------------------------------- serialisation
    def encode_fixed(self, raw: np.ndarray) -> bytes:
        """Stored bytes (``paimon_key`` layout) of stored values (raw bits for floats)."""
        return raw.astype(STORED_DTYPES[self.kind]).tobytes()

    def decode_fixed(self, data: bytes | np.ndarray, count: int | None = None) -> np.ndarray:
        """Stored values (int64) of ``count`` consecutive keys in the ``paimon_key`` layout."""
        return np.frombuffer(data, dtype=STORED_DTYPES[self.kind], count=-1 if count is None else count).astype(
            np.int64)

    def key_value(self, key: Any) -> Any:
        """JSON-style value of a stored key (as the golden ``expected_meta`` reports keys)."""
        if self.is_string:
            try:
                return key.decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:  # not UTF-8: keep every byte recoverable
                return key.decode("utf-8", "surrogateescape")
        if self.is_float:
            return float_from_bits(int(key), self.width == 8)
        if self.is_bool:
            return bool(key)
        return int(key)


def sorted_unique_strings(arr: pa.Array) -> tuple[list[bytes], np.ndarray]:
    """Sorted distinct non-null byte strings of ``arr`` and each row's code (-1 for null)."""
    uniq = pc.unique(arr.drop_null() if arr.null_count else arr)
    order = pc.sort_indices(uniq)
    keys = uniq.take(order)
    codes = pc.index_in(arr, value_set=keys)
    codes = np.asarray(codes.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
    return keys.to_pylist(), codes


def serialized_strings(keys: Sequence[bytes]) -> tuple[bytes, np.ndarray]:
    """``length prefix + bytes`` (``paimon_key`` string keys) of every key back to back, and each key's
    serialised size."""
    lens = np.fromiter((len(k) for k in keys), dtype=np.int64, count=len(keys))
    w = _STRING_LENGTH.itemsize
    heads = lens.astype(_STRING_LENGTH).tobytes()
    return b"".join(heads[w * i:w * i + w] + k for i, k in enumerate(keys)), lens + w
