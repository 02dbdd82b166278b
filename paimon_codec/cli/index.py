"""``paimon-codec index ...``: build file-index containers and query them (or single index payloads).

* ``index build --schema SCHEMA --input FILE(.parquet|.jsonl|.csv) [--option KEY=VALUE ...] --output OUT``
* ``index query FILE (--schema SCHEMA | --index-type TYPE --type COLUMN_TYPE)
  (--where EXPR | --predicate-json JSON_OR_PATH | --predicates-json PATH) [--json]``
* ``index topn ...`` (from :mod:`.topn`, when available)

Query results print as ``{"kind": "REMAIN"}``, ``{"kind": "SKIP"}`` or
``{"kind": "BITMAP", "cardinality": N, "ranges": [[start, end), ...]}`` (a JSON list of these, in
order, for ``--predicates-json``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidOptionError, InvalidPredicateError, PaimonCodecError
from ..expressions.json_form import load_predicate_json, predicate_from_json
from ..expressions.predicate import Predicate
from ..expressions.sql import parse_where
from ..fileindex.evaluate import apply_deletion_vector, evaluate, evaluate_single
from ..fileindex.input_table import read_input_table
from ..fileindex.result import BitmapResult, FileIndexResult
from ..fileio import ByteSource, atomic_write_bytes
from ..positions import positions_from_json
from ..types import DataType, RowType, parse_row_type, parse_type
from .common import JSON_LINE, CommandGroup, add_predicate_args, print_json
from .index_topn import register_topn

__all__ = ["register", "read_input_table", "run_queries", "result_to_json"]

SINGLE_INDEX_TYPES = ("bitmap", "bloom-filter", "range-bitmap", "bsi")


def register(root: CommandGroup) -> None:
    index = root.group("index", "build and query file indexes (bitmap, bloom filter, ...)",
                       description="Build and query Paimon file-index containers and payloads.", metavar="SUBCOMMAND")

    b = index.command("build", _build_command, "build a file-index container from rows and table options",
                      json=JSON_LINE + ": the summary")
    b.add_argument("--schema", required=True, help='row schema: "a INT, b STRING" or a JSON list of {"name","type"}')
    b.add_argument("--input", required=True, help="rows: .parquet, .jsonl (one JSON object per line) or .csv")
    b.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="table option, e.g. file-index.bitmap.columns=a,b (repeatable)")
    b.add_argument("--output", required=True, help="container file to write (atomically)")

    q = index.command("query", _query_command, "evaluate predicates against a container or one index payload",
                      json=JSON_LINE + ": one result, or a list for --predicates-json")
    q.add_argument("file", help="file-index container (.index) or, with --index-type, one index payload")
    q.add_argument("--schema", help='row schema of the data file: "a INT, b STRING" or a JSON list')
    q.add_argument("--index-type", choices=SINGLE_INDEX_TYPES,
                   help="FILE is a single index payload of this type (then give --type)")
    q.add_argument("--type", dest="type_", metavar="TYPE", help="column type of a single payload, e.g. INT")
    g = add_predicate_args(q, required=True, example="status = 'PENDING' AND region IN ('US','EU')")
    g.add_argument("--predicates-json", metavar="PATH", help="a JSON list of predicates / query objects")
    q.add_argument("--row-count", type=int, help="rows in the data file (needed with --deleted)")
    q.add_argument("--deleted", metavar="JSON_OR_PATH",
                   help="deletion vector as a position set ({\"ranges\": ...}); applied to each result")

    register_topn(index)
    from .write import register_rewrite  # index rewrite: the table layer, run on Spark

    register_rewrite(index)


# ---------------------------------------------------------------------------------------------
# build


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"option {pair!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _build_command(args: argparse.Namespace) -> int:
    from ..fileindex.writer import FileIndexWriter

    schema = parse_row_type(args.schema)
    options = _parse_options(args.option)
    writer = FileIndexWriter(schema, options)
    if not writer.specs:
        raise InvalidOptionError("no file index requested",
                                 expected="an option such as file-index.bitmap.columns=COL")
    writer.write_table(read_input_table(args.input, schema))
    data = writer.serialize()
    atomic_write_bytes(args.output, data)
    summary: dict[str, Any] = {
        "output": str(args.output),
        "bytes": len(data),
        "rows": writer.row_count,
        "indexes": [{"column": s.column, "index_type": s.index_type} for s in writer.specs],
    }
    if args.json:
        print_json(summary)
    else:
        idx = ", ".join(f"{s['column']}:{s['index_type']}" for s in summary["indexes"])
        print(f"wrote {summary['bytes']} bytes to {summary['output']} ({summary['rows']} rows; {idx})")
    return 0


# ---------------------------------------------------------------------------------------------
# query


def result_to_json(result: Any) -> dict:
    """``{"kind": ...}`` of a result (FileIndexResult, bitmap, or a ready JSON dict)."""
    if isinstance(result, FileIndexResult):
        return result.to_dict()
    if isinstance(result, dict):
        return result
    from pyroaring import BitMap

    if isinstance(result, BitMap):
        return BitmapResult(result).to_dict()
    raise TypeError(f"not a result: {result!r}")


def _result_text(obj: dict) -> str:
    if obj["kind"] != "BITMAP":
        return obj["kind"]
    ranges = " ".join(f"[{a},{b})" for a, b in obj["ranges"])
    return f"BITMAP cardinality={obj['cardinality']}" + (f" {ranges}" if ranges else "")


class _Target:
    """What queries run against: a container + row type, or one payload reader + its type."""

    def __init__(self, args: argparse.Namespace, source: ByteSource) -> None:
        self.container = None
        self.reader = None
        self.schema: RowType | DataType
        if args.index_type:
            if args.schema:
                raise InvalidOptionError("give either --schema (a container) or --index-type/--type (one payload)")
            if not args.type_:
                raise InvalidOptionError("--index-type needs --type (the column type of the payload)")
            from ..fileindex import registry

            self.schema = parse_type(args.type_)
            self.reader = registry.create_reader(args.index_type, source, self.schema, {})
        else:
            if not args.schema:
                raise InvalidOptionError("give --schema for a container, or --index-type and --type for a payload")
            if args.type_:
                raise InvalidOptionError("--type only goes with --index-type")
            from ..fileindex.container import FileIndexContainerReader

            self.schema = parse_row_type(args.schema)
            self.container = FileIndexContainerReader(source, path=str(args.file))

    def evaluate(self, pred: Predicate) -> FileIndexResult:
        if self.reader is not None and isinstance(self.schema, DataType):
            return evaluate_single(pred, self.reader, self.schema)
        assert self.container is not None and isinstance(self.schema, RowType)  # set together in __init__
        return evaluate(pred, self.container, self.schema)

    def topn_reader(self, query: Mapping[str, Any]) -> Any:
        if self.reader is not None:
            return self.reader
        column = query.get("field", query.get("col"))
        if column is None:
            raise InvalidPredicateError("a top-N query on a container needs a 'field'")
        assert self.container is not None and isinstance(self.schema, RowType)
        dtype = self.schema.field(column).type if column in self.schema.names else None
        if dtype is None:
            raise InvalidPredicateError(f"unknown column {column!r}")
        for reader in self.container.readers_for(column, dtype):
            if hasattr(reader, "top_values"):
                return reader
        raise InvalidPredicateError(f"column {column!r} has no range-bitmap or bsi index for top-N")


def _query_list(doc: Any) -> list:
    """The list of queries in a ``--predicates-json`` document (a list, or a sidecar holding one)."""
    if isinstance(doc, dict):
        for key in ("queries", "predicates"):
            if isinstance(doc.get(key), list):
                return doc[key]
        raise InvalidPredicateError("--predicates-json must hold a JSON list of predicates")
    if not isinstance(doc, list):
        raise InvalidPredicateError("--predicates-json must hold a JSON list of predicates")
    return doc


def _answer(target: _Target, item: Any) -> FileIndexResult:
    if isinstance(item, dict) and str(item.get("op", "")).lower() in ("top_k", "bottom_k"):
        try:
            from ..fileindex.topn import answer_topn_query
        except ImportError as exc:
            raise InvalidPredicateError("top-N queries are not available in this build") from exc
        return answer_topn_query(target.topn_reader(item), item)
    if isinstance(item, str):
        return target.evaluate(parse_where(item))
    return target.evaluate(predicate_from_json(item, target.schema))


def run_queries(target: _Target, items: Sequence[Any], row_count: int | None, deleted: Any) -> list[dict]:
    out = []
    for item in items:
        result = _answer(target, item)
        if deleted is not None:
            result = apply_deletion_vector(result, row_count or 0, deleted)
        out.append(result_to_json(result))
    return out


def _load_positions(text: str) -> Any:
    doc = load_predicate_json(text)
    if isinstance(doc, list):
        doc = {"ranges": doc}
    if not isinstance(doc, dict):
        raise InvalidOptionError("--deleted must be a position set such as {\"ranges\": [[0, 3]]}")
    try:
        return positions_from_json(doc)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidOptionError(f"bad --deleted position set: {exc}") from exc


def _query_command(args: argparse.Namespace) -> int:
    deleted = None
    if args.deleted is not None:
        if args.row_count is None:
            raise InvalidOptionError("--deleted needs --row-count")
        deleted = _load_positions(args.deleted)
    if args.row_count is not None and args.row_count < 0:
        raise InvalidOptionError(f"--row-count must not be negative, got {args.row_count}")
    with ByteSource(args.file) as source:
        try:
            target = _Target(args, source)
            if args.predicates_json is not None:
                items = _query_list(load_predicate_json(args.predicates_json))
                results: Any = run_queries(target, items, args.row_count, deleted)
            else:
                item: Any = args.where if args.where is not None else load_predicate_json(args.predicate_json)
                results = run_queries(target, [item], args.row_count, deleted)[0]
        except PaimonCodecError as exc:
            raise exc.with_path(str(args.file)) from None
    if args.json:
        print_json(results)
    else:
        for obj in results if isinstance(results, list) else [results]:
            print(_result_text(obj))
    sys.stdout.flush()
    return 0
