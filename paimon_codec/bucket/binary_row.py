"""``BinaryRow`` bytes of key rows and Paimon's key hash (``BinaryRow.hashCode()``).

Layout (FORMATS.md §7.2), arity ``n``:

* header + null bits: ``W = ((n + 63 + 8) // 64) * 8`` bytes; byte 0 = RowKind (0 for keys); the null
  flag of field ``i`` is bit ``i + 8`` (byte ``b >> 3``, mask ``1 << (b & 7)``);
* one 8-byte little-endian slot per field at ``W + 8 i``: BOOLEAN / TINYINT / SMALLINT / INT / DATE /
  TIME / FLOAT in the low bytes, BIGINT / DOUBLE in all 8, compact DECIMAL (p <= 18) as the unscaled
  long, compact TIMESTAMP (p <= 3) as epoch millis; a null field has a zero slot;
* strings and binaries of <= 7 bytes inline (bytes 0..len-1, byte 7 = ``0x80 | len``); longer ones in
  the variable part (zero-padded to a multiple of 8) with slot ``offset << 32 | len``;
* non-compact TIMESTAMP (p > 3): 8 bytes of epoch millis in the variable part, slot
  ``offset << 32 | nanos_of_milli``; non-compact DECIMAL (p > 18): 16 reserved bytes in the variable
  part holding ``BigInteger.toByteArray()`` of the unscaled value, slot ``offset << 32 | len``.  A null
  non-compact field still reserves its bytes (Paimon's null setter for these types), slot
  ``offset << 32 | 0``.

The hash is MurmurHash3 x86_32 (seed 42) over all bytes of the row.  :func:`murmur3_rows` hashes many
equal-length rows at once with numpy, and :meth:`KeyEncoder.hash_columns` builds and hashes fixed-width
key columns without a per-row Python loop.
"""

from __future__ import annotations

import decimal
import struct
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import PaimonCodecError, UnsupportedTypeError
from ..javahash import murmur_words
from ..types import DataType, parse_row_type, parse_type
from ..values import Timestamp, decimal_unscaled

__all__ = [
    "KeyEncoder",
    "binary_row",
    "row_hash",
    "murmur3_rows",
    "null_bits_width",
    "EMPTY_ROW",
    "EMPTY_ROW_HASH",
]

#: The arity-0 row (an empty partition): 8 zero bytes.
EMPTY_ROW = bytes(8)
EMPTY_ROW_HASH = murmur_words(EMPTY_ROW)

_FIXED_ROOTS = {
    "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME_WITHOUT_TIME_ZONE",
}
_VAR_ROOTS = {"CHAR", "VARCHAR", "BINARY", "VARBINARY"}
_TS_ROOTS = {"TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"}
_U64 = 0xFFFFFFFFFFFFFFFF


