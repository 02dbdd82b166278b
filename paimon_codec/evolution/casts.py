"""Paimon's cast rules on Arrow arrays: how values of a column written under an older type read as
the column's current type (``ALTER TABLE ... MODIFY COLUMN``).

Paimon reads an evolved column through ``CastExecutors.resolve(fileType, tableType)``; the rules
implemented here give the same values (facts from Paimon's ``casting`` package):

* integer / floating -> integer / floating: Java's primitive conversions (``Number.intValue`` ...):
  integers wrap, floating point truncates toward zero, saturates at the int / long range, NaN -> 0;
* DECIMAL -> DECIMAL, integer / floating -> DECIMAL: ``BigDecimal.setScale(s, HALF_UP)``, NULL when the
  value needs more than the target precision (floating values go through ``BigDecimal.valueOf``,
  i.e. their shortest decimal string); DECIMAL -> integer: truncated toward zero, then wrapped;
  DECIMAL -> FLOAT / DOUBLE: the nearest value;
* numeric / BOOLEAN / DATE -> CHAR / VARCHAR: Java's ``toString`` (``Float``/``Double`` spelling, plain
  decimal digits), then cut to the target length (CHAR is padded with blanks);
* CHAR / VARCHAR -> CHAR / VARCHAR: cut / padded the same way;
* CHAR / VARCHAR -> integer / FLOAT / DOUBLE / DECIMAL / BOOLEAN: parsed as Paimon parses them; a value
  Paimon cannot parse makes Paimon's read fail, so it is refused here too;
* TIMESTAMP(p) -> TIMESTAMP(q) (same time-zone kind): truncated to ``q`` digits as Paimon does;
  DATE -> TIMESTAMP: midnight; TIMESTAMP -> DATE: epoch millis / millis per day, rounded toward zero
  (so an instant just before 1970 reads as 1970-01-01, as in Paimon).

* TIMESTAMP -> STRING / INT / BIGINT / TIME, INT / BIGINT / TIME / CHAR / VARCHAR -> TIMESTAMP, TIME -> STRING,
  CHAR / VARCHAR -> DATE: :mod:`.casts_temporal`;
* CHAR / VARCHAR -> BINARY / VARBINARY: the UTF-8 bytes cut to the length (BINARY padded with zero bytes);
  BINARY / VARBINARY -> CHAR / VARCHAR: the bytes as they are (Paimon cuts and pads nothing);
* BOOLEAN -> numeric: 1 / 0; integer -> BOOLEAN: non-zero.

TIMESTAMP <-> TIMESTAMP WITH LOCAL TIME ZONE: :mod:`.casts_zone`, in the read's time zone (refused without one).

Every other change of type is refused with :class:`~paimon_codec.errors.UnsupportedTypeError` naming it
(casts from TIMESTAMP WITH LOCAL TIME ZONE to
STRING / TIME or from numbers, strings and TIME to it, depend on the JVM's time zone; casts from strings to
TIME / nested types and from nested types to strings are not implemented).
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import CorruptDataError, UnsupportedTypeError
from ..types import DataType
from ..values import java_float_string
from . import casts_temporal
from .casts_text import java_bigdecimal_text as _java_bigdecimal_text
from .casts_text import parse_boolean as _parse_boolean
from .casts_text import parse_float as _parse_float
from .casts_text import parse_integer as _parse_integer
from .casts_zone import TIME_ZONE_OPTION, cast_with_zone, zone_cast

__all__ = ["cast_array", "castable", "refusal_detail"]

_INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "BIGINT": 64}
_FLOATS = ("FLOAT", "DOUBLE")
_STRINGS = ("CHAR", "VARCHAR")
_MAX_LEN = 2147483647


def _numeric_primitive(t: DataType) -> bool:
    return t.root in _INT_BITS or t.root in _FLOATS


def _is_string_type(t: DataType) -> bool:
    """Exactly Paimon's nullable ``STRING``: the only target of its TIMESTAMP / TIME -> string rules."""
    return t.root == "VARCHAR" and t.length in (None, _MAX_LEN) and t.nullable


