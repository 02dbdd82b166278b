"""Paimon's ``BinaryRow``: values of typed fields to and from the layout of ``schemas/binary_row.ksy``.

The layout (FORMATS.md §7.2) - header and null bits, one 8-byte slot per field, the variable part - and
the serialized form manifests store (``schemas/serialized_binary_row.ksy``: ``int32 BE arity`` + row)
are declared in the schemas; their generated codecs give this module the slot structs per slot kind
(``SLOT_STRUCTS``), the header sizes, the inline marker and the variable-part sizes.  What stays here is
semantic: which slot kind a field type uses (BOOLEAN ... DOUBLE in the slot; compact DECIMAL (p <= 18)
as the unscaled long, compact TIMESTAMP (p <= 3) as epoch millis; strings / binaries inline up to the
inline slot's size else referenced; non-compact TIMESTAMP / DECIMAL referenced - a null one still
reserves its variable-part bytes, as Paimon's null setter for these types does), and the conversion of
values (:mod:`paimon_codec.values`).

:class:`BinaryRowCodec` encodes and decodes rows of fixed field types; :meth:`~BinaryRowCodec.encode_columns`
builds the rows of fixed-width columns with numpy, without a per-row Python loop.  Hashing key rows lives
in :mod:`paimon_codec.bucket.binary_row`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .binary_row_values import _as_bytes, _as_decimal, _as_timestamp, _ranged
from .errors import CorruptDataError, TruncatedDataError, UnsupportedTypeError, UsageError
from .generated.construct.binary_row import (
    BINARY_ROW_KIND_SIZE,
    INLINE_MARKER_FLAG,
    SLOT_KIND_BIGINT,
    SLOT_KIND_BOOLEAN,
    SLOT_KIND_DOUBLE,
    SLOT_KIND_FLOAT,
    SLOT_KIND_INLINE,
    SLOT_KIND_INT,
    SLOT_KIND_REFERENCE,
    SLOT_KIND_SMALLINT,
    SLOT_KIND_TINYINT,
    SLOT_STRUCTS,
    WIDE_SIZES_DECIMAL,
    WIDE_SIZES_TIMESTAMP,
    WIDE_TIMESTAMP_STRUCT,
    binary_row_fixed_size,
    binary_row_null_bits_size,
    inline_slot_is_inline,
    inline_slot_length,
)
from .generated.construct.serialized_binary_row import SERIALIZED_HEAD_STRUCT
from .types import DataType, parse_row_type, parse_type
from .values import Timestamp, decimal_from_unscaled, decimal_unscaled

__all__ = [
    "BinaryRowCodec", "encode_binary_row", "decode_binary_row", "serialize_binary_row", "decode_serialized_row",
    "null_bits_size", "is_compact_decimal", "is_compact_timestamp", "EMPTY_ROW",
]

_INLINE = SLOT_STRUCTS[SLOT_KIND_INLINE]
_REFERENCE = SLOT_STRUCTS[SLOT_KIND_REFERENCE]
SLOT_SIZE = _REFERENCE.size
INLINE_MAX = _INLINE.size - 1  # the inline slot's data bytes (its last byte is the marker)
WIDE_DECIMAL_BYTES = WIDE_SIZES_DECIMAL
WIDE_TIMESTAMP_BYTES = WIDE_SIZES_TIMESTAMP
MAX_COMPACT_DECIMAL_PRECISION = 18
MAX_COMPACT_TIMESTAMP_PRECISION = 3
_NANOS_OF_MILLI_MAX = 999_999

#: The arity-0 row (an empty partition): the header word alone.
EMPTY_ROW = bytes(binary_row_fixed_size(0))

# Field kinds: how a field's slot (and variable part) holds its value.
_FIXED = "fixed"               # a primitive in the slot (its slot kind below)
_DECIMAL = "decimal"           # compact DECIMAL: unscaled long in the slot
_MILLIS = "millis"             # compact TIMESTAMP: epoch millis in the slot
_BYTES = "bytes"               # CHAR / VARCHAR / BINARY / VARBINARY: inline or referenced
_WIDE_DECIMAL = "wide_decimal"
_WIDE_TIMESTAMP = "wide_timestamp"

#: Slot kind of each primitive type (the ``slot`` type of ``binary_row.ksy``).
_SLOT_KINDS = {
    "BOOLEAN": SLOT_KIND_BOOLEAN, "TINYINT": SLOT_KIND_TINYINT, "SMALLINT": SLOT_KIND_SMALLINT,
    "INTEGER": SLOT_KIND_INT, "DATE": SLOT_KIND_INT, "TIME_WITHOUT_TIME_ZONE": SLOT_KIND_INT,
    "BIGINT": SLOT_KIND_BIGINT, "FLOAT": SLOT_KIND_FLOAT, "DOUBLE": SLOT_KIND_DOUBLE,
}
_FIXED_FORMATS = _SLOT_KINDS  # the primitive types (name kept for callers that test membership)
_INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "DATE": 32, "TIME_WITHOUT_TIME_ZONE": 32, "BIGINT": 64}
_VAR_ROOTS = ("CHAR", "VARCHAR", "BINARY", "VARBINARY")
_TS_ROOTS = ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE")
_BIGINT = SLOT_STRUCTS[SLOT_KIND_BIGINT]
_BOOLEAN = SLOT_STRUCTS[SLOT_KIND_BOOLEAN]


def null_bits_size(arity: int) -> int:
    """Bytes of the header (row kind + null bits, whole 8-byte words) of a row with ``arity`` fields."""
    return BINARY_ROW_KIND_SIZE + binary_row_null_bits_size(arity)


def _null_bit(i: int) -> tuple[int, int]:
    """(byte index in the row, mask) of field ``i``'s null flag: bit ``i`` of the null bits."""
    return BINARY_ROW_KIND_SIZE + (i >> 3), 1 << (i & 7)


