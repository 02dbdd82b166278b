"""Schema-evolution casts from and to TIMESTAMP / TIME that do not depend on a time zone (Paimon 1.4.2's
``casting`` rules, reproduced value for value):

* TIMESTAMP(p) -> STRING (``TimestampToStringCastRule``, target exactly STRING): ``DateTimeUtils.
  formatTimestamp`` in UTC: ``yyyy-MM-dd HH:mm:ss`` and the nano-of-second as 9 digits with trailing zeros
  dropped down to ``p`` digits (no point when nothing is left), the year as its last four digits;
* TIMESTAMP(p) / TIMESTAMP_LTZ(p) -> INT / BIGINT (``TimestampToNumericPrimitiveCastRule``): epoch millis
  / 1000 rounded toward zero, narrowed to an int by wrapping (the LTZ form converts through a
  ``LocalDateTime`` and back, which keeps the instant);
* INT / BIGINT -> TIMESTAMP(p) (``NumericPrimitiveToTimestamp``): the value as epoch seconds (times 1000
  wrapping as a Java long);
* TIMESTAMP(p) -> TIME (``TimestampToTimeCastRule``): epoch millis % millis per day (Java's remainder);
* TIME(p) -> STRING (``TimeToStringCastRule``): ``HH:mm:ss`` then, for p > 0, the millis digit by digit,
  stopping after a digit that leaves no remainder.

* CHAR / VARCHAR -> DATE (``BinaryStringUtils.toDate``): a number is the day number, else ``parseDate``'s
  lenient ``y[-m[-d]]`` (parts trimmed, the text cut at its first inner blank);
* CHAR / VARCHAR -> TIMESTAMP(p) (``toTimestamp``): a number in the unit of p (0, 3, 6, 9), else
  ``yyyy-M-d[ H:m:s[.f]]``, the fraction floored to p digits; other spellings are refused;
* TIME -> TIMESTAMP: the millis of day on 1970-01-01.

Casts of TIMESTAMP_LTZ to STRING / TIME and of numbers, strings or TIME to TIMESTAMP_LTZ use the JVM's
default time zone, so :mod:`.casts` refuses them by name.
"""

from __future__ import annotations

import calendar
import datetime
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import UnsupportedTypeError

__all__ = ["timestamp_to_string", "timestamp_to_seconds", "seconds_to_timestamp", "timestamp_to_time",
           "time_to_string", "string_to_date", "string_to_timestamp", "time_to_timestamp"]

_NANOS_PER = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}
_MILLIS_PER_DAY = 86_400_000


