"""Top-N (``ORDER BY col [DESC] [NULLS FIRST|LAST] LIMIT k``) answered from bit-sliced indexes.

Paimon pushes top-N down to range-bitmap indexes (FORMATS §4.4).  Only the first sort key is used;
``strict`` (exactly one sort key) means the answer must hold exactly ``k`` rows, otherwise rows tied
with the k-th value are all kept (a later sort key might prefer any of them).

* :func:`oneil_top_k` - O'Neil's top-k over the slices of an unsigned bit-sliced index, from the
  most significant slice down, keeping ``G`` (surely in) and ``E`` (still tied).  Strict mode drops
  the *smallest* row positions of ``E`` until exactly ``k`` rows remain (as Paimon does).
* :func:`top_n_rows` - the full answer with null ordering and an optional found set, for any reader
  exposing ``null_rows()`` and ``top_values(k, found_set, strict, descending)`` (range bitmap, BSI).
* :func:`answer_topn_query` - answers a golden/CLI ``top_k`` / ``bottom_k`` query object.
* :func:`register_topn` - the ``paimon-codec index topn`` subcommand.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Protocol

from pyroaring import BitMap

from ..errors import InvalidPredicateError, PaimonCodecError
from ..positions import positions_from_json, positions_to_json
from ..roaring import first_n
from .bit_slices import oneil_top_k
from .result import BitmapResult

__all__ = ["oneil_top_k", "top_n_rows", "answer_topn_query", "register_topn", "TopNReader"]


class TopNReader(Protocol):
    """What :func:`top_n_rows` needs from an index reader."""

    def null_rows(self) -> BitMap: ...

    def top_values(self, k: int, found_set: BitMap | None, strict: bool, descending: bool) -> BitMap: ...


def top_n_rows(
    reader: TopNReader,
    k: int,
    descending: bool,
    nulls_first: bool,
    strict: bool,
    found_set: BitMap | None = None,
) -> BitMap:
    """Row positions answering ``ORDER BY col (DESC|ASC) NULLS (FIRST|LAST) LIMIT k`` (FORMATS §4.4).

    ``found_set`` restricts the candidates (rows a filter already selected).  Null rows come first
    or last; strict answers hold at most ``k`` rows (the first null positions when nulls are cut).
    """
    if k < 0:
        raise InvalidPredicateError(f"top-N limit must be >= 0, got {k}")
    shortcut = getattr(reader, "top_n_shortcut", None)
    if shortcut is not None:
        early = shortcut()
        if early is not None:
            return early
    nulls = reader.null_rows()
    if found_set is not None:
        nulls = nulls & found_set
    if not nulls_first:
        result = reader.top_values(k, found_set, strict, descending)
        if len(result) < k:
            result = result | (first_n(nulls, k - len(result)) if strict else nulls)
        return result
    if strict and len(nulls) >= k:
        return first_n(nulls, k)
    rest = k - len(nulls)
    if rest <= 0:
        return nulls
    return nulls | reader.top_values(rest, found_set, strict, descending)


def answer_topn_query(reader: TopNReader, query: dict) -> BitmapResult:
    """Answer a ``{"op": "top_k"|"bottom_k", "k", "null_ordering", "strict", "found_set"}`` object.

    ``top_k`` orders descending, ``bottom_k`` ascending; ``null_ordering`` is ``NULLS_FIRST`` or
    ``NULLS_LAST`` (default: NULLS_FIRST for ascending, NULLS_LAST for descending, as Spark does);
    ``found_set`` is null or a position set.  Returns a bitmap result (``.to_json()`` for output).
    """
    op = query.get("op")
    if op not in ("top_k", "bottom_k"):
        raise InvalidPredicateError(f"not a top-N query: op {op!r}")
    try:
        k = int(query["k"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPredicateError("top-N query needs an integer 'k'") from exc
    descending = op == "top_k"
    ordering = str(query.get("null_ordering") or ("NULLS_LAST" if descending else "NULLS_FIRST")).upper()
    if ordering not in ("NULLS_FIRST", "NULLS_LAST", "FIRST", "LAST"):
        raise InvalidPredicateError(f"null_ordering must be NULLS_FIRST or NULLS_LAST, not {ordering!r}")
    found = query.get("found_set")
    found_bm = None
    if found is not None:
        try:
            found_bm = positions_from_json(found)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidPredicateError(f"bad found_set: {exc}") from exc
    rows = top_n_rows(reader, k, descending, ordering.endswith("FIRST"), bool(query.get("strict", True)),
                      found_bm)
    return BitmapResult(rows)


# ------------------------------------------------------------------------------------------ CLI
def register_topn(index_subparsers: Any) -> argparse.ArgumentParser:
    """Add ``topn`` to the ``index`` subcommand group."""
    p = index_subparsers.add_parser(
        "topn", help="rows of ORDER BY col [DESC] LIMIT k, answered by a range-bitmap or BSI index payload")
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
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_topn_command)
    return p


def _topn_command(args: argparse.Namespace) -> int:
    from ..fileio import ByteSource
    from ..types import parse_type

    dtype = parse_type(args.type_)
    found = None
    if args.found_set:
        text = args.found_set
        if not text.lstrip().startswith("{"):
            with open(text, encoding="utf-8") as fh:
                text = fh.read()
        try:
            found = positions_from_json(json.loads(text))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidPredicateError(f"bad --found-set: {exc}") from exc
    nulls_first = (args.nulls or ("last" if args.desc else "first")) == "first"
    with ByteSource(args.file) as src:
        try:
            if args.index_type == "range-bitmap":
                from .range_bitmap import RangeBitmapReader
                reader: Any = RangeBitmapReader(src, dtype)
            else:
                from .bsi import BsiReader
                reader = BsiReader(src, dtype)
            rows = top_n_rows(reader, args.k, args.desc, nulls_first, args.strict, found)
        except PaimonCodecError as exc:
            raise exc.with_path(args.file) from None
    out = {"kind": "BITMAP", **positions_to_json(rows)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['cardinality']} rows: " + ", ".join(f"[{a}, {b})" for a, b in out["ranges"]))
    sys.stdout.flush()
    return 0
