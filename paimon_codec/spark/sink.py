"""The ``paimon_codec`` sink: ``df.write.format("paimon_codec").mode("append" | "overwrite").save(PATH)``.

Spark's Python data source write protocol, with the same pieces as :func:`paimon_codec.spark.write`:

* ``writer()`` runs on the driver: the table is resolved there (a relative path in the driver's working
  directory, or ``warehouse`` + ``db.table``) and what the writer cannot do is refused before any task runs
  (:func:`.write.check_target`);
* each task (``write``, an Arrow writer) writes its rows as Paimon data files with their file indexes
  (:func:`paimon_codec.writing.write_data_files`) and hands back a commit message: the files' metadata;
* ``commit`` (driver) commits every message's files as one snapshot (``OVERWRITE`` for ``mode("overwrite")``:
  the partitions written, the whole table when unpartitioned), conflict-checked and retried by the commit
  protocol; ``abort`` deletes the files of the tasks that reported them.  A task that died before reporting
  leaves its files unreferenced - orphans, as Paimon's own writers leave them (``remove_orphan_files``).

Every table kind :func:`~paimon_codec.spark.write` supports: append tables (bucket-unaware or fixed
``bucket-key`` buckets, partitioned or not, with file indexes) as above, and primary-key tables (fixed or
dynamic buckets, deletion vectors, any merge engine the upsert writer takes), upserted: ``mode("append")`` is
the upsert, ``mode("overwrite")`` is refused by name as :func:`~paimon_codec.spark.write` refuses it.  A
sink's tasks get arbitrary rows, so they only stage them and the driver's ``commit`` writes the level-0 files
(:mod:`.staged_upsert` says why, and which record of a repeated key wins).  A ``rowkind`` column (``+I``,
``-U``, ``+U``, ``-D``: what the source's ``read.changelog`` adds) gives a primary-key table's rows their kinds,
so a changelog streams from one primary-key table into another (:func:`.write.check_row_kind_column`).
"""

from __future__ import annotations

import logging
import pickle
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import DataSourceArrowWriter, WriterCommitMessage

__all__ = ["PaimonCodecWriter", "WrittenFiles"]

log = logging.getLogger(__name__)


@dataclass
class WrittenFiles(WriterCommitMessage):
    """A task's commit message: its ``FileChange``s, pickled."""

    changes: bytes


class PaimonCodecWriter(DataSourceArrowWriter):
    def __init__(self, options: dict, schema: Any, overwrite: bool, storage_state: dict | None) -> None:
        from ..storage import storage_state as current_state
        from ..table import PaimonTable
        from .source_options import table_path
        from .write import check_target, refuse_primary_key_mode

        self.path = check_target(table_path({str(k).lower(): v for k, v in options.items()}), schema.fieldNames())
        self.overwrite = overwrite
        self.primary_key = bool(PaimonTable(self.path).schema.primary_keys)
        if self.primary_key:
            refuse_primary_key_mode("overwrite" if overwrite else "append", self.path)
        self.commit_user = options.get("commit-user") or options.get("commit.user") or None
        self.storage = current_state() or storage_state
        self.started = time.monotonic()

    def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
        """In a task: an append table's data files, or a primary-key table's rows staged for the driver."""
        import pyarrow as pa

        from ..storage import restore_storage_state
        from ..writing import write_data_files

        restore_storage_state(self.storage)
        if self.primary_key:
            from .staged_upsert import stage_rows

            return stage_rows(self.path, iterator)
        batches = [b for b in iterator if b.num_rows]
        changes = write_data_files(self.path, pa.Table.from_batches(batches)) if batches else []
        return WrittenFiles(pickle.dumps(changes, protocol=pickle.HIGHEST_PROTOCOL))

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        from ..storage import restore_storage_state
        from .write import commit_written

        restore_storage_state(self.storage)
        if self.primary_key:
            from .staged_upsert import commit_staged

            commit_staged(self.path, messages, commit_user=self.commit_user)
            return
        changes = [c for m in messages if isinstance(m, WrittenFiles) for c in pickle.loads(m.changes)]
        commit_written(self.path, changes, "overwrite" if self.overwrite else "append", self.commit_user,
                       self.started)

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        """Delete the data and index files (or staged rows) the reporting tasks wrote (nothing was committed)."""
        from ..storage import restore_storage_state
        from ..table import PaimonTable
        from ..writing.discard import discard_data_files

        restore_storage_state(self.storage)
        if self.primary_key:
            from .staged_upsert import discard_staged

            log.info("upsert into %s aborted: %d staged files deleted", self.path, discard_staged(messages))
            return
        changes = [c for m in messages if isinstance(m, WrittenFiles) for c in pickle.loads(m.changes)]
        removed = discard_data_files(PaimonTable(self.path), changes)
        log.info("write to %s aborted: %d files of its tasks deleted", self.path, removed)
