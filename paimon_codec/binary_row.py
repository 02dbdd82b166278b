"""Paimon's ``BinaryRow``: the one owner of its byte layout, encoding and decoding.

Layout (FORMATS.md §7.2) of a row of arity ``n``:

* header + null bits: ``W = ((n + 63 + 8) // 64) * 8`` bytes; byte 0 = RowKind (0 for keys and
  partitions); the null flag of field ``i`` is bit ``i + 8`` (byte ``b >> 3``, mask ``1 << (b & 7)``);
* one 8-byte little-endian slot per field at ``W + 8 i``: BOOLEAN / TINYINT / SMALLINT / INT / DATE /
  TIME / FLOAT in the low bytes, BIGINT / DOUBLE in all 8, compact DECIMAL (p <= 18) as the unscaled
  long, compact TIMESTAMP (p <= 3) as epoch millis; a null field has a zero slot;
* strings and binaries of <= 7 bytes inline (bytes 0..len-1, byte 7 = ``0x80 | len``); longer ones in
  the variable part (zero-padded to a multiple of 8) with slot ``offset << 32 | len`` (offsets count
  from the row's first byte);
* non-compact TIMESTAMP (p > 3): 8 bytes of epoch millis in the variable part, slot
  ``offset << 32 | nanos_of_milli``; non-compact DECIMAL (p > 18): 16 reserved bytes in the variable
  part holding ``BigInteger.toByteArray()`` of the unscaled value, slot ``offset << 32 | len``.  A null
  non-compact field still reserves its bytes (Paimon's null setter for these types), slot
  ``offset << 32 | 0``.

Manifest fields (``_PARTITION``, ``_MIN_VALUES`` ...) store a row *serialised*: ``int32 BE arity`` +
the row bytes (``SerializationUtils.serializeBinaryRow``).

:class:`BinaryRowCodec` encodes and decodes rows of fixed field types; :meth:`~BinaryRowCodec.encode_columns`
builds the rows of fixed-width columns with numpy, without a per-row Python loop.  Values follow
:mod:`paimon_codec.values`.  Hashing key rows lives in :mod:`paimon_codec.bucket.binary_row`.
"""

from __future__ import annotations

import decimal
import struct
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .errors import CorruptDataError, PaimonCodecError, TruncatedDataError, UnsupportedTypeError
from .types import DataType, parse_row_type, parse_type
from .values import Timestamp, decimal_from_unscaled, decimal_unscaled

__all__ = [
    "BinaryRowCodec", "encode_binary_row", "decode_binary_row", "serialize_binary_row", "decode_serialized_row",
    "null_bits_size", "is_compact_decimal", "is_compact_timestamp", "EMPTY_ROW",
]

#: The arity-0 row (an empty partition): the 8-byte header alone.
EMPTY_ROW = bytes(8)

SLOT_SIZE = 8
INLINE_MAX = 7                 # strings/binaries up to this many bytes live in their slot
_INLINE_FLAG = 0x80            # top bit of the slot's last byte marks an inline value
WIDE_DECIMAL_BYTES = 16        # variable-part bytes a non-compact DECIMAL reserves
WIDE_TIMESTAMP_BYTES = 8       # variable-part bytes of a non-compact TIMESTAMP (epoch millis)
MAX_COMPACT_DECIMAL_PRECISION = 18
MAX_COMPACT_TIMESTAMP_PRECISION = 3
_U64 = 0xFFFFFFFFFFFFFFFF

# Field kinds: how a field's slot (and variable part) holds its value.
_FIXED = "fixed"               # a primitive in the slot's low bytes (struct format below)
_DECIMAL = "decimal"           # compact DECIMAL: unscaled long in the slot
_MILLIS = "millis"             # compact TIMESTAMP: epoch millis in the slot
_BYTES = "bytes"               # CHAR / VARCHAR / BINARY / VARBINARY: inline or offset|length
_WIDE_DECIMAL = "wide_decimal"
_WIDE_TIMESTAMP = "wide_timestamp"

_FIXED_FORMATS = {
    "BOOLEAN": "<?", "TINYINT": "<b", "SMALLINT": "<h", "INTEGER": "<i", "DATE": "<i",
    "TIME_WITHOUT_TIME_ZONE": "<i", "BIGINT": "<q", "FLOAT": "<f", "DOUBLE": "<d",
}
_INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "DATE": 32, "TIME_WITHOUT_TIME_ZONE": 32, "BIGINT": 64}
_VAR_ROOTS = ("CHAR", "VARCHAR", "BINARY", "VARBINARY")
_TS_ROOTS = ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE")


