"""``rewrite_file_index`` as a job: plan which files to (re)index, run the per-file tasks anywhere, commit once.

* :func:`set_table_options` persists new options as a new schema file first, as Paimon's ``ALTER TABLE
  ... SET`` does (so later writers, Java's included, build the same indexes);
* :func:`plan_rewrite` turns the live data files of the latest snapshot (optionally of some partitions)
  into :class:`~paimon_codec.maintenance.file_index_rewrite.IndexTask` s - picklable, so a Spark job can run
  them (:mod:`paimon_codec.spark.rewrite`) or :func:`run_locally` in this process;
* :func:`commit_rewrite` commits one snapshot (kind ``COMPACT``) whose manifest entries DELETE each changed
  file and ADD it again with its new index metadata; a rewrite that changed nothing commits nothing.
  When another writer committed in between and the commit conflicts, the job re-plans against the new
  latest snapshot, reuses the outcomes of files that did not change and indexes the rest
  (:func:`rewrite_file_index`, ``max_attempts``).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import storage
from ..errors import InvalidOptionError
from ..fileindex.options import parse_index_options
from ..report import JsonReport
from ..table.paths import partition_value_text
from ..table.schema import load_schema, schema_ids
from ..table.table import LiveDataFile, PaimonTable
from .file_index_rewrite import IndexOutcome, IndexTask, index_task, run_index_task, updated_meta

__all__ = ["RewritePlan", "RewriteReport", "set_table_options", "plan_rewrite", "run_locally", "commit_rewrite",
           "rewrite_file_index", "parse_partition_specs", "Progress"]

log = logging.getLogger(__name__)

Runner = Callable[[Sequence[IndexTask], "Progress"], list[IndexOutcome]]


# ----------------------------------------------------------------------------------------------- options
def set_table_options(table_path: str, options: Mapping[str, str | None]) -> int | None:
    """Persist ``options`` (``None`` value: remove the key) as a new schema ``schema-<N+1>``; returns its id,
    or ``None`` when the options are already in place.  The index options are checked against the
    table's columns first; the new schema file is created only if no other writer took its id."""
    for _ in range(10):
        current = load_schema(table_path)
        merged = dict(current.options)
        for k, v in options.items():
            if v is None:
                merged.pop(str(k), None)
            else:
                merged[str(k)] = str(v)
        if merged == current.options:
            return None
        parse_index_options(merged, current.fields)  # refuse bad index options before anything is written
        new_id = max(schema_ids(table_path)) + 1
        raw = dict(current.raw)
        raw.update(id=new_id, options=merged, timeMillis=int(time.time() * 1000))
        path = storage.join(table_path, "schema", f"schema-{new_id}")
        if storage.create_if_absent(path, json.dumps(raw, indent=2).encode("utf-8")):
            log.info("options of %s committed as schema %d", table_path, new_id)
            return new_id
    raise InvalidOptionError(f"could not commit new options to {table_path}: the schema kept changing")


# ----------------------------------------------------------------------------------------------- plan
#: the partitions of a rewrite: ``"k=v,k2=v2"``, ``{"k": "v"}``, a list of those, or ``None`` for all
PartitionsLike = str | Mapping[str, Any] | Sequence[str | Mapping[str, Any]] | None


def parse_partition_specs(partitions: PartitionsLike) -> list[dict[str, str]] | None:
    """``None``, a dict, ``"k=v,k2=v2"`` or a list of those -> list of ``{key: text value}``."""
    if partitions is None:
        return None
    items = [partitions] if isinstance(partitions, (str, Mapping)) else list(partitions)
    out = []
    for item in items:
        if isinstance(item, Mapping):
            out.append({str(k): str(v) for k, v in item.items()})
            continue
        spec = {}
        for part in str(item).split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise InvalidOptionError(f"bad partition spec {item!r}", expected="k=v[,k2=v2]")
            spec[key.strip()] = value.strip()
        out.append(spec)
    return out


