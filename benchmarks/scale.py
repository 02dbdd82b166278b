"""Scale: our index-aware ``scan`` and DataFrame source vs Paimon's own Spark connector vs a plain Spark read + filter.

One indexed append table of ``--files`` x ``--rows`` rows (:mod:`_scale_table`: bitmap, bloom filter and
range-bitmap indexes; a twin with a deletion vector on every file), queries from 0.01 % to 50 %
selectivity per index kind, top-N, and the deletion-vector table.  For each query, in the same run:

(a) ``paimon_codec.spark.scan`` + collect as Arrow (``toArrow``), in this process's Spark (PySpark 4);
(b) ``SELECT ... FROM paimon.bench.<table> WHERE ...`` through Paimon's Spark connector (its runtime jar
    from Maven Central, in the PySpark it was built for: :mod:`_paimon_spark`, a subprocess);
(c) ``spark.read.parquet(<live data files>).filter(...)`` + collect as Arrow (it cannot apply deletion vectors: on
    the DV table its rows are not the table's, and the table says so);
(d) the ``paimon_codec`` DataFrame source: ``spark.read.format("paimon_codec").option("pushdown", "true")
    .option("columns", <key and filter columns>).load(path).filter(...)`` + collect as Arrow, a fresh ``load()``
    per run (pushdown is opt-in: see :mod:`paimon_codec.spark.source`); its rows must be (a)'s; beside it its
    **PySpark floor**, :mod:`source_floor`'s trivial Python source (one partition, one ready 3-row batch, no
    planning, no I/O): what PySpark's machinery for any Python data source costs a query - where PySpark floor /
    (a) is above 1.2, no Python data source can be within 1.2x of (a).

(a), (c), (d) and the PySpark floor run in turn, round after round (:func:`_harness.interleave`: each round starts with the next
side), so their ratios saw the same load; (b) runs in its own process before them.

Paimon 0.9 has no range-bitmap index (and fails on a container holding one), so (b) reads the twin tables
``bench.scale_09`` / ``bench.scale_dv_09``: the same data files and deletion vectors, bitmap and bloom
indexes only.  Wall time (median of ``--rounds`` after a warm-up), data bytes read, index bytes read,
planning time; (a) and (b) must return the same rows.  Bytes read: what the JVM read through ``read()``
calls during the query (``/proc/<pid>/io`` ``rchar``; Paimon's reader reports no ``inputBytes``), and for
(a) also the compressed size of the Parquet row groups pyarrow read for row selections (conservative for
(a): its JVM also counts the rows Python workers hand over).  Each filter's physical **floor**: the compressed
bytes of the returned column in the row groups holding a matching row (read and filtered without any index,
:func:`planning.floor_bytes` of `benchmarks/planning.py`) plus our planning time, and ours / floor in bytes.  Then planning time
of driver vs distributed planning (:mod:`paimon_codec.spark.distributed_plan`) at 50 / 200 / 1,000 files.
Writes ``benchmarks/results/scale.md`` and ``scale.png``.

``--store s3``: the same tables and queries on an S3 server (moto on loopback, started by the benchmark:
:mod:`_s3_store`), the tables copied into its bucket; (a) scans ``s3://`` URIs (storage options), (b) the
connector's catalog is ``s3://`` through Paimon's ``paimon-s3`` filesystem, (c) reads ``s3a://`` through
Hadoop's ``hadoop-aws`` (jars: :func:`_paimon_spark.s3_jars`).  Bytes are then what the server sent in
answer to each system's GETs during one run, by object kind (data files, file indexes, deletion vectors,
metadata), counted in the server.  Writes ``scale-s3.md`` / ``.json`` / ``.png``.

    python benchmarks/scale.py [--files 200] [--rows 50000] [--rounds 3] [--no-connector] [--store s3] [--readme]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

import planning as _planning
from _harness import RESULTS, environment, interleave, load_summary, replace_readme_section, write_result
from source_floor import _trivial_source

# (kind, selectivity label, table suffix, where, order_by, limit, key column compared)
QUERIES = [
    ("bitmap", 0.0001, "", "cat = 's0001'", None, None),
    ("bitmap", 0.001, "", "cat = 's001'", None, None),
    ("bitmap", 0.01, "", "cat = 's01'", None, None),
    ("bitmap", 0.1, "", "cat = 's10'", None, None),
    ("bitmap", 0.5, "", "cat = 's50'", None, None),
    ("bitmap, prunes files", 0.01, "", "region = 'r7'", None, None),
    ("bitmap, prunes files", 0.001, "", "region = 'r7' AND cat = 's10'", None, None),
    ("bloom", None, "", "tag = 't{mid}'", None, None),
    ("range", 0.0001, "", "amount < 100", None, None),
    ("range", 0.001, "", "amount < 1000", None, None),
    ("range", 0.01, "", "amount < 10000", None, None),
    ("range", 0.1, "", "amount < 100000", None, None),
    ("range", 0.5, "", "amount < 500000", None, None),
    ("top-N", None, "", None, "amount DESC", 10),
    ("DV + bitmap", 0.001, "_dv", "cat = 's001'", None, None),
    ("DV + bitmap", 0.1, "_dv", "cat = 's10'", None, None),
    ("DV + range", 0.01, "_dv", "amount < 10000", None, None),
    ("DV, prunes files", 0.01, "_dv", "region = 'r7'", None, None),
]
PLANNING_FILES = (50, 200, 1000)


def _rchar(pid: int) -> int:
    """Bytes process ``pid`` read through read() calls (``/proc/<pid>/io``), as the connector worker counts."""
    with open(f"/proc/{pid}/io") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("rchar:"))


def _arrow_bytes(tasks, columns: set[str], exact_columns: set[str]) -> int:
    """Compressed bytes of the Parquet row groups holding selected rows of the files pyarrow reads (of the
    columns read: ``exact_columns`` - the returned ones - for a file whose index answer is exact, which the
    scan reads without the predicate's columns)."""
    import pyarrow.parquet as pq

    total = 0
    for t in tasks:
        read = exact_columns if t.exact else columns
        meta = pq.ParquetFile(t.path).metadata
        start = 0
        for g in range(meta.num_row_groups):
            rg = meta.row_group(g)
            end = start + rg.num_rows
            if t.selection is None or t.selection.intersection_cardinality(_range_bitmap(start, end)):
                total += sum(rg.column(c).total_compressed_size for c in range(rg.num_columns)
                             if rg.column(c).path_in_schema.split(".", 1)[0] in read)
            start = end
    return total


def _range_bitmap(start: int, end: int):
    from pyroaring import BitMap

    return BitMap(range(start, end))


def _median_run(fn, rounds: int):
    """Median seconds of ``rounds`` runs after a warm-up (``rounds`` 0: one cold run, timed)."""
    if not rounds:
        t0 = time.perf_counter()
        out = fn()
        return time.perf_counter() - t0, out
    out = fn()  # warm-up
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def _interleaved(sides: list[tuple[str, object]], rounds: int) -> tuple[dict[str, tuple[float, object]], dict]:
    """Each side's (median seconds, last result) over ``rounds`` runs taken in turn (:func:`_harness.interleave`),
    after one warm-up run of each (``rounds`` 0: one cold run each), and the load each side's runs started at."""
    if rounds:
        for _, fn in sides:
            fn()
    def timed(fn):
        t0 = time.perf_counter()
        out = fn()
        return [{"seconds": time.perf_counter() - t0, "out": out}]
    runs, loads = interleave([(name, lambda fn=fn: timed(fn)) for name, fn in sides], max(1, rounds))
    return ({name: (statistics.median(r[0]["seconds"] for r in got), got[-1][0]["out"]) for name, got in runs.items()},
            loads)


def _source_dataframe(spark, path: str, table, q: dict):
    """(d): the query through the ``paimon_codec`` source from a fresh ``load()``, pushdown on, reading the key and
    the filter's and sort's columns (PySpark 4.3 hands a Python source no column list: ``option("columns")``);
    top-N with the source's options ``order-by`` / ``limit`` (the DataFrame is then the first rows in that
    order) and Spark's own ``orderBy`` / ``limit`` on top, as a user writes it."""
    from paimon_codec.planning.plan import as_predicate

    row_type = table.schema.fields
    pred = as_predicate(q["where"], row_type)
    wanted = {q["key"], *(pred.columns() if pred is not None else ()),
              *((q["order_by"].split()[0],) if q["order_by"] else ())}
    reader = (spark.read.format("paimon_codec").option("pushdown", "true")
              .option("columns", ",".join(n for n in row_type.names if n in wanted)))
    if q["order_by"]:  # PySpark pushes no ORDER BY / LIMIT into a Python source: the source's own options
        reader = reader.option("order-by", q["order_by"]).option("limit", str(q["limit"]))
    df = reader.load(path)
    if q["where"]:
        df = df.filter(q["where"])
    if q["order_by"]:
        col, direction = q["order_by"].split()
        df = df.orderBy(df[col].desc() if direction == "DESC" else df[col].asc()).limit(q["limit"])
    return df.select(q["key"])


def _keys(table) -> list:
    """A collected one-column Arrow table's values, sorted (to compare the systems' rows)."""
    return sorted(table.column(0).to_pylist())


def _sql(where, order_by, limit) -> str:
    return ((f" WHERE {where}" if where else "") + (f" ORDER BY {order_by}" if order_by else "")
            + (f" LIMIT {limit}" if limit is not None else ""))


def run_connector(warehouse: str, queries: list[dict], rounds: int, master: str, store=None) -> dict[str, dict]:
    import _paimon_spark

    info = _paimon_spark.connector()
    req = {"jar": info["jar"], "warehouse": warehouse, "database": "bench", "master": master, "rounds": rounds,
           "queries": queries}
    if store is not None:  # the warehouse is on the S3 server: Paimon's S3 filesystem, the server's counts
        req.update(extra_jars=_paimon_spark.s3_jars()["paimon"], catalog_options=store.paimon_options(),
                   counts_url=store.counts_url)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(req, fh)
    env = dict(os.environ, PYSPARK_PYTHON=info["python"], PYSPARK_DRIVER_PYTHON=info["python"])
    done = subprocess.run([info["python"], str(_paimon_spark.WORKER), fh.name], capture_output=True, text=True,
                          env=env, timeout=7200)
    os.unlink(fh.name)
    if done.returncode != 0:
        raise RuntimeError(f"Paimon connector worker failed:\n{done.stderr[-3000:]}")
    out = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            rec = json.loads(line)
            out[rec["id"]] = rec
    out["_info"] = info
    return out


def planning_times(spark, warehouse: str, rounds: int, files: tuple[int, ...], source: str,
                   locate=lambda path: path) -> list[dict]:
    """Median planning time, driver vs Spark tasks, on the first ``n`` files (with deletion vectors);
    ``locate`` maps a local table to where it is read (its copy on the S3 server)."""
    import _scale_table

    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark.distributed_plan import SparkFileJudge
    from paimon_codec.table import PaimonTable

    rows = []
    judge = SparkFileJudge(spark, "always")
    for n in files:
        path = locate(_scale_table.subset_table(warehouse, source, n, with_dvs=True))
        for label, j in (("driver", None), ("distributed", judge)):
            def plan(j=j, path=path):
                return plan_scan(PaimonTable(path), "cat = 's001'", judge=j).report
            seconds, report = _median_run(plan, rounds)
            rows.append({"files": n, "planning": label, "ms": seconds * 1000, "tasks": report.planning_tasks,
                         "judged": report.files_judged, "index_bytes": report.index_bytes_read})
    return rows


def plot(results: list[dict], path: Path, where: str = "") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [k for k in ("bitmap", "range", "DV + bitmap") if any(r["kind"] == k for r in results)]
    if not kinds:  # e.g. --kinds top-N: no query with a selectivity to plot
        return
    fig, axes = plt.subplots(1, len(kinds), figsize=(5 * len(kinds), 4), squeeze=False)
    for ax, kind in zip(axes[0], kinds, strict=True):
        pts = sorted((r for r in results if r["kind"] == kind and r["selectivity"]), key=lambda r: r["selectivity"])
        xs = [r["selectivity"] * 100 for r in pts]
        for key, label, style in (("ours_s", "paimon-codec scan", "o-"),
                                  ("source_s", "paimon-codec DataFrame source", "D-"),
                                  ("connector_s", "Paimon Spark connector", "s-"),
                                  ("plain_s", "plain Spark read + filter", "^-")):
            ys = [r.get(key) for r in pts]
            if any(y is not None for y in ys):
                ax.plot(xs, ys, style, label=label)
        ax.set_xscale("log")
        ax.set_xlabel("selectivity (%)")
        ax.set_ylabel("wall time (s)")
        ax.set_title(kind + where)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _counted(store, fn, last: dict):
    """``fn`` recording in ``last`` what the S3 server sent during its latest run, by object kind (two
    small requests to the server's counter around the run; no extra run of the query on a slow store)."""
    def run():
        before = store.counts()
        out = fn()
        last.clear()
        last.update(_with_index(store.diff(store.counts(), before)))
        return out
    return run


def _load_range(results: list[dict]) -> str:
    """``2.1-5.3`` - the lowest and highest 1-minute load average any interleaved run started at."""
    values = [float(x) for r in results for part in r.get("loads", "").split(", ") if part
              for x in part.rsplit(" ", 1)[1].split("-")]
    return f"{min(values):.1f}-{max(values):.1f}" if values else "-"


def _what(r: dict) -> str:
    return (f"{r['kind']}: `{r['where'] or ''}{' ORDER BY ' + r['order_by'] if r['order_by'] else ''}"
            f"{' LIMIT ' + str(r['limit']) if r['limit'] else ''}`" + (" (DV table)" if r["table"].endswith("_dv") else ""))


def _fmt(v, spec=".3f"):
    return "-" if v is None else format(v, spec)


def _table_lines(results: list[dict], s3: bool) -> list[str]:
    if s3:
        head = ("| query | selectivity | rows | ours (s) | source (s) | connector (s) | plain (s) | ours / connector "
                "| source / ours | source / connector | PySpark floor (s) | PySpark floor / ours | plain / ours "
                "| data bytes ours / connector / plain | index bytes ours / connector / plain "
                "| planning ms ours / connector | files read |")
    else:
        head = ("| query | selectivity | rows | ours (s) | source (s) | connector (s) | plain (s) | ours / connector "
                "| source / ours | source / connector | PySpark floor (s) | PySpark floor / ours | plain / ours "
                "| bytes read ours / connector / plain | index bytes (ours) | floor: row-group bytes + planning "
                "| ours / floor (bytes) | planning ms ours / connector | files read |")
    lines = [head, "|" + "---|" * head.count(" | ")]
    for r in results:
        sel = f"{r['selectivity'] * 100:g} %" if r["selectivity"] else "-"
        ratio = None if r["connector_s"] is None else r["ours_s"] / r["connector_s"]
        source = r.get("source_s")
        source_ours = None if source is None else source / r["ours_s"]
        source_conn = None if source is None or r["connector_s"] is None else source / r["connector_s"]
        floor_s = r.get("floor_s")
        plain_note = "" if r["plain_same_rows"] else " (not the table's rows: no DVs)"
        if s3:
            conn = r["connector_store"] or {}
            data = (f"{r['ours_store']['data']:,} / {_fmt(conn.get('data'), ',')} / {r['plain_store']['data']:,}")
            index = (f"{r['ours_store']['index']:,} / {_fmt(conn.get('index'), ',')} / {r['plain_store']['index']:,}")
            byte_cells = f"{data} | {index}"
        else:
            byte_cells = (f"{r['ours_bytes']:,} / {_fmt(r['connector_bytes'], ',')} / {r['plain_bytes']:,} | "
                          f"{r['index_bytes']:,}")
        if not s3:
            floor = r.get("floor_bytes")
            byte_cells += (f" | {_fmt(floor, ',')} + {r['planning_ms']:.0f} ms | "
                           + (f"{r['ours_bytes'] / floor:.2f}" if floor else "-"))
        source_note = " (options order-by, limit)" if r["order_by"] and source is not None else ""
        lines.append(f"| {_what(r)} | {sel} | {r['rows']:,} | {r['ours_s']:.3f} | {_fmt(source)}{source_note} | "
                     f"{_fmt(r['connector_s'])} | {r['plain_s']:.3f}{plain_note} | {_fmt(ratio, '.2f')} | "
                     f"{_fmt(source_ours, '.2f')} | {_fmt(source_conn, '.2f')} | {_fmt(floor_s)} | "
                     f"{_fmt(None if floor_s is None else floor_s / r['ours_s'], '.2f')} | {r['plain_s'] / r['ours_s']:.1f} | "
                     f"{byte_cells} | {r['planning_ms']:.0f} / {_fmt(r['connector_planning_ms'], '.0f')} | "
                     f"{r['files_read']}/{r['files_total']} |")
    return lines


def _s3a_paths(files: list[str]) -> tuple[list[str], str | None]:
    """What plain Spark reads on the S3 server: ``([directory], "*.parquet")`` when the live data files are
    exactly the Parquet files of one directory (the scale tables: one bucket, one commit), else the files.

    Given 200 file paths, ``spark.read`` checks each exists and lists each as a directory (a HEAD, a LIST and
    another HEAD through ``s3a``, in a listing job of 200 tasks): 600 requests, 4-33 s a query against the
    S3 server; the directory costs one LIST (0.3 s), the way a user points Spark at a Parquet dataset.
    Its rows are checked against ours as before (``plain_same_rows``)."""
    from paimon_codec import storage

    folders = {f.rsplit("/", 1)[0] for f in files}
    if len(folders) == 1:
        folder = folders.pop()
        listed = {n for n in storage.list_dir(folder) if n.endswith(".parquet")}
        if listed == {f.rsplit("/", 1)[1] for f in files}:
            return ["s3a://" + folder.split("://", 1)[1] + "/"], "*.parquet"
    return ["s3a://" + f.split("://", 1)[1] for f in files], None


def _with_index(counts: dict | None) -> dict | None:
    """Server counts with ``index`` = file indexes + deletion-vector index files."""
    if counts is None:
        return None
    return dict(counts, index=counts["file_index"] + counts["dv_index"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--rows", type=int, default=50_000, help="rows per data file")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--store", choices=("local", "s3"), default="local",
                    help="where the three systems read the tables: local disk, or an S3 server on loopback")
    ap.add_argument("--warehouse", default=None, help="where the tables are built (default: a cache directory)")
    ap.add_argument("--planning-files", default=",".join(map(str, PLANNING_FILES)))
    ap.add_argument("--planning-rows", type=int, default=2_000, help="rows per file of the planning tables")
    ap.add_argument("--no-connector", action="store_true", help="skip Paimon's Spark connector")
    ap.add_argument("--kinds", default=None, help="comma list: run only the queries of these kinds (e.g. 'bitmap,top-N')")
    ap.add_argument("--s3a-stream", default="classic",
                    help="plain Spark's fs.s3a.input.stream.type; 'classic' (ranged GETs, no cache) by default: "
                         "Hadoop 3.5's default 'analytics' stream caches blocks across queries in the JVM")
    ap.add_argument("--output", default=None, help="default: benchmarks/results/scale.md (scale-s3.md on S3)")
    ap.add_argument("--plot", default=None, help="default: the output's name with .png")
    ap.add_argument("--readme", action="store_true",
                    help="also put the table in benchmarks/README.md (between its scale / scale-s3 markers)")
    args = ap.parse_args(argv)
    s3 = args.store == "s3"
    output = Path(args.output or RESULTS / ("scale-s3.md" if s3 else "scale.md"))
    plot_path = args.plot if args.plot is not None else str(output.with_suffix(".png"))
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import _s3_store
    import _scale_table

    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark import get_spark, register, scan
    from paimon_codec.spark.routes import route_plan
    from paimon_codec.spark.scan import _projected
    from paimon_codec.storage import set_storage_options
    from paimon_codec.table import PaimonTable

    warehouse = args.warehouse or os.path.join(os.path.expanduser("~"), ".cache", "paimon-codec", "bench", "scale-wh")
    t0 = time.perf_counter()
    tables = _scale_table.build(warehouse, args.files, args.rows, log=print)
    planning_files = tuple(int(x) for x in args.planning_files.split(",") if x.strip())
    if planning_files:
        _scale_table.build(warehouse, max(planning_files), args.planning_rows, name="many", log=print)
    build_s = time.perf_counter() - t0
    mid = args.files * args.rows // 2 + 17
    queries = []
    kinds = None if not args.kinds else {k.strip() for k in args.kinds.split(",")}
    for i, (kind, sel, suffix, where, order_by, limit) in enumerate(QUERIES):
        # (a kind holding a comma, "DV, prunes files", is chosen by naming each part)
        if kinds is not None and kind not in kinds and not all(p.strip() in kinds for p in kind.split(",")):
            continue
        where = None if where is None else where.format(mid=mid)
        queries.append({"id": f"q{i}", "kind": kind, "selectivity": sel, "table": "scale" + suffix, "where": where,
                        "order_by": order_by, "limit": limit, "key": "amount" if limit else "id"})

    with _s3_store.started() if s3 else nullcontext() as store:
        conf = {"spark.ui.enabled": "true", "spark.ui.port": "0", "spark.driver.memory": "2g"}
        upload_s = 0.0
        if store is not None:
            import _paimon_spark

            t0 = time.perf_counter()
            wanted = {q["table"] for q in queries}
            wanted |= {t + "_09" for t in wanted} if not args.no_connector else set()
            tables = {name: store.upload(path, f"wh/bench.db/{name}") for name, path in tables.items()
                      if name in wanted}
            upload_s = time.perf_counter() - t0
            print(f"tables copied to the S3 server in {upload_s:.0f} s", flush=True)
            set_storage_options("s3", store.options)
            conf.update(store.s3a_conf(), **{"spark.jars": ",".join(_paimon_spark.s3_jars()["s3a"]),
                                             "spark.hadoop.fs.s3a.input.stream.type": args.s3a_stream})
        spark = get_spark(args.master, extra_conf=conf)
        register(spark)  # (d): the storage options set by now travel with the source
        spark.dataSource.register(_trivial_source())  # (d)'s floor
        jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
        connector: dict = {}
        if not args.no_connector:
            conn_wh = f"s3://{_s3_store.BUCKET}/wh" if s3 else warehouse
            for table in sorted({q["table"] for q in queries}):
                connector.update(run_connector(conn_wh, [dict(q, table=table + "_09") for q in queries
                                                         if q["table"] == table], args.rounds, args.master, store))

        results = []
        for q in queries:
            path = tables[q["table"]]
            table = PaimonTable(path)
            files = [f.path for f in table.data_files()]
            glob = None
            if s3:  # plain Spark reads them through Hadoop's s3a, by their directory when it holds just them
                files, glob = _s3a_paths(files)
            order = None if not q["order_by"] else [(q["order_by"].split()[0], q["order_by"].split()[1].lower())]

            def ours(q=q, path=path, order=order):
                df, report = scan(spark, path, q["where"], order_by=order, limit=q["limit"], columns=[q["key"]])
                return df.toArrow(), report

            def plain(q=q, files=files, glob=glob):
                df = (spark.read if glob is None else spark.read.option("pathGlobFilter", glob)).parquet(*files)
                if q["where"]:
                    df = df.filter(q["where"])
                if q["order_by"]:
                    col, direction = q["order_by"].split()
                    df = df.orderBy(df[col].desc() if direction == "DESC" else df[col].asc()).limit(q["limit"])
                return df.select(q["key"]).toArrow()

            def source(q=q, path=path, table=table):
                return _source_dataframe(spark, path, table, q).toArrow()

            def floor():  # what any Python data source costs a query: source_floor.py's trivial source
                return spark.read.format("trivial_floor").load().filter("cat = 'a'").select("id").toArrow()

            measured: dict = {}
            sides = [("ours", ours), ("source", source), ("floor", floor), ("plain", plain)]
            if s3:
                last: dict = {name: {} for name, _ in sides}
                sides = [(name, _counted(store, fn, last[name])) for name, fn in sides]
            timed, loads = _interleaved(sides, args.rounds)
            (ours_s, (keys, report)), (source_s, source_keys), (plain_s, plain_keys) = (
                timed["ours"], timed["source"], timed["plain"])
            measured["loads"] = load_summary(loads)
            measured["floor_s"] = timed["floor"][0]
            if s3:
                measured.update(ours_store=last["ours"], plain_store=last["plain"], source_store=last["source"])
            else:
                before = _rchar(jvm_pid)
                ours(q)
                ours_jvm = _rchar(jvm_pid) - before
                plan = _projected(plan_scan(table, q["where"], order_by=order, limit=q["limit"]), [q["key"]])
                routes = route_plan(plan, exact_apart=plan.predicate is not None)  # as scan routes it
                returned = {q["key"]} | ({q["order_by"].split()[0]} if q["order_by"] else set())
                measured["ours_bytes"] = ours_jvm + _arrow_bytes(routes.pyarrow_files(), set(plan.row_type.names),
                                                                 returned)
                before = _rchar(jvm_pid)
                plain(q)
                measured["plain_bytes"] = _rchar(jvm_pid) - before
                if q["where"]:  # the physical floor: the returned column's row groups holding a match
                    measured["floor_bytes"] = _planning.floor_bytes(table, q["where"], q["key"])[0]
            keys, plain_keys = _keys(keys), _keys(plain_keys)  # sorted after the clock stopped, as (b) does
            if _keys(source_keys) != keys:
                raise SystemExit(f"{q['id']} {q['where']}: the source's {source_keys.num_rows} rows differ from scan's "
                                 f"{len(keys)}")
            conn = connector.get(q["id"])
            if conn is not None and conn["keys"] != keys:
                raise SystemExit(f"{q['id']} {q['where']}: our {len(keys)} rows differ from the connector's {conn['rows']}")
            results.append({**q, "rows": len(keys), "ours_s": ours_s, "plain_s": plain_s, "source_s": source_s,
                            "connector_s": None if conn is None else conn["seconds"], **measured,
                            "connector_bytes": None if conn is None else conn["jvm_read_bytes"],
                            "connector_store": None if conn is None else _with_index(conn.get("store_bytes")),
                            "index_bytes": report.index_bytes_read, "planning_ms": report.planning_ms,
                            "connector_planning_ms": None if conn is None else conn["planning_ms"],
                            "files_read": report.files_read, "files_total": report.files_total,
                            "read_paths": report.read_paths, "plain_same_rows": plain_keys == keys})
            print(json.dumps({k: v for k, v in results[-1].items() if k != "key"}), flush=True)

        def locate(local_dir: str) -> str:
            if store is None:
                return local_dir
            return store.upload(local_dir, f"wh/bench.db/{os.path.basename(local_dir)}")

        planning = (planning_times(spark, warehouse, args.rounds, planning_files, "many", locate)
                    if planning_files else [])

    info = connector.get("_info")
    where_read = ("an S3 server (moto " + _s3_store.moto_version() + " on loopback, started by the benchmark; "
                  f"tables copied into its bucket in {upload_s:.0f} s): (a) `s3://` URIs through pyarrow's S3 "
                  f"filesystem, (b) Paimon's `paimon-s3` filesystem, (c) Hadoop's `s3a` (`hadoop-aws`, "
                  f"`fs.s3a.input.stream.type={args.s3a_stream}`)"
                  if s3 else "local disk")
    lines = ["# Scale: index-aware `scan` and DataFrame source vs Paimon's Spark connector vs plain Spark read + filter"
             + (" (S3 server)" if s3 else ""), "",
             f"Table `bench.scale`: {args.files} Parquet files x {args.rows:,} rows = {args.files * args.rows:,} rows "
             f"(written by `paimon_codec.writing`; bitmap V1 on `cat`/`region`, bloom filter on `tag`, "
             f"range bitmap on `amount`; `bench.scale_dv`: the same files with a deletion vector on each, 5 % of "
             f"rows deleted); tables built in {build_s:.0f} s; read from {where_read}.  Spark `{args.master}`; "
             f"{f'median of {args.rounds} rounds after a warm-up' if args.rounds else 'one cold run each'}; every "
             f"side runs `SELECT <key> FROM t WHERE ...` and collects the keys as Arrow (`id`; `amount` for top-N; `toArrow` in PySpark 4, `_collect_as_arrow` in 3.5: Python `Row` objects would add ~2.5 s a million rows to every side).  {environment()}.",
             "", "Connector: " + (f"`org.apache.paimon:{info['artifact']}:{info['paimon']}` on PySpark "
                                  f"{info['spark']} (not served by Maven Central: {', '.join(info['not_served']) or '-'})"
                                  if info else "not run"), "",
             "Source: `spark.read.format(\"paimon_codec\").option(\"pushdown\", \"true\").option(\"columns\", "
             "<key and filter columns>).load(path).filter(...)`, a fresh `load()` a run (top-N: the source's options "
             "`order-by` / `limit` too, under Spark's own `orderBy(...).limit(n)`: PySpark pushes neither into a Python "
             "source); **PySpark floor**: a trivial Python source (`benchmarks/source_floor.py`: one ready 3-row batch, no "
             "planning, no I/O), what any Python data source costs a query - PySpark floor / ours above 1.2: no Python source "
             "meets 1.2x of scan there; scan, source, PySpark floor and plain Spark ran "
             "in turn, round after round (`_harness.interleave`); the load average when their runs started: "
             + _load_range(results) + ".", ""]
    if s3:
        lines += ["Bytes: what the S3 server sent in answer to each system's GET requests during the last timed "
                  "run of the query (response bodies counted in the server, by object: data files; index = file-index files + "
                  "deletion-vector index files; metadata - snapshots, manifests, schemas, listings - in the JSON), "
                  "the same measure for all the systems.", ""]
    lines += _table_lines(results, s3)
    if planning:
        lines += ["", f"Planning time (`cat = 's001'`, every file with an index file and a deletion vector, "
                      f"{args.planning_rows:,} rows a file), driver vs Spark tasks:", "",
                  "| files | driver (ms) | distributed (ms) | Spark tasks | index + DV bytes read |", "|---|---|---|---|---|"]
        for n in planning_files:
            d = next(p for p in planning if p["files"] == n and p["planning"] == "driver")
            s = next(p for p in planning if p["files"] == n and p["planning"] == "distributed")
            lines.append(f"| {n:,} | {d['ms']:.0f} | {s['ms']:.0f} | {s['tasks']} | {d['index_bytes']:,} |")
    text = "\n".join(lines) + "\n"
    print(text)
    write_result(output, text)
    write_result(output.with_suffix(".json"), json.dumps({"store": args.store, "results": results,
                                                          "planning": planning}, indent=1, default=str))
    if plot_path:
        plot(results, Path(plot_path), " (S3 server)" if s3 else "")
    if args.readme:
        replace_readme_section("scale-s3" if s3 else "scale", "\n".join(lines[2:]))  # not the title
    return 0


if __name__ == "__main__":
    sys.exit(main())
