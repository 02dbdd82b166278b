"""Index-aware Spark scans of the golden warehouse (and the sample table) give exactly the expected rows - through
``scan()`` and through the ``paimon_codec`` DataFrame source (``via``: its filters pushed down, Spark's own filter)."""

from __future__ import annotations

import pytest
from golden_warehouse import (
    WAREHOUSE_JSON,
    expected_all_rows,
    expected_query_rows,
    normalize_rows,
    table_at,
    table_dir,
    tables,
)
from spark_fixtures import read_via, spark  # noqa: F401

from paimon_codec.expressions import col

pytestmark = [pytest.mark.spark,
              pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")]


VIA = ["scan", "source", "source-pushdown"]


@pytest.mark.parametrize("via", VIA)
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_scan_without_predicate_returns_every_live_row(spark, spec, table_location, via):  # noqa: F811
    df, report = read_via(spark, via, table_at(table_location, spec["table"]))
    assert normalize_rows(df.collect()) == normalize_rows(expected_all_rows(spec))
    assert df.columns == [c["name"] for c in spec["schema"]]
    if report is None:
        return
    assert report.files_skipped_by_index == 0
    assert report.rows_selected == len(expected_all_rows(spec))


@pytest.mark.parametrize("via", VIA)
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_scan_answers_every_golden_query(spark, spec, table_location, via):  # noqa: F811
    skipped = 0
    for q in spec["queries"]:
        df, report = read_via(spark, via, table_at(table_location, spec["table"]), q["pred"])
        want = expected_query_rows(spec, q["id"])
        if spec["kind"] == "append":
            assert sorted(r[0] for r in df.collect()) == sorted(want), q
        else:
            assert normalize_rows(df.collect()) == normalize_rows(want), q
        if report is None:
            continue
        assert report.files_read + report.files_skipped_by_index + report.files_skipped_by_deletion_vectors \
            + report.files_skipped_level0 + report.files_skipped_by_partition + report.files_pruned_by_stats \
            == report.files_total
        skipped += report.files_skipped_by_index
    if spec["kind"] == "append" and via == "scan":  # the only golden table with file indexes
        assert skipped > 0


def test_scan_accepts_sql_text_and_expressions(spark):  # noqa: F811
    from paimon_codec.spark import scan

    path = table_dir("golden.append_indexed")
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    want = sorted(expected_query_rows(spec, "q8"))  # cat = 'B' AND code = 20
    df1, r1 = scan(spark, path, "cat = 'B' AND code = 20")
    df2, r2 = scan(spark, path, (col("cat") == "B") & (col("code") == 20))
    assert sorted(r[0] for r in df1.collect()) == want == sorted(r[0] for r in df2.collect())
    assert r1.files_read == r2.files_read < r1.files_total


@pytest.mark.parametrize("via", VIA)
def test_scan_of_an_older_snapshot(spark, table_location, via):  # noqa: F811
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    df, report = read_via(spark, via, table_at(table_location, spec["table"]), snapshot_id=2)
    assert df.count() == spec["index_manifest"]["snapshots"][1]["total_record_count"]
    assert report is None or report.snapshot_id == 2


@pytest.mark.parametrize("via", VIA)
def test_scan_of_the_sample_table_uses_indexes_and_dvs(spark, tmp_path, via):  # noqa: F811
    import pyarrow.parquet as pq

    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark.sample import write_sample_table
    from paimon_codec.table import PaimonTable

    path = write_sample_table(tmp_path, files=3, rows_per_file=600)
    table = PaimonTable(path)
    # the truth: every row of every file minus DV-deleted positions, filtered in Python
    truth = []
    for f, task in zip(table.data_files(), plan_scan(table).tasks, strict=True):
        rows = pq.read_table(f.path).to_pylist()
        keep = range(len(rows)) if task.selection is None else sorted(task.selection)
        truth.extend(rows[i] for i in keep)
    df, report = read_via(spark, via, path, "status = 'REFUNDED' AND region = 'EU'")
    want = sorted(r["id"] for r in truth if r["status"] == "REFUNDED" and r["region"] == "EU")
    assert sorted(r.id for r in df.collect()) == want and want
    if report is None:
        return
    assert report.files_skipped_by_index >= 1
    assert report.rows_deleted > 0
