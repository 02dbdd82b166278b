"""Which predicates a file's indexes answer exactly: top-N is pushed down only under those, and a scan
reads such a file's selected rows without filtering them again.

A per-file top-N answer restricted to a predicate's found set is right only when the found set is
exactly the matching rows (an index answer is otherwise a superset: a bloom filter, a float key).
:func:`exact_answer` asks it of one evaluated file, reader by reader (see there).
"""

from __future__ import annotations

from typing import Any

from ...expressions import leaves
from ...expressions.predicate import And, Leaf, Or
from ...fileindex.ask_reader import ask
from ...fileindex.evaluate import kept_askers
from ...fileindex.result import BitmapResult
from ...types import DataType, RowType
from ...values import Timestamp

__all__ = ["FLOATS", "answered_exactly", "exact_answer", "keys_exact"]

#: leaves a range-bitmap / bitmap index answers with exactly the matching rows (others: a superset)
_RANGE_EXACT: tuple[type[Leaf], ...] = (
    leaves.EqualTo, leaves.NotEqualTo, leaves.LessThan, leaves.LessThanOrEqual, leaves.GreaterThan,
    leaves.GreaterThanOrEqual, leaves.Between, leaves.In, leaves.NotIn, leaves.IsNull, leaves.IsNotNull)
_BITMAP_EXACT: tuple[type[Leaf], ...] = (leaves.EqualTo, leaves.In, leaves.IsNull, leaves.IsNotNull)
FLOATS = {"FLOAT", "DOUBLE"}


def keys_exact(dtype) -> bool:
    """Index keys equal SQL values: no float (-0.0 vs 0.0) and no timestamp finer than micros."""
    if dtype.root in FLOATS:
        return False
    return not (dtype.is_timestamp and (dtype.precision or 6) > 6)


def _finer_than_key(value: Any, dtype: DataType) -> bool:
    """A TIMESTAMP literal finer than the index key (millis for p <= 3, micros above): the range bitmap answers
    ``>`` / ``>=`` / ``=`` / ``IN`` / BETWEEN on its floored key, a superset holding rows that do not match -
    review finding: counted exact, ``ts > t + 0.5 ms ORDER BY ts LIMIT 1`` took each file's best row from that
    superset (the row at ``t``, dropped later) and returned a row of another file instead of ``t + 1 ms``."""
    if not isinstance(value, Timestamp):
        return False
    unit = 1_000_000 if (dtype.precision if dtype.precision is not None else 6) <= 3 else 1000
    return value.nanos_of_milli % unit != 0


def answered_exactly(pred: Any, index_types_of, row_type: RowType) -> bool:
    """True when the file's indexes answer ``pred`` with exactly the matching rows (not a superset)."""
    children = getattr(pred, "children", None)
    if children is not None:  # an empty AND / OR stands for a leaf no index may answer (index_schema)
        return bool(children) and all(answered_exactly(c, index_types_of, row_type) for c in children)
    column = getattr(pred, "column", None)
    if column is None or column not in row_type.names or any(v is None for v in pred.literals):
        return False
    dtype = row_type.field(column).type
    if not keys_exact(dtype) or any(_finer_than_key(v, dtype) for v in pred.literals):
        return False
    types = index_types_of(column)
    return ("range-bitmap" in types and isinstance(pred, _RANGE_EXACT)) or \
        ("bitmap" in types and isinstance(pred, _BITMAP_EXACT))


#: index type -> the leaves whose bitmap answer is exactly the matching rows (from :data:`_RANGE_EXACT` /
#: :data:`_BITMAP_EXACT`; a bloom filter never answers with a bitmap)
_EXACT_BY_TYPE: dict[str, tuple[type[Leaf], ...]] = {"range-bitmap": _RANGE_EXACT, "bitmap": _BITMAP_EXACT}


#: (leaf, row type, index types of its column) by identity -> :func:`answered_exactly`: a planner asks it of every
#: file of a scan, the same bound leaf and row type each time and the same index kinds in most files
_KINDS_EXACT: dict[tuple[int, int, tuple[str, ...]], tuple[Leaf, RowType, bool]] = {}


def _kinds_exact(leaf: Leaf, types: tuple[str, ...], row_type: RowType) -> bool:
    key = (id(leaf), id(row_type), types)
    hit = _KINDS_EXACT.get(key)
    if hit is not None and hit[0] is leaf and hit[1] is row_type:
        return hit[2]
    exact = answered_exactly(leaf, lambda _column: types, row_type)
    if len(_KINDS_EXACT) > 256:
        _KINDS_EXACT.clear()
    _KINDS_EXACT[key] = (leaf, row_type, exact)  # holds both: their ids cannot be reused while cached
    return exact


def _leaf_exact(leaf: Leaf, container: Any, row_type: RowType) -> bool:
    """One bound leaf: some index of its column answers it with exactly the matching rows - a reader of an
    exact kind for the leaf answering with a bitmap, or any reader answering SKIP (no row matches)."""
    column = leaf.column
    if column is None:
        return False
    types = tuple(container.index_types(column))
    if not _kinds_exact(leaf, types, row_type):  # by its indexes' kinds
        return False
    dtype = row_type.field(column).type
    # the readers the evaluation kept on the container: asking again re-reads no index byte
    for index_type, asker in zip(types, kept_askers(container, column, dtype), strict=True):
        answer = ask(asker, leaf, dtype)
        # the kind first: a lazy bitmap answer need not be computed again to be known exact
        if isinstance(answer, BitmapResult) and isinstance(leaf, _EXACT_BY_TYPE.get(index_type, ())):
            return True
        if not answer.remain():
            return True
    return False


def exact_answer(pred: Any, container: Any, row_type: RowType) -> bool:
    """True when evaluating ``pred`` against this file's index ``container`` (``row_type``: the file's schema,
    the one it was evaluated with) gave exactly the rows that match, so the rows it selects need no filter.

    Every leaf must be answered exactly by an index of its column (:func:`_leaf_exact`, asked again reader by
    reader: a leaf a bitmap index answered REMAIN - an unreadable literal, an operator it does not take -
    would otherwise hide inside an AND as a superset); AND and OR of exact answers are exact.  An empty AND /
    OR is not (it stands for a leaf no index may answer).
    """
    bound = pred.bind(row_type)

    def walk(p: Any) -> bool:
        if isinstance(p, (And, Or)):
            return bool(p.children) and all(walk(c) for c in p.children)
        return isinstance(p, Leaf) and _leaf_exact(p, container, row_type)

    return walk(bound)
