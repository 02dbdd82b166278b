"""JSON forms of predicates: both golden conventions, and round trips."""

from __future__ import annotations

import math
import re
import struct

import pytest
from conftest import GOLDEN_09, latest_cases, load_json
from hypothesis import given, settings
from test_predicate_sql import SCHEMA, predicates

from paimon_codec.errors import InvalidPredicateError
from paimon_codec.expressions import And, Leaf, Or, Predicate, make_leaf
from paimon_codec.expressions.json_form import predicate_from_json, predicate_to_json
from paimon_codec.types import parse_row_type, parse_type
from paimon_codec.values import Timestamp

CASES_09 = sorted(p for p in GOLDEN_09.glob("file_index/*.json*") if ".rows." not in p.name)

_JAVA_NAMES = {"eq": "Equal", "neq": "NotEqual", "in": "In", "not_in": "NotIn", "is_null": "IsNull",
               "is_not_null": "IsNotNull"}


def _java_shape(p: Predicate) -> list[str]:
    """Pre-order node names as Java's toString prints them (n-ary AND/OR as left-nested pairs)."""
    if isinstance(p, Leaf):
        return [_JAVA_NAMES[p.op]]
    name = "And" if isinstance(p, And) else "Or"
    kids = [_java_shape(c) for c in p.children]
    out = kids[0]
    for k in kids[1:]:
        out = [name] + out + k
    return out


@pytest.mark.parametrize("path", CASES_09, ids=lambda p: p.name.split(".")[0])
def test_paimon09_preds_follow_java_tree(path):
    side = load_json(path)
    schema = parse_row_type(side["columns"])
    for entry in side["predicates"]:
        pred = predicate_from_json(entry["pred"], schema)
        java = re.findall(r"\b(And|Or|Equal|NotEqual|In|NotIn|IsNull|IsNotNull)\(\[?", entry["java_predicate"])
        assert _java_shape(pred) == java, (entry["id"], entry["java_predicate"])
        # and it survives both JSON styles
        for style in ("latest", "paimon-0.9"):
            again = predicate_from_json(predicate_to_json(pred, style=style, schema=schema), schema)
            assert again == pred


def test_paimon09_in_expansion_limit():
    lits = list(range(21))
    assert isinstance(predicate_from_json({"op": "in", "col": "a", "literals": lits[:20]}), Or)
    assert predicate_from_json({"op": "in", "col": "a", "literals": lits}) == make_leaf("in", "a", tuple(lits))
    assert isinstance(predicate_from_json({"op": "not_in", "col": "a", "literals": lits[:2]}), And)
    assert predicate_from_json({"op": "in", "col": "a", "literals": [5]}) == make_leaf("eq", "a", (5,))
    assert predicate_from_json({"op": "in_leaf", "col": "a", "literals": [5, 6]}) == make_leaf("in", "a", (5, 6))
    assert predicate_from_json({"op": "in", "field": "a", "literals": [5, 6]}) == make_leaf("in", "a", (5, 6))


def test_paimon09_timestamp_literals():
    schema = parse_row_type("t TIMESTAMP(6)")
    p = predicate_from_json({"op": "equal", "col": "t", "literal": [1700000000123, 456000]}, schema)
    assert p == make_leaf("eq", "t", (Timestamp(1700000000123, 456000),))
    assert predicate_to_json(p, style="paimon-0.9") == {"op": "equal", "col": "t",
                                                        "literal": [1700000000123, 456000]}


def test_latest_containers_parse():
    for case in latest_cases("file-index-container"):
        side = load_json(case["json"])
        cols = side.get("schema") or side["columns"]
        if not cols or "predicates" not in side:
            continue
        schema = parse_row_type([{"name": c["name"], "type": c["type"]} for c in cols])
        for entry in side["predicates"]:
            pred = predicate_from_json(entry["predicate"], schema)
            assert predicate_from_json(pred.to_dict(schema=schema), schema) == pred
            assert predicate_from_json(entry, schema) == pred  # wrapper accepted


