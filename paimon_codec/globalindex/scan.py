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
from .btree import BTreeGlobalIndexReader
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
#: a leaf whose answer is estimated to hold more than this share of the rows its files cover is not
#: answered from the index: it would prune little, and walking most keys costs more than it saves
MAX_CANDIDATE_SHARE = 0.5
_NEGATIVE = ("not_equal", "not_in", "is_not_null")
#: column types whose B-tree keys equal exactly the SQL values a read compares (no float zeros / NaN, no CHAR
#: padding, no timestamp rounding): a B-tree's equality / IN answer on them is exactly the matching rows
_EXACT_ROOTS = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "BOOLEAN", "VARCHAR", "DATE", "DECIMAL"})  # answered as every non-null row but a few keys
_BOUNDS = {"less_than": lambda a: (None, True, a[0], False), "less_or_equal": lambda a: (None, True, a[0], True),
           "greater_than": lambda a: (a[0], False, None, True), "greater_or_equal": lambda a: (a[0], True, None, True),
           "between": lambda a: (a[0], True, a[1], True)}


def _spark_zeros(op: str, literals: list[Any]) -> tuple[str, list[Any]]:
    """A float leaf's operator and literals widened so that the index, ordering floats by ``Float.compare``
    (``-0.0 < 0.0``), keeps every row Spark SQL's comparison (``-0.0 = 0.0``) keeps: an equal / IN zero
    also asks for the other zero, an inclusive lower zero bound becomes -0.0, an inclusive upper one 0.0.
    (The other operators already answer a superset: strict bounds and negations drop fewer rows.)"""
    def zero(x: Any) -> bool:
        return isinstance(x, float) and x == 0.0

    if op in ("equal", "in") and any(zero(x) for x in literals):
        return "in", [*(x for x in literals if not zero(x)), -0.0, 0.0]
    if op == "greater_or_equal" and zero(literals[0]):
        return op, [-0.0]
    if op == "less_or_equal" and zero(literals[0]):
        return op, [0.0]
    if op == "between":
        return op, [-0.0 if zero(literals[0]) else literals[0], 0.0 if zero(literals[1]) else literals[1]]
    return op, literals


def _estimated_share(reader: Any, op: str, literals: list[Any], rows: int) -> float | None:
    """The share of a file's ``rows`` a leaf is estimated to select, from what is cheap to read: the null
    bitmap for the negative operators (their answer is the non-null rows but a few keys'), the B-tree's
    index block and the blocks holding the bounds for ranges (``range_share``).  ``None``: a selective
    operator (equality, IN, IS NULL) or no estimate (ranges on a bitmap index)."""
    if op in _NEGATIVE:
        return max(0.0, 1.0 - len(reader.null_rows()) / max(rows, 1))
    if op in _BOUNDS and isinstance(reader, BTreeGlobalIndexReader):
        return float(reader.range_share(*_BOUNDS[op](literals)))
    return None


@dataclass
class GlobalIndexAnswer:
    """Candidate row ids (absolute) of a predicate and what answering them read; ``candidates`` is
    ``None`` when no leaf was answered (``decisions`` say why, per leaf)."""

    candidates: BitMap64 | None
    universe: int  # row ids 0 .. universe - 1
    columns: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    bytes_read: int = 0
    decisions: list[str] = field(default_factory=list)
    #: row ids where ``candidates`` are exactly the rows matching the predicate (see ``exact_for``)
    exact_rows: BitMap64 = field(default_factory=BitMap64)

    def exact_for(self, first_row_id: int, row_count: int) -> bool:
        """Whether the candidates of a file covering ``first_row_id ..`` are exactly its matching rows:
        every leaf of the predicate is a B-tree equality / IN on a column of ``_EXACT_ROOTS`` whose
        index files cover the whole range (kept current by Paimon: the scan does not use indexes that
        ``IGNORE`` updates)."""
        return row_count > 0 and self.candidates is not None and \
            self.exact_rows.range_cardinality(first_row_id, first_row_id + row_count) == row_count

    def positions(self, first_row_id: int, row_count: int) -> BitMap | None:
        """Candidate positions of a file covering ``first_row_id ..`` (``None``: every row)."""
        if self.candidates is None:
            return None
        end = first_row_id + row_count
        inside = self.candidates.range_cardinality(first_row_id, end)
        if inside == row_count:
            return None
        window = BitMap64()
        window.add_range(first_row_id, end)
        return BitMap(v - first_row_id for v in (self.candidates & window))

    def report(self) -> dict:
        return {"used": self.candidates is not None, "columns": self.columns, "files": self.files,
                "index_bytes_read": self.bytes_read,
                "candidate_rows": self.universe if self.candidates is None else len(self.candidates),
                "rows": self.universe, "exact_rows": len(self.exact_rows), "decisions": self.decisions}


