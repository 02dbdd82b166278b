"""``paimon-codec delete``: ``DELETE FROM table WHERE ...`` in one commit - by deletion vectors on append tables
with ``deletion-vectors.enabled`` (on Spark unless ``--local``), as ``-D`` records on primary-key tables
(:mod:`paimon_codec.writing.pk_delete`).  ``--json`` prints the report."""

from __future__ import annotations

import argparse

from .common import (
    JSON_LINE,
    CommandGroup,
    add_master_arg,
    add_predicate_args,
    add_table_arg,
    predicate_arg,
    print_json,
)

__all__ = ["register"]


def cmd_delete(args: argparse.Namespace) -> int:
    where = predicate_arg(args)
    if args.local:
        from ..writing.dv_delete import delete as local_delete

        report = local_delete(args.table, where, semantics=args.semantics or "paimon")
    else:
        from ..spark.delete import delete
        from ..spark.session import get_spark

        report = delete(get_spark(args.master), args.table, where, semantics=args.semantics or "spark")
    data = report.to_json()
    if args.json:
        print_json(data)
    else:
        for key, value in data.items():
            print(f"{key:28s} {value}")
    return 0


def register(root: CommandGroup) -> None:
    """``delete`` (top-level command)."""
    p = root.command(
        "delete", cmd_delete, "delete the rows matching a predicate (deletion vectors or -D records), one commit",
        json=JSON_LINE + ": the report",
        description="Append tables with deletion-vectors.enabled: file indexes and value stats skip files, the "
                    "matching positions are OR-ed into each file's deletion vector, the index files are written "
                    "as Paimon writes them and one snapshot is committed.  Primary-key tables: the matching rows "
                    "of the merged view are written back as -D records (one APPEND snapshot; merge engines as "
                    "Paimon's DELETE accepts them).  Append tables without deletion vectors are refused.")
    add_table_arg(p)
    add_predicate_args(p, required=True, example="status = 'CANCELLED'")
    p.add_argument("--local", action="store_true", help="find the rows in this process instead of on Spark")
    p.add_argument("--semantics", choices=["paimon", "spark"], default=None,
                   help="float comparison of the predicate: spark (-0.0 = 0.0, Spark SQL's DELETE; the default on "
                        "Spark) or paimon (Double.compare, -0.0 < 0.0; the default with --local)")
    add_master_arg(p)
