"""Typed Python values of Paimon columns and the golden/CLI JSON value encoding.

Python representation of a non-null value, per type root (used by every writer, reader,
predicate literal and key hash in this package):

=====================================  ===========================================
TINYINT / SMALLINT / INTEGER / BIGINT  ``int``
DATE                                   ``int`` days since 1970-01-01
TIME                                   ``int`` millis of day
TIMESTAMP(p) / TIMESTAMP_LTZ(p)        :class:`Timestamp` (epoch millis + nanos of milli)
FLOAT / DOUBLE                         ``float`` (FLOAT values are float32-rounded)
BOOLEAN                                ``bool``
CHAR / VARCHAR / STRING                ``str``
BINARY / VARBINARY                     ``bytes``
DECIMAL(p, s)                          ``decimal.Decimal`` (see :func:`decimal_unscaled`)
=====================================  ===========================================

``None`` is SQL NULL.  JSON encodings accepted by :func:`from_json` are both golden sets':
``[millis, nanos]`` (paimon-0.9) and ``{"millis", "nanos_of_milli"}`` (paimon-latest) for
timestamps, ``{"unscaled": n}`` for decimals, ``"NaN"``/``"Infinity"`` for floats, and raw IEEE bits
(hex) given separately through ``bits=``.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import struct
from typing import Any, NamedTuple

from .errors import InvalidPredicateError
from .types import DataType

__all__ = [
    "Timestamp",
    "java_float_string",
    "from_json",
    "to_json",
    "decimal_unscaled",
    "decimal_from_unscaled",
    "timestamp_key",
    "float_from_bits",
    "parse_literal_text",
]

_EPOCH = _dt.datetime(1970, 1, 1)


class Timestamp(NamedTuple):
    """A Paimon timestamp: epoch millis plus nanos of that milli (0..999_999)."""

    millis: int
    nanos_of_milli: int = 0

    @classmethod
    def from_micros(cls, micros: int) -> Timestamp:
        return cls(micros // 1000, (micros % 1000) * 1000)

    @classmethod
    def from_nanos(cls, nanos: int) -> Timestamp:
        return cls(nanos // 1_000_000, nanos % 1_000_000)

    @classmethod
    def from_datetime(cls, value: _dt.datetime) -> Timestamp:
        if value.tzinfo is not None:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        delta = value - _EPOCH
        micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return cls.from_micros(micros)

    def to_micros(self) -> int:
        return self.millis * 1000 + self.nanos_of_milli // 1000

    def to_nanos(self) -> int:
        return self.millis * 1_000_000 + self.nanos_of_milli

    def to_datetime(self) -> _dt.datetime:
        return _EPOCH + _dt.timedelta(microseconds=self.to_micros())

    def __str__(self) -> str:
        dt = self.to_datetime()
        frac = f"{(self.millis % 1000) * 1_000_000 + self.nanos_of_milli:09d}".rstrip("0")
        return dt.strftime("%Y-%m-%d %H:%M:%S") + ("." + frac if frac else "")


def timestamp_key(ts: Timestamp, precision: int) -> int:
    """The int64 an index stores for a timestamp: millis for p <= 3, micros otherwise."""
    return ts.millis if precision <= 3 else ts.to_micros()


# Exact decimal arithmetic whatever the thread's context (its default 28 digits would round or reject
# DECIMAL(38) values).
_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def decimal_unscaled(value: decimal.Decimal | int, scale: int) -> int:
    """Unscaled long of a DECIMAL value at ``scale`` (HALF_UP rounding, as Paimon's Decimal does)."""
    d = decimal.Decimal(value)
    q = d.scaleb(scale, _EXACT).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP, context=_EXACT)
    return int(q)


def decimal_from_unscaled(unscaled: int, scale: int) -> decimal.Decimal:
    """The DECIMAL value of an unscaled integer at ``scale`` (exact, any number of digits)."""
    return decimal.Decimal(unscaled).scaleb(-scale, _EXACT)


def float_from_bits(bits: str | int, double: bool) -> float:
    b = int(bits, 16) if isinstance(bits, str) else bits
    if double:
        return struct.unpack(">d", struct.pack(">Q", b & 0xFFFFFFFFFFFFFFFF))[0]
    return struct.unpack(">f", struct.pack(">I", b & 0xFFFFFFFF))[0]