def _extra_cast(src: DataType, dst: DataType) -> str | None:
    """The casts of :mod:`.casts_temporal` and the BOOLEAN / BINARY ones: which, or None."""
    s, d = src.root, dst.root
    if s == "TIMESTAMP_WITHOUT_TIME_ZONE" and _is_string_type(dst):
        return "timestamp_string"
    if src.is_timestamp and d in ("INTEGER", "BIGINT"):
        return "timestamp_seconds"
    if s in ("INTEGER", "BIGINT") and d == "TIMESTAMP_WITHOUT_TIME_ZONE":
        return "seconds_timestamp"
    if s == "TIMESTAMP_WITHOUT_TIME_ZONE" and d == "TIME_WITHOUT_TIME_ZONE":
        return "timestamp_time"
    if s == "TIME_WITHOUT_TIME_ZONE" and _is_string_type(dst):
        return "time_string"
    if s == "TIME_WITHOUT_TIME_ZONE" and d == "TIMESTAMP_WITHOUT_TIME_ZONE":
        return "time_timestamp"
    if s in _STRINGS and d == "DATE":
        return "string_date"
    if s in _STRINGS and d == "TIMESTAMP_WITHOUT_TIME_ZONE":
        return "string_timestamp"
    if s in _STRINGS and d in ("BINARY", "VARBINARY"):
        return "string_binary"
    if s in ("BINARY", "VARBINARY") and d in _STRINGS:
        return "binary_string"
    if s == "BOOLEAN" and (_numeric_primitive(dst) or d == "DECIMAL"):
        return "boolean_number"
    if s in _INT_BITS and d == "BOOLEAN":
        return "number_boolean"
    return None


