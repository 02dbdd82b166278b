"""Paimon's commit protocol: plan on the latest snapshot, write metadata, claim the next snapshot id.

One attempt: read the latest snapshot ``N``; plan (conflicts are :class:`CommitConflictError`); write
the delta manifest(s), the base manifest list (the previous base + delta manifests, merged when there
are ``manifest.merge-min-count`` of them), the delta manifest list and, when index files change, a new
index manifest; then create ``snapshot/snapshot-<N+1>`` *only if absent*
(:func:`paimon_codec.storage.create_if_absent`: a hard link on local disk, a conditional PUT on S3).
Whoever creates the file owns id ``N+1``; a writer that finds it taken deletes what its attempt wrote
and re-plans on the new latest snapshot.  After the snapshot, the ``LATEST`` hint (and ``EARLIEST``
when missing) is replaced atomically; readers never trust a hint whose next snapshot exists.
"""

from __future__ import annotations

import logging
import os
import random
import time
import uuid
from collections.abc import Callable, Iterable, Sequence

from ... import storage
from ...errors import CommitConflictError, PaimonCodecError, UsageError
from ...memory_size import parse_memory_size
from ...modes import CommitKind, CommitKindLike, MetadataLayout, mode_value
from ...table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE
from ...table.snapshot import Snapshot, earliest_snapshot_id
from ...table.table import PaimonTable
from .changes import CommitResult, FileChange, IndexChange
from .manifests import MetadataWriter, full_merge, merge_manifests
from .plan import encode_partition, java_identifier, plan_commit
from .records import index_entry_record
from .snapshot_json import BATCH_COMMIT_IDENTIFIER, SnapshotFields, snapshot_json
from .table_layout import detect_layout

__all__ = ["commit_changes", "COMMIT_KINDS"]

log = logging.getLogger(__name__)
COMMIT_KINDS = tuple(k.value for k in CommitKind)


def _split(changes: Iterable[FileChange | IndexChange]) -> tuple[list[FileChange], list[IndexChange]]:
    files, indexes = [], []
    for c in changes:
        if isinstance(c, FileChange):
            files.append(c)
        elif isinstance(c, IndexChange):
            indexes.append(c)
        else:
            raise UsageError(f"not a commit change: {type(c).__name__}", expected="FileChange or IndexChange")
    return files, indexes


def commit_changes(table_path: str | os.PathLike, changes: Iterable[FileChange | IndexChange], *,
                   commit_user: str | None = None, kind: CommitKindLike = CommitKind.APPEND, retries: int = 50,
                   commit_identifier: int = BATCH_COMMIT_IDENTIFIER,
                   overwrite_partitions: Sequence[bytes | tuple] | None = None,
                   layout: MetadataLayout | str | None = None, branch: str | None = None,
                   precondition: Callable[[PaimonTable, Snapshot | None], None] | None = None) -> CommitResult:
    """Commit ``changes`` as one new snapshot of the table at ``table_path``.

    ``kind`` (a :class:`~paimon_codec.modes.CommitKind` or its name): ``APPEND`` (add / delete exactly the given files), ``OVERWRITE`` (also delete every
    live file and index file of ``overwrite_partitions``; default: the partitions the commit adds
    to, the whole table when it is unpartitioned) or ``COMPACT`` (a rewrite of existing files).
    ``layout`` (``"0.9"`` / ``"newest"``) only matters for a table without manifests yet.  ``branch``
    commits to a branch (its snapshots and hints under ``branch/branch-<name>/``; manifests are shared).
    Retries up to ``retries`` times when another writer takes the snapshot id first; raises
    :class:`CommitConflictError` when the table changed in a way that conflicts with the changes.
    A commit without changes writes nothing (``snapshot_id`` is ``None``).  ``precondition(table, latest)``
    runs on the latest snapshot of every attempt and raises :class:`CommitConflictError` when the changes
    no longer fit it (e.g. another writer added to a bucket whose sequence numbers they continue).
    """
    kind_name = mode_value(CommitKind, kind, "commit kind", fold_case=True)
    files, indexes = _split(changes)
    path = os.fspath(table_path)
    user = commit_user or str(uuid.uuid4())
    for attempt in range(1, retries + 2):
        result = _attempt(path, branch, files, indexes, kind_name, user, commit_identifier, overwrite_partitions,
                          None if layout is None else str(layout), attempt, precondition)
        if result is not None:
            return result
        time.sleep(min(1.0, 0.01 * attempt) * random.random())
    raise CommitConflictError(f"gave up after {retries + 1} attempts: other writers took every snapshot id",
                              path=path, expected="fewer concurrent writers or more retries")


