"""``remove_orphan_files`` as Paimon's procedure behaves: delete what :func:`~.orphans.find_orphans` names.

Only deletions happen, one file at a time, so an interrupted run leaves a table whose remaining orphans the next
run finds again; the report lists every file deleted (or, in a dry run, every file that would be).  Files
younger than ``older_than_ms`` (default: one day before now, as Paimon) are never touched, so a running writer's
uncommitted files survive.  As Paimon does when not dry-running, empty candidate directories older than
``older_than_ms`` and the bucket / partition directories the deletions emptied are removed too (local
filesystems only: an object store has no directories to remove).  A table whose metadata cannot be read
completely is refused (nothing deleted, the reason in the report).  One deviation from Paimon: a file in a
``data-file.external-paths`` root that another table of the warehouse uses is kept (``kept_shared``), where
Paimon would delete it and break that table.
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
import time
from dataclasses import dataclass, field

from .. import storage
from ..errors import InvalidOptionError
from ..report import JsonReport
from ..table.schema import load_schema
from .orphans import (
    DEFAULT_OLDER_THAN_MS,
    OrphanCheckRefused,
    OrphanFile,
    candidate_dirs,
    find_orphans,
    used_file_names,
)

__all__ = ["OrphanRemoval", "remove_orphan_files", "remove_orphans_in", "default_older_than_ms", "older_than_millis",
           "shared_external_files"]

log = logging.getLogger(__name__)


def shared_external_files(table_path: str, orphans: list[OrphanFile]) -> dict[str, str]:
    """Orphans outside the table directory (``data-file.external-paths``) that another table of the same
    warehouse uses, with that table's name.

    Paimon lists an external root whole, so its orphan clean of one table deletes the files of every other
    table writing to the same root.  A file another table's metadata names (or may name: its metadata cannot be
    read) is kept here and reported instead."""
    outside = [f for f in orphans if not f.path.startswith(table_path.rstrip("/") + "/")]
    if not outside:
        return {}
    warehouse = os.path.dirname(os.path.dirname(table_path.rstrip("/")))
    from ..table.table import list_tables

    out: dict[str, str] = {}
    for other in list_tables(warehouse):
        if storage.normalize(other) == table_path:
            continue
        name = os.path.basename(other)
        try:
            used = used_file_names(other)[0]
        except OrphanCheckRefused:
            out.update((f.path, f"{name} (its metadata cannot be read)") for f in outside if f.path not in out)
            continue
        out.update((f.path, name) for f in outside if f.path not in out and os.path.basename(f.path) in used)
    return out


@dataclass
class OrphanRemoval(JsonReport):
    table: str
    path: str
    dry_run: bool
    older_than_ms: int | None
    files: list[dict] = field(default_factory=list)  # {path, kind, size, mtime_ms} deleted (or would be)
    deleted_files: int = 0
    deleted_bytes: int = 0
    removed_dirs: list[str] = field(default_factory=list)
    kept_shared: list[dict] = field(default_factory=list)  # {path, table}: another table uses it (see above)
    refused: str | None = None


def default_older_than_ms() -> int:
    return int(time.time() * 1000) - DEFAULT_OLDER_THAN_MS


def older_than_millis(value: str | int | _dt.datetime | None) -> int:
    """Paimon's ``older_than``: ``None`` / empty is one day before now; text is a timestamp
    (``2026-11-28 10:00:00``, ISO 8601; without a zone in the local time zone, as Paimon parses it) or epoch
    milliseconds; a ``datetime`` (naive: local time); an ``int`` is epoch milliseconds."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default_older_than_ms()
    if isinstance(value, bool):
        raise InvalidOptionError(f"older_than must be a timestamp, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return int(text)
        try:
            value = _dt.datetime.fromisoformat(text)
        except ValueError:
            raise InvalidOptionError(f"older_than {text!r} is not a timestamp",
                                     expected="'yyyy-MM-dd HH:mm:ss[.SSS]', ISO 8601 or epoch milliseconds") from None
    if not isinstance(value, _dt.datetime):
        raise InvalidOptionError(f"older_than must be a timestamp, not {type(value).__name__}")
    return int(value.timestamp() * 1000)  # a naive datetime is local time, as Paimon's default time zone


def remove_orphans_in(location: str | os.PathLike, older_than_ms: int | None = -1,
                      dry_run: bool = True) -> list[OrphanRemoval]:
    """:func:`remove_orphan_files` on one table or every table of a warehouse / database directory."""
    from ..table.table import list_tables

    if older_than_ms == -1:
        older_than_ms = default_older_than_ms()
    return [remove_orphan_files(t, older_than_ms, dry_run) for t in list_tables(location)]


def _rmdir(path: str, stop: set[str]) -> bool:
    """Remove ``path`` if it is an empty local directory strictly inside the table (never one in ``stop``)."""
    if path in stop or not storage.is_local(path):
        return False
    try:
        os.rmdir(path)
    except OSError:
        return False
    return True


def _remove_empty_dirs(table_path: str, deleted: list[OrphanFile], older_than_ms: int | None) -> list[str]:
    schema = load_schema(table_path)
    levels = len(schema.partition_keys)
    roots = {table_path, os.path.dirname(table_path)}
    removed: list[str] = []
    dirs = candidate_dirs(table_path, schema.options, levels)
    roots.update(os.path.dirname(d) for d, kind in dirs if kind != "bucket")
    # empty candidate directories (Paimon: listed with no entries and old enough), then their emptied parents
    pending = set()
    for d, _kind in dirs:
        if storage.is_local(d) and os.path.isdir(d) and not os.listdir(d):
            mtime = os.stat(d).st_mtime_ns // 1_000_000
            if older_than_ms is None or mtime < older_than_ms:
                pending.add(d)
    while pending:
        nxt = set()
        for d in sorted(pending):
            if _rmdir(d, roots):
                removed.append(d)
                nxt.add(os.path.dirname(d))
        pending = {d for d in nxt if d.startswith(table_path + os.sep)}
    # bucket directories the deletions emptied, then their partition directories up the partition levels
    parents = {os.path.dirname(f.path) for f in deleted if "bucket-" in os.path.basename(os.path.dirname(f.path))}
    for d in sorted(parents):
        if _rmdir(d, roots):
            removed.append(d)
    level_dirs = {os.path.dirname(d) for d in parents}
    for _ in range(levels):
        emptied = [d for d in sorted(level_dirs) if _rmdir(d, roots)]
        removed.extend(emptied)
        level_dirs = {os.path.dirname(d) for d in emptied}
    return removed


def remove_orphan_files(table_path: str | os.PathLike, older_than_ms: int | None = -1,
                        dry_run: bool = True) -> OrphanRemoval:
    """Delete (``dry_run=False``) the orphan files of one table; the report lists them either way.

    ``older_than_ms``: epoch milliseconds; ``-1`` is Paimon's default (one day before now).  A time in the
    future is refused for a real run, as Paimon refuses it (a running writer's files would go)."""
    path = storage.normalize(table_path)
    if older_than_ms == -1:
        older_than_ms = default_older_than_ms()
    now = int(time.time() * 1000)
    if not dry_run and (older_than_ms is None or older_than_ms > now):
        raise InvalidOptionError("older_than must be before now for a deleting run: files being written and "
                                 "not yet committed would be deleted", path=path)
    try:
        scan = find_orphans(path, older_than_ms)
    except OrphanCheckRefused as exc:
        log.warning("orphan removal refused for %s: %s", path, exc)
        return OrphanRemoval(os.path.basename(path), path, dry_run, older_than_ms, refused=str(exc))
    report = OrphanRemoval(scan.table, path, dry_run, older_than_ms)
    shared = shared_external_files(path, scan.orphans)
    report.kept_shared = [{"path": p, "table": t} for p, t in sorted(shared.items())]
    deleted: list[OrphanFile] = []
    for f in scan.orphans:
        if f.path in shared:
            continue
        if not dry_run:
            try:
                storage.delete(f.path)
            except OSError as exc:  # Paimon deletes quietly: a file it could not delete is not reported
                log.warning("could not delete %s: %s", f.path, exc)
                continue
        deleted.append(f)
    report.files = [f.to_dict() for f in deleted]
    report.deleted_files = len(deleted)
    report.deleted_bytes = sum(f.size for f in deleted)
    if not dry_run:
        report.removed_dirs = _remove_empty_dirs(path, deleted, older_than_ms)
    return report
