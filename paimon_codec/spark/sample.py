"""A small Paimon append table written by this library (for the demo and the benchmark).

Writes everything a filesystem-catalog reader needs: Parquet data files, their file-index
containers (embedded in the manifest or as ``<data file>.index`` by
``file-index.in-manifest-threshold``), deletion vectors for some files (``DELETION_VECTORS`` index
file + index manifest), a manifest, manifest lists, a snapshot, the schema and the LATEST / EARLIEST
hints.  Data is generated from a seed, so every run is identical.

Two variants, chosen by ``paimon_version``:

* ``"0.9"`` (default): only what Paimon 0.9 reads - bitmap indexes in the V1 layout (the table
  options say ``file-index.bitmap.<col>.version = 1`` explicitly) and a bloom filter;
* ``"latest"``: Paimon >= 1.3 - bitmap V2, plus range-bitmap indexes on ``amount`` and ``ts``
  (range predicates and top-N); ``amount`` is null in every 97th row so null ordering matters.
"""

from __future__ import annotations

import json
import os
import time
import uuid

import fastavro
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..binary_row import serialize_binary_row
from ..fileio import atomic_write, atomic_write_bytes
from ..types import parse_row_type

__all__ = ["write_sample_table", "sample_options", "SAMPLE_SCHEMA", "SAMPLE_OPTIONS", "SAMPLE_OPTIONS_LATEST",
           "SAMPLE_VERSIONS"]

SAMPLE_SCHEMA = "id INT NOT NULL, status STRING, region STRING, amount BIGINT, ts TIMESTAMP(3)"
SAMPLE_VERSIONS = ("0.9", "latest")
# Paimon 0.9: bitmap V1 (0.9 fails on V2: "plugin version is lower than 2") and bloom filters only
SAMPLE_OPTIONS = {
    "file-index.bitmap.columns": "status,region",
    "file-index.bitmap.status.version": "1",
    "file-index.bitmap.region.version": "1",
    "file-index.bloom-filter.columns": "id",
    "file-index.in-manifest-threshold": "500 b",
    "deletion-vectors.enabled": "true",
    "file.format": "parquet",
}
# newest Paimon: bitmap V2 (its default) and range bitmaps for range predicates and top-N
SAMPLE_OPTIONS_LATEST = {
    "file-index.bitmap.columns": "status,region",
    "file-index.bloom-filter.columns": "id",
    "file-index.range-bitmap.columns": "amount,ts",
    "file-index.in-manifest-threshold": "500 b",
    "deletion-vectors.enabled": "true",
    "file.format": "parquet",
}
_STATUSES = np.array(["NEW", "PAID", "SHIPPED", "DELIVERED"], dtype=object)
_REGIONS = np.array(["EU", "US", "APAC"], dtype=object)
_EMPTY_ROW = serialize_binary_row([], [])  # serialized BinaryRow of arity 0

_STATS = lambda name: {"type": "record", "name": name, "fields": [  # noqa: E731
    {"name": "_MIN_VALUES", "type": "bytes"}, {"name": "_MAX_VALUES", "type": "bytes"},
    {"name": "_NULL_COUNTS", "type": ["null", {"type": "array", "items": ["null", "long"]}], "default": None}]}
