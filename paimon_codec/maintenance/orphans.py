"""Orphan files exactly as Paimon's orphan clean sees them (``OrphanFilesClean`` / ``LocalOrphanFilesClean``,
Paimon 1.4).

Paimon compares **file names**: a file is used when any retained snapshot, tag or long-lived changelog
(``changelog/changelog-<id>``) of any branch names it - its base, delta and changelog manifest lists, every
manifest those lists name, every data file and extra file (``.index`` file indexes) of those manifests' entries
(added or deleted), its index manifest and every index file in it, its statistics file.  The candidates are the
files (never directories) directly in the table's ``manifest/``, ``index/`` and ``statistics/`` directories and
in every bucket directory under the data root (``data-file.path-directory``) and each
``data-file.external-paths`` root, walking one level per partition key through ``k=v`` directories.  Files in
the ``snapshot/`` and ``changelog/`` directories of every branch that are not snapshots / changelogs or hints are
orphans without further check.  Only files older than ``older_than_ms`` (modification time) are candidates.

Paimon skips a manifest it cannot find (an expiry may be running); this module refuses instead
(:class:`OrphanCheckRefused`): a check that could not read every metadata file never names a file.  It also
refuses where Paimon does: a branch without a schema.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pyarrow.fs as pafs

from .. import storage
from ..errors import PaimonCodecError
from ..report import JsonReport
from ..table.index_manifest import read_index_manifest
from ..table.manifest import read_manifest, read_manifest_list
from ..table.metadata_files import numbered_ids
from ..table.paths import strip_scheme
from ..table.schema import load_schema
from ..table.snapshot import (
    Snapshot,
    changelog_ids,
    load_changelog,
    load_snapshot,
    read_tag,
    snapshot_ids,
    tag_names,
)

__all__ = ["OrphanFile", "OrphanScan", "OrphanCheckRefused", "find_orphans", "used_file_names",
           "DEFAULT_OLDER_THAN_MS", "file_kind", "is_temp_file"]

DEFAULT_OLDER_THAN_MS = 24 * 3600 * 1000  # Paimon's default: files younger than one day are never touched
_HINTS = ("EARLIEST", "LATEST")


class OrphanCheckRefused(PaimonCodecError):
    """Some metadata the used-file set depends on could not be read: no file may be called an orphan."""


@dataclass
class OrphanFile(JsonReport):
    path: str
    kind: str
    size: int
    mtime_ms: int


@dataclass
class OrphanScan(JsonReport):
    """What one table's orphan check found: ``orphans`` (sorted by path) and what it looked at."""

    table: str
    older_than_ms: int | None
    orphans: list[OrphanFile] = field(default_factory=list)
    branches: list[str] = field(default_factory=list)
    snapshots_read: int = 0
    candidates: int = 0
    used_names: int = 0


def is_temp_file(name: str) -> bool:
    """A temporary file of an atomic write: ``storage.TEMP_PREFIX`` (``.tmp-<name>.*``, the one writer's), or
    ``.<name>.*.tmp`` that versions before it left when ``storage.write_atomic`` had a scheme of its own."""
    return name.startswith(storage.TEMP_PREFIX) or (name.startswith(".") and name.endswith(".tmp"))


def file_kind(directory_kind: str, name: str) -> str:
    """What an orphan is, from where it lies and its name (Paimon's file-name prefixes)."""
    if is_temp_file(name):
        return "temp"
    if directory_kind == "manifest":
        for prefix, kind in (("manifest-list-", "manifest-list"), ("index-manifest-", "index-manifest"),
                             ("manifest-", "manifest")):
            if name.startswith(prefix):
                return kind
        return "other"
    if directory_kind == "bucket":
        if name.endswith(".index"):
            return "file-index"
        for prefix, kind in (("changelog-", "changelog-file"), ("data-", "data-file"), ("index-", "index")):
            if name.startswith(prefix):
                return kind
        return "other"
    return directory_kind  # index, statistics, snapshot-dir, changelog-dir


# ------------------------------------------------------------------------------------------- listing
@dataclass(frozen=True)
class _Status:
    path: str
    name: str
    is_dir: bool
    size: int
    mtime_ms: int


