"""Metadata records as Avro datums, and the Avro files holding them.

Each dataclass the readers return (:class:`~paimon_codec.table.manifest.DataFileMeta`,
:class:`~paimon_codec.table.index_manifest.IndexFileMeta`, ...) becomes the dict of Paimon's record
with every field of the newest layout.  Before a file is written, :func:`check_fits` makes sure the
writer schema has a place for every non-null value: writing a newest-layout file meta (e.g. with
``_VALUE_STATS_COLS``) into a table whose manifests have the 0.9 layout would silently drop it, so
that is refused instead.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

import fastavro

from ...binary_row import decode_serialized_row, serialize_binary_row
from ...errors import UnsupportedFeatureError
from ...table.index_manifest import IndexFileMeta
from ...table.manifest import DataFileMeta, SimpleStats
from ...types import DataType

__all__ = ["data_file_record", "entry_record", "index_entry_record", "manifest_meta_record", "stats_record",
           "partition_stats", "encode_avro", "check_fits", "EMPTY_ROW", "EMPTY_STATS"]

MANIFEST_ENTRY_VERSION = 2
MANIFEST_FILE_META_VERSION = 2
INDEX_ENTRY_VERSION = 1
EMPTY_ROW = serialize_binary_row([], [])
EMPTY_STATS = SimpleStats(EMPTY_ROW, EMPTY_ROW, ())


def stats_record(stats: SimpleStats | None) -> dict:
    s = stats or EMPTY_STATS
    return {"_MIN_VALUES": s.min_values, "_MAX_VALUES": s.max_values,
            "_NULL_COUNTS": None if s.null_counts is None else list(s.null_counts)}


def data_file_record(f: DataFileMeta) -> dict:
    return {
        "_FILE_NAME": f.file_name, "_FILE_SIZE": int(f.file_size), "_ROW_COUNT": int(f.row_count),
        "_MIN_KEY": f.min_key or EMPTY_ROW, "_MAX_KEY": f.max_key or EMPTY_ROW,
        "_KEY_STATS": stats_record(f.key_stats), "_VALUE_STATS": stats_record(f.value_stats),
        "_MIN_SEQUENCE_NUMBER": int(f.min_sequence_number), "_MAX_SEQUENCE_NUMBER": int(f.max_sequence_number),
        "_SCHEMA_ID": int(f.schema_id), "_LEVEL": int(f.level), "_EXTRA_FILES": list(f.extra_files),
        "_CREATION_TIME": f.creation_time_ms, "_DELETE_ROW_COUNT": f.delete_row_count,
        "_EMBEDDED_FILE_INDEX": f.embedded_index, "_FILE_SOURCE": f.file_source,
        "_VALUE_STATS_COLS": None if f.value_stats_cols is None else list(f.value_stats_cols),
        "_EXTERNAL_PATH": f.external_path, "_FIRST_ROW_ID": f.first_row_id,
        "_WRITE_COLS": None if f.write_cols is None else list(f.write_cols),
    }


def entry_record(kind: int, partition: bytes, bucket: int, total_buckets: int, f: DataFileMeta) -> dict:
    return {"_VERSION": MANIFEST_ENTRY_VERSION, "_KIND": int(kind), "_PARTITION": partition, "_BUCKET": int(bucket),
            "_TOTAL_BUCKETS": int(total_buckets), "_FILE": data_file_record(f)}


def index_entry_record(kind: int, partition: bytes, bucket: int, m: IndexFileMeta) -> dict:
    ranges = None
    if m.dv_ranges is not None:
        ranges = [{"f0": r.data_file, "f1": int(r.offset), "f2": int(r.length), "_CARDINALITY": r.cardinality}
                  for r in m.dv_ranges]
    g = m.global_index
    glob = None if g is None else {
        "_ROW_RANGE_START": g.row_range_start, "_ROW_RANGE_END": g.row_range_end,
        "_INDEX_FIELD_ID": g.index_field_id,
        "_EXTRA_FIELD_IDS": None if g.extra_field_ids is None else list(g.extra_field_ids),
        "_INDEX_META": g.index_meta}
    return {"_VERSION": INDEX_ENTRY_VERSION, "_KIND": int(kind), "_PARTITION": partition, "_BUCKET": int(bucket),
            "_INDEX_TYPE": m.index_type, "_FILE_NAME": m.file_name, "_FILE_SIZE": int(m.file_size),
            "_ROW_COUNT": int(m.row_count), "_DELETIONS_VECTORS_RANGES": ranges,
            "_EXTERNAL_PATH": m.external_path, "_GLOBAL_INDEX": glob}


def manifest_meta_record(file_name: str, file_size: int, added: int, deleted: int, stats: SimpleStats,
                         schema_id: int, buckets: tuple[int, int] | None, levels: tuple[int, int] | None,
                         row_ids: tuple[int, int] | None = None) -> dict:
    return {"_VERSION": MANIFEST_FILE_META_VERSION, "_FILE_NAME": file_name, "_FILE_SIZE": int(file_size),
            "_NUM_ADDED_FILES": int(added), "_NUM_DELETED_FILES": int(deleted),
            "_PARTITION_STATS": stats_record(stats), "_SCHEMA_ID": int(schema_id),
            "_MIN_BUCKET": None if buckets is None else buckets[0], "_MAX_BUCKET": None if buckets is None else buckets[1],
            "_MIN_LEVEL": None if levels is None else levels[0], "_MAX_LEVEL": None if levels is None else levels[1],
            "_MIN_ROW_ID": None if row_ids is None else row_ids[0],
            "_MAX_ROW_ID": None if row_ids is None else row_ids[1]}


def partition_stats(partitions: Iterable[bytes], types: Sequence[DataType]) -> SimpleStats:
    """Min / max / null count per partition field over the given serialized partition rows (what
    Paimon's manifest list keeps to prune whole manifests by partition)."""
    n = len(types)
    lo: list = [None] * n
    hi: list = [None] * n
    nulls = [0] * n
    for raw in set(partitions):
        values = decode_serialized_row(raw, types) if n else ()
        for i, v in enumerate(values):
            if v is None:
                nulls[i] += 1
                continue
            if lo[i] is None or v < lo[i]:
                lo[i] = v
            if hi[i] is None or v > hi[i]:
                hi[i] = v
    if not n:
        return EMPTY_STATS
    return SimpleStats(serialize_binary_row(types, lo), serialize_binary_row(types, hi), tuple(nulls))


def _record_fields(schema: dict) -> dict[str, dict]:
    return {f["name"]: f for f in schema.get("fields", ())}


def _nested_record(ftype) -> dict | None:
    for t in ftype if isinstance(ftype, list) else [ftype]:
        if isinstance(t, dict) and t.get("type") == "record":
            return t
    return None


# summaries a reader derives from the entries themselves: an older layout simply does not keep them
_DERIVED = frozenset({"_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL"})


def check_fits(records: Iterable[dict], schema: dict, path: str) -> None:
    """Refuse records holding a non-null value in a field ``schema`` has no place for (other than
    the manifest list's derived bucket / level ranges)."""
    fields = _record_fields(schema)
    for rec in records:
        for name, value in rec.items():
            if value is None or (name in _DERIVED and name not in fields):
                continue
            if name not in fields:
                raise UnsupportedFeatureError(f"the table's metadata layout has no field {name} to hold {value!r:.60}",
                                       path=path, expected="a commit in the layout of the Paimon version that "
                                       "wrote the table (write with a newer Paimon to upgrade it)")
            nested = _nested_record(fields[name]["type"])
            if nested is not None and isinstance(value, dict):
                check_fits([value], nested, path)


def encode_avro(schema: dict, records: list[dict], codec: str) -> bytes:
    """An Avro object container file of ``records`` (one block per ~1000 records)."""
    out = io.BytesIO()
    fastavro.writer(out, fastavro.parse_schema(schema), records, codec=codec)
    return out.getvalue()
