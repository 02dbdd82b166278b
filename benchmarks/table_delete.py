"""Deleting rows by deletion vectors, ours vs Paimon Java 1.4.2 (the delete part of issue 24's table-write benchmark).

``delete``: deleting 0.1 % of an indexed append table with ``deletion-vectors.enabled`` (the scale
benchmark's ``bench.scale`` table, :mod:`_scale_table`: ``--files`` x ``--rows`` rows; ``cat`` has a bitmap
index; ``cat = 's001'`` holds 0.1 % of the rows, spread over every file) and a file-pruning delete
(``id < N / 1000``: stats leave one file), a point delete (``tag = 't4242'``, bloom filter) and
``region = 'r1'`` (bitmap: two files).  Each delete runs on its own copy of the table (data files hard-linked,
metadata copied):

* ours: :func:`paimon_codec.spark.delete` on local Spark (``--master``), and :func:`paimon_codec.writing.delete`
  in this process;
* Java: ``tools/java/src/.../DvDeleteBench`` - Paimon 1.4.2's DELETE through its table API, as its Spark
  command does it (``--threads`` threads read the candidate files; JVM start excluded).

Checked: every side deletes the same rows, and the deletion vectors hold the same positions per data file.
Reported: rows deleted, files opened / planned, seconds (wall, planning to committed snapshot).  Writes
``benchmarks/results/table_delete.md`` and prints JSON lines.

    python benchmarks/table_delete.py [--files 100] [--rows 100000] [--master local[2]] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time

from _harness import RESULTS, emit, environment, write_result


def _workloads(total: int) -> list[tuple[str, list[str], str]]:
    """(predicate, DvDeleteBench's flags for it, what it deletes)."""
    cut = max(total // 1000, 1)
    return [("cat = 's001'", ["--column", "cat", "--equals", "s001"],
             "0.1 % of the rows, in every file (bitmap: exact rows)"),
            (f"id < {cut}", ["--column", "id", "--less-than", str(cut)], "0.1 % of the rows, in 1 file (stats prune)"),
            ("tag = 't4242'", ["--column", "tag", "--equals", "t4242"], "one row (bloom filter prunes files)"),
            ("region = 'r1'", ["--column", "region", "--equals", "r1"], "the rows of 2 files (bitmap)")]


def _copy(src: str, dst: str) -> str:
    """A table of ``src``'s data files (hard links) with its own copy of every metadata file."""
    shutil.rmtree(dst, ignore_errors=True)
    for root, _dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            s, d = os.path.join(root, name), os.path.join(dst, rel, name)
            if os.path.basename(root).startswith("bucket-"):
                os.link(s, d)
            else:
                shutil.copy2(s, d)
    return dst


def _positions(path: str) -> dict[str, list[int]]:
    from paimon_codec.dv.index_file import read_deletion_vector
    from paimon_codec.table import DELETION_VECTORS_INDEX, PaimonTable

    out = {}
    for f in PaimonTable(path).index_files():
        if f.entry.index_file.index_type == DELETION_VECTORS_INDEX:
            for r in f.entry.index_file.dv_ranges or ():
                out[r.data_file] = read_deletion_vector(f.path, r.offset, r.length).to_array().tolist()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--rows", type=int, default=100_000, help="rows per file")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--threads", type=int, default=2, help="Java threads (match the Spark cores)")
    ap.add_argument("--warehouse", default=None, help="where the cached scale table lives / is written")
    ap.add_argument("--no-java", action="store_true", help="skip the Java 1.4.2 side")
    ap.add_argument("--output", default=str(RESULTS / "table_delete.md"))
    args = ap.parse_args(argv)

    import _scale_table

    from paimon_codec.spark import delete as spark_delete
    from paimon_codec.spark import get_spark
    from paimon_codec.writing import delete as local_delete

    wh = args.warehouse or os.path.join(os.path.expanduser("~/.cache/paimon-codec/bench"), "table-delete-wh")
    t0 = time.perf_counter()
    source = _scale_table.build(wh, args.files, args.rows, name=f"tw{args.files}x{args.rows}")[
        f"tw{args.files}x{args.rows}"]
    emit({"workload": "build", "files": args.files, "rows": args.files * args.rows,
          "s": round(time.perf_counter() - t0, 1)})
    spark = get_spark(args.master)
    rows_md = []
    for where, java_flags, what in _workloads(args.files * args.rows):
        results = {}
        copies = {}
        for impl in ("spark", "local", "java"):
            if impl == "java" and args.no_java:
                continue
            path = copies[impl] = _copy(source, os.path.join(wh, "bench.db", f"delete_{impl}"))
            if impl == "java":
                import _java_newest

                (j,) = _java_newest.run_driver("DvDeleteBench", ["--table", path, *java_flags,
                                                                 "--threads", str(args.threads)])
                results[impl] = {"rows_deleted": j["rows_deleted"], "files_opened": j["files_planned"],
                                 "files_total": args.files, "s": j["ms"] / 1000}
            else:
                if impl == "spark":  # warm the session's Python workers on another copy first
                    spark_delete(spark, _copy(source, os.path.join(wh, "bench.db", "delete_warm")), where)
                t = time.perf_counter()
                r = spark_delete(spark, path, where) if impl == "spark" else local_delete(path, where)
                results[impl] = {"rows_deleted": r.rows_deleted, "files_opened": r.files_opened,
                                 "files_total": r.files_total, "s": time.perf_counter() - t}
            emit({"workload": "delete", "where": where, "impl": impl, **results[impl]})
        reference = _positions(copies["spark"])
        for impl, path in copies.items():
            if results[impl]["rows_deleted"] != results["spark"]["rows_deleted"] or _positions(path) != reference:
                raise SystemExit(f"{impl} deleted other rows than paimon-codec on Spark for {where}")
        for impl, label in (("spark", "paimon-codec on Spark"), ("local", "paimon-codec, one process"),
                            ("java", "Paimon Java 1.4.2 (table API)")):
            if impl in results:
                r = results[impl]
                rows_md.append(f"| `{where}` ({what}) | {label} | {r['rows_deleted']:,} | "
                               f"{r['files_opened']}/{r['files_total']} | {r['s']:.2f} |")
        for path in copies.values():
            shutil.rmtree(path, ignore_errors=True)
    lines = ["# Deleting rows by deletion vectors: paimon-codec vs Paimon Java 1.4.2", "",
             f"{environment()}; Spark `{args.master}`, Java {args.threads} threads.", "",
             f"Table: the scale benchmark's append table, {args.files * args.rows:,} rows in {args.files} Parquet "
             "files, `deletion-vectors.enabled`, bitmap indexes on `cat` and `region`.  Each delete runs on a fresh "
             "copy; all sides deleted the same rows and wrote the same deletion-vector positions.", "",
             "| delete | implementation | rows deleted | files opened / total | seconds |",
             "| --- | --- | ---: | ---: | ---: |", *rows_md, "",
             "Files opened: data files read row by row.  Ours skip files the indexes or stats rule out and do not "
             "open a file whose bitmap index answers the predicate exactly; Java opens every file its scan plans "
             "(file indexes prune whole files only) and tests each row.  Seconds: planning to committed snapshot "
             "(Spark / JVM start excluded)."]
    text = "\n".join(lines) + "\n"
    print(text)
    write_result(args.output, text)
    print(json.dumps({"done": True}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
