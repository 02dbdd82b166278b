"""Index manifests (Avro): ``HASH`` and ``DELETION_VECTORS`` index files of a snapshot.

The snapshot's ``indexManifest`` holds every live index file; each record is an
``IndexManifestEntry`` (``_KIND``, ``_PARTITION``, ``_BUCKET``) + ``IndexFileMeta``.  Deletion-vector
metas carry per-data-file ranges ``(data file, offset, length[, cardinality])``; Paimon 0.9's
IndexFileMeta called the field ``_DELETION_VECTORS_RANGES``, manifests and later versions
``_DELETIONS_VECTORS_RANGES`` (both accepted).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import CorruptDataError
from .avro_records import check_version, field, read_avro_records

__all__ = ["DeletionVectorRange", "IndexFileMeta", "IndexManifestEntry", "read_index_manifest",
           "merge_index_entries", "HASH_INDEX", "DELETION_VECTORS_INDEX"]

HASH_INDEX = "HASH"
DELETION_VECTORS_INDEX = "DELETION_VECTORS"
INDEX_MANIFEST_VERSIONS = (1,)
_RANGES = ("_DELETIONS_VECTORS_RANGES", "_DELETION_VECTORS_RANGES")


@dataclass(frozen=True)
class DeletionVectorRange:
    data_file: str
    offset: int
    length: int
    cardinality: int | None = None


@dataclass(frozen=True)
class IndexFileMeta:
    index_type: str
    file_name: str
    file_size: int
    row_count: int
    dv_ranges: tuple[DeletionVectorRange, ...] | None
    external_path: str | None = None


@dataclass(frozen=True)
class IndexManifestEntry:
    kind: int
    partition: bytes
    bucket: int
    index_file: IndexFileMeta

    @property
    def identifier(self) -> tuple:
        return (self.partition, self.bucket, self.index_file.index_type, self.index_file.file_name)


def _ranges(raw, path: str) -> tuple[DeletionVectorRange, ...] | None:
    if raw is None:
        return None
    out = []
    for r in raw:
        if r is None:
            continue
        try:
            out.append(DeletionVectorRange(str(r["f0"]), int(r["f1"]), int(r["f2"]), r.get("_CARDINALITY")))
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptDataError(f"malformed deletion-vector range: {exc}", path=path) from None
    return tuple(out)


def read_index_manifest(manifest_dir: str, name: str) -> list[IndexManifestEntry]:
    path = os.path.join(manifest_dir, name)
    out = []
    what = "index manifest entry"
    for rec in read_avro_records(path, "index manifest"):
        check_version(rec, INDEX_MANIFEST_VERSIONS, what, path)
        kind = field(rec, ("_KIND",), what, path)
        if kind not in (0, 1):
            raise CorruptDataError(f"index manifest entry kind {kind}", path=path, expected="0 or 1")
        meta = IndexFileMeta(
            index_type=str(field(rec, ("_INDEX_TYPE",), what, path)),
            file_name=str(field(rec, ("_FILE_NAME",), what, path)),
            file_size=int(field(rec, ("_FILE_SIZE",), what, path)),
            row_count=int(field(rec, ("_ROW_COUNT",), what, path)),
            dv_ranges=_ranges(field(rec, _RANGES, what, path, None), path),
            external_path=field(rec, ("_EXTERNAL_PATH",), what, path, None),
        )
        out.append(IndexManifestEntry(kind, field(rec, ("_PARTITION",), what, path),
                                      int(field(rec, ("_BUCKET",), what, path)), meta))
    return out


def merge_index_entries(entries: Iterable[IndexManifestEntry]) -> list[IndexManifestEntry]:
    live: dict[tuple, IndexManifestEntry] = {}
    for e in entries:
        if e.kind == 0:
            live[e.identifier] = e
        else:
            live.pop(e.identifier, None)
    return list(live.values())
