"""Index keys: the value mapper, key bytes, ordering and Java hashCode of each column type.

Every file index first maps a column value to a *key* (FORMATS.md §2.1) and then stores, orders or
hashes that key.  This is the one key model of the package: one vocabulary of key kinds (the ``kind``
parameter of ``schemas/paimon_key.ksy``, :data:`KEY_KINDS`; the column type -> kind mapping is
``formats.KEY_KIND_BY_TYPE_ROOT``) and one codec, :class:`KeyCodec`, used by the bitmap, bloom-filter,
range-bitmap and BSI indexes.  What an index does differently is a named :class:`KeyRules` entry of
:data:`INDEX_KEY_RULES` (which types it accepts, whether float keys keep NaN payloads); the
range-bitmap / BSI ordering of stored values (``column`` / ``sortable`` / ``literal``, every NaN one
value) comes from :class:`~paimon_codec.fileindex._key_order.KeyOrdering`, the bitmap ordering
(``sort_keys``, NaN payloads apart) is defined here.

Internal representation of mapped keys (what :meth:`KeyCodec.map_value` returns):

==========================================  =================================================
TINYINT / SMALLINT / INT / DATE / TIME      ``int``
BIGINT                                      ``int``
TIMESTAMP(p) / TIMESTAMP_LTZ(p)             ``int``: epoch millis (p <= 3) or micros (p > 3)
DECIMAL(p, s) (range bitmap / BSI only)     ``int``: unscaled long
FLOAT / DOUBLE                              ``int``: IEEE bits as a *signed* int32/int64,
                                            NaN canonicalised unless ``raw_float_bits``
BOOLEAN                                     ``int`` 0 / 1
CHAR / VARCHAR / STRING                     ``bytes``: the UTF-8 encoding
==========================================  =================================================

Keeping floats as bits makes key equality Java's ``Float.equals`` (NaN == NaN, -0.0 != 0.0) and
lets numpy handle them as integers; :meth:`KeyCodec.sort_keys` turns them into integers whose
order is ``Float.compare``'s.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import UnsupportedTypeError
from ..formats import KEY_KIND_BY_TYPE_ROOT
from ..generated.construct import paimon_key as _paimon_key
from ..javahash import murmur_bytes
from ..types import DataType, parse_type
from ..values import Timestamp, decimal_unscaled
from ._key_order import KeyOrdering, float_bits, float_from_bits

__all__ = ["INDEX_KEY_RULES", "KEY_KINDS", "KeyCodec", "KeyRules", "key_codec"]

# key kind (the ``kind`` parameter of schemas/paimon_key.ksy, ``formats.KEY_KINDS``) -> (fixed byte
# size or None, numpy dtype of the stored key as this codec holds it: FLOAT/DOUBLE as their IEEE bits,
# BOOLEAN as a signed byte).  Derived from the generated per-kind key dtypes (width and byte order): one
# vocabulary, one layout.
KEY_KINDS: dict[str, tuple[int | None, np.dtype | None]] = {
    kind: (None, None) if dt is None else (dt.itemsize, np.dtype(f"i{dt.itemsize}").newbyteorder(dt.byteorder))
    for kind, dt in _paimon_key.KEY_DTYPES.items()
}

_F32_NAN, _F64_NAN = 0x7FC00000, 0x7FF8000000000000
_MASK32, _MASK64 = 0x7FFFFFFF, 0x7FFFFFFFFFFFFFFF


@dataclass(frozen=True)
class KeyRules:
    """What one index does differently with the shared key model (every field a named difference)."""

    #: keep NaN payloads of float keys (range bitmap: ``ByteBuffer.putFloat``) instead of Java's
    #: canonical NaN (bitmap / BSI: ``DataOutput.writeFloat``, bloom: ``Float.floatToIntBits``)
    raw_float_bits: bool = False
    floats: bool = True  # FLOAT / DOUBLE columns accepted
    strings: bool = True  # CHAR / VARCHAR columns accepted
    booleans: bool = True  # BOOLEAN columns accepted
    #: refuse what the index cannot key: DECIMAL precision > 18, TIMESTAMP precision > 6 (unless
    #: ``micros_for_nanos``); an unsupported type is reported as "not supported by this index"
    bounded: bool = False
    #: TIMESTAMP(7..9) keyed by floored micros (Java's BSI, checked on Java 1.4.2 files)
    micros_for_nanos: bool = False


#: index type -> its key rules (the bloom filter keys binary columns itself, see bloom.hashing)
INDEX_KEY_RULES: dict[str, KeyRules] = {
    "bitmap": KeyRules(),
    "bloom-filter": KeyRules(),
    "range-bitmap": KeyRules(raw_float_bits=True, bounded=True),
    "bsi": KeyRules(raw_float_bits=True, floats=False, strings=False, booleans=False, bounded=True,
                    micros_for_nanos=True),
}


def _check_rules(dtype: DataType, rules: KeyRules) -> None:
    """Refuse a column type the index cannot key (the range-bitmap / BSI checks, in their order)."""
    root = dtype.root
    if root in ("FLOAT", "DOUBLE") and not rules.floats or dtype.is_string and not rules.strings or (
            root == "BOOLEAN" and not rules.booleans):
        raise UnsupportedTypeError(f"type {dtype} is not supported by this index")
    if not rules.bounded:
        return
    if dtype.is_timestamp and (dtype.precision if dtype.precision is not None else 6) > 6 and \
            not rules.micros_for_nanos:
        raise UnsupportedTypeError(f"{dtype}: timestamp precision > 6 is not supported by this index")
    if root == "DECIMAL" and (dtype.precision or 10) > 18:
        raise UnsupportedTypeError(f"{dtype}: DECIMAL precision > 18 is not supported by this index")
    if root not in KEY_KIND_BY_TYPE_ROOT:
        raise UnsupportedTypeError(f"type {dtype} is not supported by this index")


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


class KeyCodec(KeyOrdering):
    """Mapper, serializer, comparator and hashCode of the keys of one column type.

    ``rules`` (or ``index``, a key of :data:`INDEX_KEY_RULES`) says what the index differs in;
    ``raw_float_bits`` alone overrides the rules' float convention (default: the bitmap rules).
    """

    def __init__(self, dtype: DataType | str, *, raw_float_bits: bool | None = None, index: str = "bitmap",
                 rules: KeyRules | None = None) -> None:
        self.dtype = parse_type(dtype)
        self.rules = INDEX_KEY_RULES[index] if rules is None else rules
        _check_rules(self.dtype, self.rules)
        root = self.dtype.root
        if root not in KEY_KIND_BY_TYPE_ROOT:
            raise UnsupportedTypeError(f"type {self.dtype} cannot be an index key")
        self.root = root
        self.kind = KEY_KIND_BY_TYPE_ROOT[root]
        self.fixed_size, self.be_dtype = KEY_KINDS[self.kind]
        self.width = self.fixed_size  # stored bytes of a fixed key (None: strings)
        self.is_float = self.kind in ("float32", "float64")
        self.is_string = self.kind == "string"
        self.is_bool = self.kind == "bool"
        self.raw_float_bits = self.rules.raw_float_bits if raw_float_bits is None else raw_float_bits
        self.precision = self.dtype.precision if self.dtype.is_timestamp else None
        self.scale = self.dtype.scale if root == "DECIMAL" else None

    # ------------------------------------------------------------------ mapping
    def map_value(self, v: Any) -> int | bytes | None:
        """Map one Python column value (``paimon_codec.values`` conventions) to its key."""
        if v is None:
            return None
        k = self.kind
        if k == "string":
            if type(v) is str:
                return v.encode("utf-8", "surrogatepass")
            if isinstance(v, bytes):
                return v
            return str(v).encode("utf-8", "surrogatepass")
        if k == "float32":
            bits = float_bits(float(v), False)
            if not self.raw_float_bits and math.isnan(v):
                bits = _F32_NAN
            return bits
        if k == "float64":
            bits = float_bits(float(v), True)
            if not self.raw_float_bits and math.isnan(v):
                bits = _F64_NAN
            return bits
        if k == "bool":
            return 1 if v else 0
        if self.precision is not None:
            if isinstance(v, Timestamp):
                return v.millis if self.precision <= 3 else v.to_micros()
            if isinstance(v, (list, tuple)):
                ts = Timestamp(int(v[0]), int(v[1]) if len(v) > 1 else 0)
                return ts.millis if self.precision <= 3 else ts.to_micros()
            return int(v)
        if self.scale is not None:
            if isinstance(v, decimal.Decimal):
                return decimal_unscaled(v, self.scale)
            return int(v)
        return int(v)

    def map_array(self, values: Any) -> tuple[np.ndarray | pa.Array, np.ndarray]:
        """Map a column (pyarrow array / numpy array / Python list) to ``(keys, valid)``.

        ``keys`` is a numpy int array (fixed-size kinds; invalid slots hold 0) or a pyarrow
        ``binary`` array (strings); ``valid`` a bool numpy array.
        """
        if isinstance(values, pa.ChunkedArray):
            values = values.combine_chunks()
        if isinstance(values, np.ndarray) and values.dtype != object:
            return self._map_numpy(values), np.ones(len(values), dtype=bool)
        if not isinstance(values, pa.Array):
            return self._map_list(values)
        if isinstance(values.type, pa.DictionaryType):
            values = values.dictionary_decode()
        valid = (np.ones(len(values), dtype=bool) if values.null_count == 0
                 else values.is_valid().to_numpy(zero_copy_only=False))
        t = values.type
        k = self.kind
        if k == "string":
            if pa.types.is_string(t) or pa.types.is_large_string(t):
                return values.cast(pa.large_binary() if pa.types.is_large_string(t) else pa.binary()), valid
            if pa.types.is_binary(t) or pa.types.is_large_binary(t):
                return values, valid
            return self._map_list(values.to_pylist())
        if pa.types.is_timestamp(t):
            unit_per_sec = {"s": 1, "ms": 1000, "us": 1_000_000, "ns": 1_000_000_000}[t.unit]
            raw = values.cast(pa.int64()).fill_null(0).to_numpy()
            target = 1000 if self.precision is not None and self.precision <= 3 else 1_000_000
            if unit_per_sec >= target:
                out = np.floor_divide(raw, unit_per_sec // target)
            else:
                out = raw * (target // unit_per_sec)
            return out.astype(np.int64), valid
        if pa.types.is_date32(t):
            return values.cast(pa.int32()).fill_null(0).to_numpy().astype(np.int32), valid
        if pa.types.is_time32(t) or pa.types.is_time64(t):
            per_sec = {"s": 1, "ms": 1000, "us": 1_000_000, "ns": 1_000_000_000}[t.unit]
            raw = values.cast(pa.int64() if pa.types.is_time64(t) else pa.int32()).fill_null(0).to_numpy()
            out = raw * 1000 // per_sec if per_sec != 1000 else raw
            return out.astype(np.int32), valid
        if pa.types.is_decimal(t) or pa.types.is_struct(t) or pa.types.is_list(t):
            return self._map_list(values.to_pylist())
        if pa.types.is_boolean(t):
            return values.fill_null(False).to_numpy(zero_copy_only=False).astype(np.int8), valid
        if pa.types.is_floating(t) or pa.types.is_integer(t):
            filled = values.fill_null(0) if values.null_count else values
            return self._map_numpy(filled.to_numpy(zero_copy_only=False)), valid
        return self._map_list(values.to_pylist())

    def _map_numpy(self, arr: np.ndarray) -> np.ndarray:
        k = self.kind
        if k == "float32":
            f = arr.astype(np.float32)
            bits = f.view(np.int32).copy()
            if not self.raw_float_bits:
                bits[np.isnan(f)] = _F32_NAN
            return bits
        if k == "float64":
            f = arr.astype(np.float64)
            bits = f.view(np.int64).copy()
            if not self.raw_float_bits:
                bits[np.isnan(f)] = _F64_NAN
            return bits
        if k == "string":
            raise UnsupportedTypeError("a numeric array cannot feed a string column")
        if np.issubdtype(arr.dtype, np.floating):
            if not np.all(np.mod(arr, 1) == 0):
                raise UnsupportedTypeError(f"non-integral values for column type {self.dtype}")
        return arr.astype(self.np_dtype, copy=False)

    def _map_list(self, values: Sequence[Any]) -> tuple[np.ndarray | pa.Array, np.ndarray]:
        keys = [self.map_value(v) for v in values]
        valid = np.fromiter((x is not None for x in keys), dtype=bool, count=len(keys))
        if self.kind == "string":
            return pa.array(keys, type=pa.binary()), valid
        return np.fromiter((0 if x is None else x for x in keys), dtype=self.np_dtype, count=len(keys)), valid

    @property
    def np_dtype(self) -> np.dtype:
        """Native numpy dtype of mapped keys (fixed-size kinds)."""
        if self.kind == "string":
            raise UnsupportedTypeError("string keys have no fixed numpy dtype")
        return np.dtype(self.be_dtype).newbyteorder("=")

    # ------------------------------------------------------------------ bytes
    def serialize(self, key: int | bytes) -> bytes:
        """The key's bytes as the indexes store it (schemas/paimon_key.ksy; floats from their bits)."""
        if self.kind == "string":
            return _paimon_key.fast_build_paimon_key(key, kind="string")
        return np.array([key], dtype=self.be_dtype).tobytes()

    def serialize_many(self, keys: np.ndarray | Sequence[bytes]) -> list[bytes] | np.ndarray:
        """Serialized keys: a big-endian numpy array (fixed) or a list of ``bytes`` (strings)."""
        if self.kind == "string":
            return [_paimon_key.fast_build_paimon_key(k, kind="string") for k in keys]
        return np.asarray(keys).astype(self.be_dtype)

    # ------------------------------------------------------------------ order / hash / display
    def sort_key(self, key: int | bytes) -> int | bytes:
        """A Python value ordering like Paimon's comparator for this key kind."""
        if self.kind == "float32":
            # float kinds: ``key`` is the int of the raw bits (int | bytes is split by ``self.kind``)
            return key if key >= 0 else key ^ _MASK32  # type: ignore[operator]
        if self.kind == "float64":
            # as above, 64-bit
            return key if key >= 0 else key ^ _MASK64  # type: ignore[operator]
        return key

    def sort_keys(self, keys: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`sort_key` for fixed-size keys (order-preserving integer transform)."""
        if self.kind == "float32":
            k = keys.astype(np.int32)
            return np.where(k < 0, k ^ np.int32(_MASK32), k)
        if self.kind == "float64":
            k = keys.astype(np.int64)
            return np.where(k < 0, k ^ np.int64(_MASK64), k)
        return keys

    def argsort(self, keys: np.ndarray | pa.Array) -> np.ndarray:
        """Indices sorting ``keys`` in Paimon's comparator order."""
        if self.kind == "string":
            arr = keys if isinstance(keys, pa.Array) else pa.array(list(keys), type=pa.binary())
            return pc.sort_indices(arr).to_numpy()
        return np.argsort(self.sort_keys(np.asarray(keys)), kind="stable")

    def hash_code(self, key: int | bytes) -> int:
        """Java ``hashCode()`` of the boxed key object Paimon puts in its HashMap."""
        k = self.kind
        if k == "string":
            return murmur_bytes(key)  # type: ignore[arg-type]  # string keys are bytes (union split by kind)
        if k == "bool":
            return 1231 if key else 1237
        if k in ("int64", "float64"):
            u = key & 0xFFFFFFFFFFFFFFFF  # type: ignore[operator]  # int64/float64 keys are ints
            return _signed(u ^ (u >> 32), 32)
        return int(key)  # byte, short, int, float bits

    def hash_codes(self, keys: np.ndarray | Sequence[bytes]) -> np.ndarray:
        """Vectorised :meth:`hash_code` as an int32 numpy array."""
        k = self.kind
        if k == "string":
            return np.fromiter((murmur_bytes(b) for b in keys), dtype=np.int32, count=len(keys))
        arr = np.asarray(keys)
        if k == "bool":
            return np.where(arr != 0, 1231, 1237).astype(np.int32)
        if k in ("int64", "float64"):
            u = arr.astype(np.int64).view(np.uint64)
            return (u ^ (u >> np.uint64(32))).astype(np.uint32).view(np.int32)
        return arr.astype(np.int32)

    def to_python(self, key: int | bytes) -> Any:
        """The key as a plain Python value (floats as float, strings as str), for display/JSON."""
        if self.kind == "float32":
            return float_from_bits(key, False)  # type: ignore[arg-type]  # float keys are ints (split by kind)
        if self.kind == "float64":
            return float_from_bits(key, True)  # type: ignore[arg-type]  # as above
        if self.kind == "string":
            return key.decode("utf-8", "surrogateescape")  # type: ignore[union-attr]  # string keys are bytes
        if self.kind == "bool":
            return bool(key)
        return key


def key_codec(dtype: DataType | str, index: str = "bitmap") -> KeyCodec:
    """The key codec of ``index`` (a key of :data:`INDEX_KEY_RULES`) for a column type."""
    return KeyCodec(dtype, index=index)