def is_compact_decimal(t: DataType) -> bool:
    """DECIMAL(p <= 18) keeps its unscaled long in the slot."""
    return (t.precision if t.precision is not None else 10) <= MAX_COMPACT_DECIMAL_PRECISION


def is_compact_timestamp(t: DataType) -> bool:
    """TIMESTAMP(p <= 3) keeps its epoch millis in the slot."""
    return (t.precision if t.precision is not None else 6) <= MAX_COMPACT_TIMESTAMP_PRECISION


def _field_kind(t: DataType) -> str:
    r = t.root
    if r in _SLOT_KINDS:
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
        # the slot struct of each field (primitives and compact decimals / timestamps)
        self._structs = [SLOT_STRUCTS[_SLOT_KINDS.get(t.root, SLOT_KIND_BIGINT)] for t in self.types]
        # the numpy dtype of each slot's value (the struct's first field: its width and byte order)
        self._slot_dtypes = [np.dtype(st.format[0] + st.format[1]) for st in self._structs]
        self.arity = len(self.types)
        self.header = null_bits_size(self.arity)
        self.fixed_size = binary_row_fixed_size(self.arity)
        #: every field lives in its slot alone (no strings, binaries, non-compact decimals/timestamps)
        self.fixed_width_only = all(k in (_FIXED, _DECIMAL, _MILLIS) for k in self._kinds)

    def _slot(self, i: int) -> int:
        return self.header + SLOT_SIZE * i

    # ------------------------------------------------------------------------------------ encode
    def encode(self, values: Sequence[Any]) -> bytes:
        """BinaryRow bytes of one row (``values`` in the Python value conventions, None = null)."""
        if len(values) != self.arity:
            raise UsageError(f"row has {len(values)} values, the BinaryRow has {self.arity} fields")
        fixed = bytearray(self.fixed_size)
        var = bytearray()
        for i, v in enumerate(values):
            kind, at, t = self._kinds[i], self._slot(i), self.types[i]
            if v is None:
                byte, mask = _null_bit(i)
                fixed[byte] |= mask
                if kind == _WIDE_DECIMAL or kind == _WIDE_TIMESTAMP:  # reserved bytes, zero length
                    _REFERENCE.pack_into(fixed, at, 0, self.fixed_size + len(var))
                    var += bytes(WIDE_DECIMAL_BYTES if kind == _WIDE_DECIMAL else WIDE_TIMESTAMP_BYTES)
                continue
            if kind == _FIXED:
                self._structs[i].pack_into(fixed, at, _fixed_value(t, v))
            elif kind == _DECIMAL:
                _BIGINT.pack_into(fixed, at, _ranged(decimal_unscaled(_as_decimal(v), t.scale or 0), 64))
            elif kind == _MILLIS:
                _BIGINT.pack_into(fixed, at, _ranged(_as_timestamp(v).millis, 64))
            elif kind == _BYTES:
                data = _as_bytes(v)
                if len(data) <= INLINE_MAX:
                    _INLINE.pack_into(fixed, at, data, INLINE_MARKER_FLAG | len(data))
                else:
                    _REFERENCE.pack_into(fixed, at, len(data), self.fixed_size + len(var))
                    var += data
                    var += bytes(-len(data) % SLOT_SIZE)
            elif kind == _WIDE_DECIMAL:
                data = _java_big_integer_bytes(decimal_unscaled(_as_decimal(v), t.scale or 0))
                if len(data) > WIDE_DECIMAL_BYTES:
                    raise UsageError(f"decimal {v} does not fit DECIMAL({t.precision}, {t.scale})")
                _REFERENCE.pack_into(fixed, at, len(data), self.fixed_size + len(var))
                var += data + bytes(WIDE_DECIMAL_BYTES - len(data))
            else:  # _WIDE_TIMESTAMP
                ts = _as_timestamp(v)
                if not 0 <= ts.nanos_of_milli <= _NANOS_OF_MILLI_MAX:
                    raise UsageError(f"nanos of millisecond {ts.nanos_of_milli} outside 0..999999")
                _REFERENCE.pack_into(fixed, at, int(ts.nanos_of_milli), self.fixed_size + len(var))
                millis = WIDE_TIMESTAMP_STRUCT.pack(_ranged(ts.millis, 64))
                var += millis + bytes(WIDE_TIMESTAMP_BYTES - len(millis))  # the reserved size, millis first
        return bytes(fixed) + bytes(var)

    def encode_many(self, rows: Iterable[Sequence[Any]]) -> list[bytes]:
        return [self.encode(r) for r in rows]

    def serialize(self, values: Sequence[Any]) -> bytes:
        """``int32 BE arity`` + BinaryRow bytes, as manifest fields store a row."""
        return SERIALIZED_HEAD_STRUCT.pack(self.arity) + self.encode(values)

    def encode_columns(self, columns: Sequence[np.ndarray | Sequence[Any]],
                       nulls: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """BinaryRow bytes of fixed-width columns as an ``(rows, fixed_size)`` uint8 matrix.

        ``columns[i]`` holds field ``i`` for every row as a numpy array (ints; floats for FLOAT/DOUBLE;
        epoch millis for compact timestamps; unscaled longs for compact decimals); ``nulls[i]`` an
        optional bool mask.  Only for rows whose fields are all fixed-width (``fixed_width_only``).
        Each column is written into its slots as the numpy dtype of its slot struct's value (width and
        byte order from the schema's ``SLOT_STRUCTS``), each null into its null bit's byte.
        """
        if not self.fixed_width_only:
            raise UnsupportedTypeError("encode_columns needs fixed-width fields only",
                                       expected="no strings, binaries, non-compact decimals or timestamps")
        if len(columns) != self.arity:
            raise UsageError(f"{len(columns)} columns given, the BinaryRow has {self.arity} fields")
        n = len(columns[0]) if self.arity else 0
        rows = np.zeros((n, self.fixed_size), dtype=np.uint8)
        for i, (t, col) in enumerate(zip(self.types, columns, strict=True)):
            arr = np.asarray(col)
            if arr.shape != (n,):
                raise UsageError(f"column {i} has {arr.shape[0] if arr.ndim else 0} rows, expected {n}")
            dt = self._slot_dtypes[i]
            r = t.root
            if r in ("FLOAT", "DOUBLE"):
                value = arr.astype(dt)
            elif r == "BOOLEAN":
                value = arr.astype(bool).astype(dt)
            else:
                bits = _INT_BITS.get(r, 64)
                signed = arr.astype(np.int64)
                if bits < 64 and signed.size and (
                        int(signed.min()) < -(1 << (bits - 1)) or int(signed.max()) >= 1 << (bits - 1)):
                    raise UsageError(f"column {i} has values outside {t}")
                value = signed.astype(dt)
            mask = None if nulls is None else nulls[i]
            if mask is not None:
                mask = np.asarray(mask, dtype=bool)
                value = np.where(mask, dt.type(0), value)
                byte, flag = _null_bit(i)
                rows[:, byte] |= np.where(mask, np.uint8(flag), np.uint8(0))
            at = self._slot(i)
            rows[:, at:at + dt.itemsize].view(dt)[:, 0] = value
        return rows

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
        head = SERIALIZED_HEAD_STRUCT.size
        if len(data) < head:
            raise TruncatedDataError("serialized BinaryRow shorter than its arity field", expected=f"{head} bytes")
        arity = SERIALIZED_HEAD_STRUCT.unpack_from(data)[0]
        if arity != self.arity:
            raise CorruptDataError(f"serialized BinaryRow has arity {arity}", expected=f"{self.arity} fields")
        return self.decode(data[head:])

    def _decode_field(self, data: bytes, i: int) -> Any:
        kind, at, t = self._kinds[i], self._slot(i), self.types[i]
        if kind == _FIXED:
            value = self._structs[i].unpack_from(data, at)[0]
            return bool(value) if self._structs[i] is _BOOLEAN else value
        if kind == _DECIMAL:
            return decimal_from_unscaled(_BIGINT.unpack_from(data, at)[0], t.scale or 0)
        if kind == _MILLIS:
            return Timestamp(_BIGINT.unpack_from(data, at)[0], 0)
        if kind == _BYTES:
            raw = _var_bytes(data, at)
            if t.root in ("BINARY", "VARBINARY"):
                return raw
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptDataError(f"BinaryRow string is not UTF-8: {exc}", offset=at) from None
        low, offset = _REFERENCE.unpack_from(data, at)
        if kind == _WIDE_DECIMAL:
            unscaled = _java_big_integer(_region(data, offset, low, "DECIMAL bytes"))
            return decimal_from_unscaled(unscaled, t.scale or 0)
        if low > _NANOS_OF_MILLI_MAX:
            raise CorruptDataError(f"TIMESTAMP nanos of millisecond {low}", offset=at, expected="0..999999")
        millis = WIDE_TIMESTAMP_STRUCT.unpack_from(_region(data, offset, WIDE_TIMESTAMP_BYTES, "TIMESTAMP millis"))[0]
        return Timestamp(millis, low)


def _region(data: bytes, offset: int, size: int, what: str) -> bytes:
    if offset + size > len(data):
        raise TruncatedDataError(f"BinaryRow {what} runs past the end of {len(data)} bytes", offset=offset)
    return data[offset:offset + size]


def _var_bytes(data: bytes, at: int) -> bytes:
    """A string/binary field: inline in the slot, or a reference (offset, length) into the row."""
    inline, marker = _INLINE.unpack_from(data, at)
    if inline_slot_is_inline(marker):
        n = inline_slot_length(marker)
        if n > INLINE_MAX:
            raise CorruptDataError(f"inline BinaryRow value of {n} bytes", offset=at,
                                   expected=f"at most {INLINE_MAX}")
        return inline[:n]
    length, offset = _REFERENCE.unpack_from(data, at)
    return _region(data, offset, length, "variable-length value")


def _java_big_integer(data: bytes) -> int:
    """The inverse of ``BigInteger.toByteArray()`` (big-endian two's complement of any width)."""
    return int.from_bytes(data, "big", signed=True)


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
        raise UsageError(f"{v!r} is not a {t} value")
    try:
        SLOT_STRUCTS[_SLOT_KINDS[t.root]].pack(v)
    except OverflowError:
        raise UsageError(f"{v!r} does not fit {t}") from None
    return float(v)


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
