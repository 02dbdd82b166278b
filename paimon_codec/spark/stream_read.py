"""Reading a Paimon table incrementally with Spark Structured Streaming: offsets are snapshot ids.

A :class:`PaimonStreamReader` (PySpark's ``DataSourceStreamReader``, returned by the ``paimon_codec``
data source's ``streamReader``) starts where Paimon's ``scan.mode`` says, with Paimon's option names:

* ``latest-full`` (the default; also ``full``): every row of the latest snapshot in the first batch, then
  each new snapshot's delta;
* ``latest``: only snapshots committed after the query started;
* ``from-snapshot`` (implied by ``scan.snapshot-id``): the deltas of that snapshot and the ones after it;
* ``from-snapshot-full``: every row of ``scan.snapshot-id``, then the deltas after it;
* ``from-timestamp`` (implied by ``scan.timestamp-millis``): the deltas of the snapshots committed at or
  after that time (Paimon starts after the latest snapshot earlier than it).

An offset is ``{"snapshot": n}``: every row up to snapshot ``n`` has been delivered.  The start offset of
a ``*-full`` mode carries ``"full": true``: its first batch reads snapshot ``n`` whole.  A batch
``(start, end]`` is a pure function of the two offsets and the (immutable) snapshots between them, so a
batch Spark replays after a restart from its checkpoint reads exactly the rows it read before: none
lost, none repeated.  A snapshot of the range that has expired meanwhile is an error naming it.

Deltas, as Paimon's streaming scans follow them: an append table's ``APPEND`` snapshots add data files,
read whole; ``COMPACT`` snapshots rewrite rows already delivered and ``OVERWRITE`` snapshots are skipped
(Paimon's ``streaming-read-overwrite = false``; ``true`` is refused).  Refused by name: primary-key tables
(their changes are changelog files only when ``changelog-producer`` writes them; reading those is not
implemented), data-evolution tables, and an ``APPEND`` snapshot that deletes files or rows (deletion vectors).
"""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from ..errors import InvalidOptionError, MissingFileError, UnsupportedTypeError
from ..table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE
from ..table.snapshot import Snapshot
from ..table.table import PaimonTable

__all__ = ["PaimonStreamReader", "StreamStart", "stream_start", "snapshot_delta_tasks", "SnapshotExpiredError"]

log = logging.getLogger(__name__)

_MODES = ("latest-full", "full", "latest", "from-snapshot", "from-snapshot-full", "from-timestamp", "default")
#: files per Spark partition of one micro-batch at most (a partition is one Python task)
_PARTITIONS = 16


class SnapshotExpiredError(MissingFileError):
    """A snapshot a streaming query still has to read was expired (deleted) by the table's retention."""


@dataclass(frozen=True)
class StreamStart:
    """Where a stream starts: ``snapshot`` delivered already (``full``: snapshot ``snapshot`` is read whole
    by the first batch)."""

    snapshot: int
    full: bool

    def offset(self) -> dict:
        return {"snapshot": self.snapshot, "full": True} if self.full else {"snapshot": self.snapshot}


def _option(options: dict, table: PaimonTable, key: str) -> str | None:
    """A reader option, else the table's own option (Paimon reads ``scan.*`` from both; the reader's wins)."""
    lowered = {str(k).lower(): v for k, v in options.items()}
    if key in lowered:
        return str(lowered[key])
    value = table.schema.options.get(key)
    return None if value is None else str(value)


def _int_option(options: dict, table: PaimonTable, key: str) -> int | None:
    value = _option(options, table, key)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidOptionError(f"option {key} = {value!r} is not an integer", path=table.path) from None


def scan_mode(table: PaimonTable, options: dict) -> str:
    """Paimon's ``scan.mode`` of a streaming read (``default`` resolved by the options that are set)."""
    snapshot_id = _int_option(options, table, "scan.snapshot-id")
    timestamp = _int_option(options, table, "scan.timestamp-millis")
    mode = (_option(options, table, "scan.mode") or "default").strip().lower()
    if mode not in _MODES:
        raise InvalidOptionError(f"scan.mode {mode!r} is not supported by a streaming read", path=table.path,
                                 expected=", ".join(m for m in _MODES if m != "default"))
    if mode == "default":
        mode = "from-snapshot" if snapshot_id is not None else "from-timestamp" if timestamp is not None \
            else "latest-full"
    return mode


