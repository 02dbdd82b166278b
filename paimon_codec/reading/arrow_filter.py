"""Predicates as exact row filters over Arrow tables, under Paimon's or Spark's comparison semantics.

Index answers are supersets; whoever reads rows must still apply the predicate.  Spark does that in
:func:`paimon_codec.spark.scan`; this module does the same for reads without Spark (and for the rows a
Spark scan reads with pyarrow), so both give the same rows:

* three-valued logic: a comparison with NULL is unknown, and unknown rows are dropped;
  ``x NOT IN (..., NULL)`` is never true;
* FLOAT / DOUBLE as ``semantics`` compares them (:mod:`paimon_codec.expressions.semantics`): ``NaN = NaN``
  and NaN above every other value (``x > 1`` holds for NaN) in both; ``-0.0 = 0.0`` under ``"spark"``,
  ``-0.0 < 0.0`` under ``"paimon"`` (``Double.compare``, what Paimon's ``Predicate.test`` keeps);
* LIKE's ``_`` matches no line terminator, as in Paimon (Arrow's own LIKE lets it match ``\\n``);
* a TIMESTAMP literal finer than the column's Arrow unit (nanoseconds on a microsecond column) exactly, as
  Paimon's ``Timestamp`` comparison does: no value equals it, and it lies strictly between two values.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InvalidPredicateError
from ..expressions import leaves
from ..expressions.predicate import And, Leaf, Or
from ..expressions.semantics import SemanticsLike, SemanticsName, check_semantics
from ..expressions.visitor import PredicateVisitor, visit
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


def _finer_than_unit(value: Any, atype: pa.DataType) -> bool:
    """A TIMESTAMP literal with nanoseconds a microsecond column cannot hold (:func:`_scalar` floors it)."""
    return isinstance(value, Timestamp) and pa.types.is_timestamp(atype) and atype.unit != "ns" \
        and value.nanos_of_milli % 1000 != 0


def _signed_zero(c: pc.Expression, negative: bool) -> pc.Expression:
    """The column holds the zero of that sign (``1 / -0.0`` is ``-inf``, ``1 / 0.0`` is ``inf``)."""
    below = pc.divide(pc.scalar(1.0), c) < 0
    return (c == 0.0) & (below if negative else ~below)


def _paimon_zero_compare(op: str, c: pc.Expression, negative: bool) -> pc.Expression:
    """``c op ±0.0`` in ``Double.compare``'s order: ``... < -0.0 < 0.0 < ... < NaN``."""
    eq = _signed_zero(c, negative)
    lt = (c < 0.0) if negative else ((c < 0.0) | _signed_zero(c, True))
    gt = (c > 0.0) | pc.is_nan(c)
    if negative:
        gt = gt | _signed_zero(c, False)
    return {"eq": eq, "neq": ~eq, "lt": lt, "lte": lt | eq, "gt": gt, "gte": gt | eq}[op]


def _float_compare(op: str, c: pc.Expression, lit: float, semantics: SemanticsName) -> pc.Expression:
    """Float comparisons: NaN equals NaN and is above everything (both semantics); ``-0.0`` equals ``0.0``
    under ``"spark"`` (IEEE), is below it under ``"paimon"``."""
    nan = pc.is_nan(c)
    if lit != lit:  # NaN literal
        return {"eq": nan, "neq": ~nan, "lt": ~nan, "lte": c.is_valid(), "gt": pc.scalar(False) & c.is_valid(),
                "gte": nan}[op]
    if semantics == "paimon" and lit == 0.0:
        return _paimon_zero_compare(op, c, math.copysign(1.0, lit) < 0)
    plain = {"eq": c == lit, "neq": c != lit, "lt": c < lit, "lte": c <= lit, "gt": c > lit, "gte": c >= lit}[op]
    if op in ("gt", "gte"):
        return plain | nan
    if op == "neq":
        return plain | nan
    return plain


