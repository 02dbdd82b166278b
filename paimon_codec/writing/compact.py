"""Full compaction of a primary-key table: every level of each bucket merged into the top level.

Per (partition, bucket) of the latest snapshot, as Paimon's full compaction (``CompactStrategy``
``pickFullCompaction`` with drop-delete at the top level): all its files - level 0 included, each read
with its deletion vector applied - are merged by key with the table's merge engine (the merge the
readers use, :func:`paimon_codec.reading.merge.read.read_merge_group`: lookup tables keep Paimon's lookup
rule, retractions are dropped), and the result is written as files of the top level
(``num-levels - 1``; ``num-levels`` defaults to ``num-sorted-run.compaction-trigger + 1`` = 6) with
``_FILE_SOURCE`` COMPACT, key / value stats and file indexes (:mod:`.key_value`).  Each record keeps the
highest sequence number among its key's records.  The old files are deleted, and so are the bucket's
deletion-vector index files: after a full compaction no deletion vector refers to a live file.  A bucket
whose files already form one top-level run without deletion vectors is left alone.

All buckets go into one ``COMPACT`` snapshot.  A compaction racing another commit that removed one of its
files (or the bucket's deletion-vector file) fails with a :class:`~paimon_codec.writing.commit.CommitConflictError`
and commits nothing; new level-0 files committed meanwhile simply stay.  Refused by name: what
:func:`.primary_key.check_primary_key_table` refuses, ``record-level.expire-time``, and the merges the
readers refuse.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..dv.apply import kept_rows
from ..errors import PaimonCodecError
from ..evolution.file_evolution import evolution_for
from ..planning.tasks import FileTask, GroupTask, admit_file
from ..reading.merge.read import read_key_value_file, read_merge_group
from ..table.live_files import LiveDataFile
from ..table.merge_spec import merge_spec
from ..table.table import PaimonTable
from .commit import CommitResult, FileChange, IndexChange, commit_changes
from .commit.table_layout import detect_layout
from .key_value import FILE_SOURCE_COMPACT, KIND_COLUMN, SEQUENCE_COLUMN, write_key_value_files
from .primary_key import check_primary_key_table, refuse_postpone
from .types import arrow_schema_for

__all__ = ["compact_table", "compact_bucket", "plan_compaction", "BucketToCompact", "top_level"]

log = logging.getLogger(__name__)
DV_INDEX_TYPE = "DELETION_VECTORS"


@dataclass(frozen=True)
class BucketToCompact:
    """One bucket of a snapshot to compact (picklable: a Spark task compacts it)."""

    table_path: str
    snapshot_id: int
    partition: bytes
    bucket: int


def top_level(table: PaimonTable) -> int:
    options = table.schema.options
    levels = options.get("num-levels")
    n = int(levels) if levels else int(options.get("num-sorted-run.compaction-trigger", "5")) + 1
    return n - 1


def _check(table: PaimonTable) -> str:
    compression = check_primary_key_table(table, "compacting")
    refuse_postpone(table, "compacting")
    if table.schema.options.get("record-level.expire-time"):
        raise PaimonCodecError("compacting a table with record-level.expire-time is not supported", path=table.path)
    merge_spec(table.schema, table.path)  # refuses the merges the readers do not reproduce
    return compression


def plan_compaction(table_path: str | os.PathLike) -> list[BucketToCompact]:
    """The buckets of the latest snapshot a full compaction rewrites."""
    table = PaimonTable(os.fspath(table_path))
    _check(table)
    latest = table.snapshot()
    if latest is None:
        return []
    top = top_level(table)
    buckets: dict[tuple[bytes, int], list[LiveDataFile]] = {}
    for f in table.live_files(latest):
        buckets.setdefault((f.entry.partition, f.bucket), []).append(f)
    out = []
    for (part, bucket), files in buckets.items():
        if all(f.level == top and f.deletion_file is None for f in files):
            continue
        out.append(BucketToCompact(table.path, latest.id, part, bucket))
    return out


def _merged_with_sequence(table: PaimonTable, files: list[LiveDataFile]) -> pa.Table:
    """The bucket's merged rows with ``_SEQUENCE_NUMBER`` (their key's highest) and ``_VALUE_KIND`` (+I)."""
    from ..planning.tasks import PlanReport

    schema = table.schema
    value_schema = arrow_schema_for(schema.fields)
    report = PlanReport(table.path, None, None)
    tasks, levels = [], []
    for f in files:
        admitted = admit_file(f, table, schema, None, report, None)
        if admitted is None:
            raise PaimonCodecError(f"data file {f.file_name} of a bucket to compact cannot be read", path=f.path)
        _, dv = admitted
        selection = None
        if dv is not None and dv.cardinality:
            selection = kept_rows(dv, f.row_count, path=f.path)
        tasks.append(FileTask(f.path, f.file_format, f.row_count, f.meta.file_size, selection, True,
                              f.meta.schema_id, evolution_for(table, schema, f.meta.schema_id)))
        levels.append(f.level)
    spec = merge_spec(schema, table.path)
    label = f"{table.name} compaction bucket={files[0].bucket}"
    merged = read_merge_group(GroupTask("", tasks, {**spec.to_params(), "levels": levels}, label), value_schema)
    keys = list(schema.primary_keys)
    key_schema = pa.schema([value_schema.field(k) for k in keys])
    seqs = pa.concat_tables([read_key_value_file(t, key_schema).select([*keys, SEQUENCE_COLUMN]) for t in tasks])
    if len(keys) == 1 and pa.types.is_integer(key_schema.field(0).type):
        out = _with_highest_sequence_int_key(merged, seqs, keys[0], table.path)
    else:
        out = _with_highest_sequence(merged, seqs, keys, table.path)
    out = out.select([*value_schema.names, SEQUENCE_COLUMN]).cast(value_schema.append(
        pa.field(SEQUENCE_COLUMN, pa.int64())))
    return out.append_column(KIND_COLUMN, pa.array(np.zeros(out.num_rows, dtype=np.int8), pa.int8()))


def _with_highest_sequence(merged: pa.Table, seqs: pa.Table, keys: list[str], path: str) -> pa.Table:
    """``merged`` sorted by key with ``_SEQUENCE_NUMBER``: the highest of its key's records in ``seqs``."""
    highest = seqs.group_by(keys, use_threads=False).aggregate([(SEQUENCE_COLUMN, "max")])
    highest = highest.rename_columns([SEQUENCE_COLUMN if c == f"{SEQUENCE_COLUMN}_max" else c
                                      for c in highest.column_names])
    joined = merged.join(highest, keys=keys, join_type="left outer", use_threads=False)
    joined = joined.take(pc.sort_indices(joined, sort_keys=[(k, "ascending") for k in keys]))
    if joined.num_rows and joined.column(SEQUENCE_COLUMN).null_count:
        raise PaimonCodecError("a merged key has no record", path=path)
    return joined


