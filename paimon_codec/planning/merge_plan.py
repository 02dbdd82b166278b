"""Which files a batch read of a primary-key table merges, one :class:`GroupTask` per (partition, bucket).

Paimon's rules (1.4.2, ``CoreOptions.batchScanSkipLevel0`` and the key-value file store scan):

* every sorted run of a bucket takes part (each level-0 file is a run, each level >= 1 is one run);
* level-0 files are skipped by first-row tables (their compaction keeps the first row, so a level-0 row
  of a key already in a higher level must not win); tables with deletion vectors never get here unless
  ``deletion-vectors.merge-on-read`` is set (pypaimon's option), and then their deletion vectors become
  row selections of the files they belong to, before the merge;
* a bucket needs no merge - its files are read as they are, like an append table's - when none of its files
  is in level 0, every file's manifest counts no retraction row (``_DELETE_ROW_COUNT`` = 0, not unknown), and
  the table is a first-row table (its lookup compaction keeps a key in one level only) or the files are all in
  one level (a sorted run: each key once).  Paimon 1.4.2 reads such buckets raw
  (``MergeTreeSplitGenerator.splitForBatch`` makes them raw-convertible splits,
  ``PrimaryKeyTableRawFileSplitReadProvider`` reads them without a merge), so these are the rows Paimon
  returns; their files become plain file tasks (:class:`FileTask`; Spark's own reader can read them whole),
  marked as holding no retraction row (``primary_key_file=False``: their manifests count none), so no read
  decodes and filters their ``_VALUE_KIND`` column;
* files of a postpone-bucket table's ``bucket-postpone`` directory (bucket -2) are not visible to batch
  reads until compaction moves them into real buckets (:meth:`PaimonTable.batch_files` drops them, and
  adds a ``scan.fallback-branch``'s partitions).

Only partition values prune here: a value predicate on a merged table may not drop a file, because an
older version of a row in another run would then win the merge.  The caller filters the merged rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..dv.apply import kept_rows
from ..evolution.file_evolution import evolution_for
from ..table.merge_spec import merge_spec
from ..table.schema import TableSchema
from ..table.table import PaimonTable
from .tasks import FileTask, GroupTask, PlanReport, admit_file

__all__ = ["plan_merge_groups", "raw_convertible", "MERGE_READER"]

MERGE_READER = "paimon_codec.reading.merge.read:read_merge_group"


def raw_convertible(engine: str, levels: list[int], delete_row_counts: list[int | None]) -> bool:
    """Whether Paimon reads a bucket of files in ``levels`` with these manifest delete-row counts without a
    merge (see the module's docstring; tables with deletion vectors never come here)."""
    if not levels or any(level == 0 for level in levels) or any(c != 0 for c in delete_row_counts):
        return False
    return engine == "first-row" or len(set(levels)) == 1


@dataclass
class _BucketFiles:
    """The admitted files of one (partition, bucket), in scan order, with what deciding its read needs."""

    tasks: list[FileTask] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)  # each file's LSM level (lookup merges need it)
    delete_row_counts: list[int | None] = field(default_factory=list)  # manifest _DELETE_ROW_COUNT (None: unknown)
    details: list[dict] = field(default_factory=list)  # each file's row of the plan report


def plan_merge_groups(table: PaimonTable, snapshot, schema: TableSchema, pred: Any,
                      report: PlanReport) -> tuple[list[FileTask], list[GroupTask]]:
    """The files of buckets read as they are, and group tasks merging the files of every other bucket, of
    every live file a batch read of ``snapshot`` sees (report updated in place)."""
    spec = merge_spec(schema, table.path)
    skip_level0 = spec.engine == "first-row" and not schema.deletion_vectors_enabled
    params = spec.to_params()
    buckets: dict[tuple[bytes, int], _BucketFiles] = {}
    for f in table.batch_files(snapshot):
        admitted = admit_file(f, table, schema, pred, report,
                              "skipped: level 0 (first-row table)" if skip_level0 else None)
        if admitted is None:
            continue
        detail, dv = admitted
        selection = None
        if dv is not None and dv.cardinality:
            selection = kept_rows(dv, f.row_count, path=f.path)
            if not len(selection):
                report.files_skipped_by_deletion_vectors += 1
                detail["decision"] = "skipped: every row deleted"
                continue
        task = FileTask(f.path, f.file_format, f.row_count, f.meta.file_size, selection, True,
                        f.meta.schema_id, evolution_for(table, schema, f.meta.schema_id, report.time_zone))
        group = buckets.setdefault((f.entry.partition, f.bucket), _BucketFiles())
        group.tasks.append(task)
        group.levels.append(f.level)
        group.delete_row_counts.append(f.meta.delete_row_count)
        group.details.append(detail)
        report.files_read += 1
        report.rows_selected += task.selected_rows
        report.bytes_read += f.meta.file_size
        detail["decision"] = "read (merged)"
        detail["rows_selected"] = task.selected_rows
    raw: list[FileTask] = []
    groups = []
    for (partition, bucket), group in buckets.items():
        if not schema.deletion_vectors_enabled and raw_convertible(spec.engine, group.levels,
                                                                   group.delete_row_counts):
            raw.extend(replace(f, primary_key_file=False) for f in group.tasks)  # no -U / -D to drop
            for detail in group.details:
                detail["decision"] = "read (no merge: raw-convertible bucket)"
            continue
        label = f"{table.name} partition={table.partition_values(partition, schema)} bucket={bucket}"
        groups.append(GroupTask(MERGE_READER, group.tasks, {**params, "levels": group.levels}, label))
    return raw, groups
