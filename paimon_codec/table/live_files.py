"""The records a table hands to a scan: a live data file, its deletion vector's location, a table-level
index file.  Plain values built by :class:`~paimon_codec.table.table.PaimonTable` from the manifests."""

from __future__ import annotations

from dataclasses import dataclass

from .index_manifest import IndexManifestEntry
from .manifest import DataFileMeta, ManifestEntry

__all__ = ["DeletionFile", "IndexFile", "LiveDataFile"]


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
    def meta(self) -> DataFileMeta:
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
