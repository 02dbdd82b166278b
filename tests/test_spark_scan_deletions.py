"""Deleted rows dropped inside Spark's JVM (``_metadata.row_index``), row for row as Paimon Java reads them.

Newest Paimon Java (1.4.2) writes a primary-key table with deletion vectors: sorted ids over several
Parquet row groups a file, a full compaction, then updates and deletes of spread-out keys compacted
again (deletion vectors on the compacted files).  For each predicate, our ``scan`` through the JVM bitmasks
(:mod:`paimon_codec.spark.deletions`: a broadcast mask per file tested on ``_metadata.row_index``), through
the broadcast join of positions (the masks' size limit forced to zero) and through pyarrow (``native=False``)
must give exactly Java's rows, and so must the default route (pyarrow in tasks: the JVM route is off by
default); predicates on ``id`` let
Spark's reader skip row groups by statistics, where a wrong ``row_index`` would show.  A table of this
library's own writer with a deletion vector on every file (the scale benchmark's) is checked the same
way against pyarrow's read of the files minus the vectors' positions.  The ``paimon_codec`` DataFrame source
(with and without pushed filters) must give the same rows.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import read_via, spark  # noqa: F401

pytestmark = [pytest.mark.spark]

SCHEMA = "id INT NOT NULL, cat STRING, amount BIGINT, payload STRING"
PREDICATES = [None, "cat = 'c3'", "id < 700", "id >= 3100 AND id < 3300", "amount > 900 OR cat = 'c0'",
              "cat = 'absent'"]
JVM = "spark_jvm_deletions"


def _rows(ids, salt: int = 0) -> pa.Table:
    ids = list(ids)
    return pa.table({"id": pa.array(ids, pa.int32()), "cat": [f"c{(i * 7 + salt) % 9}" for i in ids],
                     "amount": pa.array([(i * 31 + salt) % 1000 for i in ids], pa.int64()),
                     "payload": [f"p{i:06d}-{salt}" * 4 for i in ids]})


@pytest.fixture(scope="module")
def java_dv_table(tmp_path_factory, java_newest):
    java = java_newest
    wh = tmp_path_factory.mktemp("dvscan")
    path = java.create_table(wh, "db.pk_dv", SCHEMA, primary_keys=["id"],
                             options={"bucket": "1", "deletion-vectors.enabled": "true", "file.format": "parquet",
                                      "parquet.block.size": "16384", "file-index.bitmap.columns": "cat"})
    java.write(path, _rows(range(4000)))
    java.compact(path, full=True)
    java.write(path, _rows(range(0, 4000, 7), salt=1))
    java.write(path, _rows(range(3, 4000, 11)), row_kinds=["-D"] * len(range(3, 4000, 11)))
    java.compact(path, full=False)
    return java, path


def _check(spark, path, where, want: pa.Table, monkeypatch):  # noqa: F811
    from paimon_codec.spark import deletions, scan

    paths = {}
    for mode in ("mask", "join", "default", "pyarrow"):
        with monkeypatch.context() as m:
            m.setattr(deletions, "JVM_SELECTION", mode in ("mask", "join"))
            if mode == "join":
                m.setattr(deletions, "MAX_MASK_BITS", 0)
            df, report = scan(spark, path, where, native=mode != "pyarrow", driver_rows=0)
            mine = pa.Table.from_pylist([r.asDict() for r in df.collect()], schema=want.schema)
        assert_same_rows(mine, want)
        paths[mode] = dict(report.read_paths)
    for via in ("source", "source-pushdown"):  # the DataFrame source reads the same rows
        df, _ = read_via(spark, via, path, where)
        assert_same_rows(pa.Table.from_pylist([r.asDict() for r in df.collect()], schema=want.schema), want)
    return paths


def test_jvm_deletions_match_java(spark, java_dv_table, monkeypatch):  # noqa: F811
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.table import PaimonTable

    java, path = java_dv_table
    tasks = plan_scan(PaimonTable(path)).tasks
    assert any(t.has_deletions for t in tasks), "the table must have deletion vectors"
    assert max(pq.ParquetFile(t.path).metadata.num_row_groups for t in tasks if t.has_deletions) > 1
    for where in PREDICATES:
        want = java.read(path, where=where)
        paths = _check(spark, path, where, want, monkeypatch)
        if where != "cat = 'absent'":  # (every file skipped by the bitmap index)
            assert f"{JVM}_mask" in paths["mask"], (where, paths)
            assert f"{JVM}_join" in paths["join"], (where, paths)
        assert not any(k.startswith(JVM) for k in paths["pyarrow"])
        assert not any(k.startswith(JVM) for k in paths["default"])  # JVM_SELECTION is off by default


def test_jvm_deletions_on_our_dv_table(spark, tmp_path, monkeypatch):  # noqa: F811
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import _scale_table

    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.table import PaimonTable

    path = _scale_table.build(str(tmp_path), 3, 3000, log=lambda *_: None)["scale_dv"]
    table = PaimonTable(path)
    files = {f.path: pq.read_table(f.path) for f in table.data_files()}
    tasks = plan_scan(table).tasks
    assert all(t.has_deletions for t in tasks) and len(tasks) == 3
    every = pa.concat_tables([files[t.path].take(pa.array(sorted(t.selection), pa.int64())) for t in tasks])
    for where, mask in ((None, None), ("cat = 's10'", lambda t: pc.equal(t["cat"], "s10")),
                        ("region = 'r1'", lambda t: pc.equal(t["region"], "r1")),
                        ("amount < 100000", lambda t: pc.less(t["amount"], 100000))):
        want = every if mask is None else every.filter(mask(every))
        paths = _check(spark, path, where, want, monkeypatch)
        assert any(k.startswith(JVM) for k in paths["mask"]), paths


def test_columns_and_small_selections_on_the_driver(spark, java_dv_table):  # noqa: F811
    """``columns=`` reads only what the answer and the predicate need; a small selection (here a deletion
    vector's and the bitmap index's) is read by pyarrow on the driver, the same rows as Java's."""
    from paimon_codec.spark import scan

    java, path = java_dv_table
    for where in ("cat = 'c3' AND id < 900", "id >= 3100 AND id < 3300"):
        want = java.read(path, where=where, projection=["id", "amount"])
        df, report = scan(spark, path, where, columns=["id", "amount"])
        assert df.columns == ["id", "amount"]
        assert_same_rows(pa.Table.from_pylist([r.asDict() for r in df.collect()], schema=want.schema), want)
        assert report.read_paths.get("driver_pyarrow"), report.read_paths
    with pytest.raises(Exception, match="nope"):
        scan(spark, path, None, columns=["nope"])


def test_row_of_an_unknown_file_fails(spark, java_dv_table, monkeypatch):  # noqa: F811
    """A row whose file has no mask (the plan does not hold the file) fails the query instead of being kept
    or dropped silently."""
    from paimon_codec.spark import deletions, scan

    java, path = java_dv_table
    whole = deletions._mask_frame
    monkeypatch.setattr(deletions, "JVM_SELECTION", True)
    monkeypatch.setattr(deletions, "_mask_frame", lambda spark, tasks: whole(spark, tasks[1:]))
    df, report = scan(spark, path, None, driver_rows=0)
    assert report.read_paths.get(f"{JVM}_mask"), report.read_paths
    with pytest.raises(Exception, match="scan plan does not hold"):
        df.collect()
