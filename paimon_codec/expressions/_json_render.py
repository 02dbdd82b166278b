"""The JSON form of a predicate tree (:func:`predicate_to_json`; read back by :mod:`.json_form`).

A :class:`~.visitor.PredicateVisitor`: depends on the visitor module, not on :mod:`.predicate`.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import struct
from typing import TYPE_CHECKING, Any

from ..errors import InvalidPredicateError
from ..modes import PredicateJsonStyle, PredicateJsonStyleLike
from ..types import DataType, RowType
from ..values import Timestamp, decimal_unscaled
from .bind import column_type
from .visitor import PredicateVisitor, visit

if TYPE_CHECKING:
    from . import leaves
    from .predicate import And, Leaf, Or, Predicate

__all__ = ["predicate_to_json", "TO_09"]

#: operator of a leaf -> its name in the paimon-0.9 sidecars (Java class names in snake case)
TO_09 = {"eq": "equal", "neq": "not_equal", "in": "in_leaf", "not_in": "not_in_leaf", "lt": "less_than",
          "lte": "less_or_equal", "gt": "greater_than", "gte": "greater_or_equal"}


# ---------------------------------------------------------------------------------------------
# encoding


def _encode(value: Any, dtype: DataType | None, style: str) -> tuple[Any, dict]:
    """(JSON value, extra fields such as bits/hex) of one literal."""
    if value is None:
        return None, {}
    if isinstance(value, bool):
        return value, {}
    if isinstance(value, float):
        if dtype is not None and dtype.root == "FLOAT":
            bits = struct.pack(">f", value).hex()
        else:
            bits = struct.pack(">d", value).hex()
        if math.isnan(value):
            enc: Any = "NaN"
        elif math.isinf(value):
            enc = "Infinity" if value > 0 else "-Infinity"
        else:
            enc = value
        return enc, {"bits": bits}
    if isinstance(value, Timestamp):
        if style == "paimon-0.9":
            return [value.millis, value.nanos_of_milli], {}
        return {"millis": value.millis, "nanos_of_milli": value.nanos_of_milli}, {}
    if isinstance(value, decimal.Decimal):
        if dtype is not None and dtype.root == "DECIMAL":
            return {"unscaled": decimal_unscaled(value, dtype.scale or 0)}, {}
        return str(value), {}
    if isinstance(value, (bytes, bytearray)):
        return None, {"hex": bytes(value).hex()}
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat(), {}
    return value, {}


class _JsonRenderer(PredicateVisitor[dict]):
    def __init__(self, style: str, schema: RowType | DataType | None) -> None:
        self.style, self.schema = style, schema

    def visit_and(self, node: And) -> dict:
        return self._compound(node, "and")

    def visit_or(self, node: Or) -> dict:
        return self._compound(node, "or")

    def _compound(self, node: And | Or, word: str) -> dict:
        kids = [visit(c, self) for c in node.children]
        return {"op": word, "children": kids} if self.style == "paimon-0.9" else {word: kids}

    def _head(self, pred: Leaf) -> tuple[dict[str, Any], DataType | None]:
        """``op`` and column of a leaf in this style, and the column's type when the schema has it."""
        dtype = None
        if self.schema is not None:
            try:
                dtype = column_type(self.schema, pred.column)
            except InvalidPredicateError:
                dtype = None
        out: dict[str, Any] = {}
        if self.style == "paimon-0.9":
            out["op"] = TO_09.get(pred.op, pred.op)
            if pred.column is not None:
                out["col"] = pred.column
        else:
            out["op"] = pred.op
            if pred.column is not None:
                out["field"] = pred.column
        return out, dtype

    def _one(self, pred: Leaf) -> dict:
        """A leaf with one literal: ``literal`` (+ ``literal_bits`` / ``literal_hex``)."""
        out, dtype = self._head(pred)
        (e, x), = [_encode(v, dtype, self.style) for v in pred.literals]
        out["literal"] = e
        for extra, v in x.items():
            out[f"literal_{extra}"] = v
        return out

    def _list(self, pred: Leaf) -> dict:
        """A leaf with a list of literals: ``literals`` (+ ``literals_bits`` / ``literals_hex``)."""
        out, dtype = self._head(pred)
        encoded = [_encode(v, dtype, self.style) for v in pred.literals]
        out["literals"] = [e for e, _ in encoded]
        for extra in ("bits", "hex"):
            if any(extra in x for _, x in encoded):
                out[f"literals_{extra}"] = [x.get(extra) for _, x in encoded]
        return out

    def visit_equal_to(self, leaf: leaves.EqualTo) -> dict:
        return self._one(leaf)

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> dict:
        return self._one(leaf)

    def visit_less_than(self, leaf: leaves.LessThan) -> dict:
        return self._one(leaf)

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> dict:
        return self._one(leaf)

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> dict:
        return self._one(leaf)

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> dict:
        return self._one(leaf)

    def visit_starts_with(self, leaf: leaves.StartsWith) -> dict:
        return self._one(leaf)

    def visit_ends_with(self, leaf: leaves.EndsWith) -> dict:
        return self._one(leaf)

    def visit_contains(self, leaf: leaves.Contains) -> dict:
        return self._one(leaf)

    def visit_like(self, leaf: leaves.Like) -> dict:
        return self._one(leaf)

    def visit_in(self, leaf: leaves.In) -> dict:
        return self._list(leaf)

    def visit_not_in(self, leaf: leaves.NotIn) -> dict:
        return self._list(leaf)

    def visit_between(self, leaf: leaves.Between) -> dict:
        if self.style == "paimon-0.9":  # Java's Between leaf: a list of two literals
            return self._list(leaf)
        out, dtype = self._head(leaf)
        for name, v in zip(("from", "to"), leaf.literals, strict=True):
            e, x = _encode(v, dtype, self.style)
            out[name] = e
            for extra, xv in x.items():
                out[f"{name}_{extra}"] = xv
        return out

    def visit_is_null(self, leaf: leaves.IsNull) -> dict:
        return self._head(leaf)[0]

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> dict:
        return self._head(leaf)[0]


def predicate_to_json(pred: Predicate, *, style: PredicateJsonStyleLike = "latest",
                      schema: RowType | DataType | None = None) -> dict:
    """Encode ``pred`` as JSON (``style`` ``"latest"`` or ``"paimon-0.9"``) that
    :func:`.json_form.predicate_from_json` reads back to an equal predicate."""
    name = style.value if isinstance(style, PredicateJsonStyle) else style
    if name not in ("latest", "paimon-0.9"):
        raise InvalidPredicateError(f"unknown predicate JSON style {style!r}", expected="latest or paimon-0.9")
    return visit(pred, _JsonRenderer(name, schema))
