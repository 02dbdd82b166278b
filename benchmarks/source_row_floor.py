"""What handing a table's rows to Spark through a Python data source costs: the ``paimon_codec`` source beside
a trivial source yielding the same rows, and ``scan()``.

:mod:`source_floor` measures PySpark's fixed cost of a Python data source (3 rows).  This one measures its cost
per row, on a table whose plan reads files without a merge (``benchmarks/merge_read.py``'s first-row table,
kept with ``--keep DIR``: its buckets are raw-convertible, so the plan is data files only):

* ``scan``: ``paimon_codec.spark.scan(spark, path)`` (raw files go to Spark's own Parquet reader);
* ``source``: ``spark.read.format("paimon_codec").load(path)``;
* ``row floor``: a Python data source whose ``read()`` yields the plan's files read by ``pyarrow.parquet``
  (the same columns, cast to Spark's Arrow schema), in as many partitions as the session's parallelism - no
  planning, no selection, no merge: what PySpark costs to move these rows from Python workers into the JVM.

Each side folded by the same Spark aggregate (:func:`merge_read.jvm_fold`), in turn round after round; wall
and CPU seconds of this process and its children (the JVM, Python workers), medians.

    python benchmarks/source_row_floor.py DIR/bench.db/first_row [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from merge_read import jvm_fold


def _row_floor(paths: list[str], parallelism: int) -> type:
    from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

    class Part(InputPartition):
        def __init__(self, files: list[str]) -> None:
            super().__init__(None)
            self.files = files

    class Reader(DataSourceReader):
        def __init__(self, schema: Any) -> None:
            self.schema = schema

        def partitions(self) -> list:
            n = max(1, min(parallelism, len(paths)))
            return [Part(paths[k::n]) for k in range(n)]

        def read(self, partition: Any) -> Any:
            import pyarrow as pa
            import pyarrow.parquet as pq
            from pyspark.sql.pandas.types import to_arrow_schema

            target = to_arrow_schema(self.schema, timezone="UTC")
            for path in partition.files:
                t = pq.read_table(path, columns=target.names)
                yield from pa.Table.from_arrays([c.cast(f.type) for c, f in zip(t.columns, target, strict=True)],
                                                schema=target).to_batches(max_chunksize=65536)

    class RowFloor(DataSource):
        @classmethod
        def name(cls) -> str:
            return "row_floor"

        def schema(self) -> str:
            return "k BIGINT, v BIGINT, s STRING"

        def reader(self, schema: Any) -> Any:
            return Reader(schema)

    return RowFloor


def _tree_cpu() -> float:
    """CPU seconds of this process and every process below it (/proc)."""
    import os

    parent, cpu = {}, {}
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{p}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        parent[int(p)], cpu[int(p)] = int(fields[1]), sum(int(x) for x in fields[11:15])
    me = os.getpid()

    def below(pid: int) -> bool:
        while pid in parent and pid != me:
            pid = parent[pid]
        return pid == me

    return sum(v for p, v in cpu.items() if below(p)) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table", help="a primary-key table whose plan has no merge (merge_read.py's first_row)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark import get_spark, scan

    spark = get_spark("local[2]", extra_conf={"spark.sql.ansi.enabled": "false"})
    plan = plan_scan(args.table)
    if plan.groups or any(t.selection is not None for t in plan.tasks):
        raise SystemExit("the table's plan merges or selects rows: the row floor reads whole files only")
    spark.dataSource.register(_row_floor([t.path for t in plan.tasks], spark.sparkContext.defaultParallelism))
    sides = {"scan": lambda: jvm_fold(scan(spark, args.table)[0]),
             "source": lambda: jvm_fold(spark.read.format("paimon_codec").load(args.table)),
             "row floor": lambda: jvm_fold(spark.read.format("row_floor").load())}
    answers = {name: fn() for name, fn in sides.items()}  # warm-up, and every side's rows agree
    if len(set(answers.values())) != 1:
        raise SystemExit(f"the sides disagree: {answers}")
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, fn in sides.items():
            c0, t0 = _tree_cpu(), time.perf_counter()
            fn()
            runs[name].append((time.perf_counter() - t0, _tree_cpu() - c0))
    rows = answers["scan"][0]
    print(f"{rows:,} rows of {len(plan.tasks)} files, {args.rounds} rounds (median wall / CPU seconds):")
    for name, got in runs.items():
        print(f"  {name:10} {statistics.median(w for w, _ in got):.3f} s / {statistics.median(c for _, c in got):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