def _attempt(path: str, branch: str | None, files: list[FileChange], indexes: list[IndexChange], kind: str,
             user: str, identifier: int, overwrite_partitions, layout: str | None, attempt: int,
             precondition: Callable[[PaimonTable, Snapshot | None], None] | None = None) -> CommitResult | None:
    table = PaimonTable(path, branch=branch)
    latest = table.snapshot()
    if precondition is not None:
        precondition(table, latest)
    parts = None if overwrite_partitions is None else [encode_partition(table, p) for p in overwrite_partitions]
    plan = plan_commit(table, latest, files, indexes, kind, parts)
    if not plan.entries and plan.index_entries is None and kind != "OVERWRITE":
        return CommitResult(None, attempt, commit_kind=kind)
    tl = detect_layout(table, latest, layout)
    options = table.schema.options
    writer = MetadataWriter(table.manifest_dir, tl.manifest_schema, tl.list_schema, tl.index_schema, tl.codec,
                            [f.type for f in table.schema.partition_type],
                            parse_memory_size(options.get("manifest.target-file-size", "8 mb")))
    schema_id = table.schema.id
    try:
        storage.makedirs(table.manifest_dir)
        delta_metas = writer.write_manifests(plan.entries, schema_id)
        base_metas = []
        if latest is not None:
            base_metas = table.manifest_list(latest.base_manifest_list) + table.manifest_list(latest.delta_manifest_list)
        min_count = int(options.get("manifest.merge-min-count", "30"))
        if plan.full_merge:
            merged = len(base_metas)
            base_metas, kept = full_merge(base_metas, table.manifest, writer, schema_id)
            _check_readd(path, plan.entries, kept)
        else:
            base_metas, merged = merge_manifests(base_metas, table.manifest, writer, min_count, schema_id)
        base_list, base_size = writer.write_list(base_metas)
        delta_list, delta_size = writer.write_list(delta_metas)
        index_manifest = latest.index_manifest if latest is not None else None
        if plan.index_entries is not None:
            index_manifest = writer.write_index_manifest(
                [index_entry_record(FILE_KIND_ADD, e.partition, e.bucket, e.index_file) for e in plan.index_entries]
            ) if plan.index_entries else None
        sid = 1 if latest is None else latest.id + 1
        total = (latest.total_record_count or 0) if latest is not None else 0
        fields = SnapshotFields(
            id=sid, schema_id=schema_id, base_manifest_list=base_list, base_manifest_list_size=base_size,
            delta_manifest_list=delta_list, delta_manifest_list_size=delta_size, index_manifest=index_manifest,
            commit_user=user, commit_identifier=identifier, commit_kind=kind, time_millis=int(time.time() * 1000),
            total_record_count=total + plan.record_delta, delta_record_count=plan.record_delta,
            next_row_id=plan.next_row_id)
        snapshot_dir = storage.join(table.meta_path, "snapshot")
        storage.makedirs(snapshot_dir)
        won = storage.create_if_absent(storage.join(snapshot_dir, f"snapshot-{sid}"), snapshot_json(fields, tl.layout))
    except BaseException:
        _clean(table.manifest_dir, writer.written)
        raise
    if not won:
        log.info("snapshot %d of %s was taken by another writer (attempt %d); re-planning", sid, path, attempt)
        _clean(table.manifest_dir, writer.written)
        return None
    try:
        _update_hints(table.meta_path, snapshot_dir, sid)
    except (OSError, PaimonCodecError) as exc:  # committed all the same: readers fall back to listing
        log.warning("snapshot %d of %s is committed but its LATEST / EARLIEST hint was not updated: %s", sid, path, exc)
    return CommitResult(sid, attempt, tuple(writer.written), kind,
                        added_files=sum(1 for e in plan.entries if e.kind == FILE_KIND_ADD),
                        deleted_files=sum(1 for e in plan.entries if e.kind == FILE_KIND_DELETE),
                        merged_manifests=merged)


def _check_readd(path: str, delta: list, base: list) -> None:
    """After a full merge no DELETE may still carry the identifier of a file this commit adds."""
    deleted = {java_identifier(e) for e in base if e.kind == FILE_KIND_DELETE}
    for e in delta:
        if e.kind == FILE_KIND_ADD and java_identifier(e) in deleted:
            raise CommitConflictError(f"data file {e.file.file_name} would be re-added with metadata a manifest "
                                      "still deletes, which hides it from Paimon >= 1.0 readers", path=path)


def _clean(manifest_dir: str, names: list[str]) -> None:
    for name in names:
        try:
            storage.delete(storage.join(manifest_dir, name))
        except OSError as exc:  # an orphan is harmless: nothing references it
            log.warning("could not delete %s after a lost commit attempt: %s", name, exc)


def _update_hints(path: str, snapshot_dir: str, sid: int) -> None:
    """``LATEST`` := ``sid`` unless a newer snapshot already exists; ``EARLIEST`` when it is missing."""
    if not storage.exists(storage.join(snapshot_dir, f"snapshot-{sid + 1}")):
        storage.write_atomic(storage.join(snapshot_dir, "LATEST"), str(sid).encode())
    if not storage.exists(storage.join(snapshot_dir, "EARLIEST")):
        earliest = earliest_snapshot_id(path)
        storage.write_atomic(storage.join(snapshot_dir, "EARLIEST"), str(earliest or sid).encode())
