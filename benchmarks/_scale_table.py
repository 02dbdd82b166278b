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
which Paimon 0.9 reads.  Tables are created, written and committed with :mod:`paimon_codec.writing` and
:mod:`paimon_codec.writing.commit` (the twins in the 0.9 metadata layout).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import time
import uuid

import numpy as np
import pyarrow as pa

SCHEMA = "id BIGINT NOT NULL, cat STRING, region STRING, tag STRING, amount BIGINT, payload STRING"
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


def _dv_changes(path: str, changes: list, seed: int, share: float = 0.05) -> list:
    """Deletion vectors deleting ``share`` of the rows of every file, written into ``path``'s index dir."""
    from paimon_codec.dv.deletion_vector import DeletionVector
    from paimon_codec.dv.index_file import write_dv_index
    from paimon_codec.table.index_manifest import DELETION_VECTORS_INDEX, DeletionVectorRange, IndexFileMeta
    from paimon_codec.writing.commit import IndexChange

    rng = np.random.default_rng(seed)
    dvs = {c.file.file_name: DeletionVector.from_array(np.flatnonzero(rng.random(c.file.row_count) < share))
           for c in changes}
    index_dir = os.path.join(path, "index")
    os.makedirs(index_dir, exist_ok=True)
    stem = uuid.UUID(bytes=rng.bytes(16), version=4)
    out = []
    for m in write_dv_index(index_dir, dvs, name_factory=lambda n: f"index-{stem}-{n}"):
        ranges = tuple(DeletionVectorRange(r.data_file, r.offset, r.length, r.cardinality) for r in m.ranges)
        out.append(IndexChange.of((), 0, IndexFileMeta(DELETION_VECTORS_INDEX, m.file_name, m.file_size,
                                                         m.row_count, ranges)))
    return out


def _link(src: str, dst: str, changes: list) -> None:
    os.makedirs(os.path.join(dst, "bucket-0"), exist_ok=True)
    for c in changes:
        for name in (c.file.file_name, *c.file.extra_files):
            target = os.path.join(dst, "bucket-0", name)
            if not os.path.exists(target):
                os.link(os.path.join(src, "bucket-0", name), target)


def _table_from(src: str, dst: str, changes: list, options: dict, layout: str, dv_seed: int | None) -> None:
    """``dst``: a table of ``changes``' data files (hard links from ``src``), deletion vectors optional."""
    from paimon_codec.writing import create_table
    from paimon_codec.writing.commit import commit_changes

    create_table(dst, SCHEMA, options)
    _link(src, dst, changes)
    extra = [] if dv_seed is None else _dv_changes(dst, changes, dv_seed)
    commit_changes(dst, [*changes, *extra], commit_user="paimon-codec-bench", layout=layout)


def build(warehouse: str, files: int, rows: int, *, name: str = "scale", seed: int = 11,
          log=print) -> dict[str, str]:
    """Write (or reuse, when its stamp matches) ``bench.<name>``, ``<name>_dv`` and their ``_09`` twins."""
    from paimon_codec.fileindex.writer import FileIndexWriter, placement
    from paimon_codec.types import parse_row_type
    from paimon_codec.writing import create_table, write_data_files
    from paimon_codec.writing.commit import commit_changes

    db = os.path.join(warehouse, "bench.db")
    names = {name: name, f"{name}_dv": f"{name}_dv", f"{name}_09": f"{name}_09", f"{name}_dv_09": f"{name}_dv_09"}
    paths = {k: os.path.join(db, v) for k, v in names.items()}
    stamp = os.path.join(db, f"{name}.stamp.json")
    want = {"files": files, "rows": rows, "seed": seed, "schema": SCHEMA, "version": 2}
    if os.path.exists(stamp):
        with open(stamp) as fh:
            if json.load(fh) == want:
                return paths
    for stale in paths.values():
        shutil.rmtree(stale, ignore_errors=True)
    options = dict(OPTIONS, **{"file-index.bloom-filter.tag.items": str(rows)})
    options09 = {k: v for k, v in options.items() if "range-bitmap" not in k}
    row_type = parse_row_type(SCHEMA)
    path, path09 = paths[name], paths[f"{name}_09"]
    create_table(path, SCHEMA, options)
    os.makedirs(os.path.join(path09, "bucket-0"), exist_ok=True)
    rng = np.random.default_rng(seed)
    changes, changes09 = [], []
    t0 = time.perf_counter()
    for k in range(files):
        data = _rows(k, rows, k * rows, rng)
        written = write_data_files(path, data, layout="newest")
        changes.extend(written)
        for c in written:  # the twin's index: bitmap + bloom only, next to a hard link of the data file
            writer = FileIndexWriter(row_type, options09, paimon_version="0.9")
            writer.write_table(data)
            container = writer.serialize()
            place = placement(container, options09, c.file.file_name)
            if place.index_file_name:
                with open(os.path.join(path09, "bucket-0", place.index_file_name), "wb") as fh:
                    fh.write(container)
            changes09.append(dataclasses.replace(c, file=dataclasses.replace(
                c.file, extra_files=(place.index_file_name,) if place.index_file_name else (),
                embedded_index=place.embedded)))
        if k % 20 == 19:
            log(f"  wrote {k + 1}/{files} files ({time.perf_counter() - t0:.0f} s)")
    commit_changes(path, changes, commit_user="paimon-codec-bench", layout="newest")
    _table_from(path, paths[f"{name}_dv"], changes, options, "newest", seed)
    staged = path09 + ".staged"
    os.rename(path09, staged)
    _table_from(path, path09, changes09, options09, "0.9", None)
    for c in changes09:  # the twin's own index files
        for idx in c.file.extra_files:
            os.replace(os.path.join(staged, "bucket-0", idx), os.path.join(path09, "bucket-0", idx))
    shutil.rmtree(staged)
    _table_from(path09, paths[f"{name}_dv_09"], changes09, options09, "0.9", seed)
    with open(os.path.join(db, f"{name}.changes.pkl"), "wb") as fh:
        pickle.dump({"changes": changes, "options": options}, fh)
    with open(stamp, "w") as fh:
        json.dump(want, fh)
    return paths


def subset_table(warehouse: str, source: str, n: int, *, with_dvs: bool = False) -> str:
    """A table of the first ``n`` data files of ``bench.<source>`` (hard links; deletion vectors optional)."""
    db = os.path.join(warehouse, "bench.db")
    with open(os.path.join(db, f"{source}.changes.pkl"), "rb") as fh:
        saved = pickle.load(fh)
    changes = saved["changes"]
    if n > len(changes):
        raise ValueError(f"bench.{source} has {len(changes)} files, not {n}")
    path = os.path.join(db, f"{source}_{n}{'_dv' if with_dvs else ''}")
    if not os.path.exists(os.path.join(path, "snapshot", "LATEST")):
        shutil.rmtree(path, ignore_errors=True)
        _table_from(os.path.join(db, source), path, changes[:n], saved["options"], "newest", n if with_dvs else None)
    return path
