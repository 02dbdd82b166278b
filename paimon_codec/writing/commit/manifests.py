"""Writing manifests, manifest lists and index manifests, and merging small manifests.

Every file gets a fresh name (``manifest-<uuid>-<n>``, ``manifest-list-<uuid>-<n>``,
``index-manifest-<uuid>-<n>``: one uuid per commit attempt, as Paimon's path factory does) and is
written with the store's atomic put, so a crashed or lost commit leaves only unreferenced files.

Manifest merge follows Paimon's minor compaction (``ManifestFileMerger``): walking the manifests in
order, consecutive ones are gathered until their sizes reach ``manifest.target-file-size``, then
rewritten as one; the tail is rewritten only when at least ``manifest.merge-min-count`` manifests
are left.  Within a merged run an ADD and a later DELETE of the same file cancel; a DELETE whose ADD
is in an earlier run stays, so the order-dependent replay of readers is unchanged.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ... import storage
from ...errors import CorruptDataError
from ...table.manifest import FILE_KIND_ADD, FILE_KIND_DELETE, ManifestEntry, ManifestFileMeta
from ...types import DataType
from .records import check_fits, encode_avro, entry_record, manifest_meta_record, partition_stats

__all__ = ["MetadataWriter", "merge_manifests", "full_merge"]


@dataclass
class MetadataWriter:
    """Names and writes the metadata files of one commit attempt and remembers them (to clean up a
    lost attempt)."""

    manifest_dir: str
    manifest_schema: dict
    list_schema: dict
    index_schema: dict
    codec: str
    partition_types: Sequence[DataType]
    target_size: int = 8 * 1024 * 1024
    written: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._uuid = str(uuid.uuid4())
        self._counters = {"manifest": itertools.count(), "manifest-list": itertools.count(),
                          "index-manifest": itertools.count()}

    def _name(self, prefix: str) -> str:
        return f"{prefix}-{self._uuid}-{next(self._counters[prefix])}"

    def _put(self, prefix: str, schema: dict, records: list[dict]) -> tuple[str, int]:
        name = self._name(prefix)
        path = storage.join(self.manifest_dir, name)
        check_fits(records, schema, path)
        data = encode_avro(schema, records, self.codec)
        storage.write_atomic(path, data)
        self.written.append(name)
        return name, len(data)

    def write_manifests(self, entries: Sequence[ManifestEntry], schema_id: int) -> list[ManifestFileMeta]:
        """The entries as one or more manifest files (rolled at the target size), with their metas."""
        if not entries:
            return []
        records = [entry_record(e.kind, e.partition, e.bucket, e.total_buckets, e.file) for e in entries]
        size = len(encode_avro(self.manifest_schema, records, self.codec))
        chunks = max(1, -(-size // self.target_size))
        step = -(-len(records) // chunks)
        metas = []
        for start in range(0, len(records), step):
            part = entries[start:start + step]
            name, nbytes = self._put("manifest", self.manifest_schema, records[start:start + step])
            metas.append(self._meta(name, nbytes, part, schema_id))
        return metas

    def _meta(self, name: str, size: int, entries: Sequence[ManifestEntry], schema_id: int) -> ManifestFileMeta:
        buckets = [e.bucket for e in entries]
        levels = [e.file.level for e in entries]
        row_ids = [(e.file.first_row_id, e.file.first_row_id + e.file.row_count - 1)
                   for e in entries if e.file.first_row_id is not None]
        return ManifestFileMeta(
            file_name=name, file_size=size,
            num_added_files=sum(1 for e in entries if e.kind == FILE_KIND_ADD),
            num_deleted_files=sum(1 for e in entries if e.kind == FILE_KIND_DELETE),
            schema_id=schema_id, min_bucket=min(buckets), max_bucket=max(buckets),
            min_level=min(levels), max_level=max(levels),
            min_row_id=min(r[0] for r in row_ids) if len(row_ids) == len(entries) else None,
            max_row_id=max(r[1] for r in row_ids) if len(row_ids) == len(entries) else None,
            partition_stats=partition_stats((e.partition for e in entries), self.partition_types))

    def write_list(self, metas: Iterable[ManifestFileMeta]) -> tuple[str, int]:
        records = []
        for m in metas:
            buckets = None if m.min_bucket is None or m.max_bucket is None else (m.min_bucket, m.max_bucket)
            levels = None if m.min_level is None or m.max_level is None else (m.min_level, m.max_level)
            row_ids = None if m.min_row_id is None or m.max_row_id is None else (m.min_row_id, m.max_row_id)
            stats = m.partition_stats
            if stats is None:
                raise CorruptDataError(f"manifest list entry of {m.file_name} has no _PARTITION_STATS",
                                       path=self.manifest_dir)
            records.append(manifest_meta_record(m.file_name, m.file_size, m.num_added_files, m.num_deleted_files,
                                                stats, m.schema_id, buckets, levels, row_ids))
        return self._put("manifest-list", self.list_schema, records)

    def write_index_manifest(self, records: list[dict]) -> str:
        return self._put("index-manifest", self.index_schema, records)[0]


def _merge_run(run_entries: list[ManifestEntry]) -> list[ManifestEntry]:
    """Paimon's ``FileEntry.mergeEntries``: ADD then DELETE of one file cancel; a lone DELETE stays."""
    merged: dict[tuple, ManifestEntry] = {}
    for e in run_entries:
        key = e.identifier
        if e.kind == FILE_KIND_ADD:
            merged[key] = e
        elif key in merged and merged[key].kind == FILE_KIND_ADD:
            del merged[key]
        else:
            merged[key] = e
    return list(merged.values())


def merge_manifests(metas: list[ManifestFileMeta], read, writer: MetadataWriter, min_count: int,
                    schema_id: int) -> tuple[list[ManifestFileMeta], int]:
    """Minor compaction of ``metas`` (see the module docstring); ``read(name)`` gives a manifest's
    entries.  Returns the new list and how many input manifests were merged away."""
    if len(metas) < min_count:
        return metas, 0
    out: list[ManifestFileMeta] = []
    merged_away = 0
    run: list[ManifestFileMeta] = []
    run_size = 0

    def flush() -> None:
        nonlocal merged_away
        if len(run) <= 1:
            out.extend(run)
            return
        entries = _merge_run([e for m in run for e in read(m.file_name)])
        out.extend(writer.write_manifests(entries, schema_id))
        merged_away += len(run)

    for m in metas:
        run.append(m)
        run_size += m.file_size
        if run_size >= writer.target_size:
            flush()
            run, run_size = [], 0
    if len(run) >= min_count:
        flush()
    else:
        out.extend(run)
    return out, merged_away


def full_merge(metas: list[ManifestFileMeta], read, writer: MetadataWriter,
               schema_id: int) -> tuple[list[ManifestFileMeta], list[ManifestEntry]]:
    """Every manifest merged into new ones (Paimon's full manifest compaction): each ADD/DELETE pair
    cancels, leaving the live files (and DELETEs whose ADD is gone, which a complete history has not)."""
    entries = _merge_run([e for m in metas for e in read(m.file_name)])
    return writer.write_manifests(entries, schema_id), entries
