"""Global indexes in scans of data-evolution tables: a predicate's leaves on indexed columns answered
from the B-tree / bitmap global-index files into the row ids that may match, so the planner reads only
the files and rows holding them (as Paimon's ``DataEvolutionBatchScan`` does with ``global-index.enabled``).

The answer is a *candidate* set over the table's row ids ``[0, next row id)``: a leaf answered by an index
gives its rows inside the ranges the index covers and every row outside them; a leaf no index answers
gives every row; AND intersects, OR unites.  The scan still filters the rows it reads with the
predicate, so the candidates only have to contain every matching row - which holds while the index
is current, as Paimon keeps it (``global-index.column-update-action`` THROW_ERROR / DROP_*).  With
``IGNORE`` an update may leave an index stale and Paimon would answer from it: such tables are read
without their global indexes (the data's answer), and the plan says so.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pyroaring import BitMap, BitMap64

from ..errors import InvalidPredicateError, UnsupportedTypeError
from ..expressions.leaves import (
    Between,
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNotNull,
    IsNull,
    LessThan,
    LessThanOrEqual,
    NotEqualTo,
    NotIn,
)
from ..expressions.predicate import And, Leaf, Or
from ..fileio import ByteSource
from .lookup import answer, shifted
from .table_files import GlobalIndexFile, global_index_files, open_reader

__all__ = ["GlobalIndexAnswer", "answer_predicate"]

log = logging.getLogger(__name__)

_OPS: dict[type, str] = {EqualTo: "equal", NotEqualTo: "not_equal", LessThan: "less_than",
                         LessThanOrEqual: "less_or_equal", GreaterThan: "greater_than",
                         GreaterThanOrEqual: "greater_or_equal", Between: "between", In: "in", NotIn: "not_in",
                         IsNull: "is_null", IsNotNull: "is_not_null"}
#: index types tried per column, in order (both answer exactly; the B-tree reads fewer bytes for ranges)
_PREFERENCE = ("btree", "bitmap")


@dataclass
class GlobalIndexAnswer:
    """Candidate row ids (absolute) of a predicate and what answering them read."""

    candidates: BitMap64
    universe: int  # row ids 0 .. universe - 1
    columns: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    bytes_read: int = 0

    def positions(self, first_row_id: int, row_count: int) -> BitMap | None:
        """Candidate positions of a file covering ``first_row_id ..`` (``None``: every row)."""
        end = first_row_id + row_count
        inside = self.candidates.range_cardinality(first_row_id, end)
        if inside == row_count:
            return None
        window = BitMap64()
        window.add_range(first_row_id, end)
        return BitMap(v - first_row_id for v in (self.candidates & window))

    def report(self) -> dict:
        return {"columns": self.columns, "files": self.files, "index_bytes_read": self.bytes_read,
                "candidate_rows": len(self.candidates), "rows": self.universe}


class _Evaluator:
    def __init__(self, files: list[GlobalIndexFile], schema: Any, universe: int) -> None:
        self.schema, self.universe = schema, universe
        self.by_field: dict[int, list[GlobalIndexFile]] = {}
        for f in files:
            if not f.extra_field_ids:  # multi-column indexes are not used here (the scan reads every row)
                self.by_field.setdefault(f.field_id, []).append(f)
        self.used_columns: list[str] = []
        self.used_files: list[str] = []
        self.bytes_read = 0
        self.all = BitMap64()
        self.all.add_range(0, universe)

    def visit(self, pred: Any) -> BitMap64 | None:
        """Candidates of ``pred`` (``None``: no index says anything)."""
        if isinstance(pred, And):
            parts = [p for p in (self.visit(c) for c in pred.children) if p is not None]
            if not parts:
                return None
            out = parts[0]
            for p in parts[1:]:
                out = out & p
            return out
        if isinstance(pred, Or):
            out = BitMap64()
            for c in pred.children:
                part = self.visit(c)
                if part is None:
                    return None
                out |= part
            return out if pred.children else None
        if isinstance(pred, Leaf):
            return self._leaf(pred)
        return None

    def _files_for(self, column: str) -> tuple[Any, list[GlobalIndexFile]] | None:
        fld = next((f for f in self.schema.fields if f.name == column), None)
        if fld is None:
            return None
        candidates = self.by_field.get(fld.id, [])
        for kind in _PREFERENCE:
            chosen = [f for f in candidates if f.index_type == kind]
            if chosen:
                return fld, chosen
        return None

    def _leaf(self, leaf: Leaf) -> BitMap64 | None:
        op = _OPS.get(type(leaf))
        if op is None or leaf.column is None or any(v is None for v in leaf.literals):
            return None
        found = self._files_for(leaf.column)
        if found is None:
            return None
        fld, files = found
        out = self.all.copy()
        for f in files:
            try:
                src = ByteSource(f.path, path=f.path)
                reader = open_reader(f, fld.type, src)
                lits = [reader.codec.literal(v) for v in leaf.literals]
            except (UnsupportedTypeError, InvalidPredicateError) as e:
                log.info("global index %s not used for %s: %s", f.file_name, leaf, e)
                return None
            with src:
                rows = answer(reader, op, lits)
                self.bytes_read += src.bytes_read
            covered = BitMap64()
            covered.add_range(f.row_start, f.row_end + 1)
            out = (out - covered) | shifted(rows, f.row_start)
            self.used_files.append(f.file_name)
        if fld.name not in self.used_columns:
            self.used_columns.append(fld.name)
        return out


def answer_predicate(table: Any, snapshot: Any, schema: Any, pred: Any,
                     data_files: Iterable[Any]) -> GlobalIndexAnswer | None:
    """The candidates of ``pred`` from the snapshot's global indexes, or ``None`` when no index helps
    (no predicate, ``global-index.enabled = false``, column-update-action IGNORE, no indexed leaf)."""
    if pred is None or snapshot is None:
        return None
    if not schema.option_bool("global-index.enabled", True):
        return None
    if str(schema.options.get("global-index.column-update-action", "THROW_ERROR")).upper() == "IGNORE":
        return None
    files = global_index_files(table, snapshot)
    if not files:
        return None
    universe = 0
    for f in data_files:
        if f.meta.first_row_id is not None:
            universe = max(universe, f.meta.first_row_id + f.row_count)
    ev = _Evaluator(files, schema, universe)
    candidates = ev.visit(pred)
    if candidates is None:
        return None
    return GlobalIndexAnswer(candidates & ev.all, universe, ev.used_columns, ev.used_files, ev.bytes_read)

