"""Binding a predicate to a schema: the type of a column, and literal coercion to it.

Used by :meth:`.predicate.Predicate.bind` and the renderers; depends on no predicate module.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import struct
from typing import Any

from ..errors import InvalidPredicateError, PaimonCodecError
from ..types import DataType, RowType
from ..values import Timestamp, decimal_from_unscaled, decimal_unscaled, from_json, parse_literal_text

__all__ = ["column_type", "coerce_literal"]


_TYPES_BY_NAME: dict[int, tuple[RowType, dict[str, DataType]]] = {}


def _types_by_name(schema: RowType) -> dict[str, DataType]:
    """name -> type of a row type (memoised by identity; evaluation looks columns up per leaf)."""
    hit = _TYPES_BY_NAME.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    mapping: dict[str, DataType] = {}
    for f in schema.fields:
        mapping.setdefault(f.name, f.type)
    if len(_TYPES_BY_NAME) > 256:
        _TYPES_BY_NAME.clear()
    _TYPES_BY_NAME[id(schema)] = (schema, mapping)
    return mapping


def column_type(schema: RowType | DataType | None, column: str | None) -> DataType | None:
    """Type of ``column`` in ``schema`` (a row type, or one type for column-less payload queries)."""
    if schema is None:
        return None
    if isinstance(schema, DataType):
        return schema
    if column is None:
        if len(schema.fields) == 1:
            return schema.fields[0].type
        raise InvalidPredicateError("a predicate without a column needs a single-column schema")
    found = _types_by_name(schema).get(column)
    if found is not None:
        return found
    if column.endswith("]") and "[" in column:  # a map column's value: ``mapcol[key]``
        base = column[: column.index("[")]
        for f in schema.fields:
            if f.name == base and f.type.root == "MAP":
                return f.type.children[1]
    raise InvalidPredicateError(f"unknown column {column!r}", expected="one of " + ", ".join(map(repr, schema.names)))


# ---------------------------------------------------------------------------------------------
# literal coercion

_INT_RANGES = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INTEGER": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
    "DATE": (-(2**31), 2**31 - 1),
    "TIME_WITHOUT_TIME_ZONE": (0, 86_400_000 - 1),
}


def _float32(x: float) -> float:
    try:
        return struct.unpack(">f", struct.pack(">f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _coerce_in(dtype: DataType, value: Any, column: str | None) -> Any:
    """:func:`coerce_literal` for a leaf on ``column``; the error context is formatted only on failure."""
    if type(value) is int:  # the common integer literal on an integer column
        bounds = _INT_RANGES.get(dtype.root)
        if bounds is not None and dtype.root != "TIME_WITHOUT_TIME_ZONE" and bounds[0] <= value <= bounds[1]:
            return value
    return coerce_literal(dtype, value, where="the indexed column" if column is None else f"column {column!r}")


def coerce_literal(dtype: DataType, value: Any, *, where: str = "literal") -> Any:
    """Coerce ``value`` to ``dtype``'s Python representation; ``None`` stays ``None``.

    Accepts the natural Python values (``datetime.date`` / ``time`` / ``datetime``,
    :class:`~paimon_codec.values.Timestamp`, ``Decimal``, ...), the golden JSON encodings
    (``[millis, nanos]``, ``{"millis", ...}``, ``{"unscaled": n}``, ``"NaN"``) and text that reads as
    the type (``'2024-01-01'`` for a DATE).  A DECIMAL literal is rounded HALF_UP to the column's scale, as
    Paimon converts it; one the column's precision cannot hold is refused.  Raises
    :class:`InvalidPredicateError` otherwise.
    """
    if value is None:
        return None
    if type(value) is int:  # fast path: the common integer literal on an integer column
        bounds = _INT_RANGES.get(dtype.root)
        if bounds is not None and dtype.root != "TIME_WITHOUT_TIME_ZONE" and bounds[0] <= value <= bounds[1]:
            return value
    try:
        out = _coerce(dtype, value)
    except PaimonCodecError as exc:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}: {exc.message}") from exc
    except (ValueError, TypeError, ArithmeticError, KeyError, IndexError, OverflowError) as exc:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}") from exc
    if out is _BAD:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}")
    return out


_BAD = object()


def _integral(value: Any) -> int | object:
    if isinstance(value, bool):
        return _BAD
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else _BAD
    if isinstance(value, decimal.Decimal):
        return int(value) if value.is_finite() and value == value.to_integral_value() else _BAD
    return _BAD


def _decimal_of(dtype: DataType, d: decimal.Decimal) -> decimal.Decimal | object:
    """``d`` as a value of ``DECIMAL(p, s)``, as Paimon converts a literal (``Decimal.fromBigDecimal``): rounded
    HALF_UP to the scale; ``_BAD`` when the precision cannot hold it (Java makes such a literal NULL).

    Every consumer then sees one literal: the file indexes' key codecs round it so anyway, while stats
    pruning, the Arrow filter and Spark's residual filter compare exactly - an unrounded ``1.255`` on a
    ``DECIMAL(10, 2)`` column meant ``1.26`` to an index and ``1.255`` to the others (rows lost)."""
    scale = dtype.scale or 0
    unscaled = decimal_unscaled(d, scale)
    if len(str(abs(unscaled))) > (dtype.precision if dtype.precision is not None else 10):
        return _BAD
    return decimal_from_unscaled(unscaled, scale)


def _coerce(dtype: DataType, value: Any) -> Any:
    r = dtype.root
    if isinstance(value, str) and not dtype.is_string:
        if dtype.is_binary:
            return value.encode("utf-8")
        return _coerce(dtype, parse_literal_text(dtype, value))
    if dtype.is_string:
        if not isinstance(value, str):
            return _BAD
        return value
    if dtype.is_binary:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value)
        return _BAD
    if r == "BOOLEAN":
        return value if isinstance(value, bool) else _BAD
    if r in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT"):
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if isinstance(v, int) and lo <= v <= hi else _BAD
    if r == "DATE":
        if isinstance(value, _dt.datetime):
            return _BAD
        if isinstance(value, _dt.date):
            return (value - _dt.date(1970, 1, 1)).days
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if isinstance(v, int) and lo <= v <= hi else _BAD
    if r == "TIME_WITHOUT_TIME_ZONE":
        if isinstance(value, _dt.time):
            return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.microsecond // 1000
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if isinstance(v, int) and lo <= v <= hi else _BAD
    if dtype.is_timestamp:
        if isinstance(value, Timestamp):
            ts = value
        elif isinstance(value, _dt.datetime):
            ts = Timestamp.from_datetime(value)
        elif isinstance(value, _dt.date):
            ts = Timestamp((value - _dt.date(1970, 1, 1)).days * 86_400_000, 0)
        elif isinstance(value, (list, tuple, dict)):
            ts = from_json(dtype, value)
        else:
            v = _integral(value)
            if not isinstance(v, int):
                return _BAD
            ts = Timestamp(v, 0)  # a bare number is epoch millis
        if not 0 <= ts.nanos_of_milli <= 999_999 or not -(2**63) <= ts.millis < 2**63:
            return _BAD
        return Timestamp(int(ts.millis), int(ts.nanos_of_milli))
    if r in ("FLOAT", "DOUBLE"):
        if isinstance(value, bool):
            return _BAD
        if isinstance(value, (int, float, decimal.Decimal)):
            f = float(value)
            return _float32(f) if r == "FLOAT" else f
        return _BAD
    if r == "DECIMAL":
        if isinstance(value, bool):
            return _BAD
        if isinstance(value, dict):
            value = from_json(dtype, value)
        if isinstance(value, float):
            if not math.isfinite(value):
                return _BAD
            value = decimal.Decimal(repr(value))
        if isinstance(value, (int, decimal.Decimal)):
            d = decimal.Decimal(value)
            return _decimal_of(dtype, d) if d.is_finite() else _BAD
        return _BAD
    raise InvalidPredicateError(f"predicates on {dtype} columns are not supported")

