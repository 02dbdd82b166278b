"""Planning one commit attempt on the table's latest snapshot: which entries to write, and conflicts.

A plan is made afresh for every attempt, so a commit that lost a snapshot id to another writer is
re-planned on the new latest snapshot (its OVERWRITE deletes, row ids and record counts follow that
snapshot).  The table changed underneath *in a conflicting way* when a file the commit deletes is no
longer live, a file it adds is already live, an index file it deletes is gone, or the bucket count of
a partition differs: that is a :class:`~.changes.CommitConflictError`, never retried.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...binary_row import serialize_binary_row
from ...errors import CommitConflictError
from ...table.index_manifest import DELETION_VECTORS_INDEX, IndexManifestEntry, merge_index_entries
from ...table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE, ManifestEntry, merge_entries
from ...table.snapshot import Snapshot
from ...table.table import PaimonTable
from .changes import FileChange, IndexChange

__all__ = ["CommitPlan", "plan_commit", "encode_partition"]


@dataclass
class CommitPlan:
    entries: list[ManifestEntry]  # the delta manifest, DELETEs before ADDs
    index_entries: list[IndexManifestEntry] | None  # the new live index set; None: unchanged
    record_delta: int
    next_row_id: int | None
    full_merge: bool = False  # an ADD re-adds metadata a manifest still DELETEs: merge it away first


def encode_partition(table: PaimonTable, partition: bytes | tuple) -> bytes:
    if isinstance(partition, bytes):
        return partition
    types = [f.type for f in table.schema.partition_type]
    if len(partition) != len(types):
        raise CommitConflictError(f"partition {partition!r} has {len(partition)} values",
                                  path=table.path, expected=f"{len(types)} ({', '.join(table.schema.partition_keys)})")
    return serialize_binary_row(types, list(partition))


def _name(e: ManifestEntry | FileChange) -> str:
    return e.file.file_name


def file_key(e: ManifestEntry) -> tuple:
    """The data file itself, whatever its index metadata."""
    return (e.partition, e.bucket, e.file.level, e.file.file_name)


def java_identifier(e: ManifestEntry) -> tuple:
    """Paimon >= 1.0's ``FileEntry.Identifier``: the file plus its extra files, embedded index and external
    path.  Its readers collect the identifiers of every DELETE entry and drop each ADD carrying one, so an
    identifier may be added once and deleted once, never re-added (Paimon 0.9 replays entries in order)."""
    f = e.file
    return (e.partition, e.bucket, f.level, f.file_name, tuple(f.extra_files), f.embedded_index, f.external_path)


def _drop_no_ops(deletes: list[ManifestEntry], adds: list[ManifestEntry]) -> tuple[list, list]:
    """A DELETE and an ADD of identical metadata change nothing - and would hide the file from Paimon
    >= 1.0 readers (the ADD carries a deleted identifier) - so both are left out."""
    same = {java_identifier(e) for e in deletes} & {java_identifier(e) for e in adds}
    if not same:
        return deletes, adds
    return ([e for e in deletes if java_identifier(e) not in same],
            [e for e in adds if java_identifier(e) not in same])


def plan_commit(table: PaimonTable, latest: Snapshot | None, files: Sequence[FileChange],
                indexes: Sequence[IndexChange], kind: str, overwrite_partitions: Sequence[bytes] | None) -> CommitPlan:
    bucket_opt = table.schema.bucket
    default_total = bucket_opt if bucket_opt > 0 else -1
    deletes = [ManifestEntry(FILE_KIND_DELETE, encode_partition(table, c.partition), c.bucket,
                             c.total_buckets if c.total_buckets is not None else default_total, c.file)
               for c in files if c.kind == FILE_KIND_DELETE]
    adds = [ManifestEntry(FILE_KIND_ADD, encode_partition(table, c.partition), c.bucket,
                          c.total_buckets if c.total_buckets is not None else default_total, c.file)
            for c in files if c.kind == FILE_KIND_ADD]
    overwrite = kind == "OVERWRITE"
    targets: set[bytes] | None = None
    if overwrite:
        if overwrite_partitions is not None:
            targets = set(overwrite_partitions)
        elif table.schema.partition_keys:
            targets = {e.partition for e in adds}
    need_live = bool(deletes) or overwrite or any(i.kind == FILE_KIND_DELETE for i in indexes) \
        or any(_is_dv_add(i) for i in indexes)
    live: dict[tuple, ManifestEntry] = {}
    history_deleted: set[tuple] = set()
    if need_live and latest is not None:
        entries = table.manifest_entries(latest)
        live = {file_key(e): e for e in merge_entries(entries)}
        history_deleted = {java_identifier(e) for e in entries if e.kind == FILE_KIND_DELETE}
    if overwrite:
        mine = {file_key(e) for e in deletes}
        deletes += [replace(e, kind=FILE_KIND_DELETE) for k, e in live.items()
                    if k not in mine and (targets is None or e.partition in targets)]
    deletes, adds = _drop_no_ops(deletes, adds)
    deleted = set()
    for e in deletes:
        have = live.get(file_key(e))
        if have is None:
            raise CommitConflictError(f"data file {_name(e)} (bucket {e.bucket}) to delete is not live in "
                                      f"snapshot {latest.id if latest else None}: another commit removed it",
                                      path=table.path)
        if java_identifier(have) != java_identifier(e):
            raise CommitConflictError(f"data file {_name(e)} (bucket {e.bucket}) changed since it was read "
                                      f"(snapshot {latest.id if latest else None} holds other index metadata): "
                                      "another commit rewrote it", path=table.path)
        if file_key(e) in deleted:
            raise CommitConflictError(f"data file {_name(e)} is deleted twice by this commit", path=table.path)
        deleted.add(file_key(e))
    seen = set()
    for e in adds:
        if file_key(e) in seen or (file_key(e) in live and file_key(e) not in deleted):
            raise CommitConflictError(f"data file {_name(e)} (bucket {e.bucket}) is already live", path=table.path)
        seen.add(file_key(e))
    readd = any(java_identifier(e) in history_deleted for e in adds)
    _check_buckets(table, live, adds)
    next_row_id = None if latest is None else latest.raw.get("nextRowId")
    if table.schema.option_bool("row-tracking.enabled"):
        next_row_id = int(next_row_id or 0)
        assigned = []
        for e in adds:
            if e.file.first_row_id is None:
                e = replace(e, file=replace(e.file, first_row_id=next_row_id))
                next_row_id += e.file.row_count
            assigned.append(e)
        adds = assigned
    index_entries = _plan_indexes(table, latest, indexes, targets if overwrite else set(), overwrite)
    _check_dv_targets(table, live, deletes, adds, indexes, index_entries)
    delta = sum(e.file.row_count for e in adds) - sum(e.file.row_count for e in deletes)
    return CommitPlan(deletes + adds, index_entries, delta, next_row_id, readd)


def _check_buckets(table: PaimonTable, live: dict[tuple, ManifestEntry], adds: list[ManifestEntry]) -> None:
    if not live:
        return
    totals: dict[bytes, int] = {}
    for e in live.values():
        totals.setdefault(e.partition, e.total_buckets)
    for e in adds:
        have = totals.get(e.partition)
        if have is not None and e.total_buckets > 0 and have > 0 and have != e.total_buckets:
            raise CommitConflictError(f"partition holds {have} buckets, the commit writes {e.total_buckets}",
                                      path=table.path, expected="a rescale (overwrite) before writing")


def _plan_indexes(table: PaimonTable, latest: Snapshot | None, indexes: Sequence[IndexChange],
                  targets: set[bytes] | None, overwrite: bool) -> list[IndexManifestEntry] | None:
    if not indexes and not overwrite:
        return None
    live = {e.identifier: e for e in (table.index_entries(latest) if latest is not None else [])}
    before = set(live)
    if overwrite:
        for k, e in list(live.items()):
            if targets is None or e.partition in targets:
                del live[k]
    for c in indexes:
        e = IndexManifestEntry(c.kind, encode_partition(table, c.partition), c.bucket, c.index_file)
        if c.kind == FILE_KIND_DELETE:
            if e.identifier not in live:
                raise CommitConflictError(f"index file {c.index_file.file_name} to delete is not live: another "
                                          "commit removed it", path=table.path)
            del live[e.identifier]
        else:
            if e.identifier in live:
                raise CommitConflictError(f"index file {c.index_file.file_name} is already live", path=table.path)
            live[e.identifier] = e
    if set(live) == before and not indexes:
        return None
    return merge_index_entries(live.values())


def _is_dv_add(c: IndexChange) -> bool:
    return c.kind == FILE_KIND_ADD and c.index_file.index_type == DELETION_VECTORS_INDEX


def _check_dv_targets(table: PaimonTable, live: dict[tuple, ManifestEntry], deletes: list[ManifestEntry],
                      adds: list[ManifestEntry], indexes: Sequence[IndexChange],
                      index_entries: list[IndexManifestEntry] | None) -> None:
    """A deletion vector the commit adds must mark a data file live after it, and be that file's only
    vector (Paimon's rule: two commits changing one file's deletion vector conflict).  Catches a
    compaction that removed the file and a concurrent delete that gave it a vector first."""
    new = [c for c in indexes if _is_dv_add(c)]
    if not new:
        return
    gone = {file_key(e) for e in deletes}
    files = {(e.partition, e.bucket, e.file.file_name) for k, e in live.items() if k not in gone}
    files |= {(e.partition, e.bucket, e.file.file_name) for e in adds}
    holders: dict[tuple, list[str]] = {}
    for e in index_entries or ():
        if e.index_file.index_type == DELETION_VECTORS_INDEX:
            for r in e.index_file.dv_ranges or ():
                holders.setdefault((e.partition, e.bucket, r.data_file), []).append(e.index_file.file_name)
    unaware = table.schema.bucket == -1 and not table.schema.is_primary_key_table
    per_bucket: dict[tuple, int] = {}
    for e in index_entries or ():
        if e.index_file.index_type == DELETION_VECTORS_INDEX:
            per_bucket[(e.partition, e.bucket)] = per_bucket.get((e.partition, e.bucket), 0) + 1
    for c in new:
        part = encode_partition(table, c.partition)
        if not unaware and per_bucket.get((part, c.bucket), 0) > 1:
            raise CommitConflictError(f"bucket {c.bucket} would hold {per_bucket[(part, c.bucket)]} deletion-vector "
                                      "index files (Paimon keeps one per bucket): another commit changed the "
                                      "bucket's deletion vectors", path=table.path)
        for r in c.index_file.dv_ranges or ():
            key = (part, c.bucket, r.data_file)
            if key not in files:
                raise CommitConflictError(f"deletion vector of data file {r.data_file} (bucket {c.bucket}): the "
                                          "file is not live: another commit removed it", path=table.path)
            if len(holders.get(key, ())) > 1:
                raise CommitConflictError(f"data file {r.data_file} (bucket {c.bucket}) would have deletion "
                                          f"vectors in {sorted(holders[key])}: another commit changed its "
                                          "deletion vector", path=table.path)
