"""Reference row filters for tests (Paimon's own predicate semantics and Spark SQL's) and bit-exact row
comparison (-0.0 is not 0.0, NaN equals NaN).

Paimon's ``LeafFunction``s compare with ``compareTo`` (``Double.compare`` for floats: -0.0 < 0.0,
NaN equal to itself and above +inf); Spark SQL has -0.0 = 0.0 (NaN = NaN, NaN largest).  Both use
SQL three-valued logic (a NULL value never satisfies a comparison).
"""

from __future__ import annotations

import math
from typing import Any

from paimon_codec.fileindex.predicate import And, Leaf, Or


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


def same_value(a: Any, b: Any) -> bool:
    """Equality that tells -0.0 from 0.0 and NaN equal to NaN (rows compared bit for bit)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def row_key(row: list[Any]) -> tuple:
    """A sort key for rows holding None / NaN / -0.0."""
    out = []
    for v in row:
        if v is None:
            out.append((0, 0))
        elif isinstance(v, float):
            out.append((1, "nan" if math.isnan(v) else (v, math.copysign(1, v))))
        else:
            out.append((1, v))
    return tuple(str(x) for x in out)
