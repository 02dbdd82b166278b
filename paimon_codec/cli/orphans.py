"""``paimon-codec remove-orphans``: Paimon's ``remove_orphan_files`` on a table or a whole warehouse (no Spark).

A dry run unless ``--delete`` is given: the files Paimon's orphan clean would delete are listed, nothing is
touched.  Files younger than ``--older-than`` (default: one day before now, as Paimon) are never candidates, so
a running writer's uncommitted files survive.  A table whose metadata cannot be read completely is refused:
nothing of it is listed or deleted, and the exit status is 1.
"""

from __future__ import annotations

from .common import EXIT_FINDINGS, EXIT_OK, JSON_LINE, CommandGroup, print_json

__all__ = ["register"]


def cmd_remove_orphans(args) -> int:
    from ..maintenance.orphan_clean import older_than_millis, remove_orphans_in

    dry_run = not args.delete
    older_than = older_than_millis(args.older_than)
    reports = remove_orphans_in(args.location, older_than, dry_run=dry_run)
    refused = [r for r in reports if r.refused]
    if args.json:
        print_json({"dry_run": dry_run, "older_than_ms": older_than,
                    "deleted_files": sum(r.deleted_files for r in reports),
                    "deleted_bytes": sum(r.deleted_bytes for r in reports),
                    "tables": [r.to_dict() for r in reports]})
    else:
        verb = "would delete" if dry_run else "deleted"
        for r in reports:
            if r.refused:
                print(f"{r.table}: REFUSED: {r.refused}")
                continue
            print(f"{r.table}: {verb} {r.deleted_files} files ({r.deleted_bytes} bytes)")
            for f in r.files:
                print(f"  {f['kind']:14s} {f['path']}")
            for k in r.kept_shared:
                print(f"  kept (table {k['table']} uses it): {k['path']}")
            for d in r.removed_dirs:
                print(f"  removed empty directory {d}")
        if dry_run:
            print("dry run: nothing was deleted (--delete to delete)")
    return EXIT_FINDINGS if refused else EXIT_OK


def register(root: CommandGroup) -> None:
    p = root.command("remove-orphans", cmd_remove_orphans,
                     "list (or --delete) the files Paimon's orphan clean would delete",
                     json=JSON_LINE + ': {"dry_run", "older_than_ms", "deleted_files", "deleted_bytes", "tables"}')
    p.add_argument("location", help="warehouse, database or table directory (or URI)")
    p.add_argument("--older-than", default=None, metavar="TS",
                   help="only files modified before this time ('yyyy-MM-dd HH:mm:ss', ISO 8601 or epoch ms; "
                        "default: one day ago, as Paimon)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", dest="delete", action="store_false", default=False,
                      help="list only (the default)")
    mode.add_argument("--delete", "--no-dry-run", dest="delete", action="store_true",
                      help="delete the files listed")
