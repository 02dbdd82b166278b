"""Writing a Spark Structured Streaming query into a Paimon table, each micro-batch committed once.

A :class:`PaimonStreamWriter` (PySpark's ``DataSourceStreamArrowWriter``, returned by the ``paimon_codec``
data source's ``streamWriter``) writes each task's rows as Paimon data files (with the file indexes the
table asks for, as :func:`paimon_codec.spark.write` does) and commits a micro-batch as one snapshot on the
driver, with Paimon's own commit identity: ``commitUser`` (one per query) and ``commitIdentifier`` (the
micro-batch id).

Exactly once across restarts, as Paimon's streaming committers recover (``FileStoreCommit.filterCommitted``):
before committing batch ``b`` the writer looks up the latest snapshot its commit user made; when that
snapshot's identifier is ``>= b`` the batch was committed before the query died and Spark, which had not
yet recorded it in the checkpoint, replays it - the replay is recognised and not committed again (its data
files stay unreferenced, orphans as Paimon leaves them).  For that the commit user must be the same after a
restart: it is ``option("commit-user", ...)`` when given, else derived from the query's
``checkpointLocation`` (and the table), which a restarted query shares.  A query without either gets a
random user and is exactly-once only while it runs.

A primary-key table is upserted into: the batch's tasks stage their rows and the driver writes and commits
them (:mod:`.staged_upsert`: why, and which record of a key repeated within a batch wins; a ``rowkind`` column,
as ``read.changelog`` streams a changelog, gives the rows' kinds, so ``-D`` deletes), with the same commit
identity and the same replay check; a replayed batch's staged rows are deleted, not written.  Refused by
name: the ``complete`` output mode (an overwrite per batch) and the primary-key tables the upsert writer
refuses (:func:`~paimon_codec.writing.primary_key.check_primary_key_table`).
"""

from __future__ import annotations

import logging
import pickle
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import DataSourceStreamArrowWriter, WriterCommitMessage

from ..errors import InvalidOptionError

__all__ = ["PaimonStreamWriter", "StreamCommitMessage", "stream_commit_user", "committed_identifier"]

log = logging.getLogger(__name__)


@dataclass
class StreamCommitMessage(WriterCommitMessage):
    """What one task wrote: its pickled :class:`~paimon_codec.writing.commit.FileChange` list."""

    changes: bytes
    rows: int


def stream_commit_user(path: str, options: dict) -> str:
    """The query's commit user: ``commit-user``, else a name derived from ``checkpointLocation`` + table."""
    lowered = {str(k).lower(): str(v) for k, v in options.items()}
    if lowered.get("commit-user"):
        return lowered["commit-user"]
    checkpoint = lowered.get("checkpointlocation")
    if checkpoint:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"paimon_codec-stream:{checkpoint.rstrip('/')}:{path}"))
    log.warning("streaming write to %s without checkpointLocation or commit-user: batches are committed once "
                "only while this query runs", path)
    return str(uuid.uuid4())


def committed_identifier(path: str, user: str) -> int | None:
    """The ``commitIdentifier`` of the latest snapshot ``user`` committed to the table at ``path`` (Paimon's
    ``SnapshotManager.latestSnapshotOfUser``), ``None`` when no retained snapshot is the user's."""
    from ..table.table import PaimonTable

    table = PaimonTable(path)
    for sid in reversed(table.snapshot_ids()):
        snap = table.snapshot(sid)
        if snap is not None and snap.raw.get("commitUser") == user:
            return int(snap.raw.get("commitIdentifier", 0))
    return None


class PaimonStreamWriter(DataSourceStreamArrowWriter):
    """``df.writeStream.format("paimon_codec")`` into the table at ``path`` (module docstring)."""

    def __init__(self, path: str, options: dict, overwrite: bool = False, columns: list[str] | None = None) -> None:
        from ..storage import storage_state
        from ..table.table import PaimonTable
        from ..writing import arrow_schema_for, write_data_files
        from ..writing.primary_key import check_primary_key_table

        if overwrite:
            raise InvalidOptionError("the complete output mode (an overwrite per micro-batch) is not supported by "
                                     "the paimon_codec streaming sink", path=path, expected='outputMode("append")')
        table = PaimonTable(path)
        self.primary_key = bool(table.schema.primary_keys)
        if self.primary_key:
            check_primary_key_table(table)  # refuses what the upsert writer cannot write
        else:
            write_data_files(path, arrow_schema_for(table.schema.fields).empty_table())  # refuses what it cannot
        if columns is not None:
            from .write import check_row_kind_column

            check_row_kind_column(table, columns)
        self.path = path
        self.commit_user = stream_commit_user(path, options)
        self.storage = storage_state()

    def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
        import pyarrow as pa

        from ..storage import restore_storage_state
        from ..writing import write_data_files

        restore_storage_state(self.storage)
        if self.primary_key:
            from .staged_upsert import stage_rows

            return stage_rows(self.path, iterator)
        batches = [b for b in iterator if b.num_rows]
        if not batches:
            return StreamCommitMessage(pickle.dumps([]), 0)
        data = pa.Table.from_batches(batches)
        changes = write_data_files(self.path, data)
        return StreamCommitMessage(pickle.dumps(changes), data.num_rows)

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803 (PySpark's)
        from ..storage import restore_storage_state
        from ..table.table import PaimonTable
        from ..writing.commit import commit_changes
        from .staged_upsert import commit_staged, discard_staged
        from .write import _renumber

        restore_storage_state(self.storage)
        done = committed_identifier(self.path, self.commit_user)
        if done is not None and done >= batchId:
            log.info("stream write to %s: micro-batch %d was committed before (user %s, identifier %d); "
                     "not committed again", self.path, batchId, self.commit_user, done)
            if self.primary_key:
                discard_staged(messages)
            return
        if self.primary_key:
            result = commit_staged(self.path, messages, commit_user=self.commit_user, commit_identifier=batchId)
            log.info("stream write to %s: micro-batch %d upserted as snapshot %s", self.path, batchId,
                     None if result is None else result.snapshot_id)
            return
        changes = [c for m in messages if isinstance(m, StreamCommitMessage) for c in pickle.loads(m.changes)]
        if not changes:
            return
        changes = _renumber(changes, PaimonTable(self.path))
        result = commit_changes(self.path, changes, commit_user=self.commit_user, commit_identifier=batchId,
                                kind="APPEND")
        log.info("stream write to %s: micro-batch %d committed as snapshot %s (%d files)", self.path, batchId,
                 result.snapshot_id, len(changes))

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803 (PySpark's)
        """Delete the data (and index) files, or the staged rows, the batch's tasks wrote: nothing references them."""
        from ..storage import restore_storage_state
        from ..table.table import PaimonTable
        from ..writing.discard import discard_data_files
        from .staged_upsert import discard_staged

        restore_storage_state(self.storage)
        if self.primary_key:
            log.info("stream write to %s: micro-batch %d aborted, %d staged files deleted", self.path, batchId,
                     discard_staged(messages))
            return

        changes = [c for m in messages if isinstance(m, StreamCommitMessage) for c in pickle.loads(m.changes)]
        removed = discard_data_files(PaimonTable(self.path), changes)
        log.info("stream write to %s: micro-batch %d aborted, %d files deleted", self.path, batchId, removed)
