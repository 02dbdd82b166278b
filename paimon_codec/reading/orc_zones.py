"""ORC values whose reading depends on the writer's time zone where pyarrow and Paimon's Java reader differ.

Measured with Paimon Java 1.4.2 writing ORC in a JVM in ``Asia/Shanghai`` and ``America/New_York`` and reading
back in the same JVM (tests/test_orc_zone_java.py):

* a ``TIMESTAMP WITH LOCAL TIME ZONE`` column (ORC ``TIMESTAMP_INSTANT``) is read by Java as the written
  instant, by pyarrow shifted by the writer zone's UTC offset (Shanghai: 8 h early, New York: 5 h late);
* a ``TIMESTAMP`` value of a time the writer's zone kept an offset it has not used since 1970 (Shanghai's
  local mean time, +08:05:43, before 1901) is read by pyarrow off by the difference (5 min 43 s); one of an
  offset still in use (Shanghai's 1988 daylight saving, +09:00) reads alike.

An LTZ column is refused unless the file names UTC as its writer zone: Java's ORC writer records a zone only
beside a TIMESTAMP column (an LTZ-only file from Shanghai cannot be told from UTC's), and with the table option
``orc.timestamp-ltz.legacy.type=false`` it writes the instants unshifted (pyarrow then reads them exactly), an
option the file does not record either; correcting by the zone would be wrong for one of the two.  Such
TIMESTAMP values and LTZ columns are refused by name (column, writer zone, why).
The stripe footers (:mod:`.orc_tail`) are read only when such a column or value is present; a file written in UTC
reads alike in both readers.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterator
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import UnsupportedTypeError
from .orc_timestamps import NANOS

_UTC_NAMES = frozenset({"", "UTC", "GMT", "Z", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu",
                        "Zulu", "UCT", "Etc/UCT", "GMT0", "Etc/GMT0", "GMT+0", "GMT-0", "Etc/GMT+0", "Etc/GMT-0"})
_EPOCH = dt.datetime(1970, 1, 1)

#: before this wall clock (TZif's 32-bit range starts 1901-12-13T20:45:52Z) zones' histories are refused outright
_ANCIENT = dt.datetime(1901, 12, 15)
#: offsets a zone used from here on are its modern ones; a value of any other offset is disputed
_MODERN_FROM, _MODERN_TO = dt.datetime(1970, 1, 1), dt.datetime(2038, 1, 1)
#: zone-less values at or after this wall clock never need the writer's zone (a day of margin past 1970)
_ZONE_FREE_FROM_NANOS = 86_400 * NANOS


def _seconds(wall: dt.datetime) -> int:
    return int((wall - _EPOCH).total_seconds())


def _zone(name: str, path: str) -> ZoneInfo | None:
    """``name`` as a zone (``None``: UTC or a fixed offset, which reads alike in both readers)."""
    if name in _UTC_NAMES or name[:1] in "+-" or name.startswith(("GMT+", "GMT-", "UTC+", "UTC-")):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnsupportedTypeError(f"unsupported: an ORC file written in time zone {name!r}, which this machine's "
                                   "zone database does not know", path=path) from None


def _noons(start: dt.datetime, end: dt.datetime) -> Iterator[dt.datetime]:
    day = start.replace(hour=12)
    while day < end:
        yield day
        day += dt.timedelta(days=1)


@functools.lru_cache(maxsize=64)
def disputed_intervals(tz: ZoneInfo) -> tuple[tuple[int, int], ...]:
    """Wall-clock second ranges ``[start, end)`` where ``tz``'s offset is not one it used from 1970 on, with a
    day of margin either side; everything before 1901-12-15 is one of them."""
    modern = {day.replace(tzinfo=tz).utcoffset() for day in _noons(_MODERN_FROM, _MODERN_TO)}
    out = [[-(2 ** 62), _seconds(_ANCIENT)]]
    for day in _noons(_ANCIENT, _MODERN_FROM):
        if day.replace(tzinfo=tz).utcoffset() in modern:
            continue
        start, end = _seconds(day) - 86_400 - 43_200, _seconds(day) + 86_400
        if start <= out[-1][1]:
            out[-1][1] = end
        else:
            out.append([start, end])
    return tuple((a, b) for a, b in out)


def _leaves(name: str, arr: pa.Array) -> Iterator[tuple[str, pa.Array]]:
    """Every timestamp array inside ``arr`` (a column, nested or not) with the column's name."""
    t = arr.type
    if pa.types.is_timestamp(t):
        yield name, arr
    elif pa.types.is_struct(t):
        for i in range(t.num_fields):
            yield from _leaves(name, arr.field(i))
    elif pa.types.is_map(t):
        yield from _leaves(name, arr.keys)
        yield from _leaves(name, arr.items)
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        yield from _leaves(name, arr.flatten())


