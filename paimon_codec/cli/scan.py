"""``paimon-codec scan``, ``audit`` and ``demo`` (Spark; local unless ``--master`` is given)."""

from __future__ import annotations

import datetime as _dt
import decimal
import sys
import tempfile
from typing import Any

from ..modes import DistributedPlanning, DistributedPlanningLike, mode_value
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    JSON_LINE,
    CommandGroup,
    add_master_arg,
    add_predicate_args,
    add_semantics_arg,
    add_snapshot_args,
    add_table_arg,
    add_time_zone_arg,
    predicate_arg,
    print_json,
)

__all__ = ["register"]

DEMO_WHERE = "status = 'REFUNDED' AND region = 'EU'"
DEMO_RANGE_WHERE = "amount BETWEEN 99900 AND 99999 AND region = 'EU'"
DEMO_TOPN = ("amount", True, 5)  # ORDER BY amount DESC LIMIT 5


def _json_value(v: Any) -> Any:
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, dict):
        return {k: _json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    return v


def _entries(col, dtype):
    """``col`` (a Spark column of ``dtype``) with every MAP inside it, at any depth, as an array of
    ``{key, value}`` structs: a map's JSON form, whatever its key type (Spark's ``Row`` turns a map into a
    Python dict, which cannot hold an ARRAY / MAP / ROW key), entries in the map's own order."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if not _has_map(dtype):
        return col
    if isinstance(dtype, T.MapType):
        if not (_has_map(dtype.keyType) or _has_map(dtype.valueType)):
            # map_entries alone: a transform copying an ARRAY<FLOAT> key that holds a NULL fails in Spark's
            # Arrow column vectors ("Value at index is null", Spark 4.x, rows handed over as Arrow batches)
            return F.map_entries(col)
        return F.transform(F.map_entries(col), lambda e: F.struct(
            _entries(e["key"], dtype.keyType).alias("key"), _entries(e["value"], dtype.valueType).alias("value")))
    if isinstance(dtype, T.ArrayType):
        return F.transform(col, lambda x: _entries(x, dtype.elementType))
    assert isinstance(dtype, T.StructType)
    fields = [_entries(col[f.name], f.dataType).alias(f.name) for f in dtype.fields]
    return F.when(col.isNull(), F.lit(None)).otherwise(F.struct(*fields))


def _has_map(dtype) -> bool:
    from pyspark.sql import types as T

    if isinstance(dtype, T.MapType):
        return True
    if isinstance(dtype, T.ArrayType):
        return _has_map(dtype.elementType)
    return isinstance(dtype, T.StructType) and any(_has_map(f.dataType) for f in dtype.fields)


def _rows(df) -> list[dict]:
    """The rows as JSON values; a MAP is a list of ``{"key": k, "value": v}`` (see :func:`_entries`)."""
    if any(_has_map(f.dataType) for f in df.schema.fields):
        df = df.select(*[_entries(df[f.name], f.dataType).alias(f.name) for f in df.schema.fields])
    return [{k: _json_value(v) for k, v in r.asDict(recursive=True).items()} for r in df.collect()]


def _print_report(report: dict, out=None) -> None:
    out = out or sys.stdout
    keys = ["semantics", "files_total", "files_skipped_by_index", "files_skipped_by_partition", "files_pruned_by_stats",
            "files_skipped_by_deletion_vectors", "files_skipped_level0", "files_read", "rows_total",
            "rows_deleted", "rows_selected", "rows_read", "bytes_total", "bytes_read", "index_bytes_read"]
    print("plan report:", file=out)
    for k in keys:
        print(f"  {k:34s} {report.get(k)}", file=out)
    if report.get("order_by") and report.get("limit") is not None:
        how = "pushed down to range-bitmap indexes" if report.get("topn_pushed") else \
            f"not pushed down ({report.get('topn_note')})"
        print(f"  {'top-N':34s} ORDER BY {report['order_by']} LIMIT {report['limit']}: {how}", file=out)
    for f in report.get("files", []):
        extra = f", {f['rows_topn_candidates']} top-N candidates" if "rows_topn_candidates" in f else ""
        print(f"  - {f['path']}: {f.get('decision')} (index {f.get('index_result', '-')}, "
              f"{f.get('rows_selected', 0)}/{f['row_count']} rows{extra})", file=out)


def _print_rows(rows: list[dict], limit: int, out=None) -> None:
    out = out or sys.stdout
    if not rows:
        print("(no rows)", file=out)
        return
    cols = list(rows[0])
    shown = rows[:limit]
    widths = {c: max(len(c), *(len(str(r[c])) for r in shown)) for c in cols}
    print(" | ".join(c.ljust(widths[c]) for c in cols), file=out)
    print("-+-".join("-" * widths[c] for c in cols), file=out)
    for r in shown:
        print(" | ".join(str(r[c]).ljust(widths[c]) for c in cols), file=out)
    if len(rows) > limit:
        print(f"... {len(rows) - limit} more rows", file=out)
    print(f"({len(rows)} rows)", file=out)


def _planning_arg(text: str) -> DistributedPlanningLike:
    if text.strip().isdigit():
        return int(text)
    return DistributedPlanning(mode_value(DistributedPlanning, text, "--distributed-planning", fold_case=True))


def cmd_scan(args) -> int:
    from ..spark.scan import scan
    from ..spark.session import get_spark

    spark = get_spark(args.master)
    order_by = None
    if args.order_by:
        order_by = [(c.strip(), "desc" if args.desc else "asc") for c in args.order_by.split(",") if c.strip()]
    nulls_first = None if args.nulls is None else args.nulls == "first"
    df, report = scan(spark, args.table, predicate_arg(args), args.snapshot, order_by=order_by,
                      limit=args.limit if order_by else None, nulls_first=nulls_first,
                      branch=args.branch, tag=args.tag, timestamp_ms=args.as_of,
                      distributed_planning=_planning_arg(args.distributed_planning), semantics=args.semantics,
                      time_zone=args.time_zone)
    rows = _rows(df)
    rep = report.to_dict()
    if args.json:
        print_json({"rows": rows, "report": rep})
    else:
        _print_rows(rows, args.limit)
        _print_report(rep)
    return 0


def _print_audit(summary: dict, out=None) -> None:
    out = out or sys.stdout
    print(f"audit of {summary['warehouse']}: {summary['index_files']} index files, "
          f"{len(summary['findings'])} findings", file=out)
    for name, t in summary["tables"].items():
        print(f"  {name}: {t['index_files']} index files, {t['ok']} ok, {t['findings']} findings", file=out)
    for f in summary["findings"]:
        print(f"  FINDING [{f['finding']}] {f['table']}: {f['path']}: {f['message']}", file=out)


def cmd_audit(args) -> int:
    from ..spark.audit import audit_results
    from ..spark.session import get_spark

    spark = get_spark(args.master)
    results, summary = audit_results(spark, args.warehouse)
    if args.json:
        print_json({"tables": summary["tables"], "findings": summary["findings"],
                    "files": [{k: v for k, v in r.items() if k != "findings"} for r in results]})
    else:
        _print_audit(summary)
    return EXIT_OK if not summary["findings"] else EXIT_FINDINGS


def cmd_demo(args) -> int:
    from ..spark.audit import audit_results
    from ..spark.sample import write_sample_table
    from ..spark.scan import scan
    from ..spark.session import get_spark

    keep = args.warehouse is not None
    warehouse = args.warehouse or tempfile.mkdtemp(prefix="paimon-codec-demo-")
    table = write_sample_table(warehouse, paimon_version="latest")
    print(f"sample table written to {table} (newest Paimon formats: bitmap V2, bloom filter, range bitmaps)")
    spark = get_spark(args.master)
    where = args.where or DEMO_WHERE
    print(f"\nindexed scan: WHERE {where}\n")
    df, report = scan(spark, table, where)
    _print_rows(_rows(df), args.limit)
    print()
    _print_report(report.to_dict())
    print(f"\nrange predicate (range-bitmap index): WHERE {DEMO_RANGE_WHERE}\n")
    df, report = scan(spark, table, DEMO_RANGE_WHERE)
    _print_rows(_rows(df), args.limit)
    print()
    _print_report(report.to_dict(with_files=False))
    column, desc, k = DEMO_TOPN
    print(f"\ntop-N: ORDER BY {column} {'DESC' if desc else 'ASC'} LIMIT {k}\n")
    df, report = scan(spark, table, order_by=[(column, "desc" if desc else "asc")], limit=k)
    _print_rows(_rows(df), args.limit)
    print()
    _print_report(report.to_dict())
    print()
    _, summary = audit_results(spark, warehouse)
    _print_audit(summary)
    if not keep:
        import shutil

        shutil.rmtree(warehouse, ignore_errors=True)
    return EXIT_OK if not summary["findings"] else EXIT_FINDINGS


def register(root: CommandGroup) -> None:
    p = root.command("scan", cmd_scan, "index-aware scan of a Paimon table on Spark",
                     json=JSON_LINE + ': {"rows": [...], "report": {...}}')
    add_table_arg(p)
    add_predicate_args(p)
    add_snapshot_args(p, as_of=True)
    p.add_argument("--order-by", default=None, metavar="COL[,COL...]",
                   help="sort the rows; with --limit, top-N is pushed down to range-bitmap indexes")
    p.add_argument("--desc", action="store_true", help="descending --order-by")
    p.add_argument("--nulls", choices=["first", "last"], default=None,
                   help="null ordering (default: first ascending, last descending)")
    p.add_argument("--limit", type=int, default=50,
                   help="with --order-by: LIMIT of the query; otherwise rows to print without --json")
    add_master_arg(p)
    p.add_argument("--distributed-planning", default="256", metavar="N|always|never",
                   help="judge file indexes and deletion vectors in Spark tasks from N files on (default 256)")
    add_semantics_arg(p, "spark")
    add_time_zone_arg(p)

    p = root.command("audit", cmd_audit, "decode and verify every index file of a warehouse on Spark",
                     json=JSON_LINE + ': {"tables": ..., "findings": [...], "files": [...]}')
    p.add_argument("warehouse", help="warehouse, database or table directory")
    add_master_arg(p)

    p = root.command("demo", cmd_demo, "write a sample table, run an indexed scan and an audit")
    p.add_argument("--warehouse", default=None, help="write the sample here and keep it (default: temp dir)")
    p.add_argument("--where", default=None, help=f"predicate (default: {DEMO_WHERE})")
    p.add_argument("--limit", type=int, default=20)
    add_master_arg(p)
