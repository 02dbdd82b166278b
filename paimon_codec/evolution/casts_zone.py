"""Schema-evolution casts between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE: they depend on a time zone.

Paimon converts them in the JVM's default time zone (``TimeZone.getDefault()``): TIMESTAMP -> TIMESTAMP WITH
LOCAL TIME ZONE reads the wall-clock value in that zone (``LocalDateTime.atZone``: in a gap the value moves
later by the gap's length, in an overlap the earlier offset wins), TIMESTAMP WITH LOCAL TIME ZONE -> TIMESTAMP
takes the instant's wall clock there; both are then truncated to the target precision.  There is no JVM here,
so a read names its zone the way engines do (``read_table(..., time_zone=...)``, ``plan_scan``, the CLI's
``--time-zone``, the Spark source option ``time-zone``); without one these casts are refused by name.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pyarrow as pa

from ..errors import UnsupportedTypeError, UsageError
from ..types import DataType

__all__ = ["TIME_ZONE_OPTION", "check_time_zone", "known_zone", "zone_cast", "cast_with_zone", "refuse_orc_zone_casts"]

TIME_ZONE_OPTION = "time_zone= (CLI --time-zone, Spark option time-zone)"

_NS = 1_000_000_000
_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "GMT", "Etc/GMT", "UCT", "Etc/UCT", "Universal", "Etc/Universal", "Zulu",
                        "Etc/Zulu", "Etc/GMT+0", "Etc/GMT-0", "Etc/GMT0", "GMT0", "GMT+0", "GMT-0"})
_EPOCH = dt.datetime(1970, 1, 1)


def check_time_zone(zone: str | None) -> str | None:
    """``zone`` when it names a zone (IANA name such as ``Asia/Shanghai``, or ``UTC``), else a UsageError."""
    if zone is None:
        return None
    try:
        ZoneInfo(str(zone))
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"time zone {zone!r} is not a known zone name (e.g. 'UTC', 'Asia/Shanghai')") from None
    return str(zone)


_LTZ, _TS = "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMP_WITHOUT_TIME_ZONE"


def known_zone(zone: str | None) -> str | None:
    """``zone`` when it names a zone this machine knows, else None (an engine's session zone such as Spark's
    ``+08:00`` must not fail reads that need no zone: the casts that do are then refused by name)."""
    try:
        return check_time_zone(zone)
    except UsageError:
        return None


def zone_cast(src: DataType, dst: DataType) -> str | None:
    """Which zone-dependent cast reads ``src`` as ``dst``, or None:

    * ``to_ltz`` TIMESTAMP -> TIMESTAMP_LTZ: the wall clock read in the zone;
    * ``from_ltz`` TIMESTAMP_LTZ -> TIMESTAMP: the instant's wall clock in the zone;
    * ``ltz_date`` TIMESTAMP_LTZ -> DATE: the instant's local date (``timestampWithLocalZoneToDate``);
    * ``ltz_string`` TIMESTAMP_LTZ -> STRING: the wall clock formatted (``formatTimestamp(ts, zone, p)``);
    * ``seconds_ltz`` INT / BIGINT -> TIMESTAMP_LTZ: the wall clock of the epoch second in the zone, kept as
      the value (``Timestamp.fromLocalDateTime(toLocalDateTime(s * 1000, zone))``).

    TIMESTAMP_LTZ -> INT / BIGINT is not among them: Paimon 1.4.2 takes the instant's epoch seconds (measured
    with the JVM in Asia/Shanghai), as :mod:`.casts_temporal` does.
    """
    s, d = src.root, dst.root
    if s == _TS and d == _LTZ:
        return "to_ltz"
    if s == _LTZ and d == _TS:
        return "from_ltz"
    if s == _LTZ and d == "DATE":
        return "ltz_date"
    if s == _LTZ and d == "VARCHAR" and dst.length in (None, 2147483647) and dst.nullable:
        return "ltz_string"
    if s in ("INTEGER", "BIGINT") and d == _LTZ:
        return "seconds_ltz"
    return None


def _offset_ns(zone: ZoneInfo, seconds: int, local: bool) -> int:
    """The zone's UTC offset (ns) at epoch second ``seconds``: a wall-clock second when ``local``
    (fold 0: in an overlap the earlier offset, in a gap the offset before it, as ``LocalDateTime.atZone``),
    else an instant."""
    if local:
        offset = (_EPOCH + dt.timedelta(seconds=seconds)).replace(tzinfo=zone).utcoffset()
    else:
        offset = dt.datetime.fromtimestamp(seconds, tz=dt.timezone.utc).astimezone(zone).utcoffset()
    return 0 if offset is None else int(offset.total_seconds()) * _NS


def cast_with_zone(arr: pa.Array, kind: str, zone_name: str) -> pa.Array:
    """``arr`` (timestamps) moved between wall clock and instant in ``zone_name``, as int64 nanoseconds:
    ``"to_ltz"`` reads wall clocks as instants, any other kind instants as wall clocks; nulls kept."""
    zone = ZoneInfo(zone_name)
    ns = arr.cast(pa.timestamp("ns", tz=arr.type.tz)).cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
    mask = arr.is_null().to_numpy(zero_copy_only=False)
    seconds = np.floor_divide(ns, _NS)
    offsets: dict[int, int] = {}
    out = np.empty(len(ns), dtype=np.int64)
    for i, (v, sec) in enumerate(zip(ns.tolist(), seconds.tolist(), strict=True)):
        if mask[i]:
            out[i] = 0
            continue
        off = offsets.get(sec)
        if off is None:
            off = offsets[sec] = _offset_ns(zone, sec, local=kind == "to_ltz")
        # the offset at a wall clock must be looked up at its second, at an instant likewise
        out[i] = v - off if kind == "to_ltz" else v + off
    return pa.array(out, type=pa.int64(), mask=mask)


def _zone_casts(conv: Any) -> list[Any]:
    """The zone-dependent casts of a conversion tree (``file_evolution.Conversion``) read in a zone."""
    found = [conv] if conv.time_zone is not None and zone_cast(conv.src, conv.dst) is not None else []
    for child in conv.children:
        if child is not None:
            found.extend(_zone_casts(child))
    return found


def refuse_orc_zone_casts(conversions: Iterable[Any], path: str) -> None:
    """Refuse the zone casts of an ORC data file read in a zone other than UTC.

    Paimon's ORC reader itself converts TIMESTAMP / TIMESTAMP_LTZ values between the writer's and the JVM's
    zone (measured on Java 1.4.2: a TIMESTAMP_LTZ(6) written by a JVM in UTC reads 8 hours later in a JVM in
    Asia/Shanghai, a TIMESTAMP on New York's DST gap one hour earlier); that is not reproduced, so only UTC
    (where both readers agree) is answered for ORC files."""
    for conv in conversions:
        if conv is None:
            continue
        for cast in _zone_casts(conv):
            if cast.time_zone not in _UTC_NAMES:
                raise UnsupportedTypeError(
                    f"{cast.src} values of an older ORC data file read as {cast.dst} in time zone "
                    f"{cast.time_zone!r}: Paimon's ORC reader converts them in the JVM's zone as well; not "
                    "reproduced (time_zone='UTC' is answered)", path=path)