def _ticks(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The values' integer ticks (nulls as 0) and the null mask."""
    mask = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    ticks = arr.view(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    return ticks, mask


def _epoch_millis(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    ticks, mask = _ticks(arr)
    per = _NANOS_PER[arr.type.unit]
    if per >= 1_000_000:
        return ticks * (per // 1_000_000), mask
    return np.floor_divide(ticks, 1_000_000 // per), mask


def timestamp_to_string(arr: pa.Array, precision: int, target: pa.DataType) -> pa.Array:
    """``DateTimeUtils.formatTimestamp(ts, UTC, precision)`` of every value."""
    unit = arr.type.unit
    per = _NANOS_PER[unit]
    ticks, mask = _ticks(arr)
    naive = arr.cast(pa.timestamp(unit)) if arr.type.tz is not None else arr
    years = pc.year(naive).to_numpy(zero_copy_only=False)
    if not mask.all() and (np.min(np.where(mask, 1970, years)) < 0):
        raise UnsupportedTypeError("TIMESTAMP before year 0 read as STRING (Paimon prints such years as "
                                   "characters outside the digits)")
    parts = [pc.month(naive), pc.day(naive), pc.hour(naive), pc.minute(naive), pc.second(naive)]
    month, day, hour, minute, second = (p.to_numpy(zero_copy_only=False) for p in parts)
    ticks_per_second = 1_000_000_000 // per
    nanos = np.mod(ticks, ticks_per_second) * per
    out: list[str | None] = []
    for i in range(len(arr)):
        if mask[i]:
            out.append(None)
            continue
        fraction = f"{int(nanos[i]):09d}"
        while len(fraction) > precision and fraction.endswith("0"):
            fraction = fraction[:-1]
        text = (f"{int(years[i]) % 10000:04d}-{int(month[i]):02d}-{int(day[i]):02d} "
                f"{int(hour[i]):02d}:{int(minute[i]):02d}:{int(second[i]):02d}")
        out.append(f"{text}.{fraction}" if fraction else text)
    return pa.array(out, type=target)


def timestamp_to_seconds(arr: pa.Array, bits: int, target: pa.DataType) -> pa.Array:
    """``DateTimeUtils.unixTimestamp(millis)`` = millis / 1000 toward zero, then ``(int)`` for INT."""
    millis, mask = _epoch_millis(arr)
    seconds = np.sign(millis) * (np.abs(millis) // 1000)
    if bits == 32:
        seconds = ((seconds + 2 ** 31) % 2 ** 32) - 2 ** 31
    return pa.array(seconds.astype(np.int64), type=pa.int64(), mask=mask).cast(target)


def seconds_to_timestamp(arr: pa.Array, target: pa.DataType) -> pa.Array:
    """Epoch seconds as a TIMESTAMP: ``value * 1000`` millis, the product wrapping as a Java long."""
    mask = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    seconds = arr.cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    with np.errstate(over="ignore"):
        millis = seconds * np.int64(1000)
    unit = target.unit
    per = _NANOS_PER[unit]
    if per < 1_000_000:
        factor = 1_000_000 // per
        limit = np.iinfo(np.int64).max // factor
        if (np.abs(millis[~mask]) > limit).any():
            raise UnsupportedTypeError(f"epoch seconds read as TIMESTAMP beyond the range of Arrow's {unit} "
                                       "timestamps")
        ticks = millis * factor
    else:
        ticks = millis // (per // 1_000_000)
    return pa.array(ticks, type=pa.int64(), mask=mask).cast(target)


def timestamp_to_time(arr: pa.Array, target: pa.DataType) -> pa.Array:
    """``(int) (epoch millis % MILLIS_PER_DAY)`` (Java's remainder: negative before 1970, refused)."""
    millis, mask = _epoch_millis(arr)
    time = np.sign(millis) * (np.abs(millis) % _MILLIS_PER_DAY)
    if (time[~mask] < 0).any():
        raise UnsupportedTypeError("TIMESTAMP before 1970 read as TIME (Paimon yields a negative time of day)")
    return pa.array(time.astype(np.int32), type=pa.int32(), mask=mask).cast(pa.time32("ms")).cast(target)


def time_to_string(arr: pa.Array, precision: int, target: pa.DataType) -> pa.Array:
    """``DateTimeUtils.formatTimestampMillis(millis of day, precision)``."""
    mask = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    as_millis = arr.cast(pa.time32("ms")) if arr.type != pa.time32("ms") else arr
    millis = as_millis.view(pa.int32()).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    out: list[str | None] = []
    for i in range(len(arr)):
        if mask[i]:
            out.append(None)
            continue
        t = int(millis[i]) % _MILLIS_PER_DAY
        text = f"{t // 3_600_000:02d}:{t % 3_600_000 // 60_000:02d}:{t % 60_000 // 1000:02d}"
        ms, left = t % 1000, precision
        if left > 0:
            text += "."
            while left > 0:
                text += str(ms // 100)
                ms = ms % 100 * 10
                if ms == 0:
                    break
                left -= 1
        out.append(text)
    return pa.array(out, type=target)


# -- strings to DATE / TIMESTAMP -------------------------------------------------------------------------
_JAVA_NUMERIC = re.compile(r"-?[0-9]+")
_TIMESTAMP_TEXT = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
                             r"(?: ([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\.([0-9]{1,9}))?)?")
_JAVA_BLANKS = "".join(chr(c) for c in range(33))     # String.trim() strips every char <= ' '
_EPOCH_JULIAN = 2440588


def _numeric(text: str, bits: int, what: str) -> int | None:
    """``StringUtils.isNumeric`` then ``toInt`` / ``toLong``: an optional '-' and digits; None if not
    numeric.  Unicode digits (numeric to Java, not parsed by it) and overflow fail Paimon's read."""
    if _JAVA_NUMERIC.fullmatch(text):
        value = int(text)
        if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise UnsupportedTypeError(f"{text!r} read as {what}: overflow (Paimon fails this read too)")
        return value
    body = text[1:] if text[:1] == "-" else text
    if body and all(c.isdigit() for c in body):
        raise UnsupportedTypeError(f"{text!r} read as {what}: non-ASCII digits (Paimon fails this read too)")
    return None


def _legal(y: int, m: int, d: int) -> bool:
    """``DateTimeUtils.isIllegalDate`` (true when the date *is* legal)."""
    if not (0 <= y <= 9999 and 1 <= m <= 12 and 1 <= d <= 31):
        return False
    if m == 2 and d > 28 and not (d == 29 and (y % 400 == 0 or (y % 4 == 0 and y % 100 != 0))):
        return False
    return d != 31 or m in (1, 3, 5, 7, 8, 10, 12)


def _unix_date(y: int, m: int, d: int) -> int:
    """``ymdToUnixDate``: the Julian day number (Java's int division; every term is non-negative here)."""
    a = (14 - m) // 12
    yy, mm = y + 4800 - a, m + 12 * a - 3
    return d + (153 * mm + 2) // 5 + 365 * yy + yy // 4 - yy // 100 + yy // 400 - 32045 - _EPOCH_JULIAN


def _parse_date(text: str) -> int | None:
    """``DateTimeUtils.parseDate``: what precedes the first blank (not at 0), ``y[-m[-d]]`` with each part
    trimmed and all ASCII digits; None where Paimon finds no date."""
    space = text.find(" ")
    if space > 0:
        text = text[:space]
    parts = text.split("-", 2)
    fields = [p.strip(_JAVA_BLANKS) for p in parts]
    if not all(f and f.isascii() and f.isdigit() for f in fields):
        return None
    if any(len(f) > 10 or int(f) >= 2 ** 31 for f in fields):
        return None    # Integer.parseInt overflows (fails the read either way: refused by the caller)
    y, m, d = (int(f) for f in fields + ["1"] * (3 - len(fields)))
    return _unix_date(y, m, d) if _legal(y, m, d) else None


def string_to_date(arr: pa.Array, target: pa.DataType) -> pa.Array:
    """``BinaryStringUtils.toDate``: a numeric string is the day number, else ``parseDate``; a string
    Paimon cannot read as a date fails its read, so it is refused."""
    out: list[int | None] = []
    for text in arr.to_pylist():
        if text is None:
            out.append(None)
            continue
        days = _numeric(text, 32, "DATE")
        if days is None:
            days = _parse_date(text)
        if days is None:
            raise UnsupportedTypeError(f"{text!r} read as DATE (Paimon fails this read too: not a date)")
        out.append(days)
    return pa.array(out, type=pa.int32()).cast(pa.date32()).cast(target)


def _epoch_nanos_of_number(epoch: int, precision: int) -> int:
    """``fromMillisToTimestamp``: the number in the precision's unit (0, 3, 6, 9 only), as epoch nanos."""
    if precision == 0:
        millis = ((epoch * 1000 + 2 ** 63) % 2 ** 64) - 2 ** 63     # Java's long product wraps
        return millis * 1_000_000
    if precision == 3:
        return epoch * 1_000_000
    if precision in (6, 9):   # millis and nano-of-milli (a negative remainder borrows a milli): one instant
        return epoch * (1000 if precision == 6 else 1)
    raise UnsupportedTypeError(f"a number read as TIMESTAMP({precision}) (Paimon fails this read too: "
                               "unsupported precision)")


def _epoch_nanos_of_text(text: str, precision: int) -> int:
    """``parseTimestampData`` for ``yyyy-M-d[ H:m:s[.fraction]]`` (the formatter's plain form), the
    nano-of-second floored to ``precision``; other spellings the formatter may take are refused."""
    match = _TIMESTAMP_TEXT.fullmatch(text)
    if match is None:
        raise UnsupportedTypeError(f"{text!r} read as TIMESTAMP (a spelling whose parse by Paimon is not "
                                   "reproduced, or one Paimon fails on)")
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in match.groups()[:6])
    fraction = match.group(7) or ""
    if not (y >= 1 and 1 <= mo <= 12 and 1 <= d <= calendar.monthrange(y, mo)[1] and h <= 23 and mi <= 59
            and s <= 59):
        raise UnsupportedTypeError(f"{text!r} read as TIMESTAMP (a field out of range: Paimon fails or "
                                   "adjusts it)")
    nanos = int(fraction.ljust(9, "0")) if fraction else 0
    unit = 10 ** (9 - precision)
    nanos -= nanos % unit
    seconds = (datetime.datetime(y, mo, d, h, mi, s) - datetime.datetime(1970, 1, 1)) // datetime.timedelta(
        seconds=1)
    return seconds * 1_000_000_000 + nanos


def string_to_timestamp(arr: pa.Array, precision: int, target: pa.DataType) -> pa.Array:
    """``BinaryStringUtils.toTimestamp(text, precision)`` (TIMESTAMP without time zone)."""
    per = _NANOS_PER[target.unit]
    out: list[int | None] = []
    for text in arr.to_pylist():
        if text is None:
            out.append(None)
            continue
        epoch = _numeric(text, 64, "TIMESTAMP")
        nanos = (_epoch_nanos_of_number(epoch, precision) if epoch is not None
                 else _epoch_nanos_of_text(text, precision))
        ticks, rest = divmod(nanos, per)
        if rest or not -(2 ** 63) <= ticks < 2 ** 63:
            raise UnsupportedTypeError(f"{text!r} read as TIMESTAMP({precision}) beyond Arrow's {target.unit} "
                                       "timestamps")
        out.append(ticks)
    return pa.array(out, type=pa.int64()).cast(target)


def time_to_timestamp(arr: pa.Array, target: pa.DataType) -> pa.Array:
    """``TimeToTimestampCastRule``: the millis of day as epoch millis (1970-01-01)."""
    millis = arr.cast(pa.int32()) if not pa.types.is_time(arr.type) else arr.view(pa.int32())
    as_ns = pc.multiply(millis.cast(pa.int64()), 1_000_000)
    return as_ns.cast(pa.timestamp("ns")).cast(target)