def _partition_matches(f: LiveDataFile, schema, specs: list[dict[str, str]] | None) -> bool:
    if specs is None:
        return True
    types = {fl.name: fl.type for fl in schema.partition_type}
    values = dict(zip(schema.partition_keys, f.partition, strict=True))
    for spec in specs:
        if all(k in values and partition_value_text(values[k], types[k]) == v for k, v in spec.items()):
            return True
    return False


@dataclass
class RewritePlan:
    """The files one attempt (re)indexes, against one snapshot."""

    table_path: str
    snapshot_id: int | None
    schema_id: int
    tasks: list[IndexTask]
    files: dict[tuple, LiveDataFile]
    paimon_version: str | None

    @property
    def total_bytes(self) -> int:
        return sum(t.file_size for t in self.tasks if t.specs)


def plan_rewrite(table: PaimonTable | str, partitions: PartitionsLike = None, paimon_version: str | None = None) -> RewritePlan:
    """Tasks for every live data file of the latest snapshot (in ``partitions`` if given), built with the
    table's current options."""
    t = table if isinstance(table, PaimonTable) else PaimonTable(table)
    schema = t.schema
    specs = parse_partition_specs(partitions)
    if specs is not None:
        unknown = sorted({k for s in specs for k in s} - set(schema.partition_keys))
        if unknown:
            raise InvalidOptionError(f"partition spec names {', '.join(unknown)}, not partition keys",
                                     expected=", ".join(schema.partition_keys) or "(table is not partitioned)")
    snapshot = t.snapshot()
    if paimon_version is None and snapshot is not None:
        from ..writing.commit.table_layout import detect_layout

        paimon_version = "0.9" if detect_layout(t, snapshot, None).layout == "0.9" else None
    files = {} if snapshot is None else {f.entry.identifier: f for f in t.batch_files(snapshot)
                                         if _partition_matches(f, schema, specs)}
    tasks = [index_task(f, schema, t.schema_by_id(f.meta.schema_id), schema.options, paimon_version)
             for f in files.values()]
    return RewritePlan(t.path, None if snapshot is None else snapshot.id, schema.id, tasks, files, paimon_version)


# ----------------------------------------------------------------------------------------------- run
@dataclass
class Progress:
    """Files indexed / total, data bytes read and the rate, logged on the driver as tasks finish."""

    total_files: int
    total_bytes: int
    files: int = 0
    bytes: int = 0
    started: float = field(default_factory=time.monotonic)
    every_s: float = 5.0
    _last: float = 0.0

    def advance(self, files: int, data_bytes: int, force: bool = False) -> None:
        self.files += files
        self.bytes += data_bytes
        now = time.monotonic()
        if force or now - self._last >= self.every_s or self.files == self.total_files:
            self._last = now
            elapsed = max(now - self.started, 1e-9)
            log.info("file index: %d/%d files, %.1f/%.1f MB read, %.1f MB/s, %.1f files/s", self.files,
                     self.total_files, self.bytes / 1e6, self.total_bytes / 1e6, self.bytes / 1e6 / elapsed,
                     self.files / elapsed)

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started


def run_locally(tasks: Sequence[IndexTask], progress: Progress) -> list[IndexOutcome]:
    """Run every task in this process, in order."""
    out = []
    for task in tasks:
        outcome = run_index_task(task)
        progress.advance(1, outcome.data_bytes)
        out.append(outcome)
    return out


# ----------------------------------------------------------------------------------------------- commit
@dataclass
class RewriteReport(JsonReport):
    """What a rewrite did (``to_json`` is the CLI's ``--json`` report)."""

    table_path: str
    schema_id: int | None = None
    files_total: int = 0
    files_indexed: int = 0
    files_changed: int = 0
    embedded: int = 0
    index_files_written: int = 0
    index_bytes_written: int = 0
    data_bytes_read: int = 0
    rows_indexed: int = 0
    snapshot_id: int | None = None
    attempts: int = 0
    seconds: float = 0.0
    new_index_files: list[str] = field(default_factory=list)


