"""``paimon-codec index topn``: the rows of ``ORDER BY col [DESC] LIMIT k`` from one index payload."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InvalidPredicateError, PaimonCodecError
from ..fileindex.bsi import BsiReader
from ..fileindex.range_bitmap import RangeBitmapReader
from ..fileindex.topn import found_set_from_json, top_n_rows
from ..fileio import ByteSource
from ..positions import positions_to_json
from ..types import parse_type
from .common import JSON_LINE, CommandGroup, print_json

__all__ = ["register_topn"]


def register_topn(index: CommandGroup | argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``topn`` to the ``index`` command group."""
    p = CommandGroup.of(index).command(
        "topn", _topn_command, "rows of ORDER BY col [DESC] LIMIT k, answered by a range-bitmap or BSI index payload",
        json=JSON_LINE + ": the position set")
    p.add_argument("file", help="index payload file (one range-bitmap or bsi slice)")
    p.add_argument("--index-type", required=True, choices=["range-bitmap", "bsi"])
    p.add_argument("--type", required=True, dest="type_", metavar="TYPE", help="column type, e.g. BIGINT")
    p.add_argument("--k", required=True, type=int, help="LIMIT")
    p.add_argument("--desc", action="store_true", help="descending order (top-k); default ascending")
    p.add_argument("--nulls", choices=["first", "last"], default=None,
                   help="null ordering (default: first for ascending, last for descending)")
    p.add_argument("--strict", action="store_true", help="exactly k rows (a single sort key)")
    p.add_argument("--found-set", default=None,
                   help="JSON position set (or a path to one) restricting the candidate rows")
    return p


def _topn_command(args: argparse.Namespace) -> int:
    dtype = parse_type(args.type_)
    found = None
    if args.found_set:
        text = args.found_set
        if not text.lstrip().startswith("{"):
            with open(text, encoding="utf-8") as fh:
                text = fh.read()
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise InvalidPredicateError(f"bad --found-set: {exc}") from exc
        found = found_set_from_json(obj, "--found-set")
    nulls_first = (args.nulls or ("last" if args.desc else "first")) == "first"
    with ByteSource(args.file) as src:
        try:
            if args.index_type == "range-bitmap":
                reader: Any = RangeBitmapReader(src, dtype)
            else:
                reader = BsiReader(src, dtype)
            rows = top_n_rows(reader, args.k, args.desc, nulls_first, args.strict, found)
        except PaimonCodecError as exc:
            raise exc.with_path(args.file) from None
    out = {"kind": "BITMAP", **positions_to_json(rows)}
    if args.json:
        print_json(out)
    else:
        print(f"{out['cardinality']} rows: " + ", ".join(f"[{a}, {b})" for a, b in out["ranges"]))
    sys.stdout.flush()
    return 0
