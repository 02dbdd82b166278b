"""``paimon-codec plan TABLE``: a scan's plan without Spark - which files are read, what each file's index
answered, which rows survive the indexes and deletion vectors, and the plan report.

It explains a query (why a file was skipped, how many rows an index kept) and reaches every piece of table
metadata in milliseconds, so hostile metadata is found here as in any reader: one line, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (
    JSON_LINE,
    CommandGroup,
    add_predicate_args,
    add_semantics_arg,
    add_snapshot_args,
    add_table_arg,
    add_time_zone_arg,
    predicate_arg,
    print_json,
)

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
            "tasks": tasks, "groups": groups, "report": plan.report.to_dict()}


def _print(obj: dict, out=None) -> None:
    out = out or sys.stdout
    rep = obj["report"]
    print(f"plan of {obj['table']} @ snapshot {obj['snapshot_id']}"
          + (f" where {obj['predicate']}" if obj["predicate"] else "")
          + f" ({rep.get('semantics')} semantics)", file=out)
    for k in ("files_total", "files_skipped_by_partition", "files_pruned_by_stats", "files_skipped_by_index",
              "files_skipped_by_deletion_vectors", "files_skipped_level0", "files_read", "rows_total",
              "rows_deleted", "rows_selected", "bytes_total", "bytes_read", "index_bytes_read"):
        print(f"  {k:34s} {rep.get(k)}", file=out)
    for f in rep.get("files", []):
        print(f"  - {f['path']}: {f.get('decision')} (index {f.get('index_result', '-')}, "
              f"{f.get('rows_selected', 0)}/{f.get('row_count')} rows)", file=out)
    for note in rep.get("index_notes", []):
        print(f"  note: {note}", file=out)


def cmd_plan(args: argparse.Namespace) -> int:
    from ..planning.plan import plan_scan

    plan = plan_scan(args.table, predicate_arg(args), args.snapshot, branch=args.branch, tag=args.tag,
                     semantics=args.semantics, time_zone=args.time_zone)
    obj = plan_json(plan)
    if args.json:
        print_json(obj)
    else:
        _print(obj)
    return 0


def register(root: CommandGroup) -> None:
    p = root.command("plan", cmd_plan, "a scan's plan without Spark: files, index answers, deletion vectors",
                     json=JSON_LINE + ": the plan")
    add_table_arg(p)
    add_predicate_args(p, example="status = 'PAID' AND amount > 10")
    add_snapshot_args(p)
    add_semantics_arg(p, "paimon")
    add_time_zone_arg(p)
