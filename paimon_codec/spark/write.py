"""Append (or overwrite) a Spark DataFrame into a Paimon append table: Parquet + file indexes in tasks, one commit.

>>> from paimon_codec.spark import get_spark, write
>>> report = write(df, "wh/db.db/events")                 # mode="append"; "overwrite" replaces the
...                                                         # partitions written (the table if unpartitioned)

Each Spark partition is one task (``mapInArrow``): it writes its rows as Paimon data files with
:func:`paimon_codec.writing.write_data_files` - Paimon's file naming, partition paths, buckets
(bucket-unaware or fixed ``bucket-key`` buckets), value stats, and the file indexes the table's
``file-index.*`` options ask for, built in the same task from the same Arrow data - and returns the
files' metadata.  The driver commits them all as one snapshot (``commit_changes``: conflicts re-plan,
other writers' snapshots are never overwritten).  Sequence numbers of fixed-bucket files are made
contiguous per bucket on the driver, as one writer per bucket would have numbered them.  Data files of a
job that fails before its commit are left unreferenced (orphans, as Paimon leaves them).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import pickle
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InvalidOptionError, UnsupportedFeatureError
from ..modes import CommitKind, WriteMode, WriteModeLike, mode_value
from ..report import JsonReport
from .polled_job import Pair, pair_accumulator, run_polled

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame

    from ..table import PaimonTable

__all__ = ["write", "WriteReport", "check_target", "check_row_kind_column", "commit_written",
           "refuse_primary_key_mode"]

log = logging.getLogger(__name__)


@dataclass
class WriteReport(JsonReport):
    """What a write committed (``to_json`` is the CLI's ``--json`` report)."""

    table_path: str
    mode: str
    rows: int = 0
    files: int = 0
    data_bytes: int = 0
    embedded_indexes: int = 0
    index_files: int = 0
    partitions: int = 0
    snapshot_id: int | None = None
    attempts: int = 0
    seconds: float = 0.0
    file_names: list[str] = field(default_factory=list)


def _write_task(table_path: str, storage_state: Any,
                accumulator: Any) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        from .. import storage
        from ..writing import write_data_files

        if storage_state is not None:
            storage.restore_storage_state(storage_state)
        received = list(batches)
        if not received or sum(b.num_rows for b in received) == 0:
            return
        data = pa.Table.from_batches(received)
        changes = write_data_files(table_path, data)
        accumulator.add((data.num_rows, sum(c.file.file_size for c in changes)))
        yield pa.RecordBatch.from_pydict({"changes": [pickle.dumps(changes)]})
    return run


def _renumber(changes: list, table: PaimonTable) -> list:
    """Fixed-bucket files written by several tasks: sequence numbers contiguous per (partition, bucket),
    continuing after the bucket's highest, in task order."""
    if table.schema.bucket <= 0:
        return changes
    from ..table.manifest import merge_entries

    latest = table.snapshot()
    high: dict[tuple, int] = {}
    if latest is not None:
        for e in merge_entries(table.manifest_entries(latest)):
            key = (e.partition, e.bucket)
            high[key] = max(high.get(key, -1), e.file.max_sequence_number)
    out = []
    for c in changes:
        key = (c.partition, c.bucket)
        first = high.get(key, -1) + 1
        n = c.file.row_count
        high[key] = first + n - 1
        meta = dataclasses.replace(c.file, min_sequence_number=first, max_sequence_number=first + n - 1)
        out.append(dataclasses.replace(c, file=meta))
    return out


def _upsert_report(df: DataFrame, path: str, commit_user: str | None, started: float) -> WriteReport:
    """A primary-key table: the upsert of :mod:`.primary_key`, reported like an append."""
    from .primary_key import upsert

    written, commit = upsert(df, path, commit_user=commit_user)
    report = WriteReport(path, "upsert")
    if commit is not None:
        report.snapshot_id, report.attempts = commit.snapshot_id, commit.attempts
    report.rows = sum(c.file.row_count for c in written.files)
    report.files = len(written.files)
    report.data_bytes = sum(c.file.file_size for c in written.files)
    report.embedded_indexes = sum(1 for c in written.files if c.file.embedded_index is not None)
    report.index_files = sum(1 for c in written.indexes if c.kind == 0)
    report.partitions = len({c.partition for c in written.files})
    report.file_names = sorted(c.file.file_name for c in written.files)
    report.seconds = time.monotonic() - started
    return report


def refuse_primary_key_mode(mode: WriteModeLike, path: str) -> None:
    """A primary-key table is upserted into (``append``); other modes are refused by name."""
    if mode_value(WriteMode, mode, "write mode") != "append":
        raise UnsupportedFeatureError(f"write mode {mode_value(WriteMode, mode, 'write mode')!r} on a primary-key "
                                      "table is not supported (append upserts)", path=path)


def check_row_kind_column(table: PaimonTable, columns: list[str]) -> None:
    """A ``rowkind`` column (what ``read.changelog`` adds: each row's ``+I``/``-U``/``+U``/``-D``) is taken by a
    primary-key table as the rows' kinds (:func:`.staged_upsert.split_row_kinds`) - unless the table has a column
    of that name, whose data it then is; an append table has no row kinds, so it is refused by name there."""
    from .stream_read import ROW_KIND_COLUMN

    if ROW_KIND_COLUMN not in columns or ROW_KIND_COLUMN in table.schema.fields.names:
        return
    if table.schema.primary_keys:
        from .staged_upsert import split_row_kinds

        split_row_kinds(table, _empty_with(columns))  # refuses a table whose rowkind.field names the kinds too
        return
    raise UnsupportedFeatureError(f"a {ROW_KIND_COLUMN!r} column (row kinds of a changelog) written into an append "
                                  "table: only primary-key tables take row kinds", path=table.path,
                                  expected=f"a primary-key table, or the rows without {ROW_KIND_COLUMN!r}")


def _empty_with(columns: list[str]) -> pa.Table:
    import pyarrow as pa

    return pa.table({c: pa.array([], pa.string()) for c in columns})


def check_target(table: Any, columns: list[str]) -> str:
    """The table's location (a local path made absolute here, on the driver: a task resolving a relative path in
    its own working directory would write somewhere else) after refusing what the writers cannot do: options the
    append writer does not implement, primary-key tables the upsert writer does not
    (:func:`~paimon_codec.writing.primary_key.check_primary_key_table`), columns the table does not have."""
    from .. import storage
    from ..table import PaimonTable
    from ..writing import arrow_schema_for, write_data_files
    from ..writing.primary_key import check_primary_key_table
    from .stream_read import ROW_KIND_COLUMN

    path = table.path if isinstance(table, PaimonTable) else storage.normalize(os.fspath(table))
    t = PaimonTable(path)
    if t.schema.primary_keys:
        check_primary_key_table(t)
    else:
        write_data_files(path, arrow_schema_for(t.schema.fields).empty_table())  # refuses what it cannot write
    check_row_kind_column(t, columns)
    names = set(t.schema.fields.names)
    extra = [c for c in columns if c not in names and not (t.schema.primary_keys and c == ROW_KIND_COLUMN)]
    if extra:
        raise InvalidOptionError(f"columns {extra} are not in the table", path=path,
                                 expected=", ".join(t.schema.fields.names))
    return path


def commit_written(path: str, changes: list, mode: WriteModeLike, commit_user: str | None,
                   started: float) -> WriteReport:
    """Commit the files the tasks wrote as one snapshot (``mode="overwrite"``: replacing the partitions written,
    the whole table when unpartitioned) and report it."""
    from ..table import PaimonTable
    from ..writing.commit import commit_changes

    mode_name = mode_value(WriteMode, mode, "write mode")
    changes = _renumber(changes, PaimonTable(path))
    report = WriteReport(path, mode_name)
    if changes or mode_name == "overwrite":
        kind = CommitKind.OVERWRITE if mode_name == "overwrite" else CommitKind.APPEND
        commit = commit_changes(path, changes, kind=kind, commit_user=commit_user)
        report.snapshot_id, report.attempts = commit.snapshot_id, commit.attempts
    report.rows = sum(c.file.row_count for c in changes)
    report.files = len(changes)
    report.data_bytes = sum(c.file.file_size for c in changes)
    report.embedded_indexes = sum(1 for c in changes if c.file.embedded_index is not None)
    report.index_files = sum(1 for c in changes if any(x.endswith(".index") for x in c.file.extra_files))
    report.partitions = len({c.partition for c in changes})
    report.file_names = sorted(c.file.file_name for c in changes)
    report.seconds = time.monotonic() - started
    log.info("write: committed %d files, %d rows as snapshot %s in %.1f s", report.files, report.rows,
             report.snapshot_id, report.seconds)
    return report


def write(df: DataFrame, table: str | os.PathLike[str] | PaimonTable, mode: WriteModeLike = WriteMode.APPEND, *,
          commit_user: str | None = None, poll_s: float = 2.0) -> WriteReport:
    """Write ``df`` into the table at ``table`` (path / URI / ``PaimonTable``) and commit once.

    A primary-key table is upserted into (:mod:`.primary_key`: level-0 files, fixed or dynamic buckets).

    ``mode="overwrite"`` replaces the partitions the DataFrame writes to (the whole table when it is not
    partitioned), as Spark's dynamic partition overwrite does.  Columns are matched by name; the table's
    schema decides the types.  A relative path is resolved here, in the driver's working directory."""
    from .. import storage
    from ..table import PaimonTable
    from .connect_mode import is_spark_connect

    mode_value(WriteMode, mode, "write mode")  # a mode that is none is refused here, by name
    started = time.monotonic()
    path = table.path if isinstance(table, PaimonTable) else storage.normalize(os.fspath(table))
    if is_spark_connect(df.sparkSession):
        raise UnsupportedFeatureError("unsupported: write() over Spark Connect (its job polls a SparkContext "
                                      "accumulator); use the sink: df.write.format('paimon_codec').save(path)",
                                      path=path)
    if PaimonTable(path).schema.primary_keys:
        refuse_primary_key_mode(mode, path)
        return _upsert_report(df, path, commit_user, started)
    path = check_target(path, list(df.columns))

    sc = df.sparkSession.sparkContext
    acc = pair_accumulator(sc)
    tasks = df.rdd.getNumPartitions()

    def collect() -> list:
        return df.mapInArrow(_write_task(path, storage.storage_state(), acc), "changes binary").collect()

    def log_progress(seen: Pair, now: Pair) -> None:
        elapsed = max(time.monotonic() - started, 1e-9)
        log.info("write: %d rows, %.1f MB written (%.1f MB/s) by %d tasks", now[0], now[1] / 1e6,
                 now[1] / 1e6 / elapsed, tasks)

    rows, _ = run_polled(sc, collect, acc, log_progress, poll_s=poll_s, thread_name="paimon-codec-write-job")
    changes = [c for r in rows for c in pickle.loads(r["changes"])]
    return commit_written(path, changes, mode, commit_user, started)