def _wall_seconds(arr: pa.Array) -> np.ndarray:
    raw = arr.cast(pa.int64()).drop_null()
    return np.floor_divide(raw.to_numpy(zero_copy_only=False), NANOS)


def _named(zones: list[str], path: str) -> Iterator[tuple[str, ZoneInfo]]:
    for name in dict.fromkeys(zones):
        tz = _zone(name, path)
        if tz is not None:
            yield name, tz


def _refuse_ltz(name: str, written: str, why: str, path: str) -> UnsupportedTypeError:
    return UnsupportedTypeError(f"unsupported: ORC TIMESTAMP WITH LOCAL TIME ZONE column {name!r} of a file written "
                                f"in {written} ({why})", path=path)


def refuse_zone_dependent(table: pa.Table, zones: Callable[[], list[str]], path: str) -> None:
    """Refuse ``table`` (an ORC file's columns as pyarrow read them) if a value may read differently from Java's
    because of the writer's zone; ``zones()`` (each stripe's writer zone) is called only when a value needs it."""
    ltz: list[str] = []
    early: list[tuple[str, np.ndarray]] = []
    for f in table.schema:
        if not any(pa.types.is_timestamp(t) for t in _types(f.type)):
            continue
        for name, leaf in _leaves(f.name, table.column(f.name).combine_chunks()):
            if leaf.null_count == len(leaf):
                continue
            if leaf.type.tz is not None:
                ltz.append(name)
            elif pc.min(leaf.cast(pa.int64())).as_py() < _ZONE_FREE_FROM_NANOS:
                early.append((name, _wall_seconds(leaf)))
    if not ltz and not early:
        return
    stripe_zones = zones()
    for zone, tz in _named(stripe_zones, path):
        for name, seconds in early:
            for start, end in disputed_intervals(tz):
                if np.any((seconds >= start) & (seconds < end)):
                    raise UnsupportedTypeError(
                        f"unsupported: a TIMESTAMP in column {name!r} of an ORC file written in time zone {zone!r} "
                        "at a time that zone's UTC offset was not a modern one (pyarrow and Java's ORC reader "
                        "convert it differently)", path=path)
    if not ltz:
        return
    if "" in stripe_zones:
        raise _refuse_ltz(ltz[0], "a time zone it does not record", "Java's ORC writer records none without a "
                          "TIMESTAMP column, and shifts these values by that zone's offset", path)
    named = list(_named(stripe_zones, path))
    if named:
        raise _refuse_ltz(ltz[0], f"time zone {named[0][0]!r}", "Java's ORC writer shifts these values by the "
                          "zone's offset unless orc.timestamp-ltz.legacy.type is false, which the file does not "
                          "record", path)


def _types(t: pa.DataType) -> Iterator[pa.DataType]:
    """``t`` and every type nested in it."""
    yield t
    if pa.types.is_struct(t):
        for i in range(t.num_fields):
            yield from _types(t.field(i).type)
    elif pa.types.is_map(t):
        yield from _types(t.key_type)
        yield from _types(t.item_type)
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        yield from _types(t.value_type)