def castable(src: DataType, dst: DataType, time_zone: str | None = None) -> bool:
    """Whether :func:`cast_array` reads ``src`` values as ``dst`` (same answer as Paimon, or refused);
    the casts of :mod:`.casts_zone` need the read's ``time_zone``."""
    s, d = src.root, dst.root
    if zone_cast(src, dst) is not None:
        return time_zone is not None
    if _extra_cast(src, dst) is not None:
        return True
    if s == d and s not in ("DECIMAL", "CHAR", "VARCHAR", "TIMESTAMP_WITHOUT_TIME_ZONE",
                            "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "BINARY", "VARBINARY"):
        return s not in ("ARRAY", "MAP", "ROW", "MULTISET")
    if _numeric_primitive(src) and (_numeric_primitive(dst) or d == "DECIMAL"):
        return True
    if s == "DECIMAL" and (_numeric_primitive(dst) or d == "DECIMAL"):
        return True
    if d in _STRINGS:
        return s in _STRINGS or _numeric_primitive(src) or s in ("DECIMAL", "BOOLEAN", "DATE")
    if s in _STRINGS:
        return _numeric_primitive(dst) or d in ("DECIMAL", "BOOLEAN")
    if s == d and s in ("BINARY", "VARBINARY"):
        return src.length == dst.length or (src.length or 0) <= (dst.length or 0) and s == "VARBINARY"
    if src.is_timestamp and dst.is_timestamp:
        return s == d
    return (s == "DATE" and dst.is_timestamp and d == "TIMESTAMP_WITHOUT_TIME_ZONE") or \
        (src.is_timestamp and s == "TIMESTAMP_WITHOUT_TIME_ZONE" and d == "DATE")


def refusal_detail(src: DataType, dst: DataType) -> str:
    """Why ``src`` -> ``dst`` is refused, for the refusal's text."""
    if zone_cast(src, dst) is not None:
        return ("Paimon converts them in the JVM's default time zone; name the read's time zone with "
                f"{TIME_ZONE_OPTION}")
    if "TIMESTAMP_WITH_LOCAL_TIME_ZONE" in (src.root, dst.root):
        return "this schema-evolution cast is not supported (Paimon converts them in the JVM's default time zone)"
    return "this schema-evolution cast is not supported"


def cast_array(arr: pa.Array, src: DataType, dst: DataType, target: pa.DataType,
               time_zone: str | None = None) -> pa.Array:
    """``arr`` (values of Paimon type ``src`` as the Arrow type of ``src``) as ``dst`` values of ``target``
    (``time_zone``: the zone Paimon's JVM would convert TIMESTAMP <-> TIMESTAMP WITH LOCAL TIME ZONE in)."""
    if not castable(src, dst, time_zone):
        raise UnsupportedTypeError(f"cannot read {src} values of an older data file as {dst}: "
                                   f"{refusal_detail(src, dst)}")
    s, d = src.root, dst.root
    kind = zone_cast(src, dst)
    if kind is not None and time_zone is not None:
        return _cast_in_zone(kind, arr, src, dst, target, time_zone)
    if s == d and s not in ("DECIMAL", "CHAR", "VARCHAR", "BINARY", "VARBINARY") and not src.is_timestamp:
        return arr.cast(target)
    extra = _extra_cast(src, dst)
    if extra is not None:
        return _cast_extra(extra, arr, src, dst, target)
    if d in _INT_BITS:
        return _to_integer(arr, src, d, target)
    if d in _FLOATS:
        if s == "DECIMAL" or s in _STRINGS:
            return _per_value(arr, lambda v: _parse_float(v, d) if s in _STRINGS else float(v), target)
        return arr.cast(target, safe=False)
    if d == "DECIMAL":
        return _to_decimal(arr, src, dst, target)
    if d in _STRINGS:
        return _to_string(arr, src, dst, target)
    if d == "BOOLEAN":
        return _per_value(arr, _parse_boolean, target)
    if s in ("BINARY", "VARBINARY"):
        return arr.cast(target)
    if src.is_timestamp and dst.is_timestamp:
        return _truncate_timestamp(arr, dst.precision if dst.precision is not None else 6, target)
    if s == "DATE":
        return arr.cast(pa.timestamp("s")).cast(target)
    if d == "DATE":
        # TimestampToDateCastRule: (int) (epoch millis / MILLIS_PER_DAY), Java's division toward zero
        ns = arr.cast(pa.timestamp("ns")).cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
        millis = np.floor_divide(ns, 1_000_000)
        days = (np.sign(millis) * (np.abs(millis) // 86_400_000)).astype(np.int32)
        return pa.array(days, type=pa.int32(), mask=arr.is_null().to_numpy(zero_copy_only=False)).cast(
            pa.date32())
    raise UnsupportedTypeError(f"cannot read {src} values of an older data file as {dst}")


def _cast_extra(kind: str, arr: pa.Array, src: DataType, dst: DataType, target: pa.DataType) -> pa.Array:
    if kind == "timestamp_string":
        return casts_temporal.timestamp_to_string(arr, src.precision if src.precision is not None else 6, target)
    if kind == "timestamp_seconds":
        return casts_temporal.timestamp_to_seconds(arr, _INT_BITS[dst.root], target)
    if kind == "seconds_timestamp":
        return casts_temporal.seconds_to_timestamp(arr, target)
    if kind == "timestamp_time":
        return casts_temporal.timestamp_to_time(arr, target)
    if kind == "time_timestamp":
        return casts_temporal.time_to_timestamp(arr, target)
    if kind == "string_date":
        return casts_temporal.string_to_date(arr, target)
    if kind == "string_timestamp":
        return casts_temporal.string_to_timestamp(arr, dst.precision if dst.precision is not None else 6, target)
    if kind == "time_string":
        return casts_temporal.time_to_string(arr, src.precision if src.precision is not None else 0, target)
    if kind == "string_binary":   # BinaryStringUtils.toBinaryString: BINARY(n) zero-padded, both cut to n
        length = dst.length if dst.length is not None else _MAX_LEN

        def to_bytes(v: str) -> bytes:
            raw = v.encode("utf-8")[:length]
            return raw + b"\0" * (length - len(raw)) if dst.root == "BINARY" else raw
        return _per_value(arr, to_bytes, target)
    if kind == "binary_string":   # BinaryString.fromBytes: the bytes as they are, no cut or padding
        def to_text(v: bytes) -> str:
            try:
                return v.decode("utf-8")
            except UnicodeDecodeError:
                raise UnsupportedTypeError(f"{src} value that is not UTF-8 read as {dst}") from None
        return _per_value(arr, to_text, target)
    if kind == "boolean_number":
        ints = arr.cast(pa.int8())
        return _to_decimal(ints, DataType("TINYINT"), dst, target) if dst.root == "DECIMAL" else ints.cast(target)
    # number_boolean: value.longValue() != 0
    return pc.not_equal(arr.cast(pa.int64()), 0).cast(target)


def _cast_in_zone(kind: str, arr: pa.Array, src: DataType, dst: DataType, target: pa.DataType,
                  zone: str) -> pa.Array:
    """The casts of :mod:`.casts_zone`: move between instant and wall clock in ``zone``, then as zone-free."""
    if kind == "seconds_ltz":
        arr = casts_temporal.seconds_to_timestamp(arr, pa.timestamp("ns"))
    moved = cast_with_zone(arr, kind, zone)
    if kind in ("to_ltz", "from_ltz", "seconds_ltz"):
        wall = moved.cast(pa.timestamp("ns", tz=target.tz))
        return _truncate_timestamp(wall, dst.precision if dst.precision is not None else 6, target)
    wall = moved.cast(pa.timestamp("ns"))
    if kind == "ltz_date":  # LocalDate of the wall clock: floor to the day
        days = np.floor_divide(moved.fill_null(0).to_numpy(zero_copy_only=False), 86_400_000_000_000)
        return pa.array(days.astype(np.int32), type=pa.int32(),
                        mask=arr.is_null().to_numpy(zero_copy_only=False)).cast(target)
    return casts_temporal.timestamp_to_string(wall, src.precision if src.precision is not None else 6, target)


def _per_value(arr: pa.Array, fn: Callable[[Any], Any], target: pa.DataType) -> pa.Array:
    return pa.array([None if v is None else fn(v) for v in arr.to_pylist()], type=target)


# -- numbers ----------------------------------------------------------------------------------------------
def _wrap(values: np.ndarray, bits: int) -> np.ndarray:
    return values.astype(np.int64).astype({8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[bits])


def _java_float_to_long(values: np.ndarray, bits: int) -> np.ndarray:
    """Java's ``(int) f`` / ``(long) f``: NaN -> 0, toward zero, saturated at the target's range."""
    lo, hi = (-(2 ** 31), 2 ** 31 - 1) if bits == 32 else (-(2 ** 63), 2 ** 63 - 1)
    out = np.zeros(len(values), dtype=np.int64)
    finite = ~np.isnan(values)
    v = np.trunc(values[finite].astype(np.float64))
    res = np.empty(len(v), dtype=np.int64)
    big, small = v >= float(hi), v <= float(lo)
    mid = ~(big | small)
    res[big], res[small] = hi, lo
    res[mid] = v[mid].astype(np.int64)
    out[finite] = res
    return out


def _to_integer(arr: pa.Array, src: DataType, d: str, target: pa.DataType) -> pa.Array:
    bits = _INT_BITS[d]
    mask = arr.is_null().to_numpy(zero_copy_only=False)
    if src.root in _INT_BITS:
        values = _wrap(arr.fill_null(0).to_numpy(zero_copy_only=False), bits)
    elif src.root in _FLOATS:
        # Number.byteValue / shortValue of a Float/Double is (byte) (int) value
        raw = arr.fill_null(0).to_numpy(zero_copy_only=False)
        values = _wrap(_java_float_to_long(raw, 64 if bits == 64 else 32), bits)
    elif src.root == "DECIMAL":
        values = _wrap(np.array([0 if v is None else _decimal_to_long(v) for v in arr.to_pylist()],
                                dtype=np.int64), bits)
    else:  # string
        return _per_value(arr, lambda v: _parse_integer(v, bits), target)
    return pa.array(values, type=target, mask=mask)


def _decimal_to_long(v: decimal.Decimal) -> int:
    n = int(v.to_integral_value(rounding=decimal.ROUND_DOWN))
    return ((n + 2 ** 63) % 2 ** 64) - 2 ** 63  # BigDecimal.longValue keeps the low 64 bits


def _fit_decimal(v: decimal.Decimal, precision: int, scale: int) -> decimal.Decimal | None:
    """``Decimal.fromBigDecimal(v, p, s)``: HALF_UP to the scale, NULL when it needs more precision."""
    with decimal.localcontext() as ctx:
        ctx.prec = 200
        q = v.quantize(decimal.Decimal(1).scaleb(-scale), rounding=decimal.ROUND_HALF_UP)
    return None if len(q.as_tuple().digits) > precision else q


def _to_decimal(arr: pa.Array, src: DataType, dst: DataType, target: pa.DataType) -> pa.Array:
    p, s = dst.precision or 10, dst.scale or 0
    if src.root in _FLOATS:
        def conv(v: Any) -> Any:
            if math.isnan(v) or math.isinf(v):
                raise CorruptDataError(f"cannot cast {v} to {dst} (Paimon's read fails on it too)")
            return _fit_decimal(decimal.Decimal(_java_double_digits(float(v))), p, s)
    elif src.root in _STRINGS:
        def conv(v: Any) -> Any:
            try:
                return _fit_decimal(decimal.Decimal(_java_bigdecimal_text(v)), p, s)
            except decimal.InvalidOperation:
                raise CorruptDataError(f"cannot cast {v!r} to {dst} (Paimon's read fails on it too)") from None
    else:
        def conv(v: Any) -> Any:
            return _fit_decimal(decimal.Decimal(v), p, s)
    return _per_value(arr, conv, target)


# -- to strings -------------------------------------------------------------------------------------------
def _java_double_digits(v: float) -> str:
    """``BigDecimal.valueOf(double)`` text: the shortest digits that read back as ``v``."""
    return repr(float(v))


def _character_string(text: str, dst: DataType) -> str:
    """``BinaryStringUtils.toCharacterString``: cut to the length; CHAR is padded with blanks."""
    length = dst.length if dst.length is not None else _MAX_LEN
    if len(text) > length:
        return text[:length]
    if dst.root == "CHAR" and len(text) < length:
        return text + " " * (length - len(text))
    return text


def _to_string(arr: pa.Array, src: DataType, dst: DataType, target: pa.DataType) -> pa.Array:
    s = src.root
    if s in _STRINGS:
        fn: Callable[[Any], str] = str
    elif s in _INT_BITS:
        fn = str
    elif s in _FLOATS:
        def fn(v: Any) -> str:
            return java_float_string(v, s == "FLOAT")
    elif s == "DECIMAL":
        def fn(v: Any) -> str:
            return format(v, "f")
    elif s == "BOOLEAN":
        def fn(v: Any) -> str:
            return "true" if v else "false"
    else:  # DATE: DateTimeUtils.formatDate, ISO yyyy-MM-dd
        def fn(v: Any) -> str:
            return v.isoformat()
    return _per_value(arr, lambda v: _character_string(fn(v), dst), target)


# -- timestamps -------------------------------------------------------------------------------------------
def _truncate_timestamp(arr: pa.Array, precision: int, target: pa.DataType) -> pa.Array:
    """``DateTimeUtils.truncate``: nano-of-milli cut for precision > 3, else the epoch millis rounded
    toward zero (Java's integer division) to ``10^(3-p)`` millis."""
    ns = arr.cast(pa.timestamp("ns", tz=arr.type.tz)).cast(pa.int64()).fill_null(0).to_numpy(
        zero_copy_only=False)
    mask = arr.is_null().to_numpy(zero_copy_only=False)
    millis, nano_of_milli = np.floor_divide(ns, 1_000_000), np.mod(ns, 1_000_000)
    if precision > 3:
        unit = 10 ** (9 - precision)
        out = millis * 1_000_000 + (nano_of_milli // unit) * unit
    else:
        unit = 10 ** (3 - precision)
        out = np.trunc(millis / unit).astype(np.int64) * unit * 1_000_000 if unit > 1 else millis * 1_000_000
    result = pa.array(out, type=pa.int64(), mask=mask).cast(pa.timestamp("ns", tz=target.tz))
    return result.cast(target)
