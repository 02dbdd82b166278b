"""JSON forms of predicates, in both golden conventions.

* **paimon-0.9 sidecar** ``pred`` objects: ``{"op": "equal"|"not_equal"|"in"|"not_in"|"in_leaf"|
  "not_in_leaf"|"is_null"|"is_not_null"|"and"|"or", "col", "literal", "literals", "children"}``.
  ``in`` / ``not_in`` were built with Java's ``PredicateBuilder.in/notIn``, which turns lists of at
  most 20 literals into an OR of Equal / an AND of NotEqual (bigger lists stay In/NotIn leaves);
  they are rebuilt the same way so evaluation follows Java's tree.  ``in_leaf`` / ``not_in_leaf``
  are In/NotIn leaves.  Range operators use Java's class names in snake case
  (``less_than``, ``less_or_equal``, ``greater_than``, ``greater_or_equal``, ``between``).
* **paimon-latest** query objects and container predicates: leaves
  ``{"op": "eq"|"neq"|"in"|"not_in"|"lt"|"lte"|"gt"|"gte"|"between"|"is_null"|"is_not_null",
  "field"?, "literal" | "literals" | "from", "to"}`` with exact float bits in ``literal_bits`` /
  ``literals_bits`` / ``from_bits`` / ``to_bits`` and VARBINARY bytes in ``literal_hex`` (/
  ``literals_hex``, ``from_hex``, ``to_hex``); compound nodes ``{"and": [...]}`` / ``{"or": [...]}``.

Literals are in the sidecars' value encoding (:func:`paimon_codec.values.from_json`).  Given a
schema (row type, or the one type of a single payload) literals are decoded and bound to it.
"""

from __future__ import annotations

import decimal
import json
import math
import struct
from typing import Any

from ..errors import InvalidPredicateError, PaimonCodecError
from ..modes import PredicateJsonStyleLike
from ..types import DataType, RowType
from ..values import Timestamp, float_from_bits, from_json
from ._json_render import render_json
from .bind import column_type
from .leaves import LEAF_OPS, make_leaf
from .predicate import And, Or, Predicate
from .visitor import MAX_NESTING

__all__ = ["predicate_from_json", "predicate_to_json", "load_predicate_json", "JAVA_IN_EXPANSION_LIMIT"]


def predicate_to_json(pred: Predicate, *, style: PredicateJsonStyleLike = "latest",
                      schema: RowType | DataType | None = None) -> dict:
    """Encode ``pred`` as JSON (``style`` ``"latest"`` or ``"paimon-0.9"``) that :func:`predicate_from_json`
    reads back to an equal predicate."""
    return render_json(pred, style=style, schema=schema)


#: Java's PredicateBuilder.in/notIn expand lists up to this size into OR-of-Equal / AND-of-NotEqual.
JAVA_IN_EXPANSION_LIMIT = 20

#: the operators of the latest form: every leaf class's ``op``
_OPS_LATEST = frozenset(LEAF_OPS)
_OPS_09 = {
    "equal": "eq", "not_equal": "neq", "in_leaf": "in", "not_in_leaf": "not_in",
    "less_than": "lt", "less_or_equal": "lte", "greater_than": "gt", "greater_or_equal": "gte",
    "is_null": "is_null", "is_not_null": "is_not_null", "between": "between", "starts_with": "starts_with",
}


def _decode_untyped(value: Any, bits: Any, hex_bytes: Any) -> Any:
    """Decode a literal without knowing its type (bind() finishes the job)."""
    if hex_bytes is not None:
        return bytes.fromhex(hex_bytes)
    if bits is not None:
        b = str(bits)
        return float_from_bits(b, double=len(b.removeprefix("0x")) > 8)
    if isinstance(value, dict) and "millis" in value:
        return Timestamp(int(value["millis"]), int(value.get("nanos_of_milli", 0)))
    if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return Timestamp(int(value[0]), int(value[1]))
    return value


def _decode(dtype: DataType | None, value: Any, bits: Any = None, hex_bytes: Any = None) -> Any:
    if value is None and bits is None and hex_bytes is None:
        return None
    if dtype is None:
        return _decode_untyped(value, bits, hex_bytes)
    if bits is not None and dtype.root in ("FLOAT", "DOUBLE"):
        b = str(bits)
        double_bits = len(b.removeprefix("0x")) > 8
        v = float_from_bits(b, double=double_bits)
        if dtype.root == "FLOAT" and double_bits:
            v = struct.unpack(">f", struct.pack(">f", v))[0] if math.isfinite(v) else v
        return v
    try:
        return from_json(dtype, value, bits=bits, hex_bytes=hex_bytes)
    except PaimonCodecError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, decimal.InvalidOperation) as exc:
        raise InvalidPredicateError(f"cannot read literal {value!r} as {dtype}") from exc


def _seq(obj: dict, key: str, n: int | None = None) -> list:
    v = obj.get(key)
    if v is None:
        return [None] * (n or 0)
    if not isinstance(v, list):
        raise InvalidPredicateError(f"{key!r} must be a list")
    return v


def predicate_from_json(obj: Any, schema: RowType | DataType | None = None) -> Predicate:
    """Build a predicate from either golden JSON convention (a dict, or JSON text).

    With ``schema`` (a :class:`RowType`, or the :class:`DataType` of a single index payload) the
    literals are decoded for their column types and the predicate is returned bound.
    """
    if isinstance(obj, (str, bytes)):
        try:
            obj = json.loads(obj, parse_float=decimal.Decimal)  # a DECIMAL literal keeps every digit
        except json.JSONDecodeError as exc:
            raise InvalidPredicateError(f"predicate JSON does not parse: {exc.msg}", offset=exc.pos) from exc
        except RecursionError as exc:
            raise InvalidPredicateError("predicate JSON is nested too deeply") from exc
    try:
        pred = _from_json(obj, schema)
    except RecursionError as exc:
        raise InvalidPredicateError("predicate JSON is nested too deeply") from exc
    return pred.bind(schema) if schema is not None else pred


