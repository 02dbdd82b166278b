"""The options of the ``paimon_codec`` data source: which table, which snapshot, which store.

A table is named by a path / URI (``load("s3://wh/db.db/t")`` or ``option("path", ...)``) or by a
catalog name with a warehouse (``option("warehouse", "s3://wh").load("db.t")``, the filesystem catalog
:class:`paimon_codec.catalog.FileSystemCatalog`).  A read chooses its snapshot with at most one of
``snapshot-id`` / ``tag`` / ``as-of`` (epoch millis, or a date-time text read as UTC when it names no
zone; Paimon's own names ``scan.snapshot-id``, ``scan.tag-name``, ``scan.timestamp-millis`` work too),
and a branch with ``branch``.  ``storage.<key>`` options are the store's (endpoint, keys, region, ...:
:mod:`paimon_codec.storage`).  Relative local paths resolve on the driver.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import InvalidOptionError

__all__ = ["SourceOptions", "parse_source_options"]

_SNAPSHOT_KEYS = ("snapshot-id", "scan.snapshot-id")
_TAG_KEYS = ("tag", "scan.tag-name")
_AS_OF_KEYS = ("as-of", "scan.timestamp-millis", "timestamp-ms")


@dataclass(frozen=True)
class SourceOptions:
    """What a read or write of the source addresses."""

    path: str
    branch: str | None = None
    snapshot_id: int | None = None
    tag: str | None = None
    timestamp_ms: int | None = None
    columns: tuple[str, ...] | None = None
    use_indexes: bool = True
    pushdown: bool = False
    split_bytes: int = 128 * 1024 * 1024
    #: partitions a read is spread over at least (when it has that many tasks); None: one wave of the session's
    #: parallelism as :func:`~.source.register` captured it (else the cores of the machine planning it)
    min_partitions: int | None = None
    time_zone: str | None = None  # option "time-zone": the zone of TIMESTAMP <-> TIMESTAMP_LTZ evolution casts
    #: a plan selecting at most this many rows (in row groups of at most ``routes.DRIVER_READ_BYTES``) is read
    #: while planning, as ``scan()`` reads it on the driver (option ``source.driver-read-rows``; 0: never;
    #: None: ``routes.DRIVER_READ_ROWS``, scan's bound)
    driver_read_rows: int | None = None
    #: options ``order-by`` (``"amount DESC"``, ``"a, b DESC"``) and ``limit``: the DataFrame is the first
    #: ``limit`` rows of the table in that order (:meth:`~.source.PaimonCodecReader.partitions`), both or neither
    order_by: tuple[str, ...] | None = None
    limit: int | None = None

    @property
    def time_travel(self) -> bool:
        return self.snapshot_id is not None or self.tag is not None or self.timestamp_ms is not None


def _first(options: Mapping[str, str], keys: tuple[str, ...]) -> str | None:
    found = [(k, options[k]) for k in keys if options.get(k) not in (None, "")]
    if len(found) > 1:
        raise InvalidOptionError(f"options {', '.join(k for k, _ in found)} name the same thing; give one")
    return found[0][1] if found else None


def _as_of(text: str) -> int:
    """Epoch millis of ``as-of``: an integer, or an ISO date-time (UTC unless it names a zone)."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        when = _dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise InvalidOptionError(f"as-of {text!r} is neither epoch millis nor a date-time",
                                 expected="1700000000000 or 2024-01-31 12:00:00") from exc
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return int(when.timestamp() * 1000)


def _bool(options: Mapping[str, str], key: str, default: bool) -> bool:
    value = options.get(key)
    if value is None:
        return default
    if str(value).lower() not in ("true", "false"):
        raise InvalidOptionError(f"option {key} must be true or false, got {value!r}")
    return str(value).lower() == "true"


def _int(options: Mapping[str, str], key: str, default: int) -> int:
    value = options.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise InvalidOptionError(f"option {key} must be an integer, got {value!r}") from exc


def table_path(options: Mapping[str, str]) -> str:
    """The table's location: ``path`` as given, or ``<warehouse>/<db>.db/<table>`` for ``db.table`` with a
    ``warehouse`` option; local paths made absolute here (the driver's working directory)."""
    from .. import storage
    from ..catalog import FileSystemCatalog

    name = options.get("path") or options.get("table")
    warehouse = options.get("warehouse")
    if not name:
        raise InvalidOptionError("paimon_codec needs a table: load(PATH), or option('warehouse', WH).load('db.table')")
    if warehouse:
        return FileSystemCatalog(warehouse).table_path(name)
    return storage.normalize(name)


def parse_source_options(options: Mapping[str, str]) -> SourceOptions:
    """The source's options (case-insensitive keys, as Spark hands them over)."""
    opts = {str(k).lower(): v for k, v in options.items()}
    snapshot = _first(opts, _SNAPSHOT_KEYS)
    as_of = _first(opts, _AS_OF_KEYS)
    columns = opts.get("columns")
    split = opts.get("source.split.target-size")
    if split is not None:
        from ..memory_size import parse_memory_size

        split_bytes = parse_memory_size(split)
    else:
        split_bytes = SourceOptions.split_bytes
    try:
        snapshot_id = None if snapshot is None else int(snapshot)
    except ValueError as exc:
        raise InvalidOptionError(f"snapshot-id {snapshot!r} is not an integer") from exc
    min_partitions = None if opts.get("source.min-partitions") is None else _int(opts, "source.min-partitions", 1)
    order_by = opts.get("order-by") or None
    limit = None if opts.get("limit") in (None, "") else _int(opts, "limit", 0)
    if (order_by is None) != (limit is None) or (limit is not None and limit < 0):
        raise InvalidOptionError("options order-by and limit go together (the first LIMIT rows in that order), "
                                 f"limit a non-negative integer; got order-by={order_by!r}, limit={opts.get('limit')!r}")
    return SourceOptions(
        path=table_path(opts), branch=opts.get("branch") or None, snapshot_id=snapshot_id,
        tag=_first(opts, _TAG_KEYS), timestamp_ms=None if as_of is None else _as_of(as_of),
        columns=None if not columns else tuple(c.strip() for c in columns.split(",") if c.strip()),
        use_indexes=_bool(opts, "use-indexes", True), pushdown=_bool(opts, "pushdown", False), split_bytes=max(1, split_bytes),
        min_partitions=None if min_partitions is None else max(1, min_partitions), time_zone=opts.get("time-zone") or None,
        driver_read_rows=None if opts.get("source.driver-read-rows") is None
        else max(0, _int(opts, "source.driver-read-rows", 0)),
        order_by=None if order_by is None else tuple(k.strip() for k in order_by.split(",") if k.strip()),
        limit=limit)


def storage_overrides(options: Mapping[str, str]) -> dict[str, str]:
    """``storage.<key>`` options, without the prefix."""
    return {str(k)[len("storage."):]: v for k, v in options.items() if str(k).lower().startswith("storage.")}
