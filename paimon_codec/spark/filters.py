"""Paimon predicates as Spark Column expressions (the residual filter of an index-aware scan)."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from ..errors import InvalidPredicateError
from ..types import RowType
from ..values import Timestamp

__all__ = ["to_spark_column", "spark_literal"]


def spark_literal(value: Any, root: str | None = None) -> Any:
    """A Python value Spark compares correctly with the column (DATE days -> date, Timestamp -> datetime)."""
    if isinstance(value, Timestamp):
        dt = value.to_datetime()
        if root == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
            return dt.replace(tzinfo=_dt.timezone.utc)
        return dt
    if root == "DATE" and isinstance(value, int) and not isinstance(value, bool):
        return _dt.date(1970, 1, 1) + _dt.timedelta(days=value)
    return value


def _lit(value: Any, root: str | None):
    from pyspark.sql import functions as F

    v = spark_literal(value, root)
    if isinstance(v, _dt.datetime) and root == "TIMESTAMP_WITHOUT_TIME_ZONE":
        return F.lit(v).cast("timestamp_ntz")
    return F.lit(v)


def to_spark_column(pred: Any, row_type: RowType):
    """The Spark Column for a predicate tree (``And`` / ``Or`` / ``Leaf``), SQL three-valued logic."""
    from pyspark.sql import functions as F

    children = getattr(pred, "children", None)
    if children is not None:
        cols = [to_spark_column(c, row_type) for c in children]
        is_and = type(pred).__name__ == "And"
        if not cols:
            return F.lit(True)
        out = cols[0]
        for c in cols[1:]:
            out = (out & c) if is_and else (out | c)
        return out
    name = pred.column
    if name is None:
        raise InvalidPredicateError("a table predicate needs column names")
    root = row_type.field(name).type.root
    c = F.col("`" + name.replace("`", "``") + "`")
    lits = [_lit(v, root) for v in pred.literals]
    op = pred.op
    if op == "eq":
        return c == lits[0]
    if op == "neq":
        return c != lits[0]
    if op == "lt":
        return c < lits[0]
    if op == "lte":
        return c <= lits[0]
    if op == "gt":
        return c > lits[0]
    if op == "gte":
        return c >= lits[0]
    if op == "between":
        return (c >= lits[0]) & (c <= lits[1])
    if op == "in":
        return c.isin(*lits)
    if op == "not_in":
        return ~c.isin(*lits)
    if op == "is_null":
        return c.isNull()
    if op == "is_not_null":
        return c.isNotNull()
    if op == "starts_with":
        return c.startswith(lits[0])
    if op == "ends_with":
        return c.endswith(lits[0])
    if op == "contains":
        return c.contains(lits[0])
    if op == "like":
        return c.like(pred.literals[0])
    raise InvalidPredicateError(f"operator {op!r} has no Spark form")