def _from_json(obj: Any, schema: RowType | DataType | None, depth: int = 0) -> Predicate:
    if depth > MAX_NESTING:
        raise InvalidPredicateError(f"predicate JSON nested deeper than {MAX_NESTING} levels")
    if not isinstance(obj, dict):
        raise InvalidPredicateError(f"a predicate must be a JSON object, got {type(obj).__name__}")
    # sidecar wrappers: {"predicate": {...}, "result": ...} / {"id", "pred": {...}}
    if "op" not in obj and "and" not in obj and "or" not in obj:
        for k in ("predicate", "pred"):
            if isinstance(obj.get(k), dict):
                return _from_json(obj[k], schema, depth)
        raise InvalidPredicateError("predicate JSON needs an 'op' (or an 'and' / 'or' list)")
    for k in ("and", "or"):
        if k in obj and "op" not in obj:
            kids = obj[k]
            if not isinstance(kids, list):
                raise InvalidPredicateError(f"{k!r} must be a list of predicates")
            nodes = tuple(_from_json(c, schema, depth + 1) for c in kids)
            return And(nodes) if k == "and" else Or(nodes)
    op = obj["op"]
    if not isinstance(op, str):
        raise InvalidPredicateError(f"'op' must be a string, got {op!r}")
    op = op.lower()
    if op in ("and", "or"):
        kids = obj.get("children", [])
        if not isinstance(kids, list):
            raise InvalidPredicateError("'children' must be a list of predicates")
        nodes = tuple(_from_json(c, schema, depth + 1) for c in kids)
        return And(nodes) if op == "and" else Or(nodes)
    if op in ("top_k", "bottom_k"):
        raise InvalidPredicateError(f"{op!r} is a top-N query, not a predicate")
    java_style = "col" in obj
    column = obj.get("col", obj.get("field", obj.get("column")))
    if column is not None and not isinstance(column, str):
        raise InvalidPredicateError(f"column name must be a string, got {column!r}")
    dtype = column_type(schema, column) if schema is not None else None

    if op in ("in", "not_in") and java_style:
        # PredicateBuilder.in / notIn
        lits = _literals(obj, dtype)
        if not lits:
            raise InvalidPredicateError(f"{op!r} needs at least one literal")
        if len(lits) <= JAVA_IN_EXPANSION_LIMIT:
            leaf_op = "eq" if op == "in" else "neq"
            leaves = tuple(make_leaf(leaf_op, column, (v,)) for v in lits)
            if len(leaves) == 1:
                return leaves[0]
            return Or(leaves) if op == "in" else And(leaves)
        return make_leaf(op, column, tuple(lits))
    if op in _OPS_09:
        op = _OPS_09[op]
    elif op not in _OPS_LATEST:
        raise InvalidPredicateError(f"unknown predicate op {obj['op']!r}")

    if op in ("is_null", "is_not_null"):
        return make_leaf(op, column, ())
    if op in ("in", "not_in"):
        return make_leaf(op, column, tuple(_literals(obj, dtype)))
    if op == "between":
        if "from" in obj or "to" in obj:
            lo = _decode(dtype, obj.get("from"), obj.get("from_bits"), obj.get("from_hex"))
            hi = _decode(dtype, obj.get("to"), obj.get("to_bits"), obj.get("to_hex"))
            return make_leaf(op, column, (lo, hi))
        lits = _literals(obj, dtype)
        return make_leaf(op, column, tuple(lits))
    if "literal" not in obj and "literal_bits" not in obj and "literal_hex" not in obj:
        raise InvalidPredicateError(f"op {obj['op']!r} needs a 'literal'")
    lit = _decode(dtype, obj.get("literal"), obj.get("literal_bits"), obj.get("literal_hex"))
    return make_leaf(op, column, (lit,))


def _literals(obj: dict, dtype: DataType | None) -> list:
    if "literals" not in obj and "literals_hex" not in obj:
        raise InvalidPredicateError(f"op {obj.get('op')!r} needs 'literals'")
    hexes = obj.get("literals_hex")
    values = _seq(obj, "literals", len(hexes) if isinstance(hexes, list) else None)
    bits = _seq(obj, "literals_bits", len(values))
    hexes = _seq(obj, "literals_hex", len(values))
    if len(bits) != len(values) or len(hexes) != len(values):
        raise InvalidPredicateError("'literals_bits' / 'literals_hex' must be as long as 'literals'")
    return [_decode(dtype, v, b, h) for v, b, h in zip(values, bits, hexes, strict=True)]


def load_predicate_json(text_or_path: str) -> Any:
    """JSON text, or the path of a file holding it (used by the CLI)."""
    s = text_or_path.strip()
    if s.startswith(("{", "[")):
        try:
            return json.loads(s, parse_float=decimal.Decimal)
        except json.JSONDecodeError as exc:
            raise InvalidPredicateError(f"predicate JSON does not parse: {exc.msg}", offset=exc.pos) from exc
        except RecursionError as exc:
            raise InvalidPredicateError("predicate JSON is nested too deeply") from exc
    import gzip
    from pathlib import Path

    p = Path(text_or_path)
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as fh:
        try:
            return json.load(fh)
        except RecursionError as exc:
            raise InvalidPredicateError(f"{p}: predicate JSON is nested too deeply") from exc
        except json.JSONDecodeError as exc:
            raise InvalidPredicateError(f"{p}: predicate JSON does not parse: {exc.msg}", offset=exc.pos) from exc
