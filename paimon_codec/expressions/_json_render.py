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
from ..types import DataType, RowType
from ..values import Timestamp, decimal_unscaled
from .bind import column_type
from .visitor import PredicateVisitor, visit

if TYPE_CHECKING:
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

    def visit_leaf(self, pred: Leaf) -> dict:
        style, schema = self.style, self.schema
        dtype = None
        if schema is not None:
            try:
                dtype = column_type(schema, pred.column)
            except InvalidPredicateError:
                dtype = None
        out: dict[str, Any] = {}
        if style == "paimon-0.9":
            out["op"] = TO_09.get(pred.op, pred.op)
            if pred.column is not None:
                out["col"] = pred.column
        else:
            out["op"] = pred.op
            if pred.column is not None:
                out["field"] = pred.column
        if pred.op in ("is_null", "is_not_null"):
            return out
        encoded = [_encode(v, dtype, style) for v in pred.literals]
        if pred.op in ("in", "not_in") or (pred.op == "between" and style == "paimon-0.9"):
            out["literals"] = [e for e, _ in encoded]
            for extra in ("bits", "hex"):
                if any(extra in x for _, x in encoded):
                    out[f"literals_{extra}"] = [x.get(extra) for _, x in encoded]
            return out
        if pred.op == "between":
            for name, (e, x) in zip(("from", "to"), encoded, strict=True):
                out[name] = e
                for extra, v in x.items():
                    out[f"{name}_{extra}"] = v
            return out
        (e, x), = encoded
        out["literal"] = e
        for extra, v in x.items():
            out[f"literal_{extra}"] = v
        return out


def predicate_to_json(pred: Predicate, *, style: str = "latest", schema: RowType | DataType | None = None) -> dict:
    """Encode ``pred`` as JSON (``style`` ``"latest"`` or ``"paimon-0.9"``) that
    :func:`.json_form.predicate_from_json` reads back to an equal predicate."""
    if style not in ("latest", "paimon-0.9"):
        raise InvalidPredicateError(f"unknown predicate JSON style {style!r}", expected="latest or paimon-0.9")
    return visit(pred, _JsonRenderer(style, schema))
