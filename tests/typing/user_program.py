"""A user's program against the public API of paimon-codec, as the docs tell users to write it.

``tests/test_public_typing.py`` type-checks it with ``mypy --strict`` (every ``assert_type`` must hold: a
public name that turns ``Any`` - a lazy export, an untyped return - fails it; every ``# type: ignore`` below
must still be needed, so a mode argument that stops being checked fails it too) and then runs it on a
fresh warehouse: ``python user_program.py <directory>``.
"""

from __future__ import annotations

import os
import sys

import pyarrow as pa
from typing_extensions import assert_type

from paimon_codec import (
    CommitConflictError,
    CommitKind,
    DataError,
    InvalidPredicateError,
    PaimonCodecError,
    Semantics,
    StorageError,
    UnsupportedFeatureError,
)
from paimon_codec.expressions import Predicate, col, parse_where
from paimon_codec.fileindex import FileIndexContainerReader, FileIndexResult, FileIndexWriter, evaluate
from paimon_codec.planning import PlanReport, ScanPlan, plan_scan
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.types import RowType, parse_row_type
from paimon_codec.writing import append_arrow, create_table
from paimon_codec.writing.commit import CommitResult, FileChange, commit_changes


def make_table(warehouse: str) -> str:
    """An append table of orders with a bitmap index on ``status``, two commits."""
    path = create_table(os.path.join(warehouse, "shop.db", "orders"),
                        pa.schema([("id", pa.int64()), ("status", pa.string()), ("amount", pa.float64())]),
                        {"bucket": "-1", "file-index.bitmap.columns": "status"})
    for first in (0, 100):
        ids = list(range(first, first + 100))
        result = append_arrow(path, pa.table({"id": ids, "status": ["NEW" if i % 10 == 0 else "PAID" for i in ids],
                                              "amount": [float(i) for i in ids]}))
        assert_type(result, CommitResult)
        assert result.snapshot_id is not None
    return path


def plan_and_read(path: str) -> pa.Table:
    """Plan with a predicate from the expression builder, then read exactly Paimon's rows."""
    table = PaimonTable(path)
    where = (col("status") == "NEW") & (col("amount") >= 50.0)
    assert_type(where, Predicate)
    plan = plan_scan(table, where, order_by=("amount", "desc"), limit=5, semantics=Semantics.PAIMON)
    assert_type(plan, ScanPlan)
    assert_type(plan.report, PlanReport)
    report: dict[str, object] = plan.report.to_dict()
    assert report["semantics"] == "paimon" and isinstance(plan.report.to_json(), str)
    rows = read_table(path, where, order_by=["amount DESC"], limit=5)
    assert_type(rows, pa.Table)
    assert rows.column("id").to_pylist() == [190, 180, 170, 160, 150], rows
    text_rows = read_table(path, "status = 'NEW' AND amount >= 50", semantics="paimon")
    assert text_rows.num_rows == 15
    return rows


def index_one_file(rows: pa.Table) -> FileIndexResult:
    """Write a file-index container for some rows and ask it a question, as a data file's index."""
    schema = parse_row_type("id BIGINT, status STRING, amount DOUBLE")
    assert_type(schema, RowType)
    writer = FileIndexWriter(schema, {"file-index.bitmap.columns": "status"})
    assert_type(writer, FileIndexWriter)
    writer.write_table(rows)
    container = FileIndexContainerReader(writer.serialize())
    assert_type(container, FileIndexContainerReader)
    result = evaluate(parse_where("status = 'PAID'"), container, schema)
    assert_type(result, FileIndexResult)
    assert not result.remain(), result.to_dict()  # no row of these is PAID
    return result


def refusals(path: str, warehouse: str) -> list[str]:
    """Errors a program catches by kind: a bad predicate, a missing table, a commit conflict."""
    seen: list[str] = []
    try:
        read_table(path, "no_such_column = 1")
    except InvalidPredicateError as exc:  # a usage error: also a ValueError
        assert isinstance(exc, ValueError)
        seen.append("predicate")
    try:
        PaimonTable(os.path.join(warehouse, "shop.db", "missing")).data_files()
    except (DataError, StorageError) as exc:
        seen.append(type(exc).__name__)
    live = PaimonTable(path).data_files()[0]
    gone = FileChange.delete_entry(live.entry)
    commit_changes(path, [gone], kind=CommitKind.APPEND)
    try:
        commit_changes(path, [gone], kind="APPEND")  # that file is no longer live: nothing is committed
    except CommitConflictError as exc:
        assert not isinstance(exc, ValueError)
        seen.append("conflict")
    except (UnsupportedFeatureError, PaimonCodecError):
        raise
    return seen


def _misuse(path: str) -> None:
    """Never run: each line must stay a type error (mypy reports an unneeded ignore)."""
    commit_changes(path, [], kind="OVERWRTE")  # type: ignore[arg-type]  # misspelt CommitKind
    read_table(path, None, semantics="java")  # type: ignore[arg-type]  # not a Semantics
    read_table(path, 42)  # type: ignore[arg-type]  # an int is not a predicate


def main(warehouse: str) -> int:
    path = make_table(warehouse)
    rows = plan_and_read(path)
    index_one_file(rows)
    seen = refusals(path, warehouse)
    assert seen[0] == "predicate" and seen[-1] == "conflict", seen
    print("ok", len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
