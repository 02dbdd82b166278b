"""``paimon-codec write``, ``paimon-codec compact`` and ``paimon-codec index rewrite`` (Spark; local unless ``--master`` is given).

Progress (files indexed / total, bytes, rate) goes to stderr through ``logging``; ``--json`` prints the
report of what was written on stdout.
"""

from __future__ import annotations

import argparse
import logging
import sys

from ..errors import InvalidOptionError
from .common import JSON_LINE, CommandGroup, add_master_arg, add_table_arg, print_json

__all__ = ["register", "register_rewrite", "parse_option_args"]

REPORT_JSON = JSON_LINE + ": the report"

#: input formats known by file extension -> the Spark reader's format
_INPUT_FORMATS = {"parquet": "parquet", "orc": "orc", "csv": "csv", "json": "json", "jsonl": "json",
                  "ndjson": "json"}


def parse_option_args(items: list[str], removals: list[str] | None = None) -> dict[str, str | None]:
    """``["k=v", ...]`` (+ keys to remove) -> ``{k: v, removed: None}``."""
    out: dict[str, str | None] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise InvalidOptionError(f"bad --option {item!r}", expected="KEY=VALUE")
        out[key.strip()] = value.strip()
    for key in removals or ():
        out[key.strip()] = None
    return out


def _progress_logging(quiet: bool) -> None:
    if quiet:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    for name in ("paimon_codec.maintenance.index_rewrite_job", "paimon_codec.spark.write"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)


def _print(report: dict, as_json: bool) -> None:
    if as_json:
        print_json(report)
        return
    for key, value in report.items():
        if not isinstance(value, list):
            print(f"{key:22s} {value}")


def cmd_rewrite(args: argparse.Namespace) -> int:
    options = parse_option_args(args.option, args.remove_option)
    _progress_logging(args.quiet)
    if args.local:
        from ..maintenance.index_rewrite_job import rewrite_file_index as local_rewrite

        report = local_rewrite(args.table, options or None, args.partition or None)
    else:
        from ..spark.rewrite import rewrite_file_index
        from ..spark.session import get_spark

        report = rewrite_file_index(get_spark(args.master), args.table, options or None, args.partition or None)
    _print(report.to_dict(), args.json)
    return 0


def _read_input(spark, path: str, fmt: str):
    """The input DataFrame; a path Spark cannot read is bad input (one line), not a Java stack trace."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import AnalysisException

    reader = spark.read.option("header", "true").option("inferSchema", "true") if fmt == "csv" else spark.read
    try:
        return reader.format(fmt).load(path)
    except (AnalysisException, Py4JJavaError) as exc:  # no such path; an unknown --format (a Java error)
        text = str(exc.java_exception.toString()) if isinstance(exc, Py4JJavaError) else str(exc)
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        raise InvalidOptionError(f"cannot read --input as {fmt}: {first}", path=path) from None


def cmd_write(args: argparse.Namespace) -> int:
    from ..spark.session import get_spark
    from ..spark.write import write

    _progress_logging(args.quiet)
    spark = get_spark(args.master)
    fmt = args.format or args.input.rsplit(".", 1)[-1].lower()
    if not args.format and fmt not in _INPUT_FORMATS:
        raise InvalidOptionError(f"cannot tell the format of --input {args.input!r} from its name",
                                 expected="--format " + "|".join(_INPUT_FORMATS))
    df = _read_input(spark, args.input, _INPUT_FORMATS.get(fmt, fmt))
    report = write(df, args.table, mode=args.mode)
    _print(report.to_dict(), args.json)
    return 0


def cmd_compact(args: argparse.Namespace) -> int:
    _progress_logging(args.quiet)
    if args.local:
        from ..writing.compact import compact_table

        result = compact_table(args.table)
        report = {"snapshot_id": result.snapshot_id, "files_deleted": result.deleted_files,
                  "files_added": result.added_files}
    else:
        from ..spark.primary_key import compact
        from ..spark.session import get_spark

        report = compact(get_spark(args.master), args.table)
    _print(report, args.json)
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_master_arg(p)


def register_rewrite(index: CommandGroup) -> None:
    """``index rewrite`` under the ``index`` command."""
    p = index.command(
        "rewrite", cmd_rewrite, "(re)build the file indexes of every data file of a table and commit once",
        json=REPORT_JSON,
        description="Persist --option values to the table schema (like ALTER TABLE SET), rebuild every live data "
                    "file's file index on Spark and commit one snapshot; a rewrite that changes nothing commits "
                    "nothing.")
    add_table_arg(p)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="table option to set first, e.g. file-index.bitmap.columns=a,b (repeatable)")
    p.add_argument("--remove-option", action="append", default=[], metavar="KEY",
                   help="table option to remove first, e.g. file-index.bitmap.columns (repeatable)")
    p.add_argument("--partition", action="append", default=[], metavar="K=V[,K2=V2]",
                   help="only files of this partition (repeatable)")
    p.add_argument("--local", action="store_true", help="index in this process instead of on Spark")
    _common(p)


def register(root: CommandGroup) -> None:
    """``write`` and ``compact`` (top-level commands)."""
    p = root.command("write", cmd_write, "append rows (Parquet / JSON lines / CSV / ORC) to a Paimon table "
                                         "on Spark, file indexes built on write, one commit", json=REPORT_JSON)
    add_table_arg(p)
    p.add_argument("--input", required=True, help="input file or directory Spark reads")
    p.add_argument("--format", default=None, help="input format (default: from the file extension)")
    p.add_argument("--mode", default="append", choices=["append", "overwrite"],
                   help="write mode (a primary-key table: append = upsert)")
    _common(p)
    c = root.command("compact", cmd_compact, "fully compact a primary-key table: every bucket merged into the top "
                                             "level, one COMPACT snapshot", json=REPORT_JSON)
    add_table_arg(c)
    c.add_argument("--local", action="store_true", help="compact in this process instead of on Spark")
    _common(c)