def _list_status(directory: str) -> list[_Status]:
    """Entries directly under ``directory`` with size and modification time (ms); none if it is absent."""
    fs, p = storage.filesystem_for(directory)
    if isinstance(fs, pafs.LocalFileSystem):
        try:
            with os.scandir(p) as it:
                out = []
                for e in it:
                    st = e.stat(follow_symlinks=True)
                    out.append(_Status(e.path, e.name, e.is_dir(), st.st_size, st.st_mtime_ns // 1_000_000))
                return sorted(out, key=lambda s: s.name)
        except (FileNotFoundError, NotADirectoryError):
            return []
    with storage.store_errors(directory):
        try:
            infos = fs.get_file_info(pafs.FileSelector(p, allow_not_found=True))
        except NotADirectoryError:
            return []
    out = []
    for i in infos:
        name = i.path.rstrip("/").rsplit("/", 1)[-1]
        mtime = i.mtime_ns // 1_000_000 if i.mtime_ns is not None else 0
        out.append(_Status(directory.rstrip("/") + "/" + name, name, i.type == pafs.FileType.Directory,
                           int(i.size or 0), mtime))
    return sorted(out, key=lambda s: s.name)


def _bucket_dirs(root: str, levels: int) -> Iterator[str]:
    """Paimon's ``listFileDirs``: ``k=v`` directories ``levels`` deep, then their ``bucket-*`` directories; a
    partition directory without bucket directories is listed itself (its files are candidates too)."""
    entries = _list_status(root)
    if levels == 0:
        yield from (s.path for s in entries if s.is_dir and s.name.startswith("bucket-"))
        return
    for s in entries:
        if s.is_dir and "=" in s.name:
            sub = list(_bucket_dirs(s.path, levels - 1))
            yield from (sub or [s.path])


def candidate_dirs(table_path: str, options: dict[str, str], partition_levels: int) -> list[tuple[str, str]]:
    """``(directory, kind)`` of every directory whose files Paimon's orphan clean considers."""
    dirs = [(storage.join(table_path, "manifest"), "manifest"), (storage.join(table_path, "index"), "index"),
            (storage.join(table_path, "statistics"), "statistics")]
    sub = options.get("data-file.path-directory")
    data_root = storage.join(table_path, sub) if sub else table_path
    dirs.extend((d, "bucket") for d in _bucket_dirs(data_root, partition_levels))
    for ext in (options.get("data-file.external-paths") or "").split(","):
        if ext.strip():
            root = ext.strip()
            root = strip_scheme(root) if root.startswith("file:") else root.rstrip("/")
            dirs.extend((d, "bucket") for d in _bucket_dirs(root, partition_levels))
    return dirs


# ------------------------------------------------------------------------------------------- used files
def branch_meta_dirs(table_path: str) -> list[tuple[str, str]]:
    """``(branch name, metadata directory)`` of ``main`` and every branch; refuses, as Paimon does, when a
    branch directory holds no schema."""
    branch_root = storage.join(table_path, "branch")
    out, broken = [], []
    for s in _list_status(branch_root):
        if s.is_dir and s.name.startswith("branch-"):
            if not numbered_ids(storage.join(s.path, "schema"), "schema-"):
                broken.append(s.name[7:])
            out.append((s.name[7:], s.path))
    if broken:
        raise OrphanCheckRefused(f"branches {broken} have no schema: orphan check refused (as Paimon's)",
                                 path=branch_root)
    return [("main", table_path), *out]


def _snapshot_likes(meta: str) -> Iterator[tuple[str, Snapshot]]:
    """Every retained snapshot, tag and long-lived changelog of one branch's metadata directory.  A snapshot
    or changelog file gone since the listing (an expiry ran) is skipped, as Paimon skips it."""
    from ..errors import MissingFileError

    for sid in snapshot_ids(meta):
        try:
            yield f"snapshot {sid}", load_snapshot(meta, sid)
        except MissingFileError:
            continue
    for tag in tag_names(meta):
        try:
            yield f"tag {tag}", read_tag(meta, tag)
        except MissingFileError:
            continue
    for cid in changelog_ids(meta):
        try:
            yield f"changelog {cid}", load_changelog(meta, cid)
        except MissingFileError:
            continue


def _read_optional(read, name: str, optional: bool) -> list:
    """``read(name)``; a missing file is an empty list when ``optional`` (see :func:`used_file_names`)."""
    from ..errors import MissingFileError

    try:
        return read(name)
    except MissingFileError:
        if optional:
            return []
        raise


def used_file_names(table_path: str) -> tuple[set[str], list[str], int]:
    """The file names Paimon counts as used, the branches read and the number of snapshots, tags and changelogs
    read.  Raises :class:`OrphanCheckRefused` (naming the file) when any metadata cannot be read.

    Paimon skips whatever is missing; this refuses, but for two files Paimon's own expiries delete while
    metadata still names them:

    * a long-lived changelog (``changelog/changelog-<id>``) keeps its snapshot's JSON, but the expiry of that
      snapshot deleted its base and delta manifest lists, their manifests and its index manifest;
    * a changelog expiry deletes the changelog manifest list (and its manifests) of its snapshot although a
      tag, or a branch made from the tag, still names it (tags keep data, not changelogs).

    Nothing can read through such a deleted file, so what only it named is no longer reachable."""
    manifest_dir = storage.join(table_path, "manifest")
    used: set[str] = set()
    done: dict[str, set[str]] = {"strict": set(), "loose": set()}  # files read (strict: must exist)

    def read(reader, name: str, may_miss: bool) -> list:
        if name in done["strict"] or (may_miss and name in done["loose"]):
            return []
        done["loose" if may_miss else "strict"].add(name)
        return _read_optional(lambda n: reader(manifest_dir, n), name, may_miss)

    branches = branch_meta_dirs(table_path)
    n = 0
    for branch, meta in branches:
        try:
            manifests: dict[str, bool] = {}  # manifest -> may be missing
            for label, snap in _snapshot_likes(meta):
                n += 1
                may_miss = label.startswith("changelog")
                for name, optional in ((snap.changelog_manifest_list, True), (snap.delta_manifest_list, may_miss),
                                       (snap.base_manifest_list, may_miss)):
                    if name:
                        used.add(name)
                        for m in read(read_manifest_list, name, optional):
                            manifests[m.file_name] = manifests.get(m.file_name, True) and optional
                if snap.index_manifest:
                    used.add(snap.index_manifest)
                    used.update(e.index_file.file_name for e in read(read_index_manifest, snap.index_manifest,
                                                                     may_miss))
                stats = snap.raw.get("statistics")
                if isinstance(stats, str) and stats:
                    used.add(stats)
            for name, optional in sorted(manifests.items()):
                used.add(name)
                for e in read(read_manifest, name, optional):
                    used.add(e.file.file_name)
                    used.update(e.file.extra_files)
        except PaimonCodecError as exc:
            raise OrphanCheckRefused(f"branch {branch}: {exc}", path=exc.path or meta) from exc
        except OSError as exc:
            raise OrphanCheckRefused(f"branch {branch}: {exc.strerror or exc}",
                                     path=exc.filename or meta) from exc
    return used, [b for b, _ in branches], n


# ------------------------------------------------------------------------------------------- the check
def _old_enough(s: _Status, older_than_ms: int | None) -> bool:
    return older_than_ms is None or s.mtime_ms < older_than_ms


def find_orphans(table_path: str | os.PathLike, older_than_ms: int | None = -1) -> OrphanScan:
    """The files Paimon's orphan clean of this table would delete (a dry run: nothing is touched).

    ``older_than_ms``: only files modified before this epoch time are considered; ``-1`` (default) is Paimon's
    default, one day before now; ``None`` considers every file however new (the audit's view: what is not
    referenced now).  Raises :class:`OrphanCheckRefused` when some metadata could not be read.
    """
    table_path = storage.normalize(table_path)
    if older_than_ms == -1:
        older_than_ms = int(time.time() * 1000) - DEFAULT_OLDER_THAN_MS
    try:
        schema = load_schema(table_path)
    except (PaimonCodecError, OSError) as exc:
        raise OrphanCheckRefused(f"the table's schema cannot be read: {exc}", path=table_path) from exc
    db = os.path.basename(os.path.dirname(table_path.rstrip("/")))
    base = os.path.basename(table_path.rstrip("/"))
    scan = OrphanScan(f"{db[:-3]}.{base}" if db.endswith(".db") else base, older_than_ms)
    found: list[OrphanFile] = []
    for _branch, meta in branch_meta_dirs(table_path):
        for sub, prefix in (("snapshot", "snapshot-"), ("changelog", "changelog-")):
            for s in _list_status(storage.join(meta, sub)):
                if not s.is_dir and not s.name.startswith(prefix) and s.name not in _HINTS \
                        and _old_enough(s, older_than_ms):
                    found.append(OrphanFile(s.path, file_kind(f"{sub}-dir", s.name), s.size, s.mtime_ms))
    # candidates first, the used names after (Paimon's order): a file committed in between is young (no
    # candidate), and the files of a snapshot expired in between are that expiry's to delete anyway
    candidates = [(s, kind) for directory, kind in candidate_dirs(table_path, schema.options, len(schema.partition_keys))
                  for s in _list_status(directory) if not s.is_dir and _old_enough(s, older_than_ms)]
    scan.candidates = len(candidates)
    used, scan.branches, scan.snapshots_read = used_file_names(table_path)
    scan.used_names = len(used)
    found.extend(OrphanFile(s.path, file_kind(kind, s.name), s.size, s.mtime_ms)
                 for s, kind in candidates if s.name not in used)
    scan.orphans = sorted(found, key=lambda f: f.path)
    return scan