class _ArrowFilter(PredicateVisitor[pc.Expression]):
    """The Arrow expression of each operator, under SQL's three-valued logic and ``semantics``' float order."""

    def __init__(self, row_type: RowType, semantics: SemanticsLike) -> None:
        self.row_type = row_type
        self.semantics = check_semantics(semantics)

    def _column(self, leaf: Leaf) -> tuple[pc.Expression, DataType, pa.DataType]:
        from .read import arrow_type

        name = leaf.column
        if name is None or name not in self.row_type.names:
            raise InvalidPredicateError(f"predicate names unknown column {name!r}")
        dtype = self.row_type.field(name).type
        return pc.field(name), dtype, arrow_type(dtype)

    def _compare(self, leaf: Leaf, op: str) -> pc.Expression:
        c, dtype, atype = self._column(leaf)
        lit = leaf.literal
        if lit is None:
            return pc.scalar(False) & c.is_valid()  # comparison with NULL: unknown, never selected
        if dtype.root in _FLOATS:
            return _float_compare(op, c, float(lit), self.semantics)
        s = _scalar(lit, dtype, atype)
        if _finer_than_unit(lit, atype):  # s is the literal floored: floor < literal < floor + 1 unit
            return {"eq": pc.scalar(False) & c.is_valid(), "neq": c.is_valid(), "lt": c <= s, "lte": c <= s,
                    "gt": c > s, "gte": c > s}[op]
        return {"eq": c == s, "neq": c != s, "lt": c < s, "lte": c <= s, "gt": c > s, "gte": c >= s}[op]

    def visit_equal_to(self, leaf: leaves.EqualTo) -> pc.Expression:
        return self._compare(leaf, "eq")

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> pc.Expression:
        return self._compare(leaf, "neq")

    def visit_less_than(self, leaf: leaves.LessThan) -> pc.Expression:
        return self._compare(leaf, "lt")

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> pc.Expression:
        return self._compare(leaf, "lte")

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> pc.Expression:
        return self._compare(leaf, "gt")

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> pc.Expression:
        return self._compare(leaf, "gte")

    def visit_between(self, leaf: leaves.Between) -> pc.Expression:
        c, _, _ = self._column(leaf)
        lo, hi = leaf.literals
        if lo is None or hi is None:
            return pc.scalar(False) & c.is_valid()
        return (self._compare(leaves.GreaterThanOrEqual(leaf.column, lo), "gte")
                & self._compare(leaves.LessThanOrEqual(leaf.column, hi), "lte"))

    def _any_hit(self, leaf: Leaf) -> tuple[pc.Expression, pc.Expression, bool]:
        """(the column, whether it equals one of the non-NULL literals, whether a literal is NULL)."""
        c, dtype, atype = self._column(leaf)
        values = [v for v in leaf.literals if v is not None and not _finer_than_unit(v, atype)]  # those match no row
        if dtype.root in _FLOATS:
            hits = [_float_compare("eq", c, float(v), self.semantics) for v in values]
            any_hit = hits[0] if hits else pc.scalar(False)
            for h in hits[1:]:
                any_hit = any_hit | h
        else:
            arr = pa.array([_scalar(v, dtype, atype).as_py() for v in values], atype) if values \
                else pa.array([], atype)
            any_hit = pc.is_in(c, value_set=arr)
        return c, any_hit, None in leaf.literals

    def visit_in(self, leaf: leaves.In) -> pc.Expression:
        c, any_hit, _ = self._any_hit(leaf)
        return any_hit & c.is_valid()

    def visit_not_in(self, leaf: leaves.NotIn) -> pc.Expression:
        c, any_hit, has_null = self._any_hit(leaf)
        if has_null:  # NOT IN with a NULL literal is never true
            return pc.scalar(False) & c.is_valid()
        return ~any_hit & c.is_valid()

    def visit_is_null(self, leaf: leaves.IsNull) -> pc.Expression:
        return self._column(leaf)[0].is_null()

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> pc.Expression:
        return self._column(leaf)[0].is_valid()

    def _match(self, leaf: Leaf, function: str) -> pc.Expression:
        c, _, _ = self._column(leaf)
        if leaf.literal is None:
            return pc.scalar(False) & c.is_valid()
        return pc.Expression._call(function, [c], pc.MatchSubstringOptions(str(leaf.literal)))

    def visit_starts_with(self, leaf: leaves.StartsWith) -> pc.Expression:
        return self._match(leaf, "starts_with")

    def visit_ends_with(self, leaf: leaves.EndsWith) -> pc.Expression:
        return self._match(leaf, "ends_with")

    def visit_contains(self, leaf: leaves.Contains) -> pc.Expression:
        return self._match(leaf, "match_substring")

    def visit_like(self, leaf: leaves.Like) -> pc.Expression:
        pattern = leaf.literal
        leaves.check_like_pattern(pattern)
        if not isinstance(pattern, str) or "_" not in pattern:
            return self._match(leaf, "match_like")  # '%' matches every character in both
        # Arrow's LIKE lets '_' match a line terminator, Paimon's does not (review finding: 'a_b' kept 'a\nb')
        c, _, _ = self._column(leaf)
        return pc.Expression._call("match_substring_regex", [c], pc.MatchSubstringOptions(leaves.like_regex(pattern)))

    def _compound(self, node: And | Or, is_and: bool) -> pc.Expression:
        exprs = [visit(c, self) for c in node.children]
        if not exprs:
            return pc.scalar(is_and)
        out = exprs[0]
        for e in exprs[1:]:
            out = (out & e) if is_and else (out | e)
        return out

    def visit_and(self, node: And) -> pc.Expression:
        return self._compound(node, True)

    def visit_or(self, node: Or) -> pc.Expression:
        return self._compound(node, False)


def to_arrow_expression(pred: Any, row_type: RowType, semantics: SemanticsLike = "spark") -> pc.Expression:
    """The Arrow expression selecting exactly the rows for which ``pred`` is TRUE under ``semantics``."""
    return visit(pred, _ArrowFilter(row_type, semantics))


def filter_table(table: pa.Table, pred: Any, row_type: RowType, semantics: SemanticsLike = "spark") -> pa.Table:
    """Rows of ``table`` for which ``pred`` is TRUE (``None``: every row) under ``semantics``.

    The table layer always names ``semantics`` (the plan's, :attr:`PlanReport.semantics`); the default is
    Spark's, the order this filter has always had."""
    if pred is None:
        return table
    try:
        return table.filter(to_arrow_expression(pred, row_type, semantics))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as exc:
        # a table built elsewhere (say TIME as time32 where this library reads int32 millis of day)
        columns = ", ".join(f"{f.name}: {f.type}" for f in table.schema if f.name in row_type.names)
        raise InvalidPredicateError(
            f"cannot filter an Arrow table with columns ({columns}) by {pred}: expected the Arrow types this "
            f"library reads for {row_type} ({str(exc).splitlines()[0]})") from exc
