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
a ``*-full`` mode carries ``"full": true``: its first batch reads snapshot ``n`` whole.  Batch 0's end offset
also carries its start (``"from"``): Spark logs only end offsets and asks a restarted query for the start again,
which for ``latest`` / ``latest-full`` depends on when it is asked.  A batch
``(start, end]`` is a pure function of the two offsets and the (immutable) snapshots between them, so a
batch Spark replays after a restart from its checkpoint reads exactly the rows it read before: none
lost, none repeated.  A snapshot of the range that has expired meanwhile is read from its long-lived changelog
(``changelog/changelog-<id>``) when the table's options, or the reader's, keep changelogs longer than snapshots
(``changelog.num-retained.*`` / ``changelog.time-retained``), as Paimon's streaming read does
(:class:`~paimon_codec.table.long_lived_changelog.StreamSnapshots`); with neither it is an error naming it.

Deltas, as Paimon's streaming scans follow them: an append table's ``APPEND`` snapshots add data files,
read whole; ``COMPACT`` snapshots rewrite rows already delivered and ``OVERWRITE`` snapshots are skipped
(Paimon's ``streaming-read-overwrite = false``; ``true`` is refused).

A primary-key table's changes are its changelog files (Paimon's ``ChangelogFollowUpScanner``): every snapshot
that names a ``changelogManifestList`` - ``APPEND`` snapshots for ``changelog-producer = input``, the
compactions' snapshots for ``lookup`` and ``full-compaction`` - adds changelog files whose rows are
``+I`` / ``-U`` / ``+U`` / ``-D`` records.  A row kind is not a column of the table, so such a stream needs
``option("read.changelog", "true")`` (Paimon's Spark connector's name): a leading ``rowkind`` STRING column
(``+I``, ``-U``, ``+U``, ``-D``, as Paimon's audit-log view spells them) - also on append tables, whose rows are
all ``+I``.  A first ``*-full`` batch of a primary-key table is its merged snapshot, all ``+I``.  One key's
changes of a batch are read in snapshot order in one Spark partition (a partition holds whole buckets).

Refused by name: primary-key tables with ``changelog-producer = none`` (their snapshots hold no changelog),
a primary-key table without ``read.changelog``, data-evolution tables, and an append table's ``APPEND``
snapshot that deletes files or rows (deletion vectors).
"""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Iterator
from typing import Any

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from ..errors import InvalidOptionError, MissingFileError, UnsupportedTypeError
from ..table.long_lived_changelog import SnapshotExpiredError, StreamSnapshots
from ..table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE
from ..table.snapshot import Snapshot
from ..table.table import PaimonTable
from .stream_start import StreamStart, scan_mode, stream_start

__all__ = ["PaimonStreamReader", "StreamStart", "stream_start", "snapshot_delta_tasks", "SnapshotExpiredError",
           "ROW_KIND_COLUMN", "read_changelog", "with_row_kind"]

log = logging.getLogger(__name__)

#: files per Spark partition of one micro-batch at most (a partition is one Python task)
_PARTITIONS = 16
#: the row kind column of ``read.changelog = true`` (Paimon's audit-log ``rowkind``)
ROW_KIND_COLUMN = "rowkind"
#: ``_VALUE_KIND`` byte -> row kind (Paimon's ``RowKind.shortString``)
_ROW_KINDS = ("+I", "-U", "+U", "-D")
_PRODUCERS = ("input", "lookup", "full-compaction")


def read_changelog(options: dict) -> bool:
    """``read.changelog = true``: rows carry their row kind in a leading ``rowkind`` column."""
    lowered = {str(k).lower(): v for k, v in options.items()}
    value = str(lowered.get("read.changelog", "false")).strip().lower()
    if value not in ("true", "false"):
        raise InvalidOptionError(f"option read.changelog = {value!r} is not a boolean", expected="true or false")
    return value == "true"


def with_row_kind(options: dict, schema: Any) -> Any:
    """``schema`` (a Spark ``StructType``) with the leading ``rowkind`` column when ``read.changelog`` is set."""
    from pyspark.sql.types import StringType, StructField, StructType

    if not read_changelog(options):
        return schema
    if ROW_KIND_COLUMN in schema.fieldNames():
        raise InvalidOptionError(f"read.changelog adds a column {ROW_KIND_COLUMN!r}; the table has one already")
    return StructType([StructField(ROW_KIND_COLUMN, StringType(), False), *schema.fields])


def check_streamable(table: PaimonTable, options: dict) -> None:
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
        if producer not in _PRODUCERS:
            raise UnsupportedTypeError(f"unsupported: changelog-producer = {producer}", path=table.path,
                                       expected=" / ".join(_PRODUCERS))
        if not read_changelog(options):
            raise InvalidOptionError("a streaming read of a primary-key table delivers its changelog (+I / -U / +U "
                                     "/ -D records): set option read.changelog = true (a leading rowkind column)",
                                     path=table.path)
    if is_data_evolution_table(schema):
        raise UnsupportedTypeError("unsupported: a streaming read of a data-evolution table", path=table.path)
    if schema.option_bool("streaming-read-overwrite"):
        raise UnsupportedTypeError("unsupported: streaming-read-overwrite = true", path=table.path)


def _load(table: PaimonTable, sid: int) -> Snapshot:
    """Snapshot ``sid`` itself (a full read: a long-lived changelog keeps no readable base)."""
    try:
        snap = table.snapshot(sid)
    except MissingFileError:
        snap = None
    if snap is None:
        ids = table.snapshot_ids()
        kept = f"{ids[0]}..{ids[-1]}" if ids else "none"
        raise SnapshotExpiredError(f"snapshot {sid} has expired while the streaming query still had to read it "
                                   f"whole (retained: {kept}); restart the query from a retained snapshot "
                                   "(scan.snapshot-id) or retain snapshots longer", path=table.path)
    return snap


def _task(table: PaimonTable, entry: Any, changelog: bool = False) -> dict:
    """A file to read whole: an append table's data file, or (``changelog``) a changelog file, read with its
    row kinds and kept in its bucket's Spark partition (``key``)."""
    from ..evolution.file_evolution import evolution_for

    schema = table.schema
    file_schema = table.schema_by_id(entry.file.schema_id)
    path = table.data_file_path(entry, file_schema)
    fmt = os.path.splitext(entry.file.file_name)[1].lstrip(".").lower()
    evolution = evolution_for(table, schema, entry.file.schema_id)
    return {"path": path, "file_format": fmt, "selection": None, "file_size": entry.file.file_size,
            "evolution": None if evolution is None else pickle.dumps(evolution), "kinds": changelog,
            "key": (bytes(entry.partition), entry.bucket) if changelog else None}


def _changelog_tasks(table: PaimonTable, snap: Snapshot) -> list[dict]:
    """The changelog files ``snap`` adds (any commit kind, as Paimon's ``ChangelogFollowUpScanner``)."""
    if not snap.changelog_manifest_list:
        return []
    return [_task(table, e, changelog=True) for meta in table.manifest_list(snap.changelog_manifest_list)
            for e in table.manifest(meta.file_name) if e.kind == FILE_KIND_ADD]


def snapshot_delta_tasks(table: PaimonTable, snap: Snapshot, previous: Snapshot | None) -> list[dict]:
    """The files snapshot ``snap`` adds for a streaming read: a primary-key table's changelog files, an append
    table's data files (none for its COMPACT / OVERWRITE / ANALYZE snapshots)."""
    if table.schema.primary_keys:
        return _changelog_tasks(table, snap)
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
    if plan.groups and not table.schema.primary_keys:
        raise UnsupportedTypeError("unsupported: a streaming read of a table read by row-id groups", path=table.path)
    tasks = [{"path": t.path, "file_format": t.file_format, "selection": t.selection_bytes(),
              "file_size": t.file_size, "evolution": None if t.evolution is None else pickle.dumps(t.evolution),
              "primary_key_file": t.primary_key_file, "kinds": False, "key": None} for t in plan.tasks]
    tasks.extend({"group": pickle.dumps(g), "kinds": False, "key": None} for g in plan.groups)  # merged buckets
    return tasks


def _split(tasks: list[dict]) -> list[list[dict]]:
    """The tasks of one micro-batch in at most :data:`_PARTITIONS` partitions; the changelog files of one bucket
    in one partition, in snapshot order (a key's ``-U`` / ``+U`` stay in order)."""
    n = min(len(tasks), _PARTITIONS)
    if n == 0:
        return []
    parts: list[list[dict]] = [[] for _ in range(n)]
    buckets: dict[Any, int] = {}
    spread = 0
    for t in tasks:
        if t["key"] is None:
            slot, spread = spread % n, spread + 1
        else:
            slot = buckets.setdefault(t["key"], len(buckets) % n)
        parts[slot].append(t)
    return [p for p in parts if p]


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
        check_streamable(table, self.options)
        scan_mode(table, self.options)  # a bad option fails the query when it starts
        self.spark_schema = schema
        self.row_kinds = read_changelog(self.options)
        self.arrow_schema_bytes = arrow_schema(table.schema.fields).serialize().to_pybytes()
        self.storage = storage_state()
        self._target: int | None = None  # the last snapshot of an availableNow query
        self._initial: dict | None = None  # initialOffset's answer, once given

    def initialOffset(self) -> dict:
        """Asked by a query without a checkpoint, and again by a restarted one that re-runs batch 0 (Spark logs
        only end offsets): marked ``initial``, so :meth:`latestOffset` writes it into batch 0's end."""
        self._initial = self._initial or {**stream_start(PaimonTable(self.path), self.options).offset(),
                                          "initial": True}
        return dict(self._initial)

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
        end: dict = {"snapshot": max(latest, int(start["snapshot"]) if start is not None else 0)}
        if start is not None and start.get("initial"):
            # batch 0's start as it was: a restart asks initialOffset again, and a latest start computed anew
            # after a commit would read that commit in batch 0 and again in batch 1
            end["from"] = {k: v for k, v in start.items() if k != "initial"}
        return end

    def partitions(self, start: dict, end: dict) -> list[InputPartition]:
        table = PaimonTable(self.path)
        start = end.get("from", start)  # batch 0: the start its end offset recorded
        first, last = int(start["snapshot"]), int(end["snapshot"])
        if last < first:  # it would deliver what the next batch delivers again
            raise UnsupportedTypeError(f"stream batch ({first}, {last}] ends before it starts", path=self.path)
        tasks: list[dict] = []
        if start.get("full") and first > 0:
            _load(table, first)
            tasks.extend(_full_tasks(table, first))
        readable = StreamSnapshots(table, self.options)  # a snapshot, else its long-lived changelog
        # the snapshot before the range: only to see whether the first one changes deletion vectors
        dv = table.schema.deletion_vectors_enabled
        previous = readable.require(first) if dv and first > 0 and last > first else None
        for sid in range(first + 1, last + 1):
            snap = readable.require(sid)
            tasks.extend(snapshot_delta_tasks(table, snap, previous))
            previous = snap
        log.info("stream %s: batch (%d, %d] reads %d files", self.path, first, last, len(tasks))
        return [SnapshotRangePartition(first, last, part) for part in _split(tasks)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyspark.sql.pandas.types import to_arrow_schema

        from ..reading.read import VALUE_KIND_COLUMN, read_file_rows, read_group_task
        from ..storage import restore_storage_state
        from .types import to_spark_micros

        restore_storage_state(self.storage)
        schema = pa.ipc.read_schema(pa.py_buffer(self.arrow_schema_bytes))
        with_kinds = schema.append(pa.field(VALUE_KIND_COLUMN, pa.int8()))
        target = to_arrow_schema(self.spark_schema, timezone="UTC")
        assert isinstance(partition, SnapshotRangePartition)  # what partitions() made
        for task in partition.tasks:
            kinds = None
            if task.get("group") is not None:
                rows = read_group_task(pickle.loads(task["group"]), schema)
            else:
                evolution = pickle.loads(task["evolution"]) if task["evolution"] is not None else None
                rows = read_file_rows(task["path"], task["file_format"], with_kinds if task["kinds"] else schema,
                                      task["selection"], task.get("primary_key_file", False), evolution,
                                      task["file_size"])
                if task["kinds"]:  # a changelog file: every record, with its kind
                    kinds = pc.take(pa.array(_ROW_KINDS), rows.column(VALUE_KIND_COLUMN).cast(pa.int32()))
                    rows = rows.drop_columns([VALUE_KIND_COLUMN])
            rows = to_spark_micros(rows)
            if self.row_kinds:
                rows = rows.add_column(0, ROW_KIND_COLUMN,
                                       kinds if kinds is not None else pa.array(["+I"] * rows.num_rows, pa.string()))
            yield from rows.select(target.names).cast(target).to_batches(max_chunksize=65536)

    def commit(self, end: dict) -> None:
        """Nothing to release: the delivered snapshots stay for Paimon's own retention to expire."""

    def stop(self) -> None:
        """Nothing to close."""

