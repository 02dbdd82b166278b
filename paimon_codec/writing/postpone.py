"""Writes into a postpone-bucket primary-key table (``bucket = -2``) as Paimon's ``PostponeBucketWriter`` makes them.

A postpone-bucket table defers bucket assignment: writers put records into each partition's ``bucket-postpone``
directory (manifest bucket ``-2``, ``totalBuckets = -2``) and a later compaction (Flink's ``CompactAction``, Spark's
compact procedure) replays them into real buckets.  Until then batch reads do not see them
(:meth:`paimon_codec.table.PaimonTable.batch_files`).  What Paimon 1.4's writer does, and so this module:

* the records of one write go to level-0 files in **arrival order**: not sorted by key, not merged (a key written
  twice is there twice; the compaction replays the files record by record, in the files' creation-time order,
  into the real buckets' writers, which number them then) - so every record's ``_SEQUENCE_NUMBER`` is Paimon's
  ``KeyValue.UNKNOWN_SEQUENCE`` (-1), and the meta's min/max key are the first and the last record's;
* file names carry the writer's identity, ``<data-file.prefix>-u-<commit user>-s-<write id>-w-<uuid>-<n>``: the
  compaction routes all files of one write id to one reader, which is what keeps their order.  This library
  always writes with write id :data:`WRITE_ID`, so all its writes form one ordered stream; each new file's
  creation time is later than every postpone file already in its partition (two writes within one millisecond
  would otherwise tie, and the replay order between them would be the sort's whim);
* Paimon writes these files as Avro with ``metadata.stats-mode = none`` when Avro can hold the row type, else in
  the table's format with its stats: this library writes the latter (Parquet, the table's stats) - Paimon reads a
  data file by its name's extension, so either replays alike;
* row kinds are kept per record (``-D`` deletes at compaction); the kinds Paimon's writer drops
  (``ignore-delete``, ``ignore-update-before``) are dropped before, by the caller.
"""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa

from ..table.manifest import POSTPONE_BUCKET, merge_entries
from ..table.table import PaimonTable
from .commit import FileChange
from .key_value import FILE_SOURCE_APPEND, KIND_COLUMN, SEQUENCE_COLUMN, write_key_value_files
from .partitions import partitions_of

__all__ = ["write_postpone_files", "postpone_file_prefix", "WRITE_ID", "UNKNOWN_SEQUENCE"]

log = logging.getLogger(__name__)

#: The write id in this library's postpone file names (Paimon's ``-s-<write id>-`` part).
WRITE_ID = 0
#: Paimon's ``KeyValue.UNKNOWN_SEQUENCE``: the sequence number of every record in a postpone-bucket file.
UNKNOWN_SEQUENCE = -1


def postpone_file_prefix(table: PaimonTable, commit_user: str, write_id: int = WRITE_ID) -> str:
    """The name prefix of a postpone-bucket writer's data files (``data--u-<user>-s-<id>-w-`` by default)."""
    prefix = table.schema.options.get("data-file.prefix", "data-")
    return f"{prefix}-u-{commit_user}-s-{write_id}-w-"


def _latest_creation(table: PaimonTable) -> dict[bytes, int]:
    """Per partition, the latest creation time (epoch ms) of its live postpone-bucket files."""
    latest = table.snapshot()
    out: dict[bytes, int] = {}
    if latest is None:
        return out
    for e in merge_entries(table.manifest_entries(latest)):
        created = e.file.creation_time_ms
        if e.bucket == POSTPONE_BUCKET and created is not None:
            out[e.partition] = max(out.get(e.partition, created), created)
    return out


def write_postpone_files(table: PaimonTable, data: pa.Table, kinds: np.ndarray, *, compression: str,
                         commit_user: str, paimon_version: str | None = None) -> list[FileChange]:
    """Write ``data`` (the table's types) with its row kind codes as ``bucket-postpone`` files, one run per
    partition in arrival order; returns the ADD changes (nothing committed)."""
    prefix = postpone_file_prefix(table, commit_user)
    created = _latest_creation(table)
    changes: list[FileChange] = []
    for values, part, rows in partitions_of(table, data):
        chunk = data.take(pa.array(rows))
        chunk = chunk.append_column(SEQUENCE_COLUMN, pa.array(np.full(len(rows), UNKNOWN_SEQUENCE), pa.int64()))
        chunk = chunk.append_column(KIND_COLUMN, pa.array(kinds[rows], pa.int8()))
        directory = table.bucket_dir_of(values, POSTPONE_BUCKET)
        for meta in write_key_value_files(table, directory, chunk, level=0, file_source=FILE_SOURCE_APPEND,
                                          compression=compression, paimon_version=paimon_version,
                                          name_prefix=prefix, created_after_ms=created.get(part, -1)):
            changes.append(FileChange.of(part, POSTPONE_BUCKET, meta, "ADD", POSTPONE_BUCKET))
    log.info("wrote %d postpone-bucket files (%d records) for %s", len(changes), data.num_rows, table.path)
    return changes
