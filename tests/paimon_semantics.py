"""Reference row filters for tests: Paimon's own predicate semantics, Spark SQL's and IEEE's.

Paimon's ``LeafFunction``s compare with ``compareTo`` (``Double.compare`` for floats: -0.0 < 0.0,
NaN equal to itself and above +inf); Spark SQL has -0.0 = 0.0 (NaN = NaN, NaN largest); IEEE (Arrow
compute) has -0.0 = 0.0 and NaN unordered.  All use SQL three-valued logic (a NULL value never
satisfies a comparison).  Rows are compared with :mod:`oracles.compare`.
"""

from __future__ import annotations

import math
from typing import Any

from paimon_codec.expressions import And, Leaf, Or


def paimon_compare(a: Any, b: Any) -> int:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) - math.isnan(b)
        if a == b == 0.0:
            return (math.copysign(1, a) > 0) - (math.copysign(1, b) > 0)
    return (a > b) - (a < b)


def spark_compare(a: Any, b: Any) -> int:
    if isinstance(a, float) and isinstance(b, float) and (math.isnan(a) or math.isnan(b)):
        return math.isnan(a) - math.isnan(b)
    return (a > b) - (a < b)


def ieee_compare(a: Any, b: Any) -> float:
    """IEEE 754 comparison: NaN is unordered (returns NaN: every ordering test fails, ``<>`` holds)."""
    if isinstance(a, float) and isinstance(b, float) and (math.isnan(a) or math.isnan(b)):
        return math.nan
    return (a > b) - (a < b)


def selects(pred: Any, row: dict, compare=paimon_compare) -> bool | None:
    """True / False / None (unknown) for one row (a dict of column -> value)."""
    if isinstance(pred, And):
        vals = [selects(c, row, compare) for c in pred.children]
        return False if False in vals else (None if None in vals else True)
    if isinstance(pred, Or):
        vals = [selects(c, row, compare) for c in pred.children]
        return True if True in vals else (None if None in vals else False)
    assert isinstance(pred, Leaf)
    v = row[pred.column]
    op, lits = pred.op, pred.literals
    if op == "is_null":
        return v is None
    if op == "is_not_null":
        return v is not None
    if v is None:
        return None
    if op in ("in", "not_in"):
        hit = any(lit is not None and compare(v, lit) == 0 for lit in lits)
        if op == "in":
            return True if hit else (None if None in lits else False)
        return False if hit else (None if None in lits else True)
    if op == "between":
        return compare(v, lits[0]) >= 0 and compare(v, lits[1]) <= 0
    c = compare(v, lits[0])
    return {"eq": c == 0, "neq": c != 0, "lt": c < 0, "lte": c <= 0, "gt": c > 0, "gte": c >= 0}[op]


def filter_rows(rows: list[dict], pred: Any, compare=paimon_compare) -> list[dict]:
    return [r for r in rows if pred is None or selects(pred, r, compare) is True]
