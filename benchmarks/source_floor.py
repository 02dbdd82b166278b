"""The floor of a query through a PySpark Python data source, beside ``scan()`` and the ``paimon_codec`` source.

Four sides, in turn round after round (:func:`_harness.interleave`), in one local Spark session:

* ``trivial source``: a Python data source whose ``partitions()`` returns one partition and whose ``read()``
  yields one ready 3-row Arrow batch - no planning, no I/O: what PySpark's data-source machinery costs a query
  (``load()`` runs ``schema()`` in a Python worker, the planning runs ``pushFilters`` / ``partitions()`` in
  another, and ``read()`` runs in a Spark task's Python worker);
* ``local relation``: the same 3 rows handed to Spark from this process (:func:`paimon_codec.spark.handoff.
  arrow_dataframe`, what ``scan()`` does with rows it read on the driver);
* ``scan`` and ``source``: ``--where`` on the scale table (:mod:`_scale_table`) through ``scan()`` and through
  ``spark.read.format("paimon_codec")`` (pushdown on, a fresh ``load()``), ``SELECT id``, collected as Arrow.

    python benchmarks/source_floor.py [--rounds 9] [--where "region = 'r7' AND cat = 's10'"]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from _harness import environment, interleave, load_summary


def _trivial_source() -> type:
    import pyarrow as pa
    from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

    class Reader(DataSourceReader):
        def pushFilters(self, filters: list) -> Any:  # noqa: N802 - PySpark's name
            return iter(())  # every filter taken, as the paimon_codec source takes exact ones

        def partitions(self) -> list:
            return [InputPartition(0)]

        def read(self, partition: Any) -> Any:
            yield pa.RecordBatch.from_pydict({"id": pa.array([1, 2, 3], pa.int64()),
                                              "cat": pa.array(["a", "b", "c"])})

    class Trivial(DataSource):
        @classmethod
        def name(cls) -> str:
            return "trivial_floor"

        def schema(self) -> str:
            return "id bigint, cat string"

        def reader(self, schema: Any) -> Any:
            return Reader()

    return Trivial


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--where", default="region = 'r7' AND cat = 's10'")
    ap.add_argument("--warehouse", default=None, help="where the scale table is (default: scale.py's cache)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import _scale_table
    import pyarrow as pa
    from pyspark.sql.types import LongType, StructField, StructType

    from paimon_codec.planning.plan import as_predicate
    from paimon_codec.spark import get_spark, scan
    from paimon_codec.spark.handoff import arrow_dataframe
    from paimon_codec.table import PaimonTable

    warehouse = args.warehouse or os.path.join(os.path.expanduser("~"), ".cache", "paimon-codec", "bench", "scale-wh")
    path = _scale_table.build(warehouse, 200, 50_000, log=print)["scale"]
    spark = get_spark(args.master)
    spark.dataSource.register(_trivial_source())
    row_type = PaimonTable(path).schema.fields
    pred = as_predicate(args.where, row_type)
    columns = ",".join(n for n in row_type.names if n == "id" or n in pred.columns())
    rows = pa.table({"id": pa.array([1, 2, 3], pa.int64())})
    schema = StructType([StructField("id", LongType())])

    def timed(fn):
        t0 = time.perf_counter()
        out = fn()
        return {"seconds": time.perf_counter() - t0, "rows": out.num_rows}

    sides = [
        ("trivial source", lambda: spark.read.format("trivial_floor").load().filter("cat = 'a'").select("id").toArrow()),
        ("local relation", lambda: arrow_dataframe(spark, rows, schema).toArrow()),
        ("scan", lambda: scan(spark, path, args.where, columns=["id"])[0].toArrow()),
        ("source", lambda: spark.read.format("paimon_codec").option("pushdown", "true").option("columns", columns)
         .load(path).filter(args.where).select("id").toArrow()),
    ]
    for _, fn in sides:  # warm-up: every kind of Python worker started
        fn()
    runs, loads = interleave([(name, lambda fn=fn: [timed(fn)]) for name, fn in sides], args.rounds)
    median = {name: statistics.median(r[0]["seconds"] for r in got) for name, got in runs.items()}
    print(f"{environment()}; Spark {args.master}; median of {args.rounds} interleaved rounds after a warm-up; "
          f"load at the runs' starts: {load_summary(loads)}")
    print(f"query: SELECT id WHERE {args.where} ({runs['scan'][-1][0]['rows']} rows)")
    for name, seconds in median.items():
        print(f"{name}: {seconds:.3f} s ({seconds / median['scan']:.2f}x scan)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
