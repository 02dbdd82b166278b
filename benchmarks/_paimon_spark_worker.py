"""Run queries through Paimon's Spark connector (``spark.read`` of Paimon's catalog); one JSON line per query.

Runs in the connector's own venv (:mod:`_paimon_spark`: the PySpark the jar was built for), so it imports
nothing of this project.  Request (JSON file named by argv[1])::

    {"jar": ..., "warehouse": ..., "database": ..., "master": "local[2]", "rounds": 3,
     "queries": [{"id": ..., "table": ..., "key": "id", "where": "SQL", "order_by": "amount DESC", "limit": 10}],
     "extra_jars": [...], "catalog_options": {...}, "counts_url": ...}

The last three are optional, for a warehouse on an object store (``s3://...``): jars of Paimon's filesystem
for it (``paimon-s3``), catalog options reaching it (``s3.endpoint``, ...), and the URL of the benchmark
server's byte counts (:mod:`_s3_store`): ``store_bytes`` is then the bytes it served during the last run.

Each query selects only its ``key`` column (``SELECT key FROM ... WHERE ...``) and collects it as Arrow
(``_collect_as_arrow``, the batches ``toPandas`` uses): Python ``Row`` objects cost ~2.5 s a million rows in
PySpark 3.5 and 4 alike, which would time the collection, not the scan.  For each query: the median wall time
of ``rounds`` runs after one warm-up (SELECT, collect as Arrow), the rows' ``key`` values (sorted after the
clock stops, to compare with other engines), and the bytes read: the stages' ``inputBytes``
(Spark's status API; Paimon's reader reports none) and ``jvm_read_bytes``, what the JVM read through
``read()`` calls during the last run (``/proc/<pid>/io``: data, index and metadata files alike).  ``planning_ms``: time to build the physical plan (Paimon's
split planning happens there).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.request


def _input_bytes(spark, group: str) -> int:
    """``inputBytes`` of every stage of the jobs of ``group`` (Spark's REST status API)."""
    sc = spark.sparkContext
    base = f"{sc.uiWebUrl}/api/v1/applications/{sc.applicationId}"
    with urllib.request.urlopen(f"{base}/jobs", timeout=30) as r:
        jobs = [j for j in json.load(r) if j.get("jobGroup") == group]
    total = 0
    for stage in {s for j in jobs for s in j.get("stageIds", [])}:
        with urllib.request.urlopen(f"{base}/stages/{stage}", timeout=30) as r:
            total += sum(a.get("inputBytes", 0) for a in json.load(r))
    return total


def _rchar(pid: int) -> int:
    """Bytes the process has read through read() calls (/proc/<pid>/io ``rchar``; page-cache hits included)."""
    with open(f"/proc/{pid}/io") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("rchar:"))


def _counts(url: str | None) -> dict | None:
    if not url:
        return None
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def _counts_diff(after: dict | None, before: dict | None) -> dict | None:
    if after is None or before is None:
        return None
    out = {c: after[c]["bytes"] - before[c]["bytes"] for c in after}
    out["requests"] = sum(after[c]["requests"] - before[c]["requests"] for c in after)
    return out


def main() -> int:
    with open(sys.argv[1]) as fh:
        req = json.load(fh)
    from pyspark.sql import SparkSession

    warehouse = req["warehouse"] if "://" in req["warehouse"] else "file:" + req["warehouse"]
    builder = (SparkSession.builder.master(req.get("master", "local[2]")).appName("paimon-connector-bench")
               .config("spark.jars", ",".join([req["jar"], *req.get("extra_jars", [])])))
    for key, value in req.get("catalog_options", {}).items():
        builder = builder.config(f"spark.sql.catalog.paimon.{key}", value)
    spark = (builder
             .config("spark.sql.catalog.paimon", "org.apache.paimon.spark.SparkCatalog")
             .config("spark.sql.catalog.paimon.warehouse", warehouse)
             .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions")
             .config("spark.ui.enabled", "true").config("spark.ui.port", "0")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.driver.memory", req.get("driver_memory", "2g"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    for q in req["queries"]:
        table = f"paimon.{req['database']}.{q.get('table') or req['table']}"
        key = q.get("key") or req.get("key", "id")
        sql = f"SELECT {key} FROM {table}"
        if q.get("where"):
            sql += f" WHERE {q['where']}"
        if q.get("order_by"):
            sql += f" ORDER BY {q['order_by']}"
        if q.get("limit") is not None:
            sql += f" LIMIT {int(q['limit'])}"
        times, planning, batches, group, read, served = [], [], [], "", 0, None
        rounds = int(req.get("rounds", 3))
        for run in range(1 + rounds):
            before = _rchar(jvm_pid)
            counts_before = _counts(req.get("counts_url"))
            group = f"{q['id']}-{run}"
            spark.sparkContext.setJobGroup(group, sql)
            t0 = time.perf_counter()
            df = spark.sql(sql)
            df._jdf.queryExecution().executedPlan()  # planning (Paimon's scan splits) happens here
            t1 = time.perf_counter()
            batches = df._collect_as_arrow()
            t2 = time.perf_counter()
            read = _rchar(jvm_pid) - before
            served = _counts_diff(_counts(req.get("counts_url")), counts_before)
            if run or not rounds:  # the first run warms up (rounds 0: just one run)
                times.append(t2 - t0)
                planning.append(t1 - t0)
        print(json.dumps({"id": q["id"], "seconds": statistics.median(times),
                          "planning_ms": statistics.median(planning) * 1000, "rows": sum(b.num_rows for b in batches),
                          "keys": sorted(v for b in batches for v in b.column(0).to_pylist()), "input_bytes": _input_bytes(spark, group), "jvm_read_bytes": read,
                          "store_bytes": served}),
              flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