@pytest.mark.parametrize("kind", ["bitmap", "bloom-filter", "range-bitmap", "bsi"])
def test_latest_query_objects_parse(kind):
    for case in latest_cases(kind):
        side = load_json(case["json"])
        dtype = parse_type(side["type"])
        for q in side["queries"]:
            if q["op"] in ("top_k", "bottom_k"):
                with pytest.raises(InvalidPredicateError):
                    predicate_from_json(q, dtype)
                continue
            pred = predicate_from_json(q, dtype)
            assert isinstance(pred, Leaf) and pred.column is None
            for key, lit in (("literal_bits", "literal"), ("from_bits", "from")):
                if key in q:  # exact bits win over the printed number
                    v = pred.literals[0] if lit == "literal" else pred.literals[0]
                    fmt = ">d" if dtype.root == "DOUBLE" else ">f"
                    want = struct.unpack(fmt, bytes.fromhex(q[key]))[0]
                    assert (math.isnan(v) and math.isnan(want)) or struct.pack(fmt, v) == struct.pack(fmt, want)
            assert predicate_from_json(pred.to_dict(schema=dtype), dtype) == pred


def test_float_bits_and_hex():
    p = predicate_from_json({"op": "eq", "literal": "NaN", "literal_bits": "7ff8000000000000"}, parse_type("DOUBLE"))
    assert math.isnan(p.literal)
    p = predicate_from_json({"op": "eq", "literal": -0.0, "literal_bits": "80000000"}, parse_type("FLOAT"))
    assert struct.pack(">f", p.literal) == b"\x80\x00\x00\x00"
    p = predicate_from_json({"op": "eq", "literal_hex": "00ff"}, parse_type("VARBINARY(4)"))
    assert p.literal == b"\x00\xff"
    p = predicate_from_json({"op": "in", "literals": [None, None], "literals_hex": ["00", "01"]},
                            parse_type("BYTES"))
    assert p.literals == (b"\x00", b"\x01")
    p = predicate_from_json({"op": "between", "from": 1, "to": 2, "from_bits": "3f800000", "to_bits": "40000000"},
                            parse_type("FLOAT"))
    assert p.literals == (1.0, 2.0)


@pytest.mark.parametrize(
    "obj",
    [
        "not json",
        [1, 2],
        {"op": "frobnicate", "col": "a", "literal": 1},
        {"op": "equal", "col": "a"},
        {"op": "in", "col": "a", "literals": []},
        {"op": "in_leaf", "col": "a", "literals": 5},
        {"op": "equal", "col": "zz", "literal": 1},
        {"op": "equal", "col": "a", "literal": "xyz"},
        {"and": "nope"},
        {"op": 5},
        {"op": "equal", "col": 7, "literal": 1},
        {"op": "eq", "literals": [1], "literals_bits": ["00", "11"]},
        {"result": "SKIP"},
    ],
)
def test_bad_json(obj):
    with pytest.raises(InvalidPredicateError):
        predicate_from_json(obj, SCHEMA)


@settings(max_examples=200, deadline=None)
@given(predicates)
def test_json_round_trip(pred):
    bound = pred.bind(SCHEMA)
    for style in ("latest", "paimon-0.9"):
        doc = bound.to_dict(style=style, schema=SCHEMA)
        assert predicate_from_json(doc, SCHEMA) == bound, doc
    # without a schema the latest form still reads back to the same bound predicate
    assert predicate_from_json(bound.to_dict(), None).bind(SCHEMA) == bound


def test_deep_json_is_rejected_cleanly():
    doc = '{"and": [' * 3000 + '{"op": "eq", "field": "a", "literal": 1}' + "]}" * 3000
    with pytest.raises(InvalidPredicateError):
        predicate_from_json(doc)
    obj: dict = {"op": "eq", "field": "a", "literal": 1}
    for _ in range(500):
        obj = {"or": [obj]}
    with pytest.raises(InvalidPredicateError, match="nested deeper"):
        predicate_from_json(obj)
