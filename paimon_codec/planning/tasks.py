"""What a scan plan is made of: the read tasks, the plan's report, and the admission every planner shares.

:mod:`paimon_codec.planning.plan` (append and deletion-vector tables), :mod:`paimon_codec.planning.merge_plan`
(primary-key merge reads) and :mod:`paimon_codec.planning.data_evolution` (row-id groups) all produce
:class:`FileTask` / :class:`GroupTask` objects and count into one :class:`PlanReport`; the readers
(:mod:`paimon_codec.reading.read`, :mod:`paimon_codec.spark.scan`) consume them.  Keeping these types out of
the planner lets the planner import the specialised planners without an import cycle.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyroaring import BitMap

from ..dv.index_file import read_deletion_vector
from ..evolution.file_evolution import FileEvolution
from ..expressions.semantics import SemanticsName
from ..report import JsonForm
from .partition_prune import may_match

if TYPE_CHECKING:
    from ..table.table import LiveDataFile, PaimonTable

__all__ = ["FileTask", "GroupTask", "PlanReport", "admit_file"]


@dataclass
class FileTask:
    """One data file to read: ``selection`` = row positions to keep (``None`` = every row)."""

    path: str
    file_format: str
    row_count: int
    file_size: int
    selection: BitMap | None
    primary_key_file: bool = False
    # the file's _SCHEMA_ID and how its columns read as the table's (None: same ids/names/types)
    schema_id: int | None = None
    evolution: FileEvolution | None = None
    # a deletion vector removed rows: the selection is needed for the right rows, not only for speed
    has_deletions: bool = False
    # the selection holds exactly the rows matching the scan's predicate (FileVerdict.exact): no residual
    # filter needed on its rows (a top-N pushdown only shrinks it to some of them)
    exact: bool = False

    @property
    def selected_rows(self) -> int:
        return self.row_count if self.selection is None else len(self.selection)

    def selection_bytes(self) -> bytes | None:
        if self.selection is None:
            return None
        self.selection.run_optimize()
        return self.selection.serialize()


@dataclass
class GroupTask:
    """Several data files that only give the table's rows when read together.

    A primary-key bucket whose sorted runs must be merged by key, or the files of one row-id range of a
    data-evolution table, are read by one function: ``reader`` names it as ``"module:function"`` and it
    is called as ``function(task, schema) -> pa.Table`` (on the driver or inside a Spark task, so it
    must be importable there and the task must pickle).  ``params`` carries what that reader needs
    beyond the files (merge engine, key columns, ...).
    """

    reader: str
    files: list[FileTask]
    params: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def row_count(self) -> int:
        return sum(f.row_count for f in self.files)

    @property
    def selected_rows(self) -> int:
        """Rows read (an upper bound of the rows the group yields)."""
        return sum(f.selected_rows for f in self.files)

    @property
    def file_size(self) -> int:
        return sum(f.file_size for f in self.files)


@dataclass
class PlanReport(JsonForm):
    table: str
    snapshot_id: int | None
    predicate: str | None
    files_total: int = 0
    files_skipped_by_partition: int = 0
    files_pruned_by_stats: int = 0
    files_skipped_by_index: int = 0
    files_skipped_by_deletion_vectors: int = 0
    files_skipped_level0: int = 0
    files_read: int = 0
    rows_total: int = 0
    rows_deleted: int = 0
    rows_selected: int = 0
    bytes_total: int = 0
    bytes_read: int = 0
    index_bytes_read: int = 0
    rows_read: int = 0
    order_by: str | None = None
    limit: int | None = None
    topn_pushed: bool = False
    topn_note: str | None = None
    files: list[dict] = field(default_factory=list)
    index_notes: list[str] = field(default_factory=list)
    planning: str = "driver"
    planning_tasks: int = 0
    planning_ms: float = 0.0
    files_judged: int = 0
    # files read whose indexes answered the predicate exactly (FileTask.exact): the Spark scan reads their
    # selected rows without filtering them again
    files_exact: int = 0
    # how the files were read, filled in by the reader (e.g. the Spark scan): path -> number of files
    read_paths: dict[str, int] = field(default_factory=dict)
    # whose float comparison every filter of the plan follows: "paimon" (Double.compare: -0.0 < 0.0) or
    # "spark" (-0.0 = 0.0); see paimon_codec.expressions.semantics
    semantics: SemanticsName = "paimon"
    # the zone casts between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE of evolved columns convert in
    # (Paimon: the JVM's default zone; paimon_codec.evolution.casts_zone), None: such casts are refused
    time_zone: str | None = None
    # data-evolution tables: what the global indexes answered (paimon_codec.globalindex.scan), else None
    global_index: dict | None = None

    def to_dict(self, with_files: bool = True) -> dict:
        out = {k: v for k, v in self.__dict__.items() if k != "files"}
        if with_files:
            out["files"] = self.files
        return out

    def summary(self) -> str:
        return (f"{self.table} @ snapshot {self.snapshot_id}: {self.files_read}/{self.files_total} files read "
                f"({self.files_skipped_by_index} skipped by index, {self.files_skipped_by_partition} by partition, "
                f"{self.files_pruned_by_stats} by stats, "
                f"{self.files_skipped_by_deletion_vectors} fully deleted, {self.files_skipped_level0} level-0); "
                f"{self.rows_selected}/{self.rows_total} rows selected; {self.bytes_read}/{self.bytes_total} data "
                f"bytes, {self.index_bytes_read} index bytes")


def _relative(path: str, root: str) -> str:
    """``os.path.relpath(path, root)``; a normalised path under ``root`` is cut as a string (relpath makes both
    absolute and compares them part by part: a measurable share of planning hundreds of files)."""
    head = root.rstrip("/") + "/"
    if path.startswith(head) and root.startswith("/"):
        rest = path[len(head):]
        if rest and os.path.normpath(rest) == rest and not rest.startswith(".."):
            return rest
    return os.path.relpath(path, root)


def admit_file(f: LiveDataFile, table: PaimonTable, schema, pred: Any, report: PlanReport,
               skip_level0: str | None, read_dv: bool = True):
    """Count ``f`` in ``report`` and apply the checks every planner shares.

    Returns ``None`` when the file is skipped (level 0 when ``skip_level0`` gives the reason, or its
    partition values cannot match ``pred``), else ``(detail, deletion vector or None)`` with the file's
    report entry and (with ``read_dv``) its deletion vector read; without it :func:`judge_file` reads it.
    """
    report.files_total += 1
    report.rows_total += f.row_count
    report.bytes_total += f.meta.file_size
    detail: dict[str, Any] = {"path": _relative(f.path, table.path), "bucket": f.bucket,
                              "level": f.level, "row_count": f.row_count, "file_size": f.meta.file_size}
    report.files.append(detail)
    if skip_level0 and f.level == 0:
        report.files_skipped_level0 += 1
        detail["decision"] = skip_level0
        return None
    if pred is not None and schema.partition_keys:
        values = dict(zip(schema.partition_keys, f.partition, strict=True))
        if not may_match(pred, values, report.semantics):
            report.files_skipped_by_partition += 1
            detail["decision"] = "skipped: partition"
            return None
    dv = None
    if read_dv and f.deletion_file is not None:
        d = f.deletion_file
        dv = read_deletion_vector(d.path, d.offset, d.length)
        report.index_bytes_read += d.length + 8
        detail["deleted_rows"] = dv.cardinality
        report.rows_deleted += dv.cardinality
    return detail, dv