_P = "org.apache.paimon.avro.generated.record"
MANIFEST_SCHEMA = {"type": "record", "name": _P, "fields": [
    {"name": "_VERSION", "type": "int"}, {"name": "_KIND", "type": "int"}, {"name": "_PARTITION", "type": "bytes"},
    {"name": "_BUCKET", "type": "int"}, {"name": "_TOTAL_BUCKETS", "type": "int"},
    {"name": "_FILE", "type": {"type": "record", "name": _P + "__FILE", "fields": [
        {"name": "_FILE_NAME", "type": "string"}, {"name": "_FILE_SIZE", "type": "long"},
        {"name": "_ROW_COUNT", "type": "long"}, {"name": "_MIN_KEY", "type": "bytes"},
        {"name": "_MAX_KEY", "type": "bytes"}, {"name": "_KEY_STATS", "type": _STATS(_P + "__FILE__KEY_STATS")},
        {"name": "_VALUE_STATS", "type": _STATS(_P + "__FILE__VALUE_STATS")},
        {"name": "_MIN_SEQUENCE_NUMBER", "type": "long"}, {"name": "_MAX_SEQUENCE_NUMBER", "type": "long"},
        {"name": "_SCHEMA_ID", "type": "long"}, {"name": "_LEVEL", "type": "int"},
        {"name": "_EXTRA_FILES", "type": {"type": "array", "items": "string"}},
        {"name": "_CREATION_TIME", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}],
         "default": None},
        {"name": "_DELETE_ROW_COUNT", "type": ["null", "long"], "default": None},
        {"name": "_EMBEDDED_FILE_INDEX", "type": ["null", "bytes"], "default": None},
        {"name": "_FILE_SOURCE", "type": ["null", "int"], "default": None}]}}]}
MANIFEST_LIST_SCHEMA = {"type": "record", "name": _P, "fields": [
    {"name": "_VERSION", "type": "int"}, {"name": "_FILE_NAME", "type": "string"},
    {"name": "_FILE_SIZE", "type": "long"}, {"name": "_NUM_ADDED_FILES", "type": "long"},
    {"name": "_NUM_DELETED_FILES", "type": "long"}, {"name": "_PARTITION_STATS", "type": _STATS(_P + "__PARTITION_STATS")},
    {"name": "_SCHEMA_ID", "type": "long"}]}
INDEX_MANIFEST_SCHEMA = {"type": "record", "name": _P, "fields": [
    {"name": "_VERSION", "type": "int"}, {"name": "_KIND", "type": "int"}, {"name": "_PARTITION", "type": "bytes"},
    {"name": "_BUCKET", "type": "int"}, {"name": "_INDEX_TYPE", "type": "string"},
    {"name": "_FILE_NAME", "type": "string"}, {"name": "_FILE_SIZE", "type": "long"},
    {"name": "_ROW_COUNT", "type": "long"},
    {"name": "_DELETIONS_VECTORS_RANGES", "default": None, "type": ["null", {"type": "array", "items": ["null", {
        "type": "record", "name": _P + "__DELETIONS_VECTORS_RANGES", "fields": [
            {"name": "f0", "type": "string"}, {"name": "f1", "type": "int"}, {"name": "f2", "type": "int"},
            {"name": "_CARDINALITY", "type": ["null", "long"], "default": None}]}]}]}]}


def _uuid(rng: np.random.Generator) -> uuid.UUID:
    return uuid.UUID(bytes=rng.bytes(16), version=4)


def _write_avro(path: str, schema: dict, records: list[dict]) -> int:
    with atomic_write(path) as fh:
        fastavro.writer(fh, fastavro.parse_schema(schema), records, codec="deflate")
    return os.path.getsize(path)


def sample_options(paimon_version: str = "0.9") -> dict[str, str]:
    """The sample table's options for a Paimon version (``"0.9"`` or ``"latest"``)."""
    if paimon_version not in SAMPLE_VERSIONS:
        from ..errors import InvalidOptionError

        raise InvalidOptionError(f"unknown sample paimon_version {paimon_version!r}", expected="'0.9' or 'latest'")
    return dict(SAMPLE_OPTIONS if paimon_version == "0.9" else SAMPLE_OPTIONS_LATEST)


def _file_rows(k: int, n: int, start_id: int, rng: np.random.Generator, null_amounts: bool = False) -> pa.Table:
    ids = np.arange(start_id, start_id + n, dtype=np.int32)
    status = _STATUSES[rng.integers(0, len(_STATUSES), n)]
    if k % 3 == 1:  # refunds only ever land in every third file: the bitmap index skips the others
        status[rng.random(n) < 0.02] = "REFUNDED"
    status[rng.random(n) < 0.01] = None
    region = _REGIONS[rng.integers(0, len(_REGIONS) - (1 if k % 2 else 0), n)]  # APAC only in even files
    amount = rng.integers(1, 100_000, n).astype(np.int64)
    amount_nulls = (ids % 97 == 0) if null_amounts else None
    ts = (1_700_000_000_000 + ids.astype(np.int64) * 1000).astype("datetime64[ms]")
    return pa.table({"id": pa.array(ids, pa.int32()), "status": pa.array(status.tolist(), pa.string()),
                     "region": pa.array(region.tolist(), pa.string()),
                     "amount": pa.array(amount, pa.int64(), mask=amount_nulls),
                     "ts": pa.array(ts, pa.timestamp("ms"))})


