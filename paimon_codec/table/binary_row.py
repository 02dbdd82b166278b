"""Decoding Paimon ``BinaryRow`` bytes (partition values, min/max keys) into Python values.

Layout (little-endian slots): a null-bit area of ``((arity + 63 + 8) // 64) * 8`` bytes whose first
byte is the RowKind (the null bit of field ``i`` is bit ``i + 8``), then one 8-byte slot per field,
then the variable part.  Strings/binaries of at most 7 bytes live inline in the slot (top byte =
``0x80 | length``); longer ones store ``offset << 32 | length``.  Compact decimals (p <= 18) hold
the unscaled long; compact timestamps (p <= 3) the epoch millis; wider ones point to the variable
part.  Manifest fields store the row as ``int32 BE arity`` + row bytes (``SerializationUtils``).
"""

from __future__ import annotations

import decimal
import struct
from collections.abc import Sequence
from typing import Any

from ..errors import CorruptDataError, TruncatedDataError, UnsupportedTypeError
from ..types import DataType
from ..values import Timestamp

__all__ = ["decode_binary_row", "decode_serialized_row", "null_bits_size"]


def null_bits_size(arity: int) -> int:
    return ((arity + 63 + 8) // 64) * 8


def _slot(data: bytes, off: int, size: int, what: str) -> bytes:
    if off < 0 or off + size > len(data):
        raise TruncatedDataError(f"BinaryRow {what} runs past the end of {len(data)} bytes", offset=off)
    return data[off:off + size]


def _var_bytes(data: bytes, slot_off: int) -> bytes:
    raw = _slot(data, slot_off, 8, "slot")
    if raw[7] & 0x80:
        n = raw[7] & 0x7F
        if n > 7:
            raise CorruptDataError(f"inline BinaryRow value of {n} bytes", offset=slot_off, expected="at most 7")
        return raw[:n]
    word = int.from_bytes(raw, "little")
    offset, length = word >> 32, word & 0xFFFFFFFF
    return _slot(data, offset, length, "variable-length value")


def _field(data: bytes, slot_off: int, dtype: DataType) -> Any:
    root = dtype.root
    if root == "BOOLEAN":
        return _slot(data, slot_off, 1, "BOOLEAN")[0] != 0
    if root == "TINYINT":
        return struct.unpack("<b", _slot(data, slot_off, 1, "TINYINT"))[0]
    if root == "SMALLINT":
        return struct.unpack("<h", _slot(data, slot_off, 2, "SMALLINT"))[0]
    if root in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        return struct.unpack("<i", _slot(data, slot_off, 4, root))[0]
    if root == "BIGINT":
        return struct.unpack("<q", _slot(data, slot_off, 8, root))[0]
    if root == "FLOAT":
        return struct.unpack("<f", _slot(data, slot_off, 4, root))[0]
    if root == "DOUBLE":
        return struct.unpack("<d", _slot(data, slot_off, 8, root))[0]
    if root in ("CHAR", "VARCHAR"):
        try:
            return _var_bytes(data, slot_off).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptDataError(f"BinaryRow string is not UTF-8: {exc}", offset=slot_off) from None
    if root in ("BINARY", "VARBINARY"):
        return _var_bytes(data, slot_off)
    if root == "DECIMAL":
        p, s = dtype.precision or 10, dtype.scale or 0
        if p <= 18:
            unscaled = struct.unpack("<q", _slot(data, slot_off, 8, root))[0]
        else:
            word = int.from_bytes(_slot(data, slot_off, 8, root), "little")
            unscaled = int.from_bytes(_slot(data, word >> 32, word & 0xFFFFFFFF, "DECIMAL bytes"), "big", signed=True)
        return decimal.Decimal(unscaled).scaleb(-s)
    if dtype.is_timestamp:
        if (dtype.precision if dtype.precision is not None else 6) <= 3:
            return Timestamp(struct.unpack("<q", _slot(data, slot_off, 8, root))[0], 0)
        word = int.from_bytes(_slot(data, slot_off, 8, root), "little")
        millis = struct.unpack("<q", _slot(data, word >> 32, 8, "TIMESTAMP millis"))[0]
        return Timestamp(millis, word & 0xFFFFFFFF)
    raise UnsupportedTypeError(f"cannot decode a {dtype} field of a BinaryRow")


def decode_binary_row(data: bytes, types: Sequence[DataType]) -> tuple:
    """Decode a BinaryRow (without the arity prefix) of the given field types."""
    arity = len(types)
    base = null_bits_size(arity)
    if len(data) < base + 8 * arity:
        raise TruncatedDataError(f"BinaryRow of {arity} fields needs {base + 8 * arity} bytes, got {len(data)}")
    out = []
    for i, dtype in enumerate(types):
        bit = i + 8
        if data[bit >> 3] & (1 << (bit & 7)):
            out.append(None)
        else:
            out.append(_field(data, base + 8 * i, dtype))
    return tuple(out)


def decode_serialized_row(data: bytes, types: Sequence[DataType]) -> tuple:
    """Decode ``int32 BE arity`` + BinaryRow bytes as stored in manifest fields like ``_PARTITION``."""
    if len(data) < 4:
        raise TruncatedDataError("serialized BinaryRow shorter than its arity field", expected="4 bytes")
    arity = int.from_bytes(data[:4], "big", signed=True)
    if arity != len(types):
        raise CorruptDataError(f"serialized BinaryRow has arity {arity}", expected=f"{len(types)} fields")
    return decode_binary_row(data[4:], types)