def _with_highest_sequence_int_key(merged: pa.Table, seqs: pa.Table, key: str, path: str) -> pa.Table:
    """:func:`_with_highest_sequence` for one integer key, in numpy: the records sorted by key, each key's
    highest sequence number (``maximum.reduceat``), found for each merged key by binary search (no hash
    group-by / join)."""
    record_keys = seqs.column(key).to_numpy()  # key columns hold no NULL
    record_seqs = seqs.column(SEQUENCE_COLUMN).to_numpy()
    order = np.argsort(record_keys)
    record_keys = record_keys[order]
    first = np.flatnonzero(np.r_[True, record_keys[1:] != record_keys[:-1]]) if len(record_keys) else order[:0]
    unique_keys = record_keys[first]
    highest = np.maximum.reduceat(record_seqs[order], first) if len(first) else record_seqs[:0]
    merged_keys = merged.column(key).to_numpy()
    if len(merged_keys) > 1 and not bool(np.all(merged_keys[1:] > merged_keys[:-1])):
        by_key = np.argsort(merged_keys, kind="stable")
        merged, merged_keys = merged.take(pa.array(by_key)), merged_keys[by_key]
    at = np.searchsorted(unique_keys, merged_keys)
    if len(merged_keys) and (at.max() >= len(unique_keys) or not np.array_equal(unique_keys[at], merged_keys)):
        raise PaimonCodecError("a merged key has no record", path=path)
    return merged.append_column(SEQUENCE_COLUMN, pa.array(highest[at], pa.int64()))


def compact_bucket(job: BucketToCompact, layout: str | None = None) -> tuple[list[FileChange], list[IndexChange]]:
    """Rewrite one bucket into the top level; returns the changes (nothing committed)."""
    table = PaimonTable(job.table_path)
    compression = _check(table)
    snapshot = table.snapshot(job.snapshot_id)
    if snapshot is None:
        raise PaimonCodecError(f"snapshot {job.snapshot_id} is gone", path=table.path)
    files = [f for f in table.live_files(snapshot) if f.entry.partition == job.partition and f.bucket == job.bucket]
    if not files:
        return [], []
    version = "0.9" if detect_layout(table, snapshot, layout).layout == "0.9" else None
    records = _merged_with_sequence(table, files)
    changes = [FileChange.delete_entry(f.entry) for f in files]
    if records.num_rows:
        directory = table.bucket_dir(job.partition, job.bucket)
        total = files[0].entry.total_buckets
        for meta in write_key_value_files(table, directory, records, level=top_level(table),
                                          file_source=FILE_SOURCE_COMPACT, compression=compression,
                                          paimon_version=version):
            changes.append(FileChange.of(job.partition, job.bucket, meta, "ADD", total))
    rewritten = {f.file_name for f in files}
    index_changes = []
    for e in table.index_entries(snapshot):
        if e.partition != job.partition or e.bucket != job.bucket or e.index_file.index_type != DV_INDEX_TYPE:
            continue
        stray = [r.data_file for r in e.index_file.dv_ranges or () if r.data_file not in rewritten]
        if stray:
            raise PaimonCodecError(f"deletion-vector file {e.index_file.file_name} also covers {stray[0]}, which is "
                                   "not a live file of its bucket", path=table.path)
        index_changes.append(IndexChange.delete_entry(e))
    return changes, index_changes


def compact_table(table_path: str | os.PathLike, *, commit_user: str | None = None,
                  layout: str | None = None) -> CommitResult:
    """Fully compact every bucket that needs it, in one ``COMPACT`` snapshot (``snapshot_id`` ``None``: nothing
    to compact)."""
    changes: list[FileChange | IndexChange] = []
    for job in plan_compaction(table_path):
        files, indexes = compact_bucket(job, layout)
        changes += [*files, *indexes]
    return commit_changes(table_path, changes, commit_user=commit_user, kind="COMPACT", layout=layout)
