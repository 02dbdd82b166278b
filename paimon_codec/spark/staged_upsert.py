"""The ``paimon_codec`` sinks' upsert into a primary-key table: tasks stage rows, the driver writes and commits.

``df.write.format("paimon_codec")`` and ``df.writeStream.format("paimon_codec")`` cannot repartition their
input the way :func:`paimon_codec.spark.write` does (:mod:`.primary_key`: one task per table partition): each
task of a sink gets whatever rows Spark hands it.  So two tasks may hold records of the same bucket, and of
the same key.  Writing level-0 files in the tasks would need, per bucket, sequence numbers that no other task
uses and that order a key's records the same way for every reader; and for dynamic buckets (``bucket =
-1``) one assigner per partition - two tasks assigning new keys each write their own HASH index, and a key may
land in two buckets.  Neither can be repaired after the fact: a primary-key file carries its sequence numbers
in its ``_SEQUENCE_NUMBER`` column (the append sink renumbers file metadata only, :func:`.write._renumber`),
and disjoint per-task ranges (task ``i`` numbering from ``base + i * stride``) grow a bucket's sequence
numbers by ``tasks * stride`` per write, which bounds how many writes a table can take before a Java long
overflows - and still leaves dynamic buckets unsolved.

So the sinks stage and the driver writes (the option that is exact for every table kind the writer supports):

* each task (:func:`stage_rows`) casts its rows to the table's types, splits them by table partition and
  writes each part (with its rows' kinds when the input has the ``rowkind`` column, :func:`split_row_kinds`,
  in a ``_VALUE_KIND`` column) as one Arrow IPC file ``paimon-codec-staged-<uuid>.arrow`` in the table's ``index/``
  directory; its commit message (:class:`StagedRows`) names the files, with the task's partition id;
* the driver's ``commit`` (:func:`commit_staged`) reads the staged files partition by partition (memory: one
  table partition at a time), in task order, and runs :func:`paimon_codec.writing.write_primary_key_files`
  over each - the one writer :func:`paimon_codec.spark.write` and :func:`paimon_codec.writing.upsert_arrow`
  use: level-0 files numbered after each bucket's highest sequence number, HASH index files for dynamic
  buckets - then commits everything as one APPEND snapshot, checked against concurrent writers to the same
  buckets (a conflict re-runs the write on the newer snapshot,
  :func:`paimon_codec.writing.commit.replan.replan_on_conflict`);
* the staged files are deleted once the commit is done or failed, and by ``abort``.  A task or driver that
  dies leaves them unreferenced in ``index/``, a directory Paimon's orphan clean lists: they are orphans,
  removed by ``remove_orphan_files`` (Java's or ours) like a failed writer's data files.

Rows of one key within one write: the records are written in the order of the DataFrame's partitions, each
partition's rows in the order the task received them, so a plain ``deduplicate`` table keeps the key's last
row of the highest-numbered input partition, and every other merge engine merges the records in that order -
the files are those of one writer, which Paimon Java and this library read alike.
"""

from __future__ import annotations

import logging
import pickle
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import WriterCommitMessage

from .. import storage
from ..errors import UnsupportedFeatureError

__all__ = ["StagedRows", "stage_rows", "commit_staged", "discard_staged", "split_row_kinds", "STAGED_PREFIX",
           "STAGED_KIND_COLUMN"]

log = logging.getLogger(__name__)

#: Name prefix of a staged file in the table's ``index/`` directory.
STAGED_PREFIX = "paimon-codec-staged-"
#: The column of a staged file holding its rows' kinds (Paimon's byte values: 0 ``+I`` ... 3 ``-D``); a name
#: Paimon reserves (its ``_VALUE_KIND`` system field), so no table column has it.
STAGED_KIND_COLUMN = "_VALUE_KIND"


@dataclass
class StagedRows(WriterCommitMessage):
    """A task's commit message: its partition id and its pickled ``[(serialized partition, file, rows)]``."""

    task: int
    files: bytes

    def parts(self) -> list[tuple[bytes, str, int]]:
        return list(pickle.loads(self.files))


def _task_id() -> int:
    from pyspark import TaskContext

    context = TaskContext.get()
    return context.partitionId() if context is not None else 0


def stage_rows(table_path: str, batches: Iterator[Any]) -> StagedRows:
    """In a task: the rows of ``batches`` (Arrow record batches) as staged files, one per table partition."""
    import pyarrow as pa

    from ..table import PaimonTable
    from ..writing.primary_key import rows_by_partition

    received = [b for b in batches if b.num_rows]
    parts: list[tuple[bytes, str, int]] = []
    if received:
        table = PaimonTable(table_path)
        directory = storage.join(table.path, "index")
        storage.makedirs(directory)
        data, kinds = split_row_kinds(table, pa.Table.from_batches(received))
        for part, rows, codes in rows_by_partition(table, data, kinds):
            if codes is not None:  # the kinds travel with their rows, in order
                rows = rows.append_column(STAGED_KIND_COLUMN, pa.array(codes, pa.int8()))
            sink = pa.BufferOutputStream()
            with pa.ipc.new_file(sink, rows.schema) as out:
                out.write_table(rows)
            path = storage.join(directory, f"{STAGED_PREFIX}{uuid.uuid4()}.arrow")
            storage.write_atomic(path, sink.getvalue().to_pybytes())
            parts.append((part, path, rows.num_rows))
    return StagedRows(_task_id(), pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL))