def _float32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def from_json(dtype: DataType, value: Any, *, bits: str | int | None = None, hex_bytes: str | None = None) -> Any:
    """Decode one JSON-encoded value of ``dtype`` into its Python representation."""
    if hex_bytes is not None:
        return bytes.fromhex(hex_bytes)
    if value is None and bits is None:
        return None
    r = dtype.root
    if r in ("FLOAT", "DOUBLE"):
        if bits is not None:
            return float_from_bits(bits, r == "DOUBLE")
        if isinstance(value, str):
            v = {"nan": math.nan, "infinity": math.inf, "-infinity": -math.inf, "+infinity": math.inf}.get(
                value.lower())
            if v is None:
                v = float(value)
        else:
            v = float(value)
        return _float32(v) if r == "FLOAT" else v
    if dtype.is_timestamp:
        if isinstance(value, Timestamp):
            return value
        if isinstance(value, dict):
            return Timestamp(int(value["millis"]), int(value.get("nanos_of_milli", 0)))
        if isinstance(value, (list, tuple)):
            return Timestamp(int(value[0]), int(value[1]) if len(value) > 1 else 0)
        if isinstance(value, str):
            return parse_literal_text(dtype, value)
        return Timestamp(int(value), 0)
    if r == "DECIMAL":
        if isinstance(value, dict):
            return decimal_from_unscaled(int(value["unscaled"]), dtype.scale or 0)
        return decimal.Decimal(str(value))
    if r == "BOOLEAN":
        if isinstance(value, str):
            return value.strip().lower() == "true"
        return bool(value)
    if dtype.is_binary:
        if isinstance(value, str):
            return bytes.fromhex(value)
        return bytes(value)
    if dtype.is_string:
        return str(value)
    if r in ("DATE", "TIME_WITHOUT_TIME_ZONE") and isinstance(value, str):
        return parse_literal_text(dtype, value)
    if r in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise InvalidPredicateError(f"{value!r} is not a value of type {dtype}")
        return int(value)
    return value


def to_json(dtype: DataType, value: Any) -> Any:
    """Encode a Python value in the paimon-latest JSON value encoding."""
    if value is None:
        return None
    if isinstance(value, Timestamp):
        return {"millis": value.millis, "nanos_of_milli": value.nanos_of_milli}
    if isinstance(value, decimal.Decimal):
        return {"unscaled": decimal_unscaled(value, dtype.scale or 0)}
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (_dt.date, _dt.time, _dt.datetime)):
        return str(value)
    return value


def parse_literal_text(dtype: DataType, text: str) -> Any:
    """Parse a literal written as text (SQL typed literals, CLI input) into ``dtype``'s Python value."""
    r = dtype.root
    t = text.strip()
    try:
        if r == "DATE":
            return (_dt.date.fromisoformat(t) - _EPOCH.date()).days
        if r == "TIME_WITHOUT_TIME_ZONE":
            hh, mm, rest = t.split(":")
            sec, _, frac = rest.partition(".")
            return ((int(hh) * 60 + int(mm)) * 60 + int(sec)) * 1000 + int((frac + "000")[:3])
        if dtype.is_timestamp:
            date_part, _, time_part = t.replace("T", " ").partition(" ")
            d = _dt.date.fromisoformat(date_part)
            days = (d - _EPOCH.date()).days
            nanos_of_day = 0
            if time_part:
                hh, mm, *secs = time_part.split(":")
                sec, _, frac = (secs[0] if secs else "0").partition(".")
                nanos_of_day = ((int(hh) * 60 + int(mm)) * 60 + int(sec)) * 1_000_000_000 + int(
                    (frac + "000000000")[:9])
            return Timestamp.from_nanos(days * 86_400_000_000_000 + nanos_of_day)
        if r == "DECIMAL":
            return decimal.Decimal(t)
        if r in ("FLOAT", "DOUBLE"):
            return from_json(dtype, t)
        if r == "BOOLEAN":
            if t.lower() not in ("true", "false"):
                raise ValueError(t)
            return t.lower() == "true"
        if dtype.is_integer:
            return int(t)
        if dtype.is_binary:
            return bytes.fromhex(t)
    except (ValueError, decimal.InvalidOperation) as exc:
        raise InvalidPredicateError(f"cannot read {text!r} as {dtype}") from exc
    return t


def java_float_string(v: float, single: bool) -> str:
    """Java's ``Float.toString`` / ``Double.toString`` of ``v`` (shortest round-trip digits)."""
    import numpy as np  # numpy only when a float is formatted

    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "-0.0" if math.copysign(1.0, v) < 0 else "0.0"
    text = np.format_float_scientific(np.float32(v) if single else np.float64(v), unique=True, trim="-")
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text)
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    if -3 <= exponent < 7:
        if exponent >= 0:
            whole = digits[: exponent + 1].ljust(exponent + 1, "0")
            frac = digits[exponent + 1:] or "0"
        else:
            whole, frac = "0", "0" * (-exponent - 1) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent}"