class _Evaluator:
    def __init__(self, files: list[GlobalIndexFile], schema: Any, universe: int, semantics: str = "paimon") -> None:
        self.schema, self.universe, self.semantics = schema, universe, semantics
        self.by_field: dict[int, list[GlobalIndexFile]] = {}
        for f in files:
            if not f.extra_field_ids:  # multi-column indexes are not used here (the scan reads every row)
                self.by_field.setdefault(f.field_id, []).append(f)
        self.used_columns: list[str] = []
        self.used_files: list[str] = []
        self.bytes_read = 0
        self.decisions: list[str] = []
        self.exact: dict[int, BitMap64] = {}  # id(leaf) -> row ids its answer is exact on
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

    def exact_rows(self, pred: Any) -> BitMap64:
        """Row ids where every leaf of ``pred`` was answered exactly (AND and OR alike: all children)."""
        if isinstance(pred, (And, Or)):
            parts = [self.exact_rows(c) for c in pred.children]
            if not parts:
                return BitMap64()
            out = parts[0]
            for p in parts[1:]:
                out = out & p
            return out
        return self.exact.get(id(pred), BitMap64())

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

    def _close(self, opened: list[tuple[GlobalIndexFile, ByteSource, Any, list[Any]]]) -> None:
        """Close the sources of a leaf left unanswered, counting what deciding so read."""
        for _f, src, _reader, _lits in opened:
            self.bytes_read += src.bytes_read
            src.close()

    def _leaf(self, leaf: Leaf) -> BitMap64 | None:
        op = _OPS.get(type(leaf))
        if op is None or leaf.column is None or any(v is None for v in leaf.literals):
            self.decisions.append(f"{leaf}: not used - no global-index operator")
            return None
        found = self._files_for(leaf.column)
        if found is None:
            self.decisions.append(f"{leaf}: not used - no single-column global index on {leaf.column}")
            return None
        fld, files = found
        if self.semantics == "spark" and fld.type.root in ("FLOAT", "DOUBLE"):
            op, spark_lits = _spark_zeros(op, list(leaf.literals))
        else:
            spark_lits = list(leaf.literals)
        opened: list[tuple[GlobalIndexFile, ByteSource, Any, list[Any]]] = []
        estimated: list[tuple[float, int]] = []  # (share, rows) of the files with an estimate
        for f in files:
            src = ByteSource(f.path, path=f.path)
            try:
                reader = open_reader(f, fld.type, src)
                if op not in getattr(reader, "OPERATORS", (op,)):
                    raise UnsupportedTypeError(f"{f.index_type} global index {f.file_name} does not answer {op}")
                lits = [reader.codec.literal(v) for v in spark_lits]
            except (UnsupportedTypeError, InvalidPredicateError) as e:
                log.info("global index %s not used for %s: %s", f.file_name, leaf, e)
                self.decisions.append(f"{leaf}: not used - {e}")
                self._close([*opened, (f, src, None, [])])
                return None
            rows = f.row_end - f.row_start + 1
            share = _estimated_share(reader, op, lits, rows)
            if share is not None:
                estimated.append((share, rows))
            opened.append((f, src, reader, lits))
        if len(estimated) == len(opened) and estimated:
            covered_rows = sum(r for _, r in estimated)
            share = sum(sh * r for sh, r in estimated) / max(covered_rows, 1)
            if share > MAX_CANDIDATE_SHARE:
                self.decisions.append(f"{leaf}: not used - about {share:.0%} of the {covered_rows} indexed rows would "
                                      f"match (> {MAX_CANDIDATE_SHARE:.0%}): the index would prune little")
                self._close(opened)
                return None
            self.decisions.append(f"{leaf}: used - about {share:.0%} of the {covered_rows} indexed rows match")
        else:
            self.decisions.append(f"{leaf}: used - {op.replace('_', ' ')} selects few keys or has no estimate")
        out = self.all.copy()
        exact = op in ("equal", "in") and fld.type.root in _EXACT_ROOTS and \
            all(isinstance(reader, BTreeGlobalIndexReader) for _f, _s, reader, _l in opened)
        exact_rows = BitMap64()
        for f, src, reader, lits in opened:
            with src:
                found_rows = answer(reader, op, lits)
                self.bytes_read += src.bytes_read
            covered = BitMap64()
            covered.add_range(f.row_start, f.row_end + 1)
            out = (out - covered) | shifted(found_rows, f.row_start)
            if exact:
                exact_rows |= covered
            self.used_files.append(f.file_name)
        self.exact[id(leaf)] = exact_rows
        if fld.name not in self.used_columns:
            self.used_columns.append(fld.name)
        return out


def answer_predicate(table: Any, snapshot: Any, schema: Any, pred: Any,
                     data_files: Iterable[Any], semantics: str = "paimon") -> GlobalIndexAnswer | None:
    """The candidates of ``pred`` from the snapshot's global indexes (``candidates`` None when no leaf is
    answered - no indexed leaf, or one whose answer would hold most rows: ``decisions`` say which), or
    ``None`` when the indexes are not consulted (no predicate, ``global-index.enabled = false``,
    column-update-action IGNORE, no global-index file).  ``semantics``: whose float comparison the scan's
    filter follows (``expressions.semantics``); the candidates keep every row it keeps."""
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
    ev = _Evaluator(files, schema, universe, semantics)
    candidates = ev.visit(pred)
    return GlobalIndexAnswer(None if candidates is None else candidates & ev.all, universe, ev.used_columns,
                             ev.used_files, ev.bytes_read, ev.decisions, ev.exact_rows(pred) & ev.all)

