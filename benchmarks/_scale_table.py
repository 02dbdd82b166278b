"""The scale benchmark's tables: many indexed Parquet files, written once and cached.

One append table (``bench.scale``) of ``files`` x ``rows`` rows, columns chosen so that one predicate per
selectivity (0.01 % .. 50 %) hits each index kind:

* ``cat`` (bitmap V1): ``'s0001'`` in 0.01 % of the rows, ``'s001'`` 0.1 %, ``'s01'`` 1 %, ``'s10'`` 10 %,
  ``'s50'`` 50 %, ``'rest'`` otherwise - spread over every file (the index selects rows, it prunes no file);
* ``region`` (bitmap V1): ``'r<k // 2>'`` in file ``k`` - each value in 2 files (the index prunes files);
* ``tag`` (bloom filter): ``'t<id>'``, unique (point lookups);
* ``amount`` (range bitmap): uniform in ``[0, 1e6)`` - ``amount < 100`` is 0.01 %, ..., ``< 500000`` 50 %,
  and ``ORDER BY amount DESC LIMIT n`` is answered from the range bitmaps;
* ``payload``: 24 random characters (row width).

``bench.scale_dv`` holds the same data files (hard links) with a deletion vector on every file (5 % of
its rows deleted at random).  Paimon 0.9 (the newest Spark connector Maven Central serves here) has no
range-bitmap index and fails on a container holding one ("Can't find file index for type"), so
``bench.scale_09`` / ``bench.scale_dv_09`` are twins for it: the same data files (hard links), the same
deletion vectors, bitmap and bloom-filter indexes without the range bitmap.  :func:`subset_table` makes tables of the first ``n`` files of a table the
same way (planning-time measurements at 50 / 200 / 1,000 files).  Bitmaps are written in the V1 layout,
which Paimon 0.9 reads.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from paimon_codec.binary_row import serialize_binary_row
from paimon_codec.fileio import atomic_write, atomic_write_bytes
from paimon_codec.spark.sample import (
    INDEX_MANIFEST_SCHEMA,
    MANIFEST_LIST_SCHEMA,
    MANIFEST_SCHEMA,
    _uuid,
    _value_stats,
    _write_avro,
)
from paimon_codec.types import parse_row_type

SCHEMA = "id BIGINT NOT NULL, cat STRING, region STRING, tag STRING, amount BIGINT, payload STRING"
ROW_TYPE = parse_row_type(SCHEMA)
OPTIONS = {
    "file-index.bitmap.columns": "cat,region",
    "file-index.bitmap.cat.version": "1",
    "file-index.bitmap.region.version": "1",
    "file-index.bloom-filter.columns": "tag",
    "file-index.bloom-filter.tag.fpp": "0.01",
    "file-index.range-bitmap.columns": "amount",
    "file-index.in-manifest-threshold": "500 b",
    "deletion-vectors.enabled": "true",
    "file.format": "parquet",
}
CATS = [("s0001", 0.0001), ("s001", 0.001), ("s01", 0.01), ("s10", 0.1), ("s50", 0.5)]
_EMPTY_ROW = serialize_binary_row([], [])  # BinaryRow of arity 0 (no partition, no key stats)
_EMPTY = {"_MIN_VALUES": _EMPTY_ROW, "_MAX_VALUES": _EMPTY_ROW, "_NULL_COUNTS": []}
_ALPHABET = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", dtype=np.uint8)


def _rows(k: int, n: int, start: int, rng: np.random.Generator) -> pa.Table:
    ids = np.arange(start, start + n, dtype=np.int64)
    u = rng.random(n)
    cat = np.full(n, "rest", dtype=object)
    edge = 0.0
    for value, share in CATS:
        cat[(u >= edge) & (u < edge + share)] = value
        edge += share
    chars = _ALPHABET[rng.integers(0, len(_ALPHABET), (n, 24))]
    payload = pa.array(chars.view("S24").ravel().astype(str).astype(object), pa.string())
    return pa.table({"id": pa.array(ids), "cat": pa.array(cat, pa.string()),
                     "region": pa.array([f"r{k // 2}"] * n, pa.string()),
                     "tag": pa.array(np.char.add("t", ids.astype(str)).astype(object), pa.string()),
                     "amount": pa.array(rng.integers(0, 1_000_000, n), pa.int64()), "payload": payload})


def _commit(path: str, entries: list[dict], dvs: dict | None, options: dict, seed: int) -> None:
    """Schema, manifest, (deletion vectors + index manifest), manifest lists, snapshot 1 of ``entries``."""
    from paimon_codec.dv.index_file import write_dv_index

    rng = np.random.default_rng(seed)
    for sub in ("schema", "snapshot", "manifest", "index"):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    now = int(time.time() * 1000)
    schema = {"version": 3, "id": 0, "fields": [{"id": i, "name": f.name, "type": str(f.type)}
                                                  for i, f in enumerate(ROW_TYPE)],
              "highestFieldId": len(ROW_TYPE) - 1, "partitionKeys": [], "primaryKeys": [], "options": options,
              "timeMillis": now}
    atomic_write_bytes(os.path.join(path, "schema", "schema-0"), json.dumps(schema, indent=2).encode())
    run = _uuid(rng)
    manifest = f"manifest-{run}-0"
    size = _write_avro(os.path.join(path, "manifest", manifest), MANIFEST_SCHEMA, entries)
    base, delta = f"manifest-list-{run}-0", f"manifest-list-{run}-1"
    _write_avro(os.path.join(path, "manifest", base), MANIFEST_LIST_SCHEMA, [])
    _write_avro(os.path.join(path, "manifest", delta), MANIFEST_LIST_SCHEMA, [
        {"_VERSION": 2, "_FILE_NAME": manifest, "_FILE_SIZE": size, "_NUM_ADDED_FILES": len(entries),
         "_NUM_DELETED_FILES": 0, "_PARTITION_STATS": _EMPTY, "_SCHEMA_ID": 0}])
    index_manifest = None
    if dvs:
        index_uuid = _uuid(rng)
        metas = write_dv_index(os.path.join(path, "index"), dvs, name_factory=lambda n: f"index-{index_uuid}-{n}")
        index_manifest = f"index-manifest-{run}-0"
        _write_avro(os.path.join(path, "manifest", index_manifest), INDEX_MANIFEST_SCHEMA, [
            {"_VERSION": 1, "_KIND": 0, "_PARTITION": _EMPTY_ROW, "_BUCKET": 0,
             "_INDEX_TYPE": "DELETION_VECTORS", "_FILE_NAME": m.file_name, "_FILE_SIZE": m.file_size,
             "_ROW_COUNT": m.row_count,
             "_DELETIONS_VECTORS_RANGES": [{"f0": r.data_file, "f1": r.offset, "f2": r.length,
                                            "_CARDINALITY": r.cardinality} for r in m.ranges]} for m in metas])
    total = sum(e["_FILE"]["_ROW_COUNT"] for e in entries)
    snapshot = {"version": 3, "id": 1, "schemaId": 0, "baseManifestList": base, "deltaManifestList": delta,
                "changelogManifestList": None, "indexManifest": index_manifest, "commitUser": "paimon-codec-bench",
                "commitIdentifier": 1, "commitKind": "APPEND", "timeMillis": now, "logOffsets": {},
                "totalRecordCount": total, "deltaRecordCount": total, "changelogRecordCount": 0}
    atomic_write_bytes(os.path.join(path, "snapshot", "snapshot-1"), json.dumps(snapshot, indent=2).encode())
    atomic_write_bytes(os.path.join(path, "snapshot", "LATEST"), b"1")
    atomic_write_bytes(os.path.join(path, "snapshot", "EARLIEST"), b"1")


def _load(path: str):
    with open(path) as fh:
        return json.load(fh)


def _link_files(src: str, dst: str, entries: list[dict]) -> None:
    os.makedirs(os.path.join(dst, "bucket-0"), exist_ok=True)
    for e in entries:
        for name in [e["_FILE"]["_FILE_NAME"], *e["_FILE"]["_EXTRA_FILES"]]:
            target = os.path.join(dst, "bucket-0", name)
            if not os.path.exists(target):
                os.link(os.path.join(src, "bucket-0", name), target)


def _dvs(entries: list[dict], seed: int, share: float = 0.05) -> dict:
    from paimon_codec.dv.deletion_vector import DeletionVector

    rng = np.random.default_rng(seed)
    out = {}
    for e in entries:
        n = e["_FILE"]["_ROW_COUNT"]
        out[e["_FILE"]["_FILE_NAME"]] = DeletionVector.from_array(np.flatnonzero(rng.random(n) < share))
    return out


def build(warehouse: str, files: int, rows: int, *, name: str = "scale", row_group_rows: int = 10_000,
          seed: int = 11, log=print) -> dict[str, str]:
    """Write (or reuse, when its stamp matches) ``bench.<name>`` and ``bench.<name>_dv`` under ``warehouse``."""
    from paimon_codec.fileindex.writer import FileIndexWriter, placement

    db = os.path.join(warehouse, "bench.db")
    path, dv_path = os.path.join(db, name), os.path.join(db, f"{name}_dv")
    path09, dv_path09 = path + "_09", dv_path + "_09"
    stamp = os.path.join(db, f"{name}.stamp.json")
    want = {"files": files, "rows": rows, "row_group_rows": row_group_rows, "seed": seed, "schema": SCHEMA}
    if os.path.exists(stamp) and _load(stamp) == want:
        return {name: path, f"{name}_dv": dv_path, f"{name}_09": path09, f"{name}_dv_09": dv_path09}
    import shutil

    for stale in (path, dv_path, path09, dv_path09):
        shutil.rmtree(stale, ignore_errors=True)
    os.makedirs(os.path.join(path, "bucket-0"))
    os.makedirs(os.path.join(path09, "bucket-0"))
    options = dict(OPTIONS, **{"file-index.bloom-filter.tag.items": str(rows)})
    options09 = {k: v for k, v in options.items() if "range-bitmap" not in k}
    entries09: list[dict] = []
    rng = np.random.default_rng(seed)
    entries: list[dict] = []
    t0 = time.perf_counter()
    for k in range(files):
        data = _rows(k, rows, k * rows, rng)
        fname = f"data-{_uuid(rng)}-0.parquet"
        file_path = os.path.join(path, "bucket-0", fname)
        with atomic_write(file_path) as fh:
            pq.write_table(data, fh, compression="zstd", row_group_size=row_group_rows)
        os.link(file_path, os.path.join(path09, "bucket-0", fname))
        writer = FileIndexWriter(ROW_TYPE, options09, paimon_version="0.9")
        writer.write_table(data)
        container = writer.serialize()
        place09 = placement(container, options09, fname)
        if place09.index_file_name:
            atomic_write_bytes(os.path.join(path09, "bucket-0", place09.index_file_name), container)
        writer = FileIndexWriter(ROW_TYPE, options, paimon_version="latest")
        writer.write_table(data)
        container = writer.serialize()
        place = placement(container, options, fname)
        if place.index_file_name:
            atomic_write_bytes(os.path.join(path, "bucket-0", place.index_file_name), container)
        entries.append({"_VERSION": 2, "_KIND": 0, "_PARTITION": _EMPTY_ROW, "_BUCKET": 0,
                        "_TOTAL_BUCKETS": -1,
                        "_FILE": {"_FILE_NAME": fname, "_FILE_SIZE": os.path.getsize(file_path), "_ROW_COUNT": rows,
                                  "_MIN_KEY": _EMPTY_ROW, "_MAX_KEY": _EMPTY_ROW,
                                  "_KEY_STATS": _EMPTY, "_VALUE_STATS": _value_stats(ROW_TYPE, data),
                                  "_MIN_SEQUENCE_NUMBER": k * rows, "_MAX_SEQUENCE_NUMBER": (k + 1) * rows - 1,
                                  "_SCHEMA_ID": 0, "_LEVEL": 0,
                                  "_EXTRA_FILES": [place.index_file_name] if place.index_file_name else [],
                                  "_CREATION_TIME": int(time.time() * 1000), "_DELETE_ROW_COUNT": 0,
                                  "_EMBEDDED_FILE_INDEX": place.embedded, "_FILE_SOURCE": 0}})
        entries09.append({**entries[-1], "_FILE": {
            **entries[-1]["_FILE"], "_EXTRA_FILES": [place09.index_file_name] if place09.index_file_name else [],
            "_EMBEDDED_FILE_INDEX": place09.embedded}})
        if k % 20 == 19:
            log(f"  wrote {k + 1}/{files} files ({time.perf_counter() - t0:.0f} s)")
    _commit(path, entries, None, options, seed)
    _link_files(path, dv_path, entries)
    _commit(dv_path, entries, _dvs(entries, seed), options, seed + 1)
    _commit(path09, entries09, None, options09, seed)
    _link_files(path09, dv_path09, entries09)
    _commit(dv_path09, entries09, _dvs(entries09, seed), options09, seed + 1)
    with open(os.path.join(db, f"{name}.entries.json"), "w") as fh:
        json.dump(entries, fh, default=lambda b: {"__bytes__": b.hex()})
    with open(stamp, "w") as fh:
        json.dump(want, fh)
    return {name: path, f"{name}_dv": dv_path, f"{name}_09": path09, f"{name}_dv_09": dv_path09}


def subset_table(warehouse: str, source: str, n: int, *, with_dvs: bool = False) -> str:
    """A table of the first ``n`` data files of ``bench.<source>`` (hard links; deletion vectors optional)."""
    db = os.path.join(warehouse, "bench.db")
    with open(os.path.join(db, f"{source}.entries.json")) as fh:
        entries = json.load(fh, object_hook=lambda d: bytes.fromhex(d["__bytes__"]) if "__bytes__" in d else d)
    if n > len(entries):
        raise ValueError(f"bench.{source} has {len(entries)} files, not {n}")
    path = os.path.join(db, f"{source}_{n}{'_dv' if with_dvs else ''}")
    if not os.path.exists(os.path.join(path, "snapshot", "LATEST")):
        _link_files(os.path.join(db, source), path, entries[:n])
        with open(os.path.join(db, source, "schema", "schema-0")) as fh:
            options = json.load(fh)["options"]
        _commit(path, entries[:n], _dvs(entries[:n], n) if with_dvs else None, options, n)
    return path
