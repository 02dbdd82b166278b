"""Scans of tables on an S3 server (moto, loopback): every pyarrow route gives the rows Java Paimon's golden
answers give, small answers are routed to the driver by the manifest's estimate (no footer GETs), and the
files of a reader are read several at once (bounded)."""

from __future__ import annotations

import threading
import time

import pytest
from golden_warehouse import WAREHOUSE, WAREHOUSE_JSON, expected_query_rows, normalize_rows, tables
from spark_fixtures import spark  # noqa: F401
from storage_fixtures import on_s3

pytestmark = [pytest.mark.spark,
              pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")]

_INDEXED = "golden.append_indexed"


def _spec(name: str) -> dict:
    return next(t for t in tables() if t["table"] == name)


def _uri(s3_server, name: str) -> str:
    db, table = name.split(".")
    return f"{on_s3(s3_server)(str(WAREHOUSE))}/{db}.db/{table}"


@pytest.mark.parametrize("name", [t["table"] for t in tables()])
def test_every_pyarrow_route_on_s3_gives_the_golden_rows(spark, s3_server, name):  # noqa: F811
    """The driver's threads and the mapInArrow tasks' threads read the same rows from the store."""
    from paimon_codec.spark import scan

    spec = _spec(name)
    uri = _uri(s3_server, name)
    routes_seen: dict[str, set[str]] = {"driver": set(), "tasks": set()}
    for q in spec["queries"]:
        want = expected_query_rows(spec, q["id"])
        for label, driver_rows in (("driver", 1 << 30), ("tasks", 0)):
            df, report = scan(spark, uri, q["pred"], driver_rows=driver_rows)
            if spec["kind"] == "append":
                assert sorted(r[0] for r in df.collect()) == sorted(want), (q, label)
            else:
                assert normalize_rows(df.collect()) == normalize_rows(want), (q, label)
            routes_seen[label].update(report.read_paths)
            # no file of a store goes to Spark's own reader (its JVM has no S3 filesystem here)
            assert "spark_whole_files" not in report.read_paths, report.read_paths
    assert "spark_tasks_pyarrow" in routes_seen["tasks"] or "group_tasks" in routes_seen["tasks"], routes_seen
    assert "driver_pyarrow" not in routes_seen["tasks"], routes_seen
    if spec["kind"] == "append":
        assert routes_seen["driver"] == {"driver_pyarrow"}, routes_seen


def test_small_store_answers_are_routed_by_the_manifest_estimate(spark, s3_server, monkeypatch):  # noqa: F811
    """On a store the bytes a selection touches are estimated from the manifest (file size times the share of
    columns read), bounded by STORE_DRIVER_READ_BYTES: under it the driver reads, over it Spark's tasks."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark import routes, scan
    from paimon_codec.spark.scan import _projected
    from paimon_codec.table import PaimonTable

    spec = _spec(_INDEXED)
    uri = _uri(s3_server, _INDEXED)
    q = next(q for q in spec["queries"] if expected_query_rows(spec, q["id"]))
    plan = _projected(plan_scan(PaimonTable(uri), q["pred"]), [spec["schema"][0]["name"]])
    assert plan.tasks
    estimate = sum(routes._store_estimate(t, set(plan.row_type.names), routes._width(plan, t)) for t in plan.tasks)
    width = len(spec["schema"])
    if len(plan.row_type.names) < width:  # fewer columns read than the file has: less than the whole files
        assert 0 < estimate < sum(t.file_size for t in plan.tasks)
    assert routes.route_plan(plan).counts() == {"driver_pyarrow": len(plan.tasks)}
    monkeypatch.setattr(routes, "STORE_DRIVER_READ_BYTES", estimate - 1)
    assert routes.route_plan(plan).counts() == {"spark_tasks_pyarrow": len(plan.tasks)}
    if all(t.exact for t in plan.tasks):  # the scan reads the exact answers without the predicate's columns
        keep = {spec["schema"][0]["name"]}
        monkeypatch.setattr(routes, "STORE_DRIVER_READ_BYTES", sum(
            routes._store_estimate(t, keep, routes._width(plan, t)) for t in plan.tasks) - 1)
    df, report = scan(spark, uri, q["pred"], columns=[spec["schema"][0]["name"]])
    assert sorted(r[0] for r in df.collect()) == sorted(expected_query_rows(spec, q["id"]))
    assert report.read_paths == {"spark_tasks_pyarrow": len(plan.tasks)}


def test_reading_a_store_plan_locally_uses_threads_and_gives_the_local_rows(s3_server):
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.reading.read import STORE_READ_THREADS, read_plan_locally, read_threads
    from paimon_codec.table import PaimonTable

    spec = _spec(_INDEXED)
    uri = _uri(s3_server, _INDEXED)
    local = f"{WAREHOUSE}/golden.db/append_indexed"
    plan = plan_scan(PaimonTable(uri))
    assert len(plan.tasks) > 1
    assert read_threads([t.path for t in plan.tasks]) == STORE_READ_THREADS
    got = read_plan_locally(plan).sort_by("id")
    assert got.equals(read_plan_locally(plan_scan(PaimonTable(local))).sort_by("id"))
    assert got.num_rows == len(spec["all_rows_sorted_by_id"])


def test_map_bounded_keeps_order_and_bounds_the_calls_in_flight():
    from paimon_codec.reading.read import map_bounded

    lock = threading.Lock()
    started: list[int] = []
    consumed = 0
    peak = 0

    def fn(i: int) -> int:
        nonlocal peak
        with lock:
            started.append(i)
            peak = max(peak, len(started) - consumed)
        time.sleep(0.001 * (i % 3))
        return i * i

    out = []
    for v in map_bounded(fn, range(200), 4):
        consumed += 1
        out.append(v)
    assert out == [i * i for i in range(200)]
    assert peak <= 2 * 4 + 1

    def boom(i: int) -> int:
        if i == 7:
            raise ValueError("file 7")
        return i

    with pytest.raises(ValueError, match="file 7"):
        list(map_bounded(boom, range(50), 4))
    assert list(map_bounded(lambda i: -i, range(5), 1)) == [0, -1, -2, -3, -4]
