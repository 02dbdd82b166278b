"""Spark scans: native reads of whole files, range predicates and top-N pushdown, the scan CLI."""

from __future__ import annotations

import json

import pytest
from golden_warehouse import WAREHOUSE_JSON, normalize_rows, table_dir, tables
from spark_fixtures import spark  # noqa: F401

from paimon_codec.spark.sample import write_sample_table

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def latest(tmp_path_factory) -> str:
    return write_sample_table(tmp_path_factory.mktemp("wh"), files=4, rows_per_file=600, seed=3,
                              deleted_every=9, paimon_version="latest")


def _key(row, keys):
    return tuple(row[c] for c, _ in keys)


@pytest.mark.parametrize("where", [None, "status = 'REFUNDED' AND region = 'EU'", "amount > 99000",
                                   "ts < TIMESTAMP '2023-11-14 22:30:00'", "id = 17"])
def test_native_and_arrow_paths_give_the_same_rows(spark, latest, where):  # noqa: F811
    from paimon_codec.spark import scan

    native, report = scan(spark, latest, where, driver_rows=0)  # small files: else every one is read on the driver
    if where is None:
        assert "spark_whole_files" in report.read_paths, report.read_paths
    arrow, _ = scan(spark, latest, where, native=False, driver_rows=0)
    driver, _ = scan(spark, latest, where, native=False, driver_rows=10**9)
    assert sorted(map(tuple, driver.collect())) == sorted(map(tuple, arrow.collect()))
    assert sorted(map(tuple, native.collect())) == sorted(map(tuple, arrow.collect()))
    assert native.columns == ["id", "status", "region", "amount", "ts"]
    assert native.dtypes == arrow.dtypes == driver.dtypes


@pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_native_reader_on_java_written_files(spark, spec):  # noqa: F811
    """Java-written Parquet (incl. primary-key files with _VALUE_KIND) read natively == the Arrow path."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark import scan
    from paimon_codec.spark.native import native_readable

    plan = plan_scan(table_dir(spec["table"]))
    assert any(t.selection is None and native_readable(t.path, t.file_format, plan.row_type, t.primary_key_file)
               for t in plan.tasks)
    native, report = scan(spark, table_dir(spec["table"]), driver_rows=0)
    assert "spark_whole_files" in report.read_paths, report.read_paths
    arrow, _ = scan(spark, table_dir(spec["table"]), native=False, driver_rows=0)
    driver, _ = scan(spark, table_dir(spec["table"]), native=False, driver_rows=10**9)
    assert normalize_rows(driver.collect()) == normalize_rows(arrow.collect())
    assert normalize_rows(native.collect()) == normalize_rows(arrow.collect())


def test_native_readable_refuses_what_spark_would_read_differently(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from paimon_codec.spark.native import native_readable
    from paimon_codec.types import parse_row_type

    p = str(tmp_path / "f.parquet")
    pq.write_table(pa.table({"a": pa.array([1], pa.int32()), "t": pa.array([0], pa.timestamp("ns"))}), p)
    assert native_readable(p, "parquet", parse_row_type("a INT"))
    assert not native_readable(p, "parquet", parse_row_type("a BIGINT"))  # type differs from the file's
    assert not native_readable(p, "parquet", parse_row_type("a INT, t TIMESTAMP(6)"))  # nanos
    assert not native_readable(p, "parquet", parse_row_type("a INT"), primary_key_file=True)  # no _VALUE_KIND
    assert not native_readable(p, "avro", parse_row_type("a INT"))
    assert not native_readable(str(tmp_path / "missing.parquet"), "parquet", parse_row_type("a INT"))
    glob = tmp_path / "x[1].parquet"
    pq.write_table(pa.table({"a": pa.array([1], pa.int32())}), str(glob))
    assert not native_readable(str(glob), "parquet", parse_row_type("a INT"))


TOPN = [
    (None, [("amount", "desc")], None, 7),
    (None, [("amount", "asc")], None, 12),  # nulls first
    (None, [("amount", "asc"), ("id", "desc")], None, 6),
    ("region = 'EU' AND amount BETWEEN 10000 AND 60000", [("amount", "desc")], None, 9),
    ("status IN ('NEW', 'PAID')", [("ts", "asc")], False, 4),
    ("id IN (5, 600, 1300)", [("amount", "desc")], None, 2),  # bloom filter: not exact, not pushed
    (None, [("id", "desc")], None, 3),  # no range bitmap on id: not pushed
]


@pytest.mark.parametrize("where,order_by,nulls_first,k", TOPN)
def test_scan_topn_equals_full_sort_and_limit(spark, latest, where, order_by, nulls_first, k):  # noqa: F811
    from paimon_codec.spark import scan

    df, report = scan(spark, latest, where, order_by=order_by, limit=k, nulls_first=nulls_first)
    full, full_report = scan(spark, latest, where, order_by=order_by, limit=k, nulls_first=nulls_first,
                             use_indexes=False)
    got, want = df.collect(), full.collect()
    assert not full_report.topn_pushed
    assert [_key(r, order_by) for r in got] == [_key(r, order_by) for r in want]
    assert len(got) == min(k, len(want)) and len(got) == k
    # every returned row is a real matching row
    everything = {r["id"]: r for r in scan(spark, latest, where)[0].collect()}
    assert all(everything[r["id"]] == r for r in got)
    if order_by[0][0] in ("amount", "ts") and not (where or "").startswith("id IN"):
        assert report.topn_pushed, report.topn_note
        assert report.rows_read < report.rows_selected
    else:
        assert not report.topn_pushed and report.rows_read == report.rows_selected


def test_scan_cli_order_by_limit(spark, latest, capsys):  # noqa: F811
    from paimon_codec.cli import main

    assert main(["scan", latest, "--order-by", "amount", "--desc", "--limit", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["report"]["topn_pushed"] is True and out["report"]["limit"] == 4
    amounts = [r["amount"] for r in out["rows"]]
    assert len(amounts) == 4 and amounts == sorted(amounts, reverse=True)
    assert main(["scan", latest, "--where", "amount < 100", "--order-by", "amount", "--limit", "3"]) == 0
    text = capsys.readouterr().out
    assert "pushed down to range-bitmap indexes" in text and "(3 rows)" in text


def test_demo_prints_rows_range_predicate_topn_and_audit(spark, tmp_path, capsys):  # noqa: F811
    from paimon_codec.cli import main

    assert main(["demo", "--warehouse", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for needle in ("indexed scan: WHERE", "range predicate (range-bitmap index)", "top-N: ORDER BY amount DESC",
                   "pushed down to range-bitmap indexes", "plan report:", "0 findings"):
        assert needle in out, needle
