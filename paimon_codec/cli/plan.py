"""``paimon-codec plan TABLE``: a scan's plan without Spark - which files are read, what each file's index
answered, which rows survive the indexes and deletion vectors, and the plan report.

It explains a query (why a file was skipped, how many rows an index kept) and reaches every piece of table
metadata in milliseconds, so hostile metadata is found here as in any reader: one line, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["register", "plan_json"]


def plan_json(plan) -> dict[str, Any]:
    """The plan as JSON: report (with per-file decisions) and the files to read with their selections."""
    from ..positions import ranges_of

    tasks = []
    for t in plan.tasks:
        tasks.append({"path": t.path, "file_format": t.file_format, "row_count": t.row_count,
                      "file_size": t.file_size, "selected_rows": t.selected_rows,
                      "selection": None if t.selection is None else ranges_of(t.selection)})
    groups = [{"label": g.label, "reader": g.reader, "files": [f.path for f in g.files],
               "row_count": g.row_count, "selected_rows": g.selected_rows} for g in plan.groups]
    return {"table": plan.report.table, "snapshot_id": plan.snapshot_id,
            "predicate": None if plan.predicate is None else str(plan.predicate),
            "tasks": tasks, "groups": groups, "report": plan.report.to_json()}


def _print(obj: dict, out=None) -> None:
    out = out or sys.stdout
    rep = obj["report"]
    print(f"plan of {obj['table']} @ snapshot {obj['snapshot_id']}"
          + (f" where {obj['predicate']}" if obj["predicate"] else ""), file=out)
    for k in ("files_total", "files_skipped_by_partition", "files_skipped_by_index",
              "files_skipped_by_deletion_vectors", "files_skipped_level0", "files_read", "rows_total",
              "rows_deleted", "rows_selected", "bytes_total", "bytes_read", "index_bytes_read"):
        print(f"  {k:34s} {rep.get(k)}", file=out)
    for f in rep.get("files", []):
        print(f"  - {f['path']}: {f.get('decision')} (index {f.get('index_result', '-')}, "
              f"{f.get('rows_selected', 0)}/{f.get('row_count')} rows)", file=out)
    for note in rep.get("index_notes", []):
        print(f"  note: {note}", file=out)


def cmd_plan(args: argparse.Namespace) -> int:
    from ..table.plan import plan_scan

    where: Any = args.where
    if args.predicate_json is not None:
        from ..expressions.json_form import load_predicate_json

        where = load_predicate_json(args.predicate_json)
    plan = plan_scan(args.table, where, args.snapshot, branch=args.branch, tag=args.tag)
    obj = plan_json(plan)
    if args.json:
        json.dump(obj, sys.stdout, default=str)
        print()
    else:
        _print(obj)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("plan", help="a scan's plan without Spark: files, index answers, deletion vectors")
    p.add_argument("table", help="table directory (<warehouse>/<db>.db/<table>)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--where", help="SQL-like predicate, e.g. \"status = 'PAID' AND amount > 10\"")
    g.add_argument("--predicate-json", help="JSON predicate (text or path)")
    travel = p.add_mutually_exclusive_group()
    travel.add_argument("--snapshot", type=int, default=None, help="snapshot id (default: latest)")
    travel.add_argument("--tag", default=None, help="the snapshot of this tag")
    p.add_argument("--branch", default=None, help="plan this branch (default: main)")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=cmd_plan)
