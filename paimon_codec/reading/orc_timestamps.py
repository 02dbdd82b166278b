"""ORC TIMESTAMP values near 1970-01-01 read as Paimon's Java ORC reader reads them.

ORC stores a TIMESTAMP as whole seconds from 2015-01-01 00:00:00 *in the writer's time zone* plus the
nanoseconds.  ORC's Java writer takes the seconds by truncation (toward zero), so for an instant before
1970-01-01T00:00Z the seconds are one too high whenever the fraction is 1 ms or more; ORC's Java reader
(Paimon's) takes one second off when the writer-zone epoch milliseconds are negative and the nanoseconds
exceed 999999, *before* it shifts the value from the writer's zone to the reader's.  pyarrow's ORC
reader makes the same correction *after* that shift, on the wall-clock value.  The two disagree for
values whose wall clock and whose instant lie on different sides of the epoch: within the writer zone's
UTC offset of 1970-01-01 00:00 (measured with Paimon Java 1.4.2 writing in Asia/Shanghai and
America/New_York: ``1970-01-01 00:02:03.123123`` written in Shanghai reads back as that from Java, and
one second later from pyarrow).

:func:`java_timestamp_seconds` redoes Java's correction on pyarrow's values of top-level TIMESTAMP
(not TIMESTAMP_INSTANT) columns; the writer's zone comes from each stripe's footer
(:mod:`.orc_tail`), read only when a value lies in the window.  A zone Python does not know is refused
by name; so is such a value inside an ARRAY / MAP / ROW of a file written in a zone other than UTC.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pyarrow as pa

from ..errors import UnsupportedTypeError

NANOS = 1_000_000_000
#: no zone is further than this from UTC: values of wall clock outside it read alike in both readers
_WINDOW_SECONDS = 18 * 3600
_FIXED = re.compile(r"^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?$")
_EPOCH = dt.datetime(1970, 1, 1)


def _offset_seconds(zone: str, wall_seconds: int, path: str) -> int:
    """UTC offset of ``zone`` at the wall-clock time ``wall_seconds`` after 1970-01-01 00:00."""
    if zone in ("", "GMT", "UTC", "Z"):
        return 0
    fixed = _FIXED.match(zone)
    if fixed:
        sign = -1 if fixed.group(1) == "-" else 1
        return sign * (int(fixed.group(2)) * 3600 + int(fixed.group(3) or 0) * 60)
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnsupportedTypeError(f"unsupported: ORC TIMESTAMP values near 1970-01-01 written in time zone {zone!r}, "
                                   "which this machine's zone database does not know", path=path) from None
    offset = (_EPOCH + dt.timedelta(seconds=wall_seconds)).replace(tzinfo=tz).utcoffset()
    return 0 if offset is None else int(offset.total_seconds())


def _in_window(nanos: np.ndarray) -> np.ndarray:
    """Values pyarrow may have rounded differently: a fraction of 1 ms or more, wall clock near the epoch."""
    frac = np.mod(nanos, NANOS)
    return (frac > 999_999) & (np.abs(np.floor_divide(nanos, NANOS)) <= _WINDOW_SECONDS)


def java_timestamp_column(col: pa.ChunkedArray | pa.Array, zones: list[str], stripe_rows: list[int],
                          path: str) -> pa.Array | pa.ChunkedArray:
    """``col`` (pyarrow's ``timestamp[ns]`` values of one ORC TIMESTAMP column) as Java reads them;
    ``zones[i]`` is the writer's zone of stripe ``i`` (``stripe_rows[i]`` rows)."""
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    raw = arr.cast(pa.int64())
    values = raw.to_numpy(zero_copy_only=False).copy() if raw.null_count == 0 else \
        raw.fill_null(0).to_numpy(zero_copy_only=False).copy()
    valid = np.ones(len(values), dtype=bool) if raw.null_count == 0 else ~np.asarray(raw.is_null())
    start = 0
    changed = False
    for zone, rows in zip(zones, stripe_rows, strict=True):
        window = np.nonzero(_in_window(values[start:start + rows]) & valid[start:start + rows])[0] + start
        for i in window:
            v = int(values[i])
            frac = v % NANOS
            seconds = v // NANOS
            wall = seconds + 1 if seconds < 0 else seconds  # undo pyarrow's correction (made when wall < 0)
            instant = wall - _offset_seconds(zone, wall, path)
            java_seconds = wall - 1 if instant < 0 else wall
            if java_seconds != seconds:
                values[i] = java_seconds * NANOS + frac
                changed = True
        start += rows
    if not changed:
        return col
    return pa.array(values, type=pa.int64(), mask=~valid).cast(arr.type)


def _nested_timestamps(arr: pa.Array) -> list[pa.Array]:
    """The zone-less TIMESTAMP values nested anywhere inside ``arr`` (an ARRAY / MAP / ROW column)."""
    t = arr.type
    if pa.types.is_timestamp(t):
        return [arr] if t.tz is None else []
    if pa.types.is_struct(t):
        return [x for i in range(t.num_fields) for x in _nested_timestamps(arr.field(i))]
    if pa.types.is_map(t):
        return _nested_timestamps(arr.keys) + _nested_timestamps(arr.items)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _nested_timestamps(arr.flatten())
    return []


def refuse_nested(table: pa.Table, zones: Callable[[], list[str]], path: str) -> None:
    """Refuse a TIMESTAMP inside an ARRAY / MAP / ROW in the disputed window of a file written in a zone other
    than UTC (the correction is applied to top-level columns only)."""
    for f in table.schema:
        if not (pa.types.is_struct(f.type) or pa.types.is_list(f.type) or pa.types.is_large_list(f.type)
                or pa.types.is_map(f.type)):
            continue
        for leaf in _nested_timestamps(table.column(f.name).combine_chunks()):
            raw = leaf.cast(pa.int64())
            nanos = raw.fill_null(0).to_numpy() if raw.null_count else raw.to_numpy()
            if np.any(_in_window(nanos)) and any(_offset_seconds(z, 0, path) for z in zones()):
                raise UnsupportedTypeError(
                    f"unsupported: a TIMESTAMP near 1970-01-01 inside column {f.name!r} of an ORC file written in "
                    f"time zone {next(z for z in zones() if _offset_seconds(z, 0, path))!r} (Java's ORC reader rounds "
                    "its second differently from pyarrow's; corrected for top-level columns only)", path=path)


def needs_writer_zones(table: pa.Table) -> list[int]:
    """Positions of ``table``'s TIMESTAMP (zone-less) columns holding a value in the disputed window."""
    out = []
    for i, f in enumerate(table.schema):
        if pa.types.is_timestamp(f.type) and f.type.tz is None:
            raw = table.column(i).cast(pa.int64())
            nanos = raw.fill_null(0).to_numpy() if raw.null_count else raw.to_numpy()
            if np.any(_in_window(nanos)):
                out.append(i)
    return out


def java_timestamps(table: pa.Table, zones: Callable[[], list[str]], stripe_rows: list[int],
                    path: str) -> pa.Table:
    """``table`` (a whole ORC file read by pyarrow) with its zone-less TIMESTAMP columns as Java reads them;
    ``zones()`` gives each stripe's writer zone (called only when a value needs it)."""
    cached: list[list[str]] = []

    def stripe_zones_once() -> list[str]:
        if not cached:
            cached.append(zones())
        return cached[0]

    refuse_nested(table, stripe_zones_once, path)
    columns = needs_writer_zones(table)
    if not columns:
        return table
    stripe_zones = stripe_zones_once()
    for i in columns:
        table = table.set_column(i, table.field(i),
                                 java_timestamp_column(table.column(i), stripe_zones, stripe_rows, path))
    return table
