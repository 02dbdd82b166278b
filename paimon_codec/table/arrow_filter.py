"""Predicates as exact row filters over Arrow tables, with the SQL semantics Spark applies.

Index answers are supersets; whoever reads rows must still apply the predicate.  Spark does that in
:func:`paimon_codec.spark.scan`; this module does the same for reads without Spark, so both give the
same rows:

* three-valued logic: a comparison with NULL is unknown, and unknown rows are dropped;
  ``x NOT IN (..., NULL)`` is never true;
* FLOAT / DOUBLE as Spark compares them: ``-0.0 = 0.0``, ``NaN = NaN``, and NaN sorts above every
  other value (``x > 1`` holds for NaN).
"""

from __future__ import annotations

import decimal
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InvalidPredicateError
from ..types import DataType, RowType
from ..values import Timestamp

__all__ = ["filter_table", "to_arrow_expression"]

_FLOATS = ("FLOAT", "DOUBLE")


def _scalar(value: Any, dtype: DataType, atype: pa.DataType) -> pa.Scalar:
    if isinstance(value, Timestamp):
        unit = atype.unit if pa.types.is_timestamp(atype) else "us"
        raw = value.to_nanos() if unit == "ns" else value.to_micros()
        return pa.scalar(raw, pa.int64()).cast(atype)
    if dtype.root == "DATE" and isinstance(value, int) and not isinstance(value, bool):
        return pa.scalar(value, pa.int32()).cast(pa.date32())
    if isinstance(value, decimal.Decimal) and pa.types.is_decimal(atype):
        return pa.scalar(value, atype)
    return pa.scalar(value).cast(atype) if not pa.types.is_string(atype) or isinstance(value, str) \
        else pa.scalar(str(value))


def _float_compare(op: str, c: pc.Expression, lit: float) -> pc.Expression:
    """Spark's float comparisons: NaN equals NaN and is above everything; -0.0 equals 0.0 (IEEE)."""
    nan = pc.is_nan(c)
    if lit != lit:  # NaN literal
        return {"eq": nan, "neq": ~nan, "lt": ~nan, "lte": c.is_valid(), "gt": pc.scalar(False) & c.is_valid(),
                "gte": nan}[op]
    plain = {"eq": c == lit, "neq": c != lit, "lt": c < lit, "lte": c <= lit, "gt": c > lit, "gte": c >= lit}[op]
    if op in ("gt", "gte"):
        return plain | nan
    if op == "neq":
        return plain | nan
    return plain


def _leaf(pred: Any, row_type: RowType) -> pc.Expression:
    from .read import arrow_type

    name = pred.column
    if name is None or name not in row_type.names:
        raise InvalidPredicateError(f"predicate names unknown column {name!r}")
    dtype = row_type.field(name).type
    atype = arrow_type(dtype)
    c = pc.field(name)
    op = pred.op
    if op == "is_null":
        return c.is_null()
    if op == "is_not_null":
        return c.is_valid()
    lits = list(pred.literals)
    floats = dtype.root in _FLOATS
    if op in ("in", "not_in"):
        values = [v for v in lits if v is not None]
        if floats:
            hits = [_float_compare("eq", c, float(v)) for v in values]
            any_hit = hits[0] if hits else pc.scalar(False)
            for h in hits[1:]:
                any_hit = any_hit | h
        else:
            arr = pa.array([_scalar(v, dtype, atype).as_py() for v in values], atype) if values \
                else pa.array([], atype)
            any_hit = pc.is_in(c, value_set=arr)
        if op == "in":
            return any_hit & c.is_valid()
        if len(values) != len(lits):  # NOT IN with a NULL literal is never true
            return pc.scalar(False) & c.is_valid()
        return ~any_hit & c.is_valid()
    if any(v is None for v in lits):
        return pc.scalar(False) & c.is_valid()  # comparison with NULL: unknown, never selected
    if op == "between":
        lo, hi = lits
        return _leaf(type(pred)("gte", name, (lo,)), row_type) & _leaf(type(pred)("lte", name, (hi,)), row_type)
    if op in ("eq", "neq", "lt", "lte", "gt", "gte"):
        if floats:
            return _float_compare(op, c, float(lits[0]))
        s = _scalar(lits[0], dtype, atype)
        return {"eq": c == s, "neq": c != s, "lt": c < s, "lte": c <= s, "gt": c > s, "gte": c >= s}[op]
    if op in ("starts_with", "ends_with", "contains"):
        fn = {"starts_with": "starts_with", "ends_with": "ends_with", "contains": "match_substring"}[op]
        return pc.Expression._call(fn, [c], pc.MatchSubstringOptions(str(lits[0])))
    if op == "like":
        return pc.Expression._call("match_like", [c], pc.MatchSubstringOptions(str(lits[0])))
    raise InvalidPredicateError(f"operator {op!r} has no Arrow form")


def to_arrow_expression(pred: Any, row_type: RowType) -> pc.Expression:
    """The Arrow expression selecting exactly the rows for which ``pred`` is TRUE."""
    children = getattr(pred, "children", None)
    if children is None:
        return _leaf(pred, row_type)
    exprs = [to_arrow_expression(c, row_type) for c in children]
    is_and = type(pred).__name__ == "And"
    if not exprs:
        return pc.scalar(is_and)
    out = exprs[0]
    for e in exprs[1:]:
        out = (out & e) if is_and else (out | e)
    return out


def filter_table(table: pa.Table, pred: Any, row_type: RowType) -> pa.Table:
    """Rows of ``table`` for which ``pred`` is TRUE (``None``: every row)."""
    if pred is None:
        return table
    return table.filter(to_arrow_expression(pred, row_type))
