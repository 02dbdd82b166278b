"""A filesystem-catalog Paimon table: schema, snapshots, live data files and their indexes."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..binary_row import decode_serialized_row
from ..errors import CorruptDataError
from .index_manifest import (
    DELETION_VECTORS_INDEX,
    IndexManifestEntry,
    merge_index_entries,
    read_index_manifest,
)
from .manifest import ManifestEntry, ManifestFileMeta, merge_entries, read_manifest, read_manifest_list
from .paths import DEFAULT_PARTITION_NAME, partition_path, strip_scheme
from .schema import TableSchema, load_schema
from .snapshot import Snapshot, latest_snapshot_id, load_snapshot, snapshot_ids

__all__ = ["PaimonTable", "LiveDataFile", "DeletionFile", "IndexFile", "list_tables", "is_table_dir"]


@dataclass(frozen=True)
class DeletionFile:
    """Where one data file's deletion vector lives: ``(path, offset, length)`` in a DV index file."""

    path: str
    offset: int
    length: int
    cardinality: int | None
    index_file_name: str


@dataclass(frozen=True)
class IndexFile:
    """A table-level index file (``HASH`` / ``DELETION_VECTORS``) of a snapshot."""

    entry: IndexManifestEntry
    path: str
    partition: tuple

    @property
    def index_type(self) -> str:
        return self.entry.index_file.index_type

    @property
    def bucket(self) -> int:
        return self.entry.bucket


@dataclass(frozen=True)
class LiveDataFile:
    """A data file of a snapshot with everything a scan needs to read and prune it."""

    entry: ManifestEntry
    partition: tuple
    path: str
    index_path: str | None
    deletion_file: DeletionFile | None

    @property
    def meta(self):
        return self.entry.file

    @property
    def file_name(self) -> str:
        return self.entry.file.file_name

    @property
    def bucket(self) -> int:
        return self.entry.bucket

    @property
    def level(self) -> int:
        return self.entry.file.level

    @property
    def row_count(self) -> int:
        return self.entry.file.row_count

    @property
    def embedded_index(self) -> bytes | None:
        return self.entry.file.embedded_index

    @property
    def file_format(self) -> str:
        """``parquet`` / ``orc`` / ``avro`` from the file name, else the extension itself (``row``,
        ``lance``, ...; the reader refuses it by name) or ``unknown`` without one: never a guess."""
        name = self.file_name.lower()
        for fmt in ("parquet", "orc", "avro"):
            if name.endswith("." + fmt):
                return fmt
        base = name.rsplit("/", 1)[-1]
        return base.rsplit(".", 1)[-1] if "." in base else "unknown"


def is_table_dir(path: str | os.PathLike) -> bool:
    return os.path.isdir(os.path.join(os.fspath(path), "schema"))


def list_tables(warehouse: str | os.PathLike) -> list[str]:
    """Table directories of a filesystem-catalog warehouse (``<db>.db/<table>``), or the path itself
    when it is one table, or the tables of a database directory."""
    warehouse = os.fspath(warehouse)
    if is_table_dir(warehouse):
        return [warehouse]
    out = []
    for name in sorted(os.listdir(warehouse)):
        sub = os.path.join(warehouse, name)
        if not os.path.isdir(sub):
            continue
        if is_table_dir(sub):
            out.append(sub)
        elif name.endswith(".db"):
            out.extend(os.path.join(sub, t) for t in sorted(os.listdir(sub)) if is_table_dir(os.path.join(sub, t)))
    return out


class PaimonTable:
    """Read-only view of one table directory.  Metadata files are read on demand and cached."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.path.abspath(strip_scheme(os.fspath(path)))
        if not is_table_dir(self.path):
            raise CorruptDataError("not a Paimon table (no schema directory)", path=self.path)
        self.schema: TableSchema = load_schema(self.path)
        self._schemas: dict[int, TableSchema] = {self.schema.id: self.schema}
        self._manifest_lists: dict[str, list[ManifestFileMeta]] = {}
        self._manifests: dict[str, list[ManifestEntry]] = {}
        self._index_manifests: dict[str, list[IndexManifestEntry]] = {}
        self._partitions: dict[bytes, tuple] = {}

    @property
    def name(self) -> str:
        db = os.path.basename(os.path.dirname(self.path))
        base = os.path.basename(self.path)
        return f"{db[:-3]}.{base}" if db.endswith(".db") else base

    @property
    def manifest_dir(self) -> str:
        return os.path.join(self.path, "manifest")

    # -- snapshots and schemas ---------------------------------------------------------------
    def snapshot_ids(self) -> list[int]:
        return snapshot_ids(self.path)

    def snapshot(self, snapshot_id: int | None = None) -> Snapshot | None:
        """The given snapshot, or the latest; ``None`` for a table without snapshots."""
        if snapshot_id is None:
            snapshot_id = latest_snapshot_id(self.path)
            if snapshot_id is None:
                return None
        return load_snapshot(self.path, int(snapshot_id))

    def schema_of(self, snapshot: Snapshot | None) -> TableSchema:
        if snapshot is None:
            return self.schema
        return self.schema_by_id(snapshot.schema_id)

    def schema_by_id(self, schema_id: int) -> TableSchema:
        """Schema ``schema-<id>`` (cached): what a data file's ``_SCHEMA_ID`` names."""
        if schema_id not in self._schemas:
            self._schemas[schema_id] = load_schema(self.path, schema_id)
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
        names = []
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
        schema = schema or self.schema
        values = self.partition_values(partition, schema)
        part = partition_path(schema.partition_keys, values, [f.type for f in schema.partition_type],
                              schema.options.get("partition.default-name", DEFAULT_PARTITION_NAME),
                              schema.option_bool("partition.legacy-name", True))
        base = self.path
        sub = schema.options.get("data-file.path-directory")
        if sub:
            base = os.path.join(base, sub)
        return os.path.join(base, part, f"bucket-{bucket}") if part else os.path.join(base, f"bucket-{bucket}")

    def data_file_path(self, entry: ManifestEntry, schema: TableSchema | None = None) -> str:
        if entry.file.external_path:
            return strip_scheme(entry.file.external_path)
        return os.path.join(self.bucket_dir(entry.partition, entry.bucket, schema), entry.file.file_name)

    def index_file_path(self, entry: IndexManifestEntry, schema: TableSchema | None = None) -> str:
        meta = entry.index_file
        if meta.external_path:
            return strip_scheme(meta.external_path)
        schema = schema or self.schema
        if schema.option_bool("index-file-in-data-file-dir"):
            return os.path.join(self.bucket_dir(entry.partition, entry.bucket, schema), "index", meta.file_name)
        return os.path.join(self.path, "index", meta.file_name)

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
            index_path = os.path.join(os.path.dirname(path), idx) if idx else None
            out.append(LiveDataFile(e, self.partition_values(e.partition, schema), path, index_path,
                                    dvs.get((e.partition, e.bucket, e.file.file_name))))
        return out