def null_bits_width(arity: int) -> int:
    """Bytes of the header + null-bit region of a row with ``arity`` fields."""
    return ((arity + 63 + 8) // 64) * 8


def _java_big_integer_bytes(n: int) -> bytes:
    """``BigInteger.toByteArray()``: minimal big-endian two's complement (at least one byte)."""
    bits = n.bit_length() if n >= 0 else (~n).bit_length()
    return n.to_bytes(bits // 8 + 1, "big", signed=True)


def _is_compact_decimal(t: DataType) -> bool:
    return (t.precision if t.precision is not None else 10) <= 18


def _is_compact_timestamp(t: DataType) -> bool:
    return (t.precision if t.precision is not None else 6) <= 3


def _check_key_type(t: DataType) -> None:
    if t.root in _FIXED_ROOTS or t.root in _VAR_ROOTS or t.root in _TS_ROOTS or t.root == "DECIMAL":
        return
    raise UnsupportedTypeError(f"type {t} cannot be part of a BinaryRow key hash",
                               expected="an atomic type (numbers, boolean, date/time, timestamp, decimal, "
                                        "char/varchar/string, binary/varbinary)")


class KeyEncoder:
    """Encodes key rows of fixed ``types`` into BinaryRow bytes and hashes them."""

    def __init__(self, types: Sequence[DataType | str] | str) -> None:
        if isinstance(types, str):
            self.types = [f.type for f in parse_row_type(
                ", ".join(f"f{i} {t.strip()}" for i, t in enumerate(_split_types(types))))]
        else:
            self.types = [parse_type(t) if isinstance(t, str) else t for t in types]
        for t in self.types:
            _check_key_type(t)
        self.arity = len(self.types)
        self.header = null_bits_width(self.arity)
        self.fixed_size = self.header + 8 * self.arity
        self.fixed_width_only = all(
            t.root in _FIXED_ROOTS
            or (t.root == "DECIMAL" and _is_compact_decimal(t))
            or (t.root in _TS_ROOTS and _is_compact_timestamp(t))
            for t in self.types)

    # -------------------------------------------------------------------------------- one row
    def _slot_value(self, t: DataType, v: Any) -> int:
        """The slot as an unsigned 64-bit int for a fixed-width (or compact) field."""
        r = t.root
        if r == "BOOLEAN":
            return 1 if v else 0
        if r == "TINYINT":
            return _ranged(v, 8) & 0xFF
        if r == "SMALLINT":
            return _ranged(v, 16) & 0xFFFF
        if r in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
            return _ranged(v, 32) & 0xFFFFFFFF
        if r == "BIGINT":
            return _ranged(v, 64) & _U64
        if r == "FLOAT":
            return struct.unpack("<I", struct.pack("<f", v))[0]
        if r == "DOUBLE":
            return struct.unpack("<Q", struct.pack("<d", v))[0]
        if r == "DECIMAL":
            return _ranged(decimal_unscaled(_as_decimal(v), t.scale or 0), 64) & _U64
        if r in _TS_ROOTS:
            return _ranged(_as_timestamp(v).millis, 64) & _U64
        raise UnsupportedTypeError(f"type {t} has no fixed-width slot")  # pragma: no cover

    def encode(self, values: Sequence[Any]) -> bytes:
        """BinaryRow bytes of one key row (``values`` in the Python value conventions, None = null)."""
        if len(values) != self.arity:
            raise PaimonCodecError(f"key row has {len(values)} values, the key has {self.arity} fields")
        fixed = bytearray(self.fixed_size)
        var = bytearray()
        for i, (t, v) in enumerate(zip(self.types, values, strict=True)):
            slot_at = self.header + 8 * i
            r = t.root
            if r in _VAR_ROOTS:
                if v is None:
                    _set_null(fixed, i)
                    continue
                data = v.encode("utf-8") if isinstance(v, str) else bytes(v)
                if len(data) <= 7:
                    fixed[slot_at:slot_at + len(data)] = data
                    fixed[slot_at + 7] = 0x80 | len(data)
                else:
                    offset = self.fixed_size + len(var)
                    struct.pack_into("<Q", fixed, slot_at, (offset << 32) | len(data))
                    var += data
                    var += bytes(-len(data) % 8)
                continue
            if r == "DECIMAL" and not _is_compact_decimal(t):
                offset = self.fixed_size + len(var)
                if v is None:
                    _set_null(fixed, i)
                    struct.pack_into("<Q", fixed, slot_at, offset << 32)
                    var += bytes(16)
                    continue
                data = _java_big_integer_bytes(decimal_unscaled(_as_decimal(v), t.scale or 0))
                if len(data) > 16:
                    raise PaimonCodecError(f"decimal {v} does not fit DECIMAL({t.precision}, {t.scale})")
                struct.pack_into("<Q", fixed, slot_at, (offset << 32) | len(data))
                var += data + bytes(16 - len(data))
                continue
            if r in _TS_ROOTS and not _is_compact_timestamp(t):
                offset = self.fixed_size + len(var)
                if v is None:
                    _set_null(fixed, i)
                    struct.pack_into("<Q", fixed, slot_at, offset << 32)
                    var += bytes(8)
                    continue
                ts = _as_timestamp(v)
                struct.pack_into("<Q", fixed, slot_at, (offset << 32) | int(ts.nanos_of_milli))
                var += struct.pack("<q", _ranged(ts.millis, 64))
                continue
            if v is None:
                _set_null(fixed, i)
                continue
            struct.pack_into("<Q", fixed, slot_at, self._slot_value(t, v))
        return bytes(fixed) + bytes(var)

    def hash(self, values: Sequence[Any]) -> int:
        """``BinaryRow.hashCode()`` of one key row."""
        return murmur_words(self.encode(values))

    # -------------------------------------------------------------------------------- many rows
    def encode_many(self, rows: Iterable[Sequence[Any]]) -> list[bytes]:
        return [self.encode(r) for r in rows]

    def hash_many(self, rows: Iterable[Sequence[Any]]) -> np.ndarray:
        """Hashes of many rows (int32 array).  Equal-length rows are hashed in one numpy pass."""
        encoded = self.encode_many(rows)
        if not encoded:
            return np.zeros(0, dtype=np.int32)
        length = len(encoded[0])
        if all(len(b) == length for b in encoded):
            return murmur3_rows(np.frombuffer(b"".join(encoded), dtype=np.uint8).reshape(len(encoded), length))
        return np.fromiter((murmur_words(b) for b in encoded), dtype=np.int32, count=len(encoded))

    def encode_columns(self, columns: Sequence[np.ndarray | Sequence[Any]],
                       nulls: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """BinaryRow bytes of fixed-width key columns as an ``(rows, fixed_size)`` uint8 matrix.

        ``columns[i]`` holds field ``i`` for every row as a numpy array (ints; floats for FLOAT/DOUBLE;
        epoch millis for compact timestamps; unscaled longs for compact decimals); ``nulls[i]`` an
        optional bool mask.  Only for keys whose fields are all fixed-width (``fixed_width_only``).
        """
        if not self.fixed_width_only:
            raise UnsupportedTypeError("encode_columns needs a key of fixed-width fields only",
                                       expected="no strings, binaries, non-compact decimals or timestamps")
        if len(columns) != self.arity:
            raise PaimonCodecError(f"{len(columns)} columns given, the key has {self.arity} fields")
        n = len(columns[0]) if self.arity else 0
        words = np.zeros((n, self.fixed_size // 8), dtype=np.uint64)
        for i, (t, col) in enumerate(zip(self.types, columns, strict=True)):
            arr = np.asarray(col)
            if arr.shape != (n,):
                raise PaimonCodecError(f"column {i} has {arr.shape[0] if arr.ndim else 0} rows, expected {n}")
            r = t.root
            if r == "FLOAT":
                slot = arr.astype(np.float32).view(np.uint32).astype(np.uint64)
            elif r == "DOUBLE":
                slot = arr.astype(np.float64).view(np.uint64)
            elif r == "BOOLEAN":
                slot = arr.astype(bool).astype(np.uint64)
            else:
                bits = {"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "DATE": 32,
                        "TIME_WITHOUT_TIME_ZONE": 32}.get(r, 64)
                signed = arr.astype(np.int64)
                if bits < 64 and signed.size and (
                        int(signed.min()) < -(1 << (bits - 1)) or int(signed.max()) >= 1 << (bits - 1)):
                    raise PaimonCodecError(f"column {i} has values outside {t}")
                slot = signed.view(np.uint64) & np.uint64((1 << bits) - 1 if bits < 64 else _U64)
            mask = None if nulls is None else nulls[i]
            if mask is not None:
                mask = np.asarray(mask, dtype=bool)
                slot = np.where(mask, np.uint64(0), slot)
                b = i + 8
                words[:, b >> 6] |= np.where(mask, np.uint64(1 << (b & 63)), np.uint64(0))
            words[:, self.header // 8 + i] = slot
        return words.astype("<u8", copy=False).view(np.uint8).reshape(n, self.fixed_size)

    def hash_columns(self, columns: Sequence[np.ndarray | Sequence[Any]],
                     nulls: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """Vectorised hashes of fixed-width key columns (see :meth:`encode_columns`)."""
        return murmur3_rows(self.encode_columns(columns, nulls))


def _split_types(text: str) -> list[str]:
    """Split ``"INT, DECIMAL(20, 2), STRING"`` at top-level commas."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def _set_null(fixed: bytearray, i: int) -> None:
    b = i + 8
    fixed[b >> 3] |= 1 << (b & 7)


def _ranged(v: Any, bits: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise PaimonCodecError(f"{v!r} is not an integer")
    v = int(v)
    if not -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
        raise PaimonCodecError(f"{v} does not fit a {bits}-bit integer")
    return v


def _as_decimal(v: Any) -> decimal.Decimal:
    return v if isinstance(v, decimal.Decimal) else decimal.Decimal(str(v))


def _as_timestamp(v: Any) -> Timestamp:
    if isinstance(v, Timestamp):
        return v
    if isinstance(v, (tuple, list)):
        return Timestamp(int(v[0]), int(v[1]) if len(v) > 1 else 0)
    if isinstance(v, int):
        return Timestamp(v, 0)
    raise PaimonCodecError(f"{v!r} is not a timestamp")


def binary_row(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> bytes:
    """BinaryRow bytes of one row of ``types``."""
    return KeyEncoder(types).encode(values)


def row_hash(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> int:
    """``BinaryRow.hashCode()`` of one row of ``types``."""
    return KeyEncoder(types).hash(values)


_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def murmur3_rows(rows: np.ndarray, seed: int = 42) -> np.ndarray:
    """MurmurHash3 x86_32 of every row of an ``(n, L)`` uint8 matrix (L a multiple of 4), as int32."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    n, length = rows.shape
    if length % 4:
        raise PaimonCodecError(f"row length {length} is not a multiple of 4")
    words = rows.view("<u4").astype(np.uint32, copy=False)
    h = np.full(n, seed & 0xFFFFFFFF, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for j in range(length // 4):
            k = words[:, j] * _C1
            k = _rotl(k, 15) * _C2
            h = _rotl(h ^ k, 13) * np.uint32(5) + np.uint32(0xE6546B64)
        h ^= np.uint32(length & 0xFFFFFFFF)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h.view(np.int32)
