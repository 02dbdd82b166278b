"""A filesystem-catalog Paimon table: schema, snapshots, live data files and their indexes."""

from __future__ import annotations

import os
from typing import Any

from .. import storage
from ..binary_row import decode_serialized_row
from ..errors import (
    BranchDirectoryError,
    CorruptDataError,
    InvalidOptionError,
    MissingFileError,
)
from .fallback_snapshot import check_fallback_schemas, fallback_snapshot
from .index_manifest import (
    DELETION_VECTORS_INDEX,
    IndexManifestEntry,
    merge_index_entries,
    read_index_manifest,
)
from .live_files import DeletionFile, IndexFile, LiveDataFile
from .manifest import (
    POSTPONE_BUCKET,
    ManifestEntry,
    ManifestFileMeta,
    merge_entries,
    read_manifest,
    read_manifest_list,
)
from .paths import DEFAULT_PARTITION_NAME, bucket_dir_name, partition_path, strip_scheme
from .schema import TableSchema, load_schema
from .snapshot import (
    Snapshot,
    latest_snapshot_id,
    load_snapshot,
    load_tag,
    snapshot_at_time,
    snapshot_ids,
    tag_names,
)

__all__ = ["PaimonTable", "LiveDataFile", "DeletionFile", "IndexFile", "list_tables", "is_table_dir",
           "branch_names", "branch_dir", "register_storage_options"]


def is_table_dir(path: str | os.PathLike) -> bool:
    return storage.is_dir(storage.join(os.fspath(path), "schema"))


def list_tables(warehouse: str | os.PathLike) -> list[str]:
    """Table directories of a filesystem-catalog warehouse (``<db>.db/<table>``), or the path itself
    when it is one table, or the tables of a database directory."""
    warehouse = os.fspath(warehouse)
    if not storage.is_local(warehouse):
        warehouse = warehouse.rstrip("/")
    if is_table_dir(warehouse):
        return [warehouse]
    if not storage.is_dir(warehouse):  # a missing warehouse is an error, not one without tables
        raise FileNotFoundError(2, "no such directory", warehouse)
    out = []
    for name in storage.list_dir(warehouse):
        sub = storage.join(warehouse, name)
        if not storage.is_dir(sub):
            continue
        if is_table_dir(sub):
            out.append(sub)
        elif name.endswith(".db"):
            out.extend(storage.join(sub, t) for t in storage.list_dir(sub) if is_table_dir(storage.join(sub, t)))
    return out


def register_storage_options(path: str | os.PathLike, options: dict[str, str] | None) -> None:
    """Make ``options`` (endpoint, keys, region, ...; see :mod:`paimon_codec.storage`) apply to every URI of
    the store ``path`` lives on (``scheme://bucket``); nothing for a local path or no options."""
    path = os.fspath(path)
    if options and not storage.is_local(path):
        scheme, netloc, _ = storage.split_uri(path)
        storage.set_storage_options(f"{scheme}://{netloc}", options)



def branch_dir(table_path: str, branch: str) -> str:
    return storage.join(table_path, "branch", f"branch-{branch}")


def _refuse_branch_directory(path: str) -> None:
    """``<table>/branch/branch-<x>`` looks like a table (it has a schema directory) but its manifests and
    data files are the table's: refuse it in one line naming the table and the branch to open instead."""
    trimmed = path.rstrip("/") or path
    name, parent = os.path.basename(trimmed), os.path.dirname(trimmed)
    if name.startswith("branch-") and len(name) > 7 and os.path.basename(parent) == "branch":
        table = os.path.dirname(parent)
        if is_table_dir(table):
            branch = name[7:]
            raise BranchDirectoryError(f"this is branch {branch!r} of table {table}: open {table} with "
                                       f"--branch {branch} (PaimonTable(..., branch={branch!r}))", path=path)


def branch_names(table_path: str | os.PathLike) -> list[str]:
    d = storage.join(os.fspath(table_path), "branch")
    return sorted(n[7:] for n in storage.list_dir(d) if n.startswith("branch-") and is_table_dir(storage.join(d, n)))


