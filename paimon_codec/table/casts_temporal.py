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

Casts of TIMESTAMP_LTZ to STRING / TIME and of numbers to TIMESTAMP_LTZ use the JVM's default time zone,
so :mod:`.casts` refuses them by name.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import UnsupportedTypeError

__all__ = ["timestamp_to_string", "timestamp_to_seconds", "seconds_to_timestamp", "timestamp_to_time",
           "time_to_string"]

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
