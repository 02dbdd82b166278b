"""What one commit changes: data files and index files added or deleted, and what it produced.

A change names its partition either as the serialized BinaryRow Paimon stores (``bytes``, e.g. the
``partition`` of an entry read from a manifest) or as a tuple of partition values (encoded with the
table's partition type when the commit runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import InvalidOptionError
from ...modes import ChangeKind, ChangeKindLike
from ...report import JsonForm
from ...table.index_manifest import IndexFileMeta, IndexManifestEntry
from ...table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE, DataFileMeta, ManifestEntry

__all__ = ["ADD", "DELETE", "FileChange", "IndexChange", "CommitResult"]

ADD = ChangeKind.ADD
DELETE = ChangeKind.DELETE
_KINDS = {ADD: FILE_KIND_ADD, DELETE: FILE_KIND_DELETE, FILE_KIND_ADD: FILE_KIND_ADD,
          FILE_KIND_DELETE: FILE_KIND_DELETE}


def _kind(kind: Any) -> int:
    try:
        return _KINDS[kind.upper() if isinstance(kind, str) else kind]
    except (KeyError, AttributeError):
        raise InvalidOptionError(f"unknown change kind {kind!r}", expected="'ADD' or 'DELETE'") from None


@dataclass(frozen=True)
class FileChange:
    """ADD or DELETE of one data file in one (partition, bucket)."""

    kind: int
    partition: bytes | tuple
    bucket: int
    file: DataFileMeta
    total_buckets: int | None = None  # None: the table's bucket option (-1 for dynamic / unaware)

    @classmethod
    def of(cls, partition: bytes | Sequence[Any], bucket: int, file: DataFileMeta, kind: ChangeKindLike | int = ADD,
           total_buckets: int | None = None) -> FileChange:
        part = partition if isinstance(partition, bytes) else tuple(partition)
        return cls(_kind(kind), part, int(bucket), file, total_buckets)

    @classmethod
    def delete_entry(cls, entry: ManifestEntry) -> FileChange:
        """DELETE of a live entry as read from the table (same partition, bucket and file meta)."""
        return cls(FILE_KIND_DELETE, entry.partition, entry.bucket, entry.file, entry.total_buckets)

    @classmethod
    def add_entry(cls, entry: ManifestEntry, file: DataFileMeta | None = None) -> FileChange:
        """ADD of ``file`` (default: the entry's own) where ``entry`` lives."""
        return cls(FILE_KIND_ADD, entry.partition, entry.bucket, file or entry.file, entry.total_buckets)


@dataclass(frozen=True)
class IndexChange:
    """ADD or DELETE of one index file (deletion vectors, hash index, ...) in one (partition, bucket)."""

    kind: int
    partition: bytes | tuple
    bucket: int
    index_file: IndexFileMeta

    @classmethod
    def of(cls, partition: bytes | Sequence[Any], bucket: int, index_file: IndexFileMeta,
           kind: ChangeKindLike | int = ADD) -> IndexChange:
        part = partition if isinstance(partition, bytes) else tuple(partition)
        return cls(_kind(kind), part, int(bucket), index_file)

    @classmethod
    def delete_entry(cls, entry: IndexManifestEntry) -> IndexChange:
        return cls(FILE_KIND_DELETE, entry.partition, entry.bucket, entry.index_file)


@dataclass(frozen=True)
class CommitResult(JsonForm):
    """What a commit did: the snapshot it created (``None`` when there was nothing to commit),
    how many attempts it took and the metadata files it wrote."""

    snapshot_id: int | None
    attempts: int
    manifests_written: tuple[str, ...] = ()
    commit_kind: str = "APPEND"
    added_files: int = 0
    deleted_files: int = 0
    merged_manifests: int = 0  # base manifests merged away by this commit

    def to_dict(self) -> dict:
        return {"snapshot_id": self.snapshot_id, "attempts": self.attempts,
                "manifests_written": list(self.manifests_written), "commit_kind": self.commit_kind,
                "added_files": self.added_files, "deleted_files": self.deleted_files,
                "merged_manifests": self.merged_manifests}