class PaimonTable:
    """Read-only view of one table directory (or one of its branches).

    Metadata files are read on demand and cached.  ``branch`` names a branch: its schemas,
    snapshots and tags live in ``<table>/branch/branch-<name>/``; manifests, index files and data
    files are shared with the table (``self.path`` is always the table root, ``self.meta_path`` the
    directory of the schemas/snapshots/tags read).
    """

    # set by fallback_read.py on its own copies: batch_files then leaves the fallback branch out (the
    # fallback is planned as a table of its own) / drops the partitions the main branch holds
    skip_fallback: bool = False
    exclude_partitions: frozenset | None = None
    # set by plan_scan on its copy for a time-travelling read: how the snapshot was chosen, which decides the
    # fallback branch's snapshot (.fallback_snapshot)
    time_travel: tuple[str, Any] | None = None

    def __init__(self, path: str | os.PathLike, branch: str | None = None,
                 storage_options: dict[str, str] | None = None) -> None:
        if storage_options:
            register_storage_options(path, storage_options)
        self.path = storage.normalize(path)
        _refuse_branch_directory(self.path)
        if not is_table_dir(self.path):
            raise MissingFileError("not a Paimon table (no schema directory)", path=self.path)
        self.branch = None if branch in (None, "", "main") else str(branch)
        self.meta_path = self.path
        if self.branch is not None:
            if "/" in self.branch or os.sep in self.branch or self.branch in (".", ".."):
                raise CorruptDataError(f"bad branch name {self.branch!r}", path=self.path)
            self.meta_path = branch_dir(self.path, self.branch)
            if not is_table_dir(self.meta_path):
                raise CorruptDataError(f"branch {self.branch!r} does not exist", path=self.meta_path,
                                       expected="one of: " + (", ".join(branch_names(self.path)) or "(no branches)"))
        self.schema: TableSchema = load_schema(self.meta_path)
        self._schemas: dict[int, TableSchema] = {self.schema.id: self.schema}
        self._schema_handed_out = False
        self._manifest_lists: dict[str, list[ManifestFileMeta]] = {}
        self._manifests: dict[str, list[ManifestEntry]] = {}
        self._index_manifests: dict[str, list[IndexManifestEntry]] = {}
        self._partitions: dict[bytes, tuple] = {}

    @property
    def name(self) -> str:
        db = os.path.basename(os.path.dirname(self.path))
        base = os.path.basename(self.path)
        name = f"{db[:-3]}.{base}" if db.endswith(".db") else base
        return name if self.branch is None else f"{name}$branch_{self.branch}"

    @property
    def manifest_dir(self) -> str:
        return storage.join(self.path, "manifest")

    # -- snapshots and schemas ---------------------------------------------------------------
    def snapshot_ids(self) -> list[int]:
        return snapshot_ids(self.meta_path)

    def snapshot(self, snapshot_id: int | None = None) -> Snapshot | None:
        """The given snapshot, or the latest; ``None`` for a table without snapshots."""
        if snapshot_id is None:
            snapshot_id = latest_snapshot_id(self.meta_path)
            if snapshot_id is None:
                return None
        return load_snapshot(self.meta_path, int(snapshot_id))

    def tag_names(self) -> list[str]:
        return tag_names(self.meta_path)

    def tag(self, name: str) -> Snapshot:
        """The snapshot tag ``name`` holds (read from the tag file: it outlives snapshot expiry)."""
        return load_tag(self.meta_path, name)

    def resolve_snapshot(self, snapshot_id: int | None = None, tag: str | None = None,
                         timestamp_ms: int | None = None) -> Snapshot | None:
        """The snapshot a read sees: by id, by tag, as of a time (the latest snapshot with
        ``timeMillis <= timestamp_ms``), or the latest (``None`` for a table without snapshots).
        At most one selector may be given."""
        given = [n for n, v in (("snapshot_id", snapshot_id), ("tag", tag), ("timestamp_ms", timestamp_ms))
                 if v is not None]
        if len(given) > 1:
            raise InvalidOptionError(f"give at most one of snapshot_id, tag, timestamp_ms (got {', '.join(given)})")
        if tag is not None:
            return self.tag(tag)
        if timestamp_ms is not None:
            if isinstance(timestamp_ms, bool) or not isinstance(timestamp_ms, int):
                raise InvalidOptionError(f"timestamp_ms must be an integer, got {timestamp_ms!r}")
            return snapshot_at_time(self.meta_path, timestamp_ms)
        return self.snapshot(snapshot_id)

    def current_schema(self, snapshot: Snapshot | None = None) -> TableSchema:
        """The table's current schema, which a read of the latest ``snapshot`` uses (as Paimon reads).

        Reloaded when an ``ALTER TABLE`` wrote a newer one since this object loaded it: a table object kept
        across reads would otherwise read the new files through the old types and names (``BIGINT`` values
        cast back to ``INT``).  The first call after opening trusts the schema just loaded; later ones cost
        one existence check of the next schema file."""
        stale = snapshot is not None and snapshot.schema_id > self.schema.id
        if not stale and self._schema_handed_out:
            stale = storage.exists(storage.join(self.meta_path, "schema", f"schema-{self.schema.id + 1}"))
        self._schema_handed_out = True
        if stale:
            self.schema = load_schema(self.meta_path)
            self._schemas[self.schema.id] = self.schema
        return self.schema

    def schema_of(self, snapshot: Snapshot | None) -> TableSchema:
        if snapshot is None:
            return self.schema
        return self.schema_by_id(snapshot.schema_id)

    def read_options(self, snapshot: Snapshot | None) -> dict[str, str]:
        """The options a read of ``snapshot`` runs with: the table's current schema for its latest
        snapshot (as Paimon reads a table), the snapshot's own schema for time travel."""
        if snapshot is None or snapshot.id == latest_snapshot_id(self.meta_path):
            return self.schema.options
        return self.schema_of(snapshot).options

    def schema_by_id(self, schema_id: int) -> TableSchema:
        """Schema ``schema-<id>`` (cached): what a data file's ``_SCHEMA_ID`` names."""
        if schema_id not in self._schemas:
            self._schemas[schema_id] = load_schema(self.meta_path, schema_id)
        return self._schemas[schema_id]

    # -- manifests -------------------------------------------------------------------------------
    def manifest_list(self, name: str) -> list[ManifestFileMeta]:
        if name not in self._manifest_lists:
            self._manifest_lists[name] = read_manifest_list(self.manifest_dir, name)
        return self._manifest_lists[name]

    def manifest(self, name: str) -> list[ManifestEntry]:
        if name not in self._manifests:
            self._manifests[name] = read_manifest(self.manifest_dir, name)
        return self._manifests[name]

    def manifest_file_names(self, snapshot: Snapshot) -> list[str]:
        names: list[str] = []
        for lst in (snapshot.base_manifest_list, snapshot.delta_manifest_list):
            names.extend(m.file_name for m in self.manifest_list(lst))
        return names

    def manifest_entries(self, snapshot: Snapshot) -> list[ManifestEntry]:
        out: list[ManifestEntry] = []
        for name in self.manifest_file_names(snapshot):
            out.extend(self.manifest(name))
        return out

    def index_manifest(self, name: str) -> list[IndexManifestEntry]:
        if name not in self._index_manifests:
            self._index_manifests[name] = read_index_manifest(self.manifest_dir, name)
        return self._index_manifests[name]

    def index_entries(self, snapshot: Snapshot) -> list[IndexManifestEntry]:
        if not snapshot.index_manifest:
            return []
        return merge_index_entries(self.index_manifest(snapshot.index_manifest))

    # -- paths ----------------------------------------------------------------------------------------
    def partition_values(self, partition: bytes, schema: TableSchema | None = None) -> tuple:
        if partition not in self._partitions:
            schema = schema or self.schema
            types = [f.type for f in schema.partition_type]
            self._partitions[partition] = decode_serialized_row(partition, types)
        return self._partitions[partition]

    def bucket_dir(self, partition: bytes, bucket: int, schema: TableSchema | None = None) -> str:
        """The directory of a bucket's files, the partition given as its serialized row (a manifest's)."""
        schema = schema or self.schema
        return self.bucket_dir_of(self.partition_values(partition, schema), bucket, schema)

    def bucket_dir_of(self, values: tuple, bucket: int, schema: TableSchema | None = None) -> str:
        """The directory of a bucket's files, the partition given by its values (a writer's):
        ``[<data-file.path-directory>/]<k=v/...>/bucket-<n>`` under the table."""
        schema = schema or self.schema
        part = partition_path(schema.partition_keys, values, [f.type for f in schema.partition_type],
                              schema.options.get("partition.default-name", DEFAULT_PARTITION_NAME),
                              schema.option_bool("partition.legacy-name", True))
        base = self.path
        sub = schema.options.get("data-file.path-directory")
        if sub:
            base = storage.join(base, sub)
        return storage.join(base, part, bucket_dir_name(bucket)) if part else storage.join(base, bucket_dir_name(bucket))

    def data_file_path(self, entry: ManifestEntry, schema: TableSchema | None = None) -> str:
        if entry.file.external_path:
            return strip_scheme(entry.file.external_path)
        return storage.join(self.bucket_dir(entry.partition, entry.bucket, schema), entry.file.file_name)

    def index_file_path(self, entry: IndexManifestEntry, schema: TableSchema | None = None) -> str:
        """Where an index file lives: its ``_EXTERNAL_PATH`` if any; with
        ``index-file-in-data-file-dir`` directly in the bucket directory (``bucket-<n>/index-…``);
        global-index files and every other case in ``<table>/index/``."""
        meta = entry.index_file
        if meta.external_path:
            return strip_scheme(meta.external_path)
        schema = schema or self.schema
        if schema.option_bool("index-file-in-data-file-dir") and not meta.is_global_index:
            return storage.join(self.bucket_dir(entry.partition, entry.bucket, schema), meta.file_name)
        return storage.join(self.path, "index", meta.file_name)

    # -- what a scan needs --------------------------------------------------------------------------
    def index_files(self, snapshot: Snapshot | None = None) -> list[IndexFile]:
        snapshot = snapshot if snapshot is not None else self.snapshot()
        if snapshot is None:
            return []
        schema = self.schema_of(snapshot)
        return [IndexFile(e, self.index_file_path(e, schema), self.partition_values(e.partition, schema))
                for e in self.index_entries(snapshot)]

    def deletion_files(self, snapshot: Snapshot) -> dict[tuple, DeletionFile]:
        """``(partition bytes, bucket, data file name) -> DeletionFile`` of a snapshot."""
        out: dict[tuple, DeletionFile] = {}
        for f in self.index_files(snapshot):
            meta = f.entry.index_file
            if meta.index_type != DELETION_VECTORS_INDEX or not meta.dv_ranges:
                continue
            for r in meta.dv_ranges:
                out[(f.entry.partition, f.entry.bucket, r.data_file)] = DeletionFile(
                    f.path, r.offset, r.length, r.cardinality, meta.file_name)
        return out

    def data_files(self, snapshot_id: int | None = None) -> list[LiveDataFile]:
        """Live data files of a snapshot (latest by default), with their index and DV locations."""
        snapshot = self.snapshot(snapshot_id)
        if snapshot is None:
            return []
        return self.live_files(snapshot)

    def live_files(self, snapshot: Snapshot) -> list[LiveDataFile]:
        schema = self.schema_of(snapshot)
        dvs = self.deletion_files(snapshot)
        out = []
        for e in merge_entries(self.manifest_entries(snapshot)):
            path = self.data_file_path(e, schema)
            idx = e.file.index_file_name
            index_path = storage.join(storage.parent(path), idx) if idx else None
            out.append(LiveDataFile(e, self.partition_values(e.partition, schema), path, index_path,
                                    dvs.get((e.partition, e.bucket, e.file.file_name))))
        return out

    def batch_files(self, snapshot: Snapshot) -> list[LiveDataFile]:
        """The data files a batch read of ``snapshot`` sees, as Paimon's batch scan plans them.

        * files of the postpone bucket (bucket id -2, ``bucket-postpone/``) are invisible until a
          compaction moves them into real buckets;
        * with ``scan.fallback-branch``, the partitions the snapshot does not hold are read from
          the latest snapshot of the fallback branch (Paimon's ``FallbackReadFileStoreTable``).
        """
        files = [f for f in self.live_files(snapshot) if f.bucket != POSTPONE_BUCKET]
        if self.exclude_partitions is not None:
            files = [f for f in files if f.partition not in self.exclude_partitions]
        if self.skip_fallback:
            return files
        # a time travel reads with the current options in Paimon (see plan_scan): a fallback branch named by
        # either the snapshot's schema or the current one makes it refused below
        fallback = self.read_options(snapshot).get("scan.fallback-branch") or \
            self.schema.options.get("scan.fallback-branch")
        if fallback and fallback != (self.branch or "main"):
            travel = self.time_travel
            if travel is None and snapshot.id != latest_snapshot_id(self.meta_path):
                travel = ("snapshot_id", snapshot.id)
            files.extend(self._fallback_files(fallback, {f.partition for f in files}, snapshot, travel))
        return files

    def _fallback_files(self, branch: str, present: set[tuple], snapshot: Snapshot | None = None,
                        travel: tuple[str, Any] | None = None) -> list[LiveDataFile]:
        other = PaimonTable(self.path, branch=branch if branch != "main" else None)
        snap = other.snapshot() if snapshot is None else \
            fallback_snapshot(other.meta_path, branch, snapshot, travel, self.meta_path)
        if snap is None:
            return []
        extra = [f for f in other.batch_files(snap) if f.partition not in present]
        if not extra:
            return []
        check_fallback_schemas(branch, self.schema, other.schema_of(snap), self.meta_path, other.meta_path,
                               {f.meta.schema_id for f in extra}, self.schema_by_id, other.schema_by_id)
        return extra
