"""Manifest lists and manifests (Avro, ORC or Parquet): the data files of a snapshot.

A snapshot names a *base* and a *delta* manifest list; each lists manifest files whose
``ManifestEntry`` records ADD or DELETE one ``DataFileMeta``.  Replaying every entry in order and
cancelling each DELETE against its ADD gives the live file set (:func:`merge_entries`).

Newest fields (Paimon 1.4 / pypaimon 2.x) are read when present: ``_VALUE_STATS_COLS``,
``_EXTERNAL_PATH``, ``_FIRST_ROW_ID``, ``_WRITE_COLS`` on the file, ``_MIN/_MAX_BUCKET``,
``_MIN/_MAX_LEVEL`` and ``_MIN/_MAX_ROW_ID`` on manifest-list entries.  Record versions stay those of
Paimon's serializers (``ManifestFileMetaSerializer`` / ``ManifestEntrySerializer``: 2); others are
refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .. import storage
from ..errors import CorruptDataError
from .metadata_checks import MANIFEST_ENTRY, MANIFEST_LIST, check_record, file_name
from .metadata_records import check_version, read_decoded
from .metadata_records import field as record_field

__all__ = ["ManifestFileMeta", "DataFileMeta", "ManifestEntry", "SimpleStats", "read_manifest_list", "read_manifest",
           "merge_entries", "FILE_KIND_ADD", "FILE_KIND_DELETE"]

FILE_KIND_ADD = 0
FILE_KIND_DELETE = 1

# ManifestFileMetaSerializer / ManifestEntrySerializer versions (0.9 and pypaimon 2.x write 2).
MANIFEST_LIST_VERSIONS = (2,)
MANIFEST_ENTRY_VERSIONS = (2,)


@dataclass(frozen=True)
class SimpleStats:
    """Min / max values (serialized BinaryRows) and null counts: ``_KEY_STATS``, ``_VALUE_STATS`` and
    ``_PARTITION_STATS``.  Carried so that a commit rewriting an entry keeps the stats readers prune with."""

    min_values: bytes
    max_values: bytes
    null_counts: tuple[int | None, ...] | None


@dataclass(frozen=True)
class ManifestFileMeta:
    file_name: str
    file_size: int
    num_added_files: int
    num_deleted_files: int
    schema_id: int
    min_bucket: int | None = None
    max_bucket: int | None = None
    min_level: int | None = None
    max_level: int | None = None
    min_row_id: int | None = None
    max_row_id: int | None = None
    partition_stats: SimpleStats | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class DataFileMeta:
    file_name: str
    file_size: int
    row_count: int
    level: int
    schema_id: int
    min_sequence_number: int
    max_sequence_number: int
    extra_files: tuple[str, ...]
    delete_row_count: int | None
    embedded_index: bytes | None
    file_source: int | None
    external_path: str | None
    min_key: bytes
    max_key: bytes
    value_stats_cols: tuple[str, ...] | None = None  # columns _VALUE_STATS covers (None: all)
    first_row_id: int | None = None  # row-tracking / data-evolution tables (_FIRST_ROW_ID)
    write_cols: tuple[str, ...] | None = None  # columns a partial-column file holds (_WRITE_COLS)
    key_stats: SimpleStats | None = field(default=None, compare=False, repr=False)
    value_stats: SimpleStats | None = field(default=None, compare=False, repr=False)
    creation_time_ms: int | None = field(default=None, compare=False, repr=False)  # _CREATION_TIME (epoch ms)

    @property
    def index_file_name(self) -> str | None:
        """The standalone file-index file among the extra files (``*.index``), if any."""
        names = [n for n in self.extra_files if n.endswith(".index")]
        if len(names) > 1:
            raise CorruptDataError(f"data file {self.file_name} lists {len(names)} .index extra files",
                                   expected="at most one")
        return names[0] if names else None


@dataclass(frozen=True)
class ManifestEntry:
    kind: int
    partition: bytes
    bucket: int
    total_buckets: int
    file: DataFileMeta

    @property
    def identifier(self) -> tuple:
        """What a DELETE entry must equal to cancel an ADD: Paimon's ``FileEntry.Identifier`` since 1.0 -
        partition, bucket, level, file name, extra files, embedded index and external path.  (Paimon 0.9
        compared the first four only; its writers always delete with the metadata they added, so both
        read every table the same.)  A commit re-adding a file with new index metadata therefore cancels
        exactly the entry it saw, and a DELETE of metadata that is no longer live is a conflict."""
        f = self.file
        return (self.partition, self.bucket, f.level, f.file_name, tuple(f.extra_files), f.embedded_index,
                f.external_path)


POSTPONE_BUCKET = -2  # bucket id of files written with bucket = -2 (directory ``bucket-postpone``)


def read_manifest_list(manifest_dir: str, name: str) -> list[ManifestFileMeta]:
    path = storage.join(manifest_dir, file_name(name, "manifest list name", manifest_dir))
    return read_decoded(path, "manifest list", lambda records: _manifest_list(records, path))


def _manifest_list(records: list[dict], path: str) -> list[ManifestFileMeta]:
    out = []
    for i, rec in enumerate(records):
        check_version(rec, MANIFEST_LIST_VERSIONS, "manifest list", path)
        check_record(rec, MANIFEST_LIST, f"manifest list record {i}", path)
        try:
            out.append(ManifestFileMeta(
                file_name=record_field(rec, ("_FILE_NAME",), "manifest list", path),
                file_size=record_field(rec, ("_FILE_SIZE",), "manifest list", path),
                num_added_files=record_field(rec, ("_NUM_ADDED_FILES",), "manifest list", path, 0),
                num_deleted_files=record_field(rec, ("_NUM_DELETED_FILES",), "manifest list", path, 0),
                schema_id=record_field(rec, ("_SCHEMA_ID",), "manifest list", path, 0),
                **{name.lower()[1:]: rec.get(name) for name in _LIST_RANGES},
                partition_stats=_stats(rec.get("_PARTITION_STATS")),
            ))
        except (TypeError, AttributeError) as exc:
            raise CorruptDataError(f"malformed manifest list record: {exc}", path=path) from None
    return out


_LIST_RANGES = ("_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL", "_MIN_ROW_ID", "_MAX_ROW_ID")


def _data_file(rec: dict, path: str) -> DataFileMeta:
    what = "data file meta"
    extra = record_field(rec, ("_EXTRA_FILES",), what, path, None) or ()
    return DataFileMeta(
        file_name=record_field(rec, ("_FILE_NAME",), what, path),
        file_size=record_field(rec, ("_FILE_SIZE",), what, path),
        row_count=record_field(rec, ("_ROW_COUNT",), what, path),
        level=record_field(rec, ("_LEVEL",), what, path, 0),
        schema_id=record_field(rec, ("_SCHEMA_ID",), what, path, 0),
        min_sequence_number=record_field(rec, ("_MIN_SEQUENCE_NUMBER",), what, path, 0),
        max_sequence_number=record_field(rec, ("_MAX_SEQUENCE_NUMBER",), what, path, 0),
        extra_files=tuple(str(x) for x in extra),
        delete_row_count=record_field(rec, ("_DELETE_ROW_COUNT",), what, path, None),
        embedded_index=record_field(rec, ("_EMBEDDED_FILE_INDEX",), what, path, None),
        file_source=record_field(rec, ("_FILE_SOURCE",), what, path, None),
        external_path=record_field(rec, ("_EXTERNAL_PATH",), what, path, None),
        min_key=record_field(rec, ("_MIN_KEY",), what, path, b""),
        max_key=record_field(rec, ("_MAX_KEY",), what, path, b""),
        value_stats_cols=_write_cols(record_field(rec, ("_VALUE_STATS_COLS",), what, path, None)),
        first_row_id=record_field(rec, ("_FIRST_ROW_ID",), what, path, None),
        write_cols=_write_cols(record_field(rec, ("_WRITE_COLS",), what, path, None)),
        key_stats=_stats(rec.get("_KEY_STATS")),
        value_stats=_stats(rec.get("_VALUE_STATS")),
        creation_time_ms=_millis(rec.get("_CREATION_TIME")),
    )


def _stats(raw) -> SimpleStats | None:
    if not isinstance(raw, dict):
        return None
    nulls = raw.get("_NULL_COUNTS")
    return SimpleStats(bytes(raw.get("_MIN_VALUES") or b""), bytes(raw.get("_MAX_VALUES") or b""),
                       None if nulls is None else tuple(None if n is None else int(n) for n in nulls))


def _millis(raw) -> int | None:
    """``_CREATION_TIME`` (a local date-time stored as TIMESTAMP(3)) as epoch millis of its wall clock."""
    import datetime as dt

    if raw is None:
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, dt.datetime):
        naive = raw.replace(tzinfo=None) if raw.tzinfo is None else raw.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return (naive - dt.datetime(1970, 1, 1)) // dt.timedelta(milliseconds=1)
    return None


def _write_cols(raw) -> tuple[str, ...] | None:
    return None if raw is None else tuple(str(c) for c in raw)


def read_manifest(manifest_dir: str, name: str) -> list[ManifestEntry]:
    path = storage.join(manifest_dir, file_name(name, "manifest name", manifest_dir))
    return read_decoded(path, "manifest", lambda records: _manifest(records, path))


def _manifest(records: list[dict], path: str) -> list[ManifestEntry]:
    out = []
    for i, rec in enumerate(records):
        check_version(rec, MANIFEST_ENTRY_VERSIONS, "manifest entry", path)
        check_record(rec, MANIFEST_ENTRY, f"manifest entry {i}", path)
        try:
            kind = record_field(rec, ("_KIND",), "manifest entry", path)
            if kind not in (FILE_KIND_ADD, FILE_KIND_DELETE):
                raise CorruptDataError(f"manifest entry kind {kind}", path=path, expected="0 (ADD) or 1 (DELETE)")
            out.append(ManifestEntry(
                kind=kind,
                partition=record_field(rec, ("_PARTITION",), "manifest entry", path),
                bucket=record_field(rec, ("_BUCKET",), "manifest entry", path),
                total_buckets=record_field(rec, ("_TOTAL_BUCKETS",), "manifest entry", path, -1),
                file=_data_file(record_field(rec, ("_FILE",), "manifest entry", path), path),
            ))
        except (TypeError, AttributeError) as exc:
            raise CorruptDataError(f"malformed manifest entry: {exc}", path=path) from None
    return out


def merge_entries(entries: Iterable[ManifestEntry]) -> list[ManifestEntry]:
    """Replay ADD/DELETE entries in order; return the ADDs that are still live (in first-add order).

    A DELETE without an earlier ADD (the file was added in a manifest already compacted away) is
    ignored, as Paimon's merge leaves only ADD entries in a full read.
    """
    live: dict[tuple, ManifestEntry] = {}
    for e in entries:
        key = e.identifier
        if e.kind == FILE_KIND_ADD:
            live[key] = e
        else:
            live.pop(key, None)
    return list(live.values())
