"""The JSON form of a predicate tree (:func:`render_json`; read back by :mod:`.json_form`).

Reads a tree by its structure only (a node's ``kind``, a leaf's ``op``, ``column`` and ``literals``, a
compound's ``children``), so it imports no predicate module: :mod:`.predicate` uses it for
``Predicate.to_dict()`` and the import arrows run one way.  Every operator of :mod:`.leaves` has a shape here
(``tests/test_expressions_visitor.py`` round-trips each one).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import struct
from typing import Any

from ..errors import InvalidPredicateError
from ..modes import PredicateJsonStyle, PredicateJsonStyleLike
from ..types import DataType, RowType
from ..values import Timestamp, decimal_unscaled
from .bind import column_type

__all__ = ["render_json", "TO_09"]

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


#: leaf operators with one literal (``literal``) and with a list of them (``literals``)
_ONE_LITERAL = frozenset({"eq", "neq", "lt", "lte", "gt", "gte", "starts_with", "ends_with", "contains", "like"})
_LIST = frozenset({"in", "not_in"})
_UNARY = frozenset({"is_null", "is_not_null"})


class _JsonRenderer:
    def __init__(self, style: str, schema: RowType | DataType | None) -> None:
        self.style, self.schema = style, schema

    def node(self, pred: Any) -> dict:
        kind = getattr(pred, "kind", None)
        if kind == "leaf":
            return self._leaf(pred)
        if kind not in ("and", "or"):
            raise InvalidPredicateError(f"not a predicate: {pred!r}")
        kids = [self.node(c) for c in pred.children]
        return {"op": kind, "children": kids} if self.style == "paimon-0.9" else {kind: kids}

    def _leaf(self, leaf: Any) -> dict:
        op = leaf.op
        if op in _ONE_LITERAL:
            return self._one(leaf)
        if op in _LIST or (op == "between" and self.style == "paimon-0.9"):  # Java's Between: a list of two
            return self._list(leaf)
        if op in _UNARY:
            return self._head(leaf)[0]
        if op == "between":
            out, dtype = self._head(leaf)
            for name, v in zip(("from", "to"), leaf.literals, strict=True):
                e, x = _encode(v, dtype, self.style)
                out[name] = e
                for extra, xv in x.items():
                    out[f"{name}_{extra}"] = xv
            return out
        raise InvalidPredicateError(f"not a predicate: {leaf!r}")

    def _head(self, pred: Any) -> tuple[dict[str, Any], DataType | None]:
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

    def _one(self, pred: Any) -> dict:
        """A leaf with one literal: ``literal`` (+ ``literal_bits`` / ``literal_hex``)."""
        out, dtype = self._head(pred)
        (e, x), = [_encode(v, dtype, self.style) for v in pred.literals]
        out["literal"] = e
        for extra, v in x.items():
            out[f"literal_{extra}"] = v
        return out

    def _list(self, pred: Any) -> dict:
        """A leaf with a list of literals: ``literals`` (+ ``literals_bits`` / ``literals_hex``)."""
        out, dtype = self._head(pred)
        encoded = [_encode(v, dtype, self.style) for v in pred.literals]
        out["literals"] = [e for e, _ in encoded]
        for extra in ("bits", "hex"):
            if any(extra in x for _, x in encoded):
                out[f"literals_{extra}"] = [x.get(extra) for _, x in encoded]
        return out


def render_json(pred: Any, *, style: PredicateJsonStyleLike = "latest",
                schema: RowType | DataType | None = None) -> dict:
    """Encode a predicate node as JSON (``style`` ``"latest"`` or ``"paimon-0.9"``) that
    :func:`.json_form.predicate_from_json` reads back to an equal predicate (typed as
    :func:`.json_form.predicate_to_json`)."""
    name = style.value if isinstance(style, PredicateJsonStyle) else style
    if name not in ("latest", "paimon-0.9"):
        raise InvalidPredicateError(f"unknown predicate JSON style {style!r}", expected="latest or paimon-0.9")
    return _JsonRenderer(name, schema).node(pred)