def stream_start(table: PaimonTable, options: dict) -> StreamStart:
    """The start offset of a new query on ``table``: Paimon's ``scan.mode`` and its companions."""
    mode = scan_mode(table, options)
    snapshot_id = _int_option(options, table, "scan.snapshot-id")
    timestamp = _int_option(options, table, "scan.timestamp-millis")
    ids = table.snapshot_ids()
    latest = ids[-1] if ids else 0
    if mode in ("latest-full", "full"):
        return StreamStart(latest, full=latest > 0)
    if mode == "latest":
        return StreamStart(latest, full=False)
    if mode in ("from-snapshot", "from-snapshot-full"):
        if snapshot_id is None:
            raise InvalidOptionError(f"scan.mode {mode} needs scan.snapshot-id", path=table.path)
        if ids and snapshot_id < ids[0]:
            raise SnapshotExpiredError(f"scan.snapshot-id {snapshot_id} has expired", path=table.path,
                                       expected=f"a retained snapshot ({ids[0]}..{latest})")
        if mode == "from-snapshot-full":
            if snapshot_id not in ids:
                raise InvalidOptionError(f"scan.snapshot-id {snapshot_id} does not exist", path=table.path,
                                         expected=f"a retained snapshot ({ids[0] if ids else 0}..{latest})")
            return StreamStart(snapshot_id, full=True)
        return StreamStart(snapshot_id - 1, full=False)
    if timestamp is None:
        raise InvalidOptionError("scan.mode from-timestamp needs scan.timestamp-millis", path=table.path)
    start = ids[0] - 1 if ids else 0  # nothing earlier: from the earliest retained snapshot
    for sid in ids:
        t = table.snapshot(sid)
        if t is not None and t.time_millis is not None and t.time_millis < timestamp:
            start = sid
    return StreamStart(start, full=False)


def check_streamable(table: PaimonTable) -> None:
    """Refuse, by name, the tables whose changes this reader cannot follow."""
    from ..planning.data_evolution import is_data_evolution_table
    from ..planning.read_options import check_read_options

    schema = table.schema
    check_read_options(schema, schema.options, table.meta_path)
    if schema.primary_keys:
        producer = schema.options.get("changelog-producer", "none").strip().lower()
        if producer == "none":
            raise UnsupportedTypeError("unsupported: a streaming read of a primary-key table with "
                                       "changelog-producer = none (its snapshots hold no changelog)", path=table.path,
                                       expected="an append table, or changelog-producer = input / lookup / "
                                                "full-compaction")
        raise UnsupportedTypeError(f"unsupported: a streaming read of a primary-key table's changelog files "
                                   f"(changelog-producer = {producer})", path=table.path,
                                   expected="an append table")
    if is_data_evolution_table(schema):
        raise UnsupportedTypeError("unsupported: a streaming read of a data-evolution table", path=table.path)
    if schema.option_bool("streaming-read-overwrite"):
        raise UnsupportedTypeError("unsupported: streaming-read-overwrite = true", path=table.path)


def _load(table: PaimonTable, sid: int) -> Snapshot:
    try:
        snap = table.snapshot(sid)
    except MissingFileError:
        snap = None
    if snap is None:
        ids = table.snapshot_ids()
        kept = f"{ids[0]}..{ids[-1]}" if ids else "none"
        raise SnapshotExpiredError(f"snapshot {sid} has expired while the streaming query still had to read it "
                                   f"(retained: {kept}); restart the query from a retained snapshot "
                                   "(scan.snapshot-id) or retain snapshots longer", path=table.path)
    return snap


def _task(table: PaimonTable, entry: Any) -> dict:
    from ..evolution.file_evolution import evolution_for

    schema = table.schema
    file_schema = table.schema_by_id(entry.file.schema_id)
    path = table.data_file_path(entry, file_schema)
    fmt = os.path.splitext(entry.file.file_name)[1].lstrip(".").lower()
    evolution = evolution_for(table, schema, entry.file.schema_id)
    return {"path": path, "file_format": fmt, "selection": None, "file_size": entry.file.file_size,
            "evolution": None if evolution is None else pickle.dumps(evolution)}


def snapshot_delta_tasks(table: PaimonTable, snap: Snapshot, previous: Snapshot | None) -> list[dict]:
    """The files an append table's snapshot ``snap`` adds for a streaming read (none for COMPACT / OVERWRITE /
    ANALYZE snapshots)."""
    if snap.commit_kind != "APPEND":
        return []
    if (table.schema.deletion_vectors_enabled and previous is not None
            and snap.index_manifest != previous.index_manifest):
        raise UnsupportedTypeError(f"unsupported: APPEND snapshot {snap.id} changes deletion vectors (rows deleted "
                                   "from files a streaming read has delivered)", path=table.path)
    tasks = []
    for meta in table.manifest_list(snap.delta_manifest_list):
        for e in table.manifest(meta.file_name):
            if e.kind == FILE_KIND_DELETE:
                raise UnsupportedTypeError(f"unsupported: APPEND snapshot {snap.id} deletes data file "
                                           f"{e.file.file_name} (rows a streaming read has delivered)",
                                           path=table.path)
            if e.kind == FILE_KIND_ADD:
                tasks.append(_task(table, e))
    return tasks


