"""New deletion vectors into a table's DELETION_VECTORS index files, grouped as Paimon's maintainers group them.

Paimon 1.4's row-level DELETE on an append table with ``deletion-vectors.enabled`` hands every touched
data file's new vector to a maintainer per bucket (``BaseAppendDeleteFileMaintainer``):

* fixed buckets (``BucketedAppendDeleteFileMaintainer`` / ``BucketedDvMaintainer``): the bucket's old
  vectors are read, each new vector is OR-ed with its file's old one, and *every* vector of the bucket is
  written into one new index file (``writeSingleFile``); the index manifest keeps one DV file per bucket
  (``IndexManifestFileHandler``'s bucketed combiner drops the old one);
* bucket-unaware tables (``AppendDeleteFileMaintainer``, one per partition): only the index files holding
  an old vector of a touched data file are replaced: their untouched vectors are rewritten (rolling at
  ``deletion-vector.index-file.target-size``, per old file), the touched files' merged vectors are written
  (rolling) into new files, and the old files are deleted from the index manifest.

Vectors are 64-bit bins when ``deletion-vectors.bitmap64`` is true, 32-bit otherwise (CRC per bin, by the
index-file writer).  Both kinds of change are explicit ``IndexChange`` DELETE / ADD pairs here, so the
commit's conflict check sees a concurrent writer that replaced the same index file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import storage
from ..dv.deletion_vector import DeletionVector
from ..dv.index_file import DEFAULT_TARGET_SIZE, DvIndexFileWriter, read_deletion_vectors
from ..memory_size import parse_memory_size
from ..table.index_manifest import (
    DELETION_VECTORS_INDEX,
    DeletionVectorRange,
    IndexFileMeta,
    IndexManifestEntry,
)
from ..table.snapshot import Snapshot
from ..table.table import PaimonTable
from .commit import IndexChange
from .discard import discard_files

__all__ = ["DvUpdate", "dv_index_changes", "bitmap64_of", "dv_target_size"]

BucketKey = tuple[bytes, int]


@dataclass
class DvUpdate:
    """The index changes of one DELETE and the index files it wrote (removed again if the commit fails)."""

    changes: list[IndexChange] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    vectors: dict[tuple[bytes, int, str], DeletionVector] = field(default_factory=dict)  # the merged ones

    def discard(self) -> None:
        discard_files(self.written)


def bitmap64_of(table: PaimonTable) -> bool:
    return table.schema.option_bool("deletion-vectors.bitmap64")


def dv_target_size(table: PaimonTable) -> int:
    return parse_memory_size(table.schema.options.get("deletion-vector.index-file.target-size",
                                                      str(DEFAULT_TARGET_SIZE)))


def _meta(m) -> IndexFileMeta:
    return IndexFileMeta(DELETION_VECTORS_INDEX, m.file_name, m.file_size, m.row_count,
                         tuple(DeletionVectorRange(r.data_file, r.offset, r.length, r.cardinality) for r in m.ranges))


def _read_entry(table: PaimonTable, entry: IndexManifestEntry) -> dict[str, DeletionVector]:
    ranges = entry.index_file.dv_ranges or ()
    return read_deletion_vectors(table.index_file_path(entry), [(r.data_file, r.offset, r.length, r.cardinality)
                                                                 for r in ranges])


def dv_index_changes(table: PaimonTable, snapshot: Snapshot | None,
                     new: Mapping[BucketKey, Mapping[str, DeletionVector]]) -> DvUpdate:
    """Write the index files carrying ``new`` (``{(partition, bucket): {data file: vector}}``, each OR-ed
    with the file's live vector) and return the index changes that replace the superseded files."""
    live = [e for e in (table.index_entries(snapshot) if snapshot is not None else [])
            if e.index_file.index_type == DELETION_VECTORS_INDEX]
    update = DvUpdate()
    target = dv_target_size(table)
    bucketed = table.schema.bucket > 0
    try:
        for (partition, bucket), vectors in new.items():
            if not vectors:
                continue
            index_dir = _index_dir(table, partition, bucket)
            if bucketed:
                mine = [e for e in live if e.partition == partition and e.bucket == bucket]
                _bucketed(table, index_dir, partition, bucket, mine, vectors, update)
            else:
                mine = [e for e in live if e.partition == partition]
                _unaware(table, index_dir, partition, bucket, mine, vectors, target, update)
    except BaseException:
        update.discard()
        raise
    return update


def _index_dir(table: PaimonTable, partition: bytes, bucket: int) -> str:
    """Where Paimon puts the bucket's index files: ``<table>/index``, or the bucket directory with
    ``index-file-in-data-file-dir`` (as :meth:`PaimonTable.index_file_path` reads them)."""
    if table.schema.option_bool("index-file-in-data-file-dir"):
        path = table.bucket_dir(partition, bucket)
    else:
        path = storage.join(table.path, "index")
    storage.makedirs(path)
    return path


def _write(index_dir: str, vectors: Mapping[str, DeletionVector], target: int | None, partition: bytes,
           bucket: int, update: DvUpdate) -> None:
    for m in DvIndexFileWriter(index_dir, target_size=target).write(vectors):
        update.written.append(m.path or storage.join(index_dir, m.file_name))
        update.changes.append(IndexChange.of(partition, bucket, _meta(m)))


def _bucketed(table: PaimonTable, index_dir: str, partition: bytes, bucket: int, old_entries: list,
              vectors: Mapping[str, DeletionVector], update: DvUpdate) -> None:
    """``BucketedDvMaintainer``: every vector of the bucket in one new file, the old file(s) deleted."""
    merged: dict[str, DeletionVector] = {}
    for e in old_entries:
        merged.update(_read_entry(table, e))
        update.changes.append(IndexChange.delete_entry(e))
    for name, dv in vectors.items():
        old = merged.get(name)
        merged[name] = dv if old is None else dv.merge(old)
        update.vectors[(partition, bucket, name)] = merged[name]
    _write(index_dir, merged, None, partition, bucket, update)


def _unaware(table: PaimonTable, index_dir: str, partition: bytes, bucket: int, old_entries: list,
             vectors: Mapping[str, DeletionVector], target: int, update: DvUpdate) -> None:
    """``AppendDeleteFileMaintainer``: replace only the index files holding a touched file's old vector."""
    holder: dict[str, IndexManifestEntry] = {}
    for e in old_entries:
        for r in e.index_file.dv_ranges or ():
            holder[r.data_file] = e
    touched: dict[str, IndexManifestEntry] = {}
    for name in vectors:
        e = holder.get(name)
        if e is not None:
            touched.setdefault(e.index_file.file_name, e)
    merged: dict[str, DeletionVector] = dict(vectors)
    for e in touched.values():
        old = _read_entry(table, e)
        rest = {n: dv for n, dv in old.items() if n not in vectors}
        for n in vectors:
            if n in old:
                merged[n] = vectors[n].merge(old[n])
        if rest:
            _write(index_dir, rest, target, e.partition, e.bucket, update)
        update.changes.append(IndexChange.delete_entry(e))
    for name, dv in merged.items():
        update.vectors[(partition, bucket, name)] = dv
    _write(index_dir, merged, target, partition, bucket, update)