def null_bits_size(arity: int) -> int:
    """Bytes of the header + null-bit region of a row with ``arity`` fields."""
    return ((arity + 63 + 8) // 64) * 8


def _null_bit(i: int) -> tuple[int, int]:
    """(byte index, mask) of field ``i``'s null flag."""
    b = i + 8
    return b >> 3, 1 << (b & 7)


def is_compact_decimal(t: DataType) -> bool:
    """DECIMAL(p <= 18) keeps its unscaled long in the slot."""
    return (t.precision if t.precision is not None else 10) <= MAX_COMPACT_DECIMAL_PRECISION


def is_compact_timestamp(t: DataType) -> bool:
    """TIMESTAMP(p <= 3) keeps its epoch millis in the slot."""
    return (t.precision if t.precision is not None else 6) <= MAX_COMPACT_TIMESTAMP_PRECISION


def _field_kind(t: DataType) -> str:
    r = t.root
    if r in _FIXED_FORMATS:
        return _FIXED
    if r in _VAR_ROOTS:
        return _BYTES
    if r == "DECIMAL":
        return _DECIMAL if is_compact_decimal(t) else _WIDE_DECIMAL
    if r in _TS_ROOTS:
        return _MILLIS if is_compact_timestamp(t) else _WIDE_TIMESTAMP
    raise UnsupportedTypeError(f"type {t} cannot be a field of a BinaryRow",
                               expected="an atomic type (numbers, boolean, date/time, timestamp, decimal, "
                                        "char/varchar/string, binary/varbinary)")


def _split_types(text: str) -> list[str]:
    """Split ``"INT, DECIMAL(20, 2), STRING"`` at top-level commas."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
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


def _parse_types(types: Sequence[DataType | str] | str) -> list[DataType]:
    if isinstance(types, str):
        spec = ", ".join(f"f{i} {t.strip()}" for i, t in enumerate(_split_types(types)))
        return [f.type for f in parse_row_type(spec)] if spec else []
    return [parse_type(t) if isinstance(t, str) else t for t in types]


class BinaryRowCodec:
    """Encodes and decodes BinaryRows whose fields have the given ``types``.

    ``types`` is a sequence of :class:`DataType` / type strings or one string ``"INT, STRING"``.
    Every field must be of an atomic type (:class:`UnsupportedTypeError` otherwise).
    """

    def __init__(self, types: Sequence[DataType | str] | str) -> None:
        self.types = _parse_types(types)
        self._kinds = [_field_kind(t) for t in self.types]
        self._formats = [_FIXED_FORMATS.get(t.root, "<q") for t in self.types]
        self.arity = len(self.types)
        self.header = null_bits_size(self.arity)
        self.fixed_size = self.header + SLOT_SIZE * self.arity
        #: every field lives in its slot alone (no strings, binaries, non-compact decimals/timestamps)
        self.fixed_width_only = all(k in (_FIXED, _DECIMAL, _MILLIS) for k in self._kinds)

    def _slot(self, i: int) -> int:
        return self.header + SLOT_SIZE * i

    # ------------------------------------------------------------------------------------ encode
    def encode(self, values: Sequence[Any]) -> bytes:
        """BinaryRow bytes of one row (``values`` in the Python value conventions, None = null)."""
        if len(values) != self.arity:
            raise PaimonCodecError(f"row has {len(values)} values, the BinaryRow has {self.arity} fields")
        fixed = bytearray(self.fixed_size)
        var = bytearray()
        for i, v in enumerate(values):
            kind, at, t = self._kinds[i], self._slot(i), self.types[i]
            if v is None:
                byte, mask = _null_bit(i)
                fixed[byte] |= mask
                if kind == _WIDE_DECIMAL or kind == _WIDE_TIMESTAMP:  # reserved bytes, zero length
                    struct.pack_into("<Q", fixed, at, (self.fixed_size + len(var)) << 32)
                    var += bytes(WIDE_DECIMAL_BYTES if kind == _WIDE_DECIMAL else WIDE_TIMESTAMP_BYTES)
                continue
            if kind == _FIXED:
                struct.pack_into(self._formats[i], fixed, at, _fixed_value(t, v))
            elif kind == _DECIMAL:
                struct.pack_into("<q", fixed, at, _ranged(decimal_unscaled(_as_decimal(v), t.scale or 0), 64))
            elif kind == _MILLIS:
                struct.pack_into("<q", fixed, at, _ranged(_as_timestamp(v).millis, 64))
            elif kind == _BYTES:
                data = _as_bytes(v)
                if len(data) <= INLINE_MAX:
                    fixed[at:at + len(data)] = data
                    fixed[at + 7] = _INLINE_FLAG | len(data)
                else:
                    struct.pack_into("<Q", fixed, at, ((self.fixed_size + len(var)) << 32) | len(data))
                    var += data
                    var += bytes(-len(data) % 8)
            elif kind == _WIDE_DECIMAL:
                data = _java_big_integer_bytes(decimal_unscaled(_as_decimal(v), t.scale or 0))
                if len(data) > WIDE_DECIMAL_BYTES:
                    raise PaimonCodecError(f"decimal {v} does not fit DECIMAL({t.precision}, {t.scale})")
                struct.pack_into("<Q", fixed, at, ((self.fixed_size + len(var)) << 32) | len(data))
                var += data + bytes(WIDE_DECIMAL_BYTES - len(data))
            else:  # _WIDE_TIMESTAMP
                ts = _as_timestamp(v)
                if not 0 <= ts.nanos_of_milli <= 999_999:
                    raise PaimonCodecError(f"nanos of millisecond {ts.nanos_of_milli} outside 0..999999")
                struct.pack_into("<Q", fixed, at, ((self.fixed_size + len(var)) << 32) | int(ts.nanos_of_milli))
                var += struct.pack("<q", _ranged(ts.millis, 64))
        return bytes(fixed) + bytes(var)

    def encode_many(self, rows: Iterable[Sequence[Any]]) -> list[bytes]:
        return [self.encode(r) for r in rows]

    def serialize(self, values: Sequence[Any]) -> bytes:
        """``int32 BE arity`` + BinaryRow bytes, as manifest fields store a row."""
        return self.arity.to_bytes(4, "big") + self.encode(values)

    def encode_columns(self, columns: Sequence[np.ndarray | Sequence[Any]],
                       nulls: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """BinaryRow bytes of fixed-width columns as an ``(rows, fixed_size)`` uint8 matrix.

        ``columns[i]`` holds field ``i`` for every row as a numpy array (ints; floats for FLOAT/DOUBLE;
        epoch millis for compact timestamps; unscaled longs for compact decimals); ``nulls[i]`` an
        optional bool mask.  Only for rows whose fields are all fixed-width (``fixed_width_only``).
        """
        if not self.fixed_width_only:
            raise UnsupportedTypeError("encode_columns needs fixed-width fields only",
                                       expected="no strings, binaries, non-compact decimals or timestamps")
        if len(columns) != self.arity:
            raise PaimonCodecError(f"{len(columns)} columns given, the BinaryRow has {self.arity} fields")
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
                bits = _INT_BITS.get(r, 64)
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

    # ------------------------------------------------------------------------------------ decode
    def decode(self, data: bytes | bytearray | memoryview) -> tuple:
        """The values of one BinaryRow (without the arity prefix); None for null fields."""
        data = bytes(data)
        if len(data) < self.fixed_size:
            raise TruncatedDataError(f"BinaryRow of {self.arity} fields needs {self.fixed_size} bytes, "
                                     f"got {len(data)}")
        out = []
        for i in range(self.arity):
            byte, mask = _null_bit(i)
            out.append(None if data[byte] & mask else self._decode_field(data, i))
        return tuple(out)

    def decode_serialized(self, data: bytes | bytearray | memoryview) -> tuple:
        """The values of ``int32 BE arity`` + BinaryRow bytes (manifest fields like ``_PARTITION``)."""
        if len(data) < 4:
            raise TruncatedDataError("serialized BinaryRow shorter than its arity field", expected="4 bytes")
        arity = int.from_bytes(data[:4], "big", signed=True)
        if arity != self.arity:
            raise CorruptDataError(f"serialized BinaryRow has arity {arity}", expected=f"{self.arity} fields")
        return self.decode(data[4:])

    def _decode_field(self, data: bytes, i: int) -> Any:
        kind, at, t = self._kinds[i], self._slot(i), self.types[i]
        if kind == _FIXED:
            return struct.unpack_from(self._formats[i], data, at)[0]
        word = int.from_bytes(data[at:at + 8], "little")
        if kind == _DECIMAL:
            return decimal_from_unscaled(_signed64(word), t.scale or 0)
        if kind == _MILLIS:
            return Timestamp(_signed64(word), 0)
        if kind == _BYTES:
            raw = _var_bytes(data, at, word)
            if t.root in ("BINARY", "VARBINARY"):
                return raw
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptDataError(f"BinaryRow string is not UTF-8: {exc}", offset=at) from None
        offset, low = word >> 32, word & 0xFFFFFFFF
        if kind == _WIDE_DECIMAL:
            unscaled = int.from_bytes(_region(data, offset, low, "DECIMAL bytes"), "big", signed=True)
            return decimal_from_unscaled(unscaled, t.scale or 0)
        if low > 999_999:
            raise CorruptDataError(f"TIMESTAMP nanos of millisecond {low}", offset=at, expected="0..999999")
        millis = struct.unpack("<q", _region(data, offset, WIDE_TIMESTAMP_BYTES, "TIMESTAMP millis"))[0]
        return Timestamp(millis, low)


def _region(data: bytes, offset: int, size: int, what: str) -> bytes:
    if offset + size > len(data):
        raise TruncatedDataError(f"BinaryRow {what} runs past the end of {len(data)} bytes", offset=offset)
    return data[offset:offset + size]


def _var_bytes(data: bytes, at: int, word: int) -> bytes:
    """A string/binary field: inline in the slot, or ``offset << 32 | length`` into the row."""
    if data[at + 7] & _INLINE_FLAG:
        n = data[at + 7] & 0x7F
        if n > INLINE_MAX:
            raise CorruptDataError(f"inline BinaryRow value of {n} bytes", offset=at,
                                   expected=f"at most {INLINE_MAX}")
        return data[at:at + n]
    return _region(data, word >> 32, word & 0xFFFFFFFF, "variable-length value")


def _signed64(word: int) -> int:
    return word - (1 << 64) if word >> 63 else word


def _java_big_integer_bytes(n: int) -> bytes:
    """``BigInteger.toByteArray()``: minimal big-endian two's complement (at least one byte)."""
    bits = n.bit_length() if n >= 0 else (~n).bit_length()
    return n.to_bytes(bits // 8 + 1, "big", signed=True)


def _fixed_value(t: DataType, v: Any) -> Any:
    """The value ``struct`` packs into a primitive slot; out-of-range values are errors (never wrapped)."""
    bits = _INT_BITS.get(t.root)
    if bits is not None:
        return _ranged(v, bits)
    if t.root == "BOOLEAN":
        return bool(v)
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise PaimonCodecError(f"{v!r} is not a {t} value")
    try:
        struct.pack("<f" if t.root == "FLOAT" else "<d", v)
    except OverflowError:
        raise PaimonCodecError(f"{v!r} does not fit {t}") from None
    return float(v)


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
    if isinstance(v, int) and not isinstance(v, bool):
        return Timestamp(v, 0)
    raise PaimonCodecError(f"{v!r} is not a timestamp")


def _as_bytes(v: Any) -> bytes:
    if isinstance(v, str):
        try:
            return v.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise PaimonCodecError(f"string is not encodable as UTF-8: {exc}") from None
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise PaimonCodecError(f"{type(v).__name__} value {v!r} is not a string or bytes")


def encode_binary_row(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> bytes:
    """BinaryRow bytes of one row of ``types``."""
    return BinaryRowCodec(types).encode(values)


def serialize_binary_row(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> bytes:
    """``int32 BE arity`` + BinaryRow bytes of one row (the manifest form)."""
    return BinaryRowCodec(types).serialize(values)


def decode_binary_row(data: bytes, types: Sequence[DataType | str] | str) -> tuple:
    """Decode a BinaryRow (without the arity prefix) of the given field types."""
    return BinaryRowCodec(types).decode(data)


def decode_serialized_row(data: bytes, types: Sequence[DataType | str] | str) -> tuple:
    """Decode ``int32 BE arity`` + BinaryRow bytes as stored in manifest fields like ``_PARTITION``."""
    return BinaryRowCodec(types).decode_serialized(data)