def _full_tasks(table: PaimonTable, sid: int) -> list[dict]:
    from ..planning.plan import plan_scan

    plan = plan_scan(table, snapshot_id=sid)
    if plan.groups:
        raise UnsupportedTypeError("unsupported: a streaming read of a table read by row-id groups", path=table.path)
    return [{"path": t.path, "file_format": t.file_format, "selection": t.selection_bytes(),
             "file_size": t.file_size, "evolution": None if t.evolution is None else pickle.dumps(t.evolution)}
            for t in plan.tasks]


class SnapshotRangePartition(InputPartition):
    """Some of the files of one micro-batch (snapshots ``first..last``), read in one Python task."""

    def __init__(self, first: int, last: int, tasks: list[dict]) -> None:
        super().__init__((first, last, len(tasks)))
        self.tasks = tasks


class PaimonStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """``spark.readStream.format("paimon_codec")`` for the table at ``path`` (see the module docstring).

    Built on the driver; Spark pickles it to the Python workers that run :meth:`read`, with the driver's
    storage options (:func:`paimon_codec.storage.storage_state`)."""

    def __init__(self, path: str, options: dict, schema: Any) -> None:
        from ..reading.read import arrow_schema
        from ..storage import storage_state

        self.path = path
        self.options = dict(options)
        table = PaimonTable(path)
        check_streamable(table)
        scan_mode(table, self.options)  # a bad option fails the query when it starts
        self.spark_schema = schema
        self.arrow_schema_bytes = arrow_schema(table.schema.fields).serialize().to_pybytes()
        self.storage = storage_state()
        self._target: int | None = None  # the last snapshot of an availableNow query

    def initialOffset(self) -> dict:
        """Asked only by a query without a checkpoint (a restarted one continues from its offsets, even when
        its ``scan.snapshot-id`` has expired since)."""
        return stream_start(PaimonTable(self.path), self.options).offset()

    def _latest(self) -> int:
        ids = PaimonTable(self.path).snapshot_ids()
        latest = ids[-1] if ids else 0
        return latest if self._target is None else min(latest, self._target)

    def prepareForTriggerAvailableNow(self) -> None:
        """``trigger(availableNow=True)``: read up to the snapshot that is the latest now, then stop."""
        self._target = None
        self._target = self._latest()

    def reportLatestOffset(self) -> dict:
        return {"snapshot": self._latest()}

    def latestOffset(self, start: dict | None = None, limit: Any = None) -> dict:
        latest = self._latest()
        if start is not None and latest <= int(start["snapshot"]) and not start.get("full"):
            return start
        return {"snapshot": max(latest, int(start["snapshot"]) if start is not None else 0)}

    def partitions(self, start: dict, end: dict) -> list[InputPartition]:
        table = PaimonTable(self.path)
        first, last = int(start["snapshot"]), int(end["snapshot"])
        tasks: list[dict] = []
        if start.get("full") and first > 0:
            _load(table, first)
            tasks.extend(_full_tasks(table, first))
        # the snapshot before the range: only to see whether the first one changes deletion vectors
        dv = table.schema.deletion_vectors_enabled
        previous = _load(table, first) if dv and first > 0 and last > first else None
        for sid in range(first + 1, last + 1):
            snap = _load(table, sid)
            tasks.extend(snapshot_delta_tasks(table, snap, previous))
            previous = snap
        log.info("stream %s: batch (%d, %d] reads %d files", self.path, first, last, len(tasks))
        n = min(len(tasks), _PARTITIONS)
        return [SnapshotRangePartition(first, last, tasks[i::n]) for i in range(n)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        from ..reading.read import read_file_rows
        from ..storage import restore_storage_state
        from .types import to_spark_micros

        restore_storage_state(self.storage)
        schema = pa.ipc.read_schema(pa.py_buffer(self.arrow_schema_bytes))
        target = to_arrow_schema(self.spark_schema, timezone="UTC")
        assert isinstance(partition, SnapshotRangePartition)  # what partitions() made
        for task in partition.tasks:
            evolution = pickle.loads(task["evolution"]) if task["evolution"] is not None else None
            rows = to_spark_micros(read_file_rows(task["path"], task["file_format"], schema, task["selection"],
                                                  False, evolution, task["file_size"]))
            yield from rows.select(target.names).cast(target).to_batches(max_chunksize=65536)

    def commit(self, end: dict) -> None:
        """Nothing to release: the delivered snapshots stay for Paimon's own retention to expire."""

    def stop(self) -> None:
        """Nothing to close."""

