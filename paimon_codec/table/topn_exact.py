"""Which predicates a file's indexes answer exactly: top-N is pushed down only under those.

A per-file top-N answer restricted to a predicate's found set is right only when the found set is
exactly the matching rows (an index answer is otherwise a superset: a bloom filter, a float key).
"""

from __future__ import annotations

from typing import Any

from ..expressions import leaves
from ..expressions.predicate import Leaf
from ..types import DataType, RowType
from ..values import Timestamp

__all__ = ["FLOATS", "answered_exactly", "keys_exact"]

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
