"""Build file indexes for an existing table on Spark vs Paimon Java 1.4.2, then scan with them.

1. ``write``: a seeded event table (``id, user, status, amount, score``) of ``--rows`` rows in ``--files``
   Parquet files (one Spark partition each, row groups of about ``--block-size`` bytes: Paimon's
   ``parquet.block.size``), appended with :func:`paimon_codec.spark.write` - no indexes yet.  Events are
   in time order; ``--concurrent`` users are active at any time, each for a window of events, so one
   user's events (0.1% of the table) sit in a few row groups of one or two files.
2. The options ``file-index.bitmap.columns = user,status``, ``file-index.bloom-filter.columns = id`` and
   ``file-index.range-bitmap.columns = amount`` are set, then in the same run:
   * Paimon Java 1.4.2 indexes every data file with its own ``rewrite_file_index`` step
     (``FileIndexProcessor.process``, ``--threads`` threads; ``tools/java/src/.../IndexRewriteBench``,
     nothing committed, its index files removed afterwards);
   * :func:`paimon_codec.spark.rewrite_file_index` on local Spark (``--master``) indexes them and commits.
   Both sides' containers are checked byte-identical (CRC-32 over every file's name + container).
3. A 0.1%-selective lookup ``user = '<one user>'``: :func:`paimon_codec.spark.scan` (index-aware) vs a
   plain ``spark.read.parquet(<data files>).filter(...)``, same rows checked, median of ``--rounds``
   after a warm-up.  Data bytes: for the plain read, what Spark's Hadoop file system counted
   (``FileSystem.Statistics.bytesRead``; Spark's Parquet reader already skips row groups by min/max
   statistics and dictionaries); for the scan, the compressed bytes of the row groups it read plus the
   index bytes it read.

Writes ``benchmarks/results/index_build.md`` and prints JSON lines.

    python benchmarks/index_build.py [--rows 10000000] [--files 48] [--master local[2]] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

from _harness import RESULTS, emit, environment, write_result

INDEX_OPTIONS = {"file-index.bitmap.columns": "user,status", "file-index.bloom-filter.columns": "id",
                 "file-index.range-bitmap.columns": "amount"}


def _dataframe(spark, rows: int, files: int, concurrent: int, start: int = 0, end: int | None = None):
    """The event table (rows ``start`` .. ``end``): ``user`` active in windows of ``concurrent * rows / 1000``
    events, so each user has 0.1% of them."""
    window = max(concurrent, concurrent * rows // 1000)
    return (spark.range(start, rows if end is None else end, 1, files)
            .selectExpr("id", f"id % {concurrent} AS slot",
                        f"floor((id + (id % {concurrent}) * {window // concurrent}) / {window}) AS win")
            .selectExpr("id",
                        "concat('u', lpad(cast(pmod(xxhash64(slot, win), 1000000000) AS STRING), 9, '0')) AS user",
                        "CASE pmod(xxhash64(id, 7), 20) WHEN 0 THEN 'error' WHEN 1 THEN 'retry' ELSE 'ok' END "
                        "AS status",
                        "pmod(xxhash64(id, 11), 100000) AS amount",
                        "pmod(xxhash64(id, 13), 1000000) / 1000.0 AS score"))


def _containers_crc(path: str) -> tuple[int, int, str]:
    """(files, container bytes, CRC-32 over name + container of every file in name order) - as IndexRewriteBench."""
    from paimon_codec.table import PaimonTable

    crc, total, n = 0, 0, 0
    for f in sorted(PaimonTable(path).data_files(), key=lambda f: f.file_name):
        if f.embedded_index is not None:
            data = f.embedded_index
        elif f.index_path:
            data = Path(f.index_path).read_bytes()
        else:
            data = b""
        crc = zlib.crc32(data, zlib.crc32(f.file_name.encode(), crc))
        total += len(data)
        n += 1
    return n, total, f"{crc:08x}"


def _fs_bytes_read(spark) -> int:
    stats = spark.sparkContext._jvm.org.apache.hadoop.fs.FileSystem.getAllStatistics()
    return sum(int(s.getBytesRead()) for s in stats)


def _row_group_bytes(task) -> int:
    """Compressed bytes of the row groups a file task reads (all of them without a selection)."""
    import numpy as np
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(task.path).metadata
    sizes = [sum(meta.row_group(g).column(c).total_compressed_size for c in range(meta.num_columns))
             for g in range(meta.num_row_groups)]
    if task.selection is None:
        return sum(sizes)
    bounds = np.concatenate([[0], np.cumsum([meta.row_group(g).num_rows for g in range(meta.num_row_groups)])])
    groups = np.unique(np.searchsorted(bounds, np.asarray(list(task.selection), dtype=np.int64), side="right") - 1)
    return int(sum(sizes[g] for g in groups))


def _median_s(fn, rounds: int):
    fn()  # warm-up
    times, out = [], None
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--files", type=int, default=48)
    ap.add_argument("--block-size", default="1 mb", help="parquet.block.size: row-group size (bytes)")
    ap.add_argument("--concurrent", type=int, default=10, help="users active at the same time")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--threads", type=int, default=2, help="Java threads (match the Spark cores)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-java", action="store_true", help="skip the Java 1.4.2 side")
    ap.add_argument("--keep", default=None, help="write the table under this directory and keep it")
    ap.add_argument("--output", default=str(RESULTS / "index_build.md"))
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from paimon_codec.maintenance.index_rewrite_job import set_table_options
    from paimon_codec.spark import get_spark, rewrite_file_index, scan, write
    from paimon_codec.table import PaimonTable
    from paimon_codec.writing import create_table

    wh = args.keep or tempfile.mkdtemp(prefix="paimon-codec-index-build-")
    path = os.path.join(wh, "bench.db", "events")
    spark = get_spark(args.master)
    schema = "id BIGINT, user STRING, status STRING, amount BIGINT, score DOUBLE"
    create_table(path, schema, {"file.format": "parquet", "parquet.block.size": args.block_size,
                                "target-file-size": "2 gb", "file.compression": "zstd"})
    t0 = time.perf_counter()
    wrote = write(_dataframe(spark, args.rows, args.files, args.concurrent), path)
    t_write = time.perf_counter() - t0
    emit({"workload": "write", "impl": "paimon-codec", "seconds": round(t_write, 3), "rows": wrote.rows,
          "files": wrote.files, "bytes": wrote.data_bytes})
    set_table_options(path, {**INDEX_OPTIONS, "file-index.bloom-filter.id.items": str(args.rows // args.files)})

    java = None
    if not args.no_java:
        import _java_newest

        (java,) = _java_newest.run_driver("IndexRewriteBench", ["--table", path, "--threads", str(args.threads)])
        emit({"workload": "rewrite", **java})
    t0 = time.perf_counter()
    report = rewrite_file_index(spark, path)
    t_ours = time.perf_counter() - t0
    n, container_bytes, crc = _containers_crc(path)
    ours = {"workload": "rewrite", "impl": "paimon-codec", "files": n, "ms": round(t_ours * 1000),
            "container_bytes": container_bytes, "crc32": crc, "snapshot_id": report.snapshot_id}
    emit(ours)
    same = java is None or (java["crc32"], java["container_bytes"], java["files"]) == (crc, container_bytes, n)
    if not same:
        raise SystemExit(f"containers differ from Java's: ours {ours}, Java {java}")

    user = _dataframe(spark, args.rows, 1, args.concurrent, args.rows // 2, args.rows // 2 + 1).collect()[0]["user"]
    where = f"user = '{user}'"
    files = [f.path for f in PaimonTable(path).data_files()]

    def indexed():
        df, plan_report = scan(spark, path, where)
        return sorted(r.id for r in df.collect()), plan_report

    def plain():
        before = _fs_bytes_read(spark)
        ids = sorted(r.id for r in spark.read.parquet(*files).filter(where).collect())
        return ids, _fs_bytes_read(spark) - before

    t_scan, (ids, plan_report) = _median_s(indexed, args.rounds)
    t_plain, (ids_plain, plain_bytes) = _median_s(plain, args.rounds)
    if ids != ids_plain:
        raise SystemExit(f"row mismatch: {len(ids)} vs {len(ids_plain)}")
    from paimon_codec.planning.plan import plan_scan

    plan = plan_scan(path, where)
    scan_bytes = sum(_row_group_bytes(t) for t in plan.tasks)
    total_bytes = sum(os.path.getsize(f) for f in files)
    emit({"workload": "scan", "where": where, "rows": len(ids), "selectivity": len(ids) / args.rows,
          "scan_s": round(t_scan, 4), "plain_s": round(t_plain, 4), "scan_data_bytes": scan_bytes,
          "scan_index_bytes": plan_report.index_bytes_read, "plain_bytes": plain_bytes, "table_bytes": total_bytes,
          "files_read": plan_report.files_read, "files_total": plan_report.files_total})

    java_s = f"{java['ms'] / 1000:.1f}" if java else "-"
    lines = [
        "# Building file indexes for an existing table, then scanning with them", "",
        f"{environment()}; Spark `{args.master}`, Java {args.threads} threads.", "",
        f"Table: {wrote.rows:,} rows in {wrote.files} Parquet files ({total_bytes / 1e6:.0f} MB, zstd, row groups of "
        f"~{args.block_size}), written by `paimon_codec.spark.write` in {t_write:.1f} s.  Indexes: bitmap on "
        "`user`, `status`; bloom filter on `id`; range bitmap on `amount`.", "",
        "| step | paimon-codec on Spark | Paimon Java 1.4.2 (`FileIndexProcessor`, same files) | Java / ours |",
        "| --- | ---: | ---: | ---: |",
        f"| index every data file ({n} files) | {t_ours:.1f} s (incl. plan + commit) | {java_s} s (no commit) | "
        f"{(java['ms'] / 1000 / t_ours) if java else float('nan'):.2f}x |",
        f"| containers | {container_bytes:,} bytes, CRC-32 {crc} | "
        f"{'identical' if java else 'not run'} | |", "",
        f"Lookup `{where}`: {len(ids):,} rows ({100 * len(ids) / args.rows:.3f}% of the table), median of "
        f"{args.rounds} after a warm-up, both collect the rows.", "",
        "| read | seconds | data bytes read | files read |", "| --- | ---: | ---: | ---: |",
        f"| `scan` (index-aware) | {t_scan:.3f} | {scan_bytes:,} row groups + {plan_report.index_bytes_read:,} "
        f"index | {plan_report.files_read}/{plan_report.files_total} |",
        f"| plain `spark.read.parquet(...).filter(...)` | {t_plain:.3f} | {plain_bytes:,} (Hadoop FS counter) | "
        f"{len(files)}/{len(files)} |",
        f"| ratio (plain / scan) | {t_plain / t_scan:.1f}x | {plain_bytes / max(scan_bytes + plan_report.index_bytes_read, 1):.1f}x "
        f"(table: {total_bytes / max(scan_bytes + plan_report.index_bytes_read, 1):.1f}x) | |", "",
        "Plain Spark already skips row groups whose min/max statistics or dictionary pages exclude the user; "
        "its byte count is what its file system read.  The scan's data bytes are the compressed sizes of the "
        "row groups holding the rows the bitmap selected."]
    text = "\n".join(lines) + "\n"
    print(text)
    write_result(args.output, text)
    print(json.dumps({"done": True}))
    if not args.keep:
        shutil.rmtree(wh, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
