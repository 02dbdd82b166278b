"""Our upserts, deletes and compactions on primary-key tables Paimon Java 1.4.2 created and wrote (the other
order of writers from ``test_write_primary_key`` / ``test_pk_delete``, where we write first): Java's schema
file, its snapshots, its hash index (dynamic buckets) and its deletion vectors (a DV table after Java's lookup
compaction) are what we build on.  Java, pypaimon 2.1 and our reader must all read the model's rows, and Java
keeps writing on top of our result.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.writing import delete
from paimon_codec.writing.compact import compact_table
from paimon_codec.writing.primary_key import upsert_arrow

SCHEMA = "id INT NOT NULL, p INT NOT NULL, s STRING, n BIGINT"
ARROW = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("s", pa.string()), ("n", pa.int64())])
LAYOUTS = {
    "fixed-partitioned": ({"bucket": "3"}, ["p"]),
    "fixed": ({"bucket": "2"}, []),
    "dynamic-partitioned": ({"bucket": "-1", "dynamic-bucket.target-row-num": "6"}, ["p"]),
    "dynamic": ({"bucket": "-1", "dynamic-bucket.target-row-num": "8"}, []),
    "dv-dynamic": ({"bucket": "-1", "dynamic-bucket.target-row-num": "8", "deletion-vectors.enabled": "true"},
                   ["p"]),
    "dv-fixed": ({"bucket": "2", "deletion-vectors.enabled": "true"}, []),
}


def _batch(ids, tag="a") -> pa.Table:
    ids = list(ids)
    return pa.table({"id": pa.array(ids, pa.int32()), "p": pa.array([i % 3 for i in ids], pa.int32()),
                     "s": [f"{tag}{i}" if i % 5 else None for i in ids],
                     "n": pa.array([i * 7 for i in ids], pa.int64())})


class Model:
    """The rows a deduplicate table holds: key -> last row written; -D and deletes remove the key."""

    def __init__(self) -> None:
        self.rows: dict[tuple, dict] = {}

    def put(self, data: pa.Table) -> None:
        self.rows.update({(r["id"], r["p"]): r for r in data.to_pylist()})

    def drop(self, keep) -> None:
        self.rows = {k: r for k, r in self.rows.items() if keep(r)}

    def table(self) -> pa.Table:
        return pa.Table.from_pylist(list(self.rows.values()), schema=ARROW)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_ours_on_top_of_java(tmp_path, java_newest, pypaimon21, layout):
    options, parts = LAYOUTS[layout]
    dv = options.get("deletion-vectors.enabled") == "true"
    path = java_newest.create_table(tmp_path / "wh", "db.t", SCHEMA, primary_keys=["id", "p"],
                                    partition_keys=parts, options=options)
    model = Model()
    java_newest.write(path, _batch(range(30)))
    java_newest.compact(path, full=True)
    java_newest.write(path, _batch(range(25, 40), tag="j"))  # DV: Java's lookup compaction marks old rows
    model.put(_batch(range(30)))
    model.put(_batch(range(25, 40), tag="j"))
    if layout == "dv-fixed":  # (dynamic: Java's compaction here rewrites the small buckets, no vector needed)
        table = PaimonTable(path)
        assert any(e.index_file.index_type == "DELETION_VECTORS" for e in table.index_entries(table.snapshot()))
    assert_same_rows(read_table(path), model.table(), what="we read Java's table")

    ours = _batch(range(35, 50), tag="o")  # keys Java wrote go to Java's buckets; new keys get new ones
    upsert_arrow(path, ours)
    report = delete(path, "id < 5 OR s = 'j27'")
    assert report.rows_deleted == 6
    if not dv:  # a DV table reads level 0 only after compaction (in Java too)
        model.put(ours)
        model.drop(lambda r: not (r["id"] < 5 or r["s"] == "j27"))
        assert_same_rows(java_newest.read(path), model.table(), what="Java reads our upsert + delete on its table")
    compact_table(path)
    if dv:
        model.put(ours)
        model.drop(lambda r: not (r["id"] < 5 or r["s"] == "j27"))
    for reader, rows in (("java", java_newest.read(path)), ("pypaimon", pypaimon21.read(path)),
                         ("ours", read_table(path))):
        assert_same_rows(rows, model.table(), what=f"{reader} reads our compaction of Java's table")
    if options["bucket"] == "-1":  # every key sits in one bucket: ours followed Java's hash index
        table = PaimonTable(path)
        seen: dict[tuple, int] = {}
        for f in table.live_files(table.snapshot()):
            import pyarrow.parquet as pq

            data = pq.read_table(f.path, columns=["id", "p"])
            for key in zip(data.column("id").to_pylist(), data.column("p").to_pylist(), strict=True):
                assert seen.setdefault(key, f.bucket) == f.bucket, f"key {key} in two buckets"

    java_newest.write(path, _batch([1, 36, 60], tag="z"))  # Java again on top of ours
    java_newest.write(path, _batch([10]), row_kinds=["-D"])
    java_newest.compact(path, full=True)
    model.put(_batch([1, 36, 60], tag="z"))
    model.drop(lambda r: r["id"] != 10)
    assert_same_rows(read_table(path), model.table(), what="we read Java's writes on top of ours")
    assert_same_rows(java_newest.read(path), model.table())