def _value_stats(row_type, table: pa.Table) -> dict:
    """Min/max BinaryRows and null counts per column (Paimon's full-column value stats)."""
    import pyarrow.compute as pc

    from ..values import Timestamp

    mins, maxs, nulls = [], [], []
    for f in row_type:
        col = table.column(f.name)
        mm = pc.min_max(col)
        lo, hi = mm["min"].as_py(), mm["max"].as_py()
        if f.type.is_timestamp:
            lo = None if lo is None else Timestamp.from_datetime(lo)
            hi = None if hi is None else Timestamp.from_datetime(hi)
        mins.append(lo)
        maxs.append(hi)
        nulls.append(int(col.null_count))
    types = [f.type for f in row_type]
    return {"_MIN_VALUES": serialize_binary_row(types, mins), "_MAX_VALUES": serialize_binary_row(types, maxs),
            "_NULL_COUNTS": nulls}


def write_sample_table(warehouse: str | os.PathLike, *, database: str = "demo", table: str = "orders",
                       files: int = 4, rows_per_file: int = 2500, seed: int = 7,
                       deleted_every: int = 10, paimon_version: str = "0.9") -> str:
    """Write a one-snapshot append table under ``<warehouse>/<database>.db/<table>``; returns its path.

    File 0 (and every fourth after it) gets a deletion vector deleting every ``deleted_every``-th row
    (0 = no deletion vectors).  ``paimon_version``: ``"0.9"`` (readable and filterable by Paimon 0.9)
    or ``"latest"`` (bitmap V2 and range-bitmap indexes; see the module docstring).
    """
    from ..dv.deletion_vector import DeletionVector
    from ..dv.index_file import write_dv_index
    from ..fileindex.writer import FileIndexWriter, placement

    path = os.path.join(os.fspath(warehouse), f"{database}.db", table)
    for sub in ("schema", "snapshot", "manifest", "bucket-0", "index"):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    row_type = parse_row_type(SAMPLE_SCHEMA)
    options = dict(sample_options(paimon_version),
                   **{"file-index.bloom-filter.id.items": str(max(rows_per_file, 1))})
    now = int(time.time() * 1000)
    schema_json = {"version": 3, "id": 0,
                   "fields": [{"id": i, "name": f.name, "type": str(f.type)} for i, f in enumerate(row_type)],
                   "highestFieldId": len(row_type) - 1, "partitionKeys": [], "primaryKeys": [],
                   "options": options, "timeMillis": now}
    atomic_write_bytes(os.path.join(path, "schema", "schema-0"), json.dumps(schema_json, indent=2).encode())
    rng = np.random.default_rng(seed)
    entries, dvs, total = [], {}, 0
    for k in range(files):
        data = _file_rows(k, rows_per_file, total, rng, null_amounts=paimon_version != "0.9")
        name = f"data-{_uuid(rng)}-0.parquet"
        file_path = os.path.join(path, "bucket-0", name)
        with atomic_write(file_path) as fh:
            pq.write_table(data, fh, compression="zstd")
        writer = FileIndexWriter(row_type, options, paimon_version=paimon_version)
        writer.write_table(data)
        container = writer.serialize()
        place = placement(container, options, name)
        if place.index_file_name:
            atomic_write_bytes(os.path.join(path, "bucket-0", place.index_file_name), container)
        empty_stats = {"_MIN_VALUES": _EMPTY_ROW, "_MAX_VALUES": _EMPTY_ROW, "_NULL_COUNTS": []}
        entries.append({"_VERSION": 2, "_KIND": 0, "_PARTITION": _EMPTY_ROW, "_BUCKET": 0, "_TOTAL_BUCKETS": -1,
                        "_FILE": {"_FILE_NAME": name, "_FILE_SIZE": os.path.getsize(file_path),
                                  "_ROW_COUNT": rows_per_file, "_MIN_KEY": _EMPTY_ROW, "_MAX_KEY": _EMPTY_ROW,
                                  "_KEY_STATS": empty_stats, "_VALUE_STATS": _value_stats(row_type, data),
                                  "_MIN_SEQUENCE_NUMBER": total, "_MAX_SEQUENCE_NUMBER": total + rows_per_file - 1,
                                  "_SCHEMA_ID": 0, "_LEVEL": 0,
                                  "_EXTRA_FILES": [place.index_file_name] if place.index_file_name else [],
                                  "_CREATION_TIME": now, "_DELETE_ROW_COUNT": 0,
                                  "_EMBEDDED_FILE_INDEX": place.embedded, "_FILE_SOURCE": 0}})
        if deleted_every and k % 4 == 0:
            dvs[name] = DeletionVector.from_array(np.arange(0, rows_per_file, deleted_every, dtype=np.int64))
        total += rows_per_file
    run = _uuid(rng)
    manifest = f"manifest-{run}-0"
    size = _write_avro(os.path.join(path, "manifest", manifest), MANIFEST_SCHEMA, entries)
    part_stats = {"_MIN_VALUES": _EMPTY_ROW, "_MAX_VALUES": _EMPTY_ROW, "_NULL_COUNTS": []}
    base_list, delta_list = f"manifest-list-{run}-0", f"manifest-list-{run}-1"
    _write_avro(os.path.join(path, "manifest", base_list), MANIFEST_LIST_SCHEMA, [])
    _write_avro(os.path.join(path, "manifest", delta_list), MANIFEST_LIST_SCHEMA, [
        {"_VERSION": 2, "_FILE_NAME": manifest, "_FILE_SIZE": size, "_NUM_ADDED_FILES": len(entries),
         "_NUM_DELETED_FILES": 0, "_PARTITION_STATS": part_stats, "_SCHEMA_ID": 0}])
    index_manifest = None
    if dvs:
        index_uuid = _uuid(rng)
        metas = write_dv_index(os.path.join(path, "index"), dvs,
                               name_factory=lambda n: f"index-{index_uuid}-{n}")
        index_manifest = f"index-manifest-{run}-0"
        _write_avro(os.path.join(path, "manifest", index_manifest), INDEX_MANIFEST_SCHEMA, [
            {"_VERSION": 1, "_KIND": 0, "_PARTITION": _EMPTY_ROW, "_BUCKET": 0, "_INDEX_TYPE": "DELETION_VECTORS",
             "_FILE_NAME": m.file_name, "_FILE_SIZE": m.file_size, "_ROW_COUNT": m.row_count,
             "_DELETIONS_VECTORS_RANGES": [{"f0": r.data_file, "f1": r.offset, "f2": r.length,
                                            "_CARDINALITY": r.cardinality} for r in m.ranges]}
            for m in metas])
    snapshot = {"version": 3, "id": 1, "schemaId": 0, "baseManifestList": base_list,
                "deltaManifestList": delta_list, "changelogManifestList": None, "indexManifest": index_manifest,
                "commitUser": "paimon-codec-sample", "commitIdentifier": 1, "commitKind": "APPEND",
                "timeMillis": now, "logOffsets": {}, "totalRecordCount": total, "deltaRecordCount": total,
                "changelogRecordCount": 0}
    atomic_write_bytes(os.path.join(path, "snapshot", "snapshot-1"), json.dumps(snapshot, indent=2).encode())
    atomic_write_bytes(os.path.join(path, "snapshot", "LATEST"), b"1")
    atomic_write_bytes(os.path.join(path, "snapshot", "EARLIEST"), b"1")
    return path