def commit_rewrite(plan: RewritePlan, outcomes: Iterable[IndexOutcome], commit_user: str = "paimon-codec-rewrite"):
    """One COMPACT snapshot replacing the changed files' entries (DELETE + ADD of the same file with its
    new ``_EMBEDDED_FILE_INDEX`` / ``_EXTRA_FILES``); ``None`` when no file changed.  Raises
    :class:`~paimon_codec.writing.commit.CommitConflictError` when the table moved underneath."""
    from ..writing.commit import FileChange, commit_changes

    changes = []
    for outcome in outcomes:
        if not outcome.changed:
            continue
        f = plan.files[outcome.key]
        changes.append(FileChange.delete_entry(f.entry))
        changes.append(FileChange.add_entry(f.entry, updated_meta(f.meta, outcome)))
    if not changes:
        return None
    return commit_changes(plan.table_path, changes, kind="COMPACT", commit_user=commit_user)


def rewrite_file_index(table: PaimonTable | str | os.PathLike[str], options: Mapping[str, str | None] | None = None,
                       partitions: PartitionsLike = None, *, runner: Runner | None = None, max_attempts: int = 5,
                       paimon_version: str | None = None) -> RewriteReport:
    """Persist ``options`` (if any), (re)index every live data file and commit once; see the module doc.

    ``runner(tasks, progress)`` runs the tasks (default: in this process); on a commit conflict the
    job re-plans, keeping the outcomes of files whose entry did not change."""
    from ..errors import CommitConflictError

    started = time.monotonic()
    path = table.path if isinstance(table, PaimonTable) else os.fspath(table)
    report = RewriteReport(table_path=path)
    if options:
        set_table_options(path, options)
    runner = runner or run_locally
    done: dict[tuple, tuple[Any, IndexOutcome]] = {}  # key -> (task signature, outcome)
    for attempt in range(1, max_attempts + 1):
        plan = plan_rewrite(PaimonTable(path), partitions, paimon_version)
        report.schema_id, report.files_total, report.attempts = plan.schema_id, len(plan.tasks), attempt
        todo = [t for t in plan.tasks if done.get(t.key, (None,))[0] != _signature(t)]
        progress = Progress(len(todo), sum(t.file_size for t in todo if t.specs))
        for outcome in runner(todo, progress):
            task = next(t for t in todo if t.key == outcome.key)
            done[outcome.key] = (_signature(task), outcome)
        outcomes = [done[t.key][1] for t in plan.tasks]
        try:
            result = commit_rewrite(plan, outcomes)
        except CommitConflictError as exc:
            if attempt == max_attempts:
                raise
            log.warning("rewrite of %s conflicted with another commit (%s); re-planning", path, exc)
            continue
        _fill_report(report, plan, outcomes, [o for _, o in done.values()])
        report.snapshot_id = None if result is None else result.snapshot_id
        break
    report.seconds = time.monotonic() - started
    return report


def _signature(task: IndexTask) -> tuple:
    """What an outcome depends on: an outcome is reused only for an identical task."""
    return (tuple((s.column, s.index_type, tuple(sorted(s.options.items()))) for s in task.specs),
            task.threshold, task.extra_files, task.old_embedded, task.old_index_name, task.paimon_version)


def _fill_report(report: RewriteReport, plan: RewritePlan, outcomes: list[IndexOutcome],
                 every: list[IndexOutcome]) -> None:
    changed = [o for o in outcomes if o.changed]
    report.files_indexed = sum(1 for t in plan.tasks if t.specs)
    report.files_changed = len(changed)
    report.embedded = sum(1 for o in changed if o.embedded is not None)
    report.index_files_written = sum(1 for o in changed if o.index_bytes_written)
    report.index_bytes_written = sum(o.index_bytes_written for o in changed)
    report.data_bytes_read = sum(o.data_bytes for o in every)
    report.rows_indexed = sum(o.rows for o in outcomes if o.data_bytes)
    report.new_index_files = sorted(o.index_file_name for o in changed if o.index_bytes_written and o.index_file_name)
