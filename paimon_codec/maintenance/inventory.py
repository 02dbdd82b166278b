"""Every index file of a table: what the retained snapshots reference, what is on disk, and checks.

:func:`table_inventory` (driver side, reads metadata) lists one :class:`IndexTask` per index file
referenced by any retained snapshot — table-level ``HASH`` / ``DELETION_VECTORS`` files, data files'
``.index`` files and embedded containers, each with the schema its data file was written under — and
reports *missing* referenced files and *orphans*: every file Paimon's own orphan clean would delete
(:mod:`.orphans`: data, changelog, manifest, index, statistics and temporary files no snapshot, tag,
branch or long-lived changelog uses).  :func:`check_index_task` decodes one
task completely and :func:`index_rows` turns one task into rows for the ``paimon_index`` data source
(both in :mod:`.index_checks`, re-exported here).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import storage
from ..errors import PaimonCodecError
from ..report import JsonReport
from ..table.changelog_files import changelog_files, long_lived_changelogs
from ..table.index_manifest import DELETION_VECTORS_INDEX, HASH_INDEX
from ..table.table import PaimonTable, branch_names
from .index_checks import KIND_DV, KIND_FILE_INDEX, KIND_HASH, check_index_task, classify, index_rows
from .orphan_clean import shared_external_files
from .orphans import OrphanCheckRefused, find_orphans, is_temp_file

__all__ = ["IndexTask", "Finding", "table_inventory", "check_index_task", "index_rows",
           "KIND_DV", "KIND_HASH", "KIND_FILE_INDEX", "is_temp_file"]


@dataclass
class IndexTask:
    """One index file (or embedded container) to decode; only plain fields so Spark can ship it."""

    table: str
    table_path: str
    kind: str
    path: str
    index_type: str
    bucket: int | None = None
    partition: str | None = None
    data_file: str | None = None
    file_size: int | None = None
    row_count: int | None = None
    ranges: list[list] = field(default_factory=list)  # [data file, offset, length, cardinality]
    row_type: str | None = None  # "a INT, b STRING" for file-index containers
    embedded: bytes | None = None
    in_latest_snapshot: bool = True
    global_index: dict | None = None  # _GLOBAL_INDEX files: paimon_codec.globalindex.audit.task_fields

    def to_row(self) -> dict:
        return asdict(self)


@dataclass
class Finding(JsonReport):
    table: str
    path: str
    kind: str
    finding: str  # missing | orphan | orphan-check-skipped | checksum | corrupt | unsupported-version |
    #                size-mismatch | count-mismatch
    message: str


def _temp_files_outside(table_path: str, orphans: set[str]) -> Iterator[str]:
    """Temporary files of interrupted writes in directories Paimon's orphan clean does not list (``schema/``,
    ``tag/``, ...): never referenced, but left to the operator (Paimon's clean leaves them too)."""
    if not storage.is_local(table_path):
        return
    for root, _dirs, files in os.walk(table_path):
        for name in sorted(files):
            p = os.path.join(root, name)
            if is_temp_file(name) and p not in orphans:
                yield p


def _views(table: PaimonTable) -> list[PaimonTable]:
    """The table and each of its branches (they share manifests, index and data files)."""
    views = [table]
    for name in branch_names(table.path):
        views.append(PaimonTable(table.path, branch=name))
    return views


def _snapshots(view: PaimonTable) -> Iterator[tuple[str, Any]]:
    """``(label, loader)`` of every retained snapshot (newest first), every tag and every long-lived changelog
    (``changelog/``: only its changelog files are read) of one view."""
    where = "" if view.branch is None else f"branch {view.branch} "
    for sid in reversed(view.snapshot_ids()):
        yield f"{where}snapshot {sid}", (lambda sid=sid: view.snapshot(sid))
    for tag in view.tag_names():
        yield f"{where}tag {tag}", (lambda tag=tag: view.tag(tag))
    yield f"{where}changelogs", None


def _read_snapshot(view: PaimonTable, load) -> tuple[list, list, int | None, Any]:
    """Index files and data files (changelog files included) of one snapshot or tag, or - ``load`` None - the
    changelog files of every long-lived changelog of ``view``; the snapshot id and its schema (global
    indexes name their column by the snapshot's field ids)."""
    if load is None:
        return [], [f for _label, cl in long_lived_changelogs(view) for f in changelog_files(view, cl)], None, None
    snap = load()
    return (view.index_files(snap), view.live_files(snap) + changelog_files(view, snap), snap.id,
            view.schema_of(snap))


def table_inventory(table: PaimonTable | str) -> tuple[list[IndexTask], list[Finding]]:
    """Index tasks of every retained snapshot, tag and branch (newest first wins) and driver-side
    findings.

    When any metadata file (snapshot, schema, manifest list, manifest, index manifest) of the table
    cannot be read, that is a finding about that file and orphan detection stops for the table: an
    unread manifest may reference any file on disk, and calling a used file an orphan invites its
    deletion.
    """
    if not isinstance(table, PaimonTable):
        table = PaimonTable(table)
    tasks: dict[str, IndexTask] = {}
    findings: list[Finding] = []
    ids = table.snapshot_ids()
    latest = ids[-1] if ids else None
    metadata_complete = True
    try:
        views = _views(table)
    except PaimonCodecError as exc:
        views = [table]
        metadata_complete = False
        findings.append(Finding(table.name, str(exc.path or table.path), "metadata", classify(exc),
                                f"branch: {exc}"))
    for view in views:
        for label, load in _snapshots(view):
            try:
                index_files, live, sid, schema = _read_snapshot(view, load)
                # an index is judged under the schema of the data file it belongs to (as the scan does): after
                # ALTER TABLE an old file's keys are of its old column types and names
                row_types = {i: str(view.schema_by_id(i).fields) for i in {d.meta.schema_id for d in live}}
            except PaimonCodecError as exc:
                metadata_complete = False
                findings.append(Finding(table.name, str(exc.path or view.meta_path), "metadata", classify(exc),
                                        f"{label}: {exc}"))
                continue
            except OSError as exc:  # a metadata file named by the snapshot is missing or unreadable
                metadata_complete = False
                findings.append(Finding(table.name, str(exc.filename or view.meta_path), "metadata",
                                        "missing" if isinstance(exc, FileNotFoundError) else "corrupt",
                                        f"{label}: {exc.strerror or exc}"))
                continue
            in_latest = view is table and sid == latest and label.startswith("snapshot")
            _add_snapshot_tasks(table, schema, index_files, live, row_types, in_latest, tasks)
    out = []
    for t in tasks.values():
        if t.embedded is None and not storage.exists(t.path):
            findings.append(Finding(t.table, t.path, t.kind, "missing",
                                    f"{t.index_type} index file referenced by snapshot metadata does not exist"))
        else:
            out.append(t)
    if not metadata_complete:
        findings.append(Finding(table.name, table.path, "metadata", "orphan-check-skipped",
                                "orphan detection skipped: some metadata of the table could not be read"))
        return out, findings
    findings.extend(_orphan_findings(table))
    return out, findings


def _orphan_findings(table: PaimonTable) -> list[Finding]:
    """What Paimon's orphan clean would delete, however new (``remove-orphans`` spares young files), plus
    temporary files where that clean does not look."""
    try:
        scan = find_orphans(table.path, older_than_ms=None)
    except OrphanCheckRefused as exc:
        return [Finding(table.name, str(exc.path or table.path), "metadata", "orphan-check-skipped",
                        f"orphan detection skipped: {exc}")]
    shared = shared_external_files(table.path, scan.orphans)
    out = [Finding(table.name, f.path, f.kind, "orphan", _ORPHAN_MESSAGE.get(f.kind, _ORPHAN_MESSAGE["other"]))
           if f.path not in shared else
           Finding(table.name, f.path, f.kind, "shared-external-file",
                   f"table {shared[f.path]} uses this file in the external path this table shares with it: "
                   "Paimon's orphan clean of this table would delete it (remove-orphans keeps it)")
           for f in scan.orphans]
    for p in _temp_files_outside(table.path, {f.path for f in scan.orphans}):
        out.append(Finding(table.name, p, "temp", "temp-file", "temporary file of an interrupted write outside "
                                                              "the directories Paimon's orphan clean lists"))
    return out


_ORPHAN_MESSAGE = {
    "temp": "temporary file of an interrupted write (no reader uses it; delete once no writer runs)",
    "snapshot-dir": "file in the snapshot directory that is neither a snapshot nor a hint",
    "changelog-dir": "file in the changelog directory that is neither a changelog nor a hint",
    "other": "file is used by no retained snapshot, tag, branch or changelog (Paimon's orphan clean deletes it)",
}
for _kind in ("data-file", "changelog-file", "file-index", "index", "manifest", "manifest-list", "index-manifest",
              "statistics"):
    _ORPHAN_MESSAGE[_kind] = (f"{_kind} is used by no retained snapshot, tag, branch or changelog "
                              "(Paimon's orphan clean deletes it)")


def _add_snapshot_tasks(table: PaimonTable, schema, index_files, live, row_types: dict[int, str], in_latest: bool,
                        tasks: dict[str, IndexTask]) -> None:
    for f in index_files:
        if f.path in tasks:
            continue
        meta = f.entry.index_file
        kind = {DELETION_VECTORS_INDEX: KIND_DV, HASH_INDEX: KIND_HASH}.get(meta.index_type, meta.index_type)
        ranges = [[r.data_file, r.offset, r.length, r.cardinality] for r in (meta.dv_ranges or ())]
        tasks[f.path] = IndexTask(table.name, table.path, kind, f.path, meta.index_type, f.bucket,
                                  repr(f.partition), None, meta.file_size, meta.row_count, ranges,
                                  None, None, in_latest)
        if meta.global_index is not None:  # decoded by paimon_codec.globalindex.audit
            from ..globalindex.audit import KIND_GLOBAL_INDEX, task_fields

            tasks[f.path].kind, tasks[f.path].global_index = KIND_GLOBAL_INDEX, task_fields(schema, meta)
    for d in live:
        row_type = row_types[d.meta.schema_id]
        if d.index_path:
            if d.index_path not in tasks:
                tasks[d.index_path] = IndexTask(table.name, table.path, KIND_FILE_INDEX, d.index_path,
                                                "file-index", d.bucket, repr(d.partition), d.path,
                                                row_count=d.row_count, row_type=row_type,
                                                in_latest_snapshot=in_latest)
        elif d.embedded_index:
            key = d.path + "#embedded"
            if key not in tasks:
                tasks[key] = IndexTask(table.name, table.path, KIND_FILE_INDEX, key, "embedded-file-index",
                                       d.bucket, repr(d.partition), d.path, len(d.embedded_index),
                                       d.row_count, row_type=row_type, embedded=bytes(d.embedded_index),
                                       in_latest_snapshot=in_latest)
