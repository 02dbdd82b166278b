"""Paimon's own Spark connector (the benchmarks' bar) reads tables Java Paimon wrote: the same rows as ours.

The connector's runtime jar comes from Maven Central and runs in the PySpark it was built for, in a venv
of its own (``benchmarks/_paimon_spark.py``; set up by ``run.sh``).  Java Paimon 0.9 writes a partitioned
append table with bitmap and bloom-filter indexes over several commits and a primary-key table with
deletion vectors; for every predicate the connector's rows (``SELECT * FROM paimon.db.t WHERE ...``),
Java's own read and our ``scan`` (driver and distributed planning) must agree.  Then a small run of
``benchmarks/scale.py`` (ours vs the connector vs plain Spark; it fails on any row difference).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import _paimon_spark  # noqa: E402

pytestmark = [pytest.mark.spark, pytest.mark.slow]

SCHEMA = "id INT NOT NULL, p STRING NOT NULL, cat STRING, code INT, name STRING"
ARROW = pa.schema([("id", pa.int32()), ("p", pa.string()), ("cat", pa.string()), ("code", pa.int32()),
                   ("name", pa.string())])
PREDICATES = [None, "cat = 'c3'", "code = 17", "code > 90", "name = 'n42'", "cat IN ('c1', 'c5') AND p = 'x'",
              "code BETWEEN 10 AND 12 OR cat = 'c0'", "name = 'absent'"]


def _rows(start: int, n: int, salt: int = 0) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "p": "xy"[i % 2], "cat": f"c{(i * 7 + salt) % 9}",
                                  "code": (i * 13 + salt) % 100, "name": f"n{i}"} for i in range(start, start + n)],
                                schema=ARROW)


@pytest.fixture(scope="module")
def connector():
    try:
        return _paimon_spark.connector()
    except RuntimeError as exc:  # a missing bar FAILS (never skips): run.sh sets it up
        pytest.fail(f"Paimon's Spark connector is not available: {exc}", pytrace=False)


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java09_tables):
    java = java09_tables
    warehouse = tmp_path_factory.mktemp("connector")
    indexes = {"file-index.bitmap.columns": "cat", "file-index.bloom-filter.columns": "name"}
    append = java.create_table(warehouse, "db.append", SCHEMA, partition_keys=["p"], options={"bucket": "-1", **indexes})
    for k in range(3):
        java.write(append, _rows(k * 50, 50))
    pk = java.create_table(warehouse, "db.pk_dv", SCHEMA, primary_keys=["id", "p"], partition_keys=["p"],
                           options={"bucket": "2", "deletion-vectors.enabled": "true", **indexes})
    java.write(pk, _rows(0, 200))
    java.compact(pk, full=True)
    java.write(pk, _rows(0, 200, salt=1).filter(pa.compute.less(pa.compute.field("id"), 40)))
    java.compact(pk, full=False)
    tables = {"append": append, "pk_dv": pk}
    reads = {name: {str(w): java.read(path, where=w) for w in PREDICATES} for name, path in tables.items()}
    return str(warehouse), tables, reads


def _connector_ids(connector, warehouse: str, table: str) -> dict[str, list]:
    req = {"jar": connector["jar"], "warehouse": warehouse, "database": "db", "master": "local[2]", "rounds": 0,
           "queries": [{"id": str(w), "table": table, "where": w, "key": "id"} for w in PREDICATES]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(req, fh)
    env = dict(os.environ, PYSPARK_PYTHON=connector["python"], PYSPARK_DRIVER_PYTHON=connector["python"])
    try:
        done = subprocess.run([connector["python"], str(_paimon_spark.WORKER), fh.name], capture_output=True,
                              text=True, env=env, timeout=1800)
    finally:
        os.unlink(fh.name)
    assert done.returncode == 0, done.stderr[-3000:]
    return {rec["id"]: rec["keys"] for rec in map(json.loads, filter(None, done.stdout.splitlines()))}


@pytest.mark.parametrize("name", ["append", "pk_dv"])
def test_connector_reads_the_rows_we_read(spark, connector, java_tables, name):  # noqa: F811
    from paimon_codec.spark import scan

    warehouse, tables, reads = java_tables
    theirs = _connector_ids(connector, warehouse, name)
    assert set(theirs) == {str(w) for w in PREDICATES}
    for where in PREDICATES:
        java = sorted(reads[name][str(where)].column("id").to_pylist())
        assert theirs[str(where)] == java, f"connector vs Java: {where}"
        for planning in ("never", "always"):
            df, _ = scan(spark, tables[name], where, distributed_planning=planning)
            assert sorted(r.id for r in df.collect()) == java, f"ours ({planning}) vs Java: {where}"
    assert len(theirs["None"]) == (150 if name == "append" else 200)


def test_scale_benchmark_small_run(connector, tmp_path):
    """A small run of benchmarks/scale.py: every side answers, ours and the connector agree row for row."""
    out = tmp_path / "scale.md"
    cmd = [sys.executable, str(BENCH / "scale.py"), "--files", "3", "--rows", "4000",
           "--rounds", "1", "--warehouse", str(tmp_path / "wh"), "--planning-files", "2,3", "--planning-rows", "300",
           "--kinds", "bitmap,range,top-N,DV + bitmap", "--output", str(out), "--plot", str(tmp_path / "scale.png")]
    env = dict(os.environ, PYTHONPATH=str(BENCH.parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(out.with_suffix(".json").read_text())
    rows = results["results"]
    assert {r["kind"] for r in rows} == {"bitmap", "range", "top-N", "DV + bitmap"}
    for r in rows:
        assert r["connector_s"] is not None and r["ours_s"] > 0 and r["plain_s"] > 0
        assert r["plain_same_rows"] or r["table"].endswith("_dv"), r  # plain Spark cannot apply DVs
    assert {p["planning"] for p in results["planning"]} == {"driver", "distributed"}
    assert (tmp_path / "scale.png").stat().st_size > 0
    assert "| query |" in out.read_text()
