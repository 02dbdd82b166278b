"""Index manifests (Avro, ORC or Parquet): the table-level index files of a snapshot.

The snapshot's ``indexManifest`` holds every live index file; each record is an
``IndexManifestEntry`` (``_KIND``, ``_PARTITION``, ``_BUCKET``) + ``IndexFileMeta``.  Deletion-vector
metas carry per-data-file ranges ``(data file, offset, length[, cardinality])``; Paimon 0.9's
IndexFileMeta called the field ``_DELETION_VECTORS_RANGES``, manifests and later versions
``_DELETIONS_VECTORS_RANGES`` (both accepted).

Besides ``HASH`` and ``DELETION_VECTORS`` files, newer Paimon writes *global index* files (row-id
ranged indexes of data-evolution tables, e.g. btree / bitmap global indexes): their entries carry a
``_GLOBAL_INDEX`` record (row range, indexed field id, index meta).  They are read, carried on
:class:`IndexFileMeta` and reported, never decoded here and never a crash.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .. import storage
from ..errors import CorruptDataError
from .metadata_checks import INDEX_MANIFEST_ENTRY, check_record, file_name
from .metadata_records import check_version, field, read_decoded

__all__ = ["DeletionVectorRange", "GlobalIndexMeta", "IndexFileMeta", "IndexManifestEntry", "read_index_manifest",
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
class GlobalIndexMeta:
    """``_GLOBAL_INDEX`` of an index file: the row-id range and field(s) a global index covers."""

    row_range_start: int
    row_range_end: int
    index_field_id: int
    extra_field_ids: tuple[int, ...] | None = None
    index_meta: bytes | None = None


@dataclass(frozen=True)
class IndexFileMeta:
    index_type: str
    file_name: str
    file_size: int
    row_count: int
    dv_ranges: tuple[DeletionVectorRange, ...] | None
    external_path: str | None = None
    global_index: GlobalIndexMeta | None = None

    @property
    def is_global_index(self) -> bool:
        return self.global_index is not None


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


def _global_index(raw, path: str) -> GlobalIndexMeta | None:
    if raw is None:
        return None
    try:
        extra = raw.get("_EXTRA_FIELD_IDS")
        return GlobalIndexMeta(int(raw["_ROW_RANGE_START"]), int(raw["_ROW_RANGE_END"]),
                               int(raw["_INDEX_FIELD_ID"]), None if extra is None else tuple(int(x) for x in extra),
                               raw.get("_INDEX_META"))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptDataError(f"malformed _GLOBAL_INDEX record: {exc}", path=path) from None


def read_index_manifest(manifest_dir: str, name: str) -> list[IndexManifestEntry]:
    path = storage.join(manifest_dir, file_name(name, "index manifest name", manifest_dir))
    return read_decoded(path, "index manifest", lambda records: _index_manifest(records, path))


def _index_manifest(records: list[dict], path: str) -> list[IndexManifestEntry]:
    out = []
    what = "index manifest entry"
    for i, rec in enumerate(records):
        check_version(rec, INDEX_MANIFEST_VERSIONS, what, path)
        check_record(rec, INDEX_MANIFEST_ENTRY, f"{what} {i}", path)
        kind = field(rec, ("_KIND",), what, path)
        if kind not in (0, 1):
            raise CorruptDataError(f"index manifest entry kind {kind}", path=path, expected="0 or 1")
        try:
            meta = IndexFileMeta(
                index_type=str(field(rec, ("_INDEX_TYPE",), what, path)),
                file_name=str(field(rec, ("_FILE_NAME",), what, path)),
                file_size=int(field(rec, ("_FILE_SIZE",), what, path)),
                row_count=int(field(rec, ("_ROW_COUNT",), what, path)),
                dv_ranges=_ranges(field(rec, _RANGES, what, path, None), path),
                external_path=field(rec, ("_EXTERNAL_PATH",), what, path, None),
                global_index=_global_index(field(rec, ("_GLOBAL_INDEX",), what, path, None), path),
            )
            out.append(IndexManifestEntry(kind, field(rec, ("_PARTITION",), what, path),
                                          int(field(rec, ("_BUCKET",), what, path)), meta))
        except (TypeError, ValueError) as exc:
            raise CorruptDataError(f"malformed index manifest entry: {exc}", path=path) from None
    return out


def merge_index_entries(entries: Iterable[IndexManifestEntry]) -> list[IndexManifestEntry]:
    live: dict[tuple, IndexManifestEntry] = {}
    for e in entries:
        if e.kind == 0:
            live[e.identifier] = e
        else:
            live.pop(e.identifier, None)
    return list(live.values())
