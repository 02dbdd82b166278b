"""User values coerced to what a BinaryRow slot holds (integers in range, decimals, timestamps, bytes): the
checks that make an out-of-range or mistyped value an error instead of a wrapped or truncated field.  Split from
:mod:`.binary_row`, which lays the bytes out through the generated codec."""

from __future__ import annotations

import decimal
from typing import Any

import numpy as np

from .errors import UsageError
from .values import Timestamp


def _ranged(v: Any, bits: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise UsageError(f"{v!r} is not an integer")
    v = int(v)
    if not -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
        raise UsageError(f"{v} does not fit a {bits}-bit integer")
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
    raise UsageError(f"{v!r} is not a timestamp")


def _as_bytes(v: Any) -> bytes:
    if isinstance(v, str):
        try:
            return v.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise UsageError(f"string is not encodable as UTF-8: {exc}") from None
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise UsageError(f"{type(v).__name__} value {v!r} is not a string or bytes")