def split_row_kinds(table: Any, data: Any) -> tuple[Any, Any]:
    """``data`` without its ``rowkind`` column (:data:`~.stream_read.ROW_KIND_COLUMN`, what ``read.changelog``
    adds) and that column's kinds as int8 codes (``None``: no such column, every row ``+I`` - or, with Paimon's
    ``rowkind.field``, the writer reads each kind from that table column; both is ambiguous and refused).  A table
    with a column of that name keeps it as data."""
    from ..writing.primary_key import row_kind_codes
    from .stream_read import ROW_KIND_COLUMN

    if ROW_KIND_COLUMN not in data.column_names or ROW_KIND_COLUMN in table.schema.fields.names:
        return data, None
    field = table.schema.options.get("rowkind.field")
    if field:
        raise UnsupportedFeatureError(f"both a {ROW_KIND_COLUMN!r} column and the table's rowkind.field = {field} "
                                      "name the rows' kinds", path=table.path,
                                      expected=f"the kinds in {field!r} only, without {ROW_KIND_COLUMN!r}")
    kinds = row_kind_codes(data.column(ROW_KIND_COLUMN).to_pylist(), data.num_rows, table.path)
    return data.drop_columns([ROW_KIND_COLUMN]), kinds


def _staged(messages: Sequence[WriterCommitMessage | None]) -> list[tuple[bytes, str, int]]:
    """Every staged file of the reporting tasks, in task order (each task's files in its order)."""
    ordered = sorted((m for m in messages if isinstance(m, StagedRows)), key=lambda m: m.task)
    return [p for m in ordered for p in m.parts()]


def discard_staged(messages: Sequence[WriterCommitMessage | None]) -> int:
    """Delete the staged files the messages name; returns how many were deleted."""
    from ..writing.discard import discard_files

    return discard_files(path for _part, path, _rows in _staged(messages))


def _read_staged(path: str) -> Any:
    import pyarrow as pa

    return pa.ipc.open_file(pa.py_buffer(storage.read_bytes(path))).read_all()


def _with_kinds(parts: list[Any]) -> tuple[Any, Any]:
    """Staged tables (in task order) as one table and its row kind codes (``None``: every row ``+I``)."""
    import numpy as np
    import pyarrow as pa

    if not any(STAGED_KIND_COLUMN in t.column_names for t in parts):
        return pa.concat_tables(parts), None
    kinds = np.concatenate([t.column(STAGED_KIND_COLUMN).to_numpy() if STAGED_KIND_COLUMN in t.column_names
                            else np.zeros(t.num_rows, np.int8) for t in parts]).astype(np.int8)
    data = pa.concat_tables([t.drop_columns([STAGED_KIND_COLUMN]) if STAGED_KIND_COLUMN in t.column_names else t
                             for t in parts])
    return data, kinds


def commit_staged(table_path: str, messages: Sequence[WriterCommitMessage | None], *,
                  commit_user: str | None = None, commit_identifier: int | None = None,
                  conflict_retries: int = 5) -> Any:
    """On the driver: write the staged rows into the primary-key table and commit them as one snapshot (with
    ``commit_identifier`` when given); the staged files are deleted either way.  Returns the
    :class:`~paimon_codec.writing.commit.CommitResult`, ``None`` when there were no rows."""
    from ..table import PaimonTable
    from ..writing.commit import commit_changes
    from ..writing.commit.replan import replan_on_conflict
    from ..writing.commit.snapshot_json import BATCH_COMMIT_IDENTIFIER
    from ..writing.primary_key import PrimaryKeyWrite, write_primary_key_files

    staged = _staged(messages)
    by_partition: dict[bytes, list[str]] = {}
    for part, path, _rows in staged:
        by_partition.setdefault(part, []).append(path)
    identifier = BATCH_COMMIT_IDENTIFIER if commit_identifier is None else commit_identifier
    user = commit_user or str(uuid.uuid4())  # postpone-bucket files carry it in their names

    def attempt(n: int) -> Any:
        writes: list[PrimaryKeyWrite] = []
        try:
            for paths in by_partition.values():
                data, kinds = _with_kinds([_read_staged(p) for p in paths])
                writes.append(write_primary_key_files(table_path, data, row_kinds=kinds, commit_user=user))
            written = PrimaryKeyWrite.merge(writes)
            if not written.files:
                return None
            result = commit_changes(table_path, written.changes(), commit_user=user,
                                    commit_identifier=identifier, precondition=written.precondition())
        except BaseException:  # a conflict too: the next attempt writes its own files
            table = PaimonTable(table_path)
            for w in writes:
                w.discard(table)
            raise
        log.info("upsert into %s: %d staged files, %d rows committed as snapshot %s (%d level-0 files, "
                 "attempt %d)", table_path, len(staged), sum(r for _p, _f, r in staged), result.snapshot_id,
                 len(written.files), n)
        return result

    try:
        return replan_on_conflict(attempt, retries=conflict_retries, what="upsert", path=table_path) \
            if staged else None
    finally:
        discard_staged(messages)
