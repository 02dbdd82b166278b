"""The expression API and the SQL-like text form of predicates."""

from __future__ import annotations

import datetime as dt
import decimal
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples

from paimon_codec.errors import InvalidPredicateError
from paimon_codec.expressions import And, Or, and_all, col, make_leaf, or_all
from paimon_codec.expressions.sql import parse_where, quote_identifier, to_sql
from paimon_codec.types import parse_row_type
from paimon_codec.values import Timestamp

SCHEMA = parse_row_type(
    '[{"name": "a", "type": "INT"}, {"name": "s", "type": "STRING"}, {"name": "d", "type": "DOUBLE"},'
    ' {"name": "f", "type": "FLOAT"}, {"name": "dt", "type": "DATE"}, {"name": "ts", "type": "TIMESTAMP(9)"},'
    ' {"name": "b", "type": "BOOLEAN"}, {"name": "c_smällint", "type": "SMALLINT"},'
    ' {"name": "weird name`x", "type": "BIGINT"}, {"name": "dec", "type": "DECIMAL(10, 2)"},'
    ' {"name": "t", "type": "TIME"}, {"name": "bin", "type": "VARBINARY(10)"}, {"name": "order", "type": "INT"}]'
)


def test_issue_example_parses_to_expression():
    text = "status = 'PENDING' AND region IN ('US','EU') OR note IS NULL"
    expected = (col("status") == "PENDING") & col("region").isin(["US", "EU"]) | col("note").is_null()
    assert parse_where(text) == expected
    assert isinstance(expected, Or) and isinstance(expected.children[0], And)


def test_and_binds_tighter_than_or_and_parentheses_override():
    p = parse_where("a = 1 OR a = 2 AND s = 'x'")
    assert p == Or((make_leaf("eq", "a", (1,)), And((make_leaf("eq", "a", (2,)), make_leaf("eq", "s", ("x",))))))
    q = parse_where("(a = 1 OR a = 2) AND s = 'x'")
    assert q == And((Or((make_leaf("eq", "a", (1,)), make_leaf("eq", "a", (2,)))), make_leaf("eq", "s", ("x",))))


@pytest.mark.parametrize(
    "text, leaf",
    [
        ("a <> 3", make_leaf("neq", "a", (3,))),
        ("a != 3", make_leaf("neq", "a", (3,))),
        ("a == 3", make_leaf("eq", "a", (3,))),
        ("a < -3", make_leaf("lt", "a", (-3,))),
        ("a <= +3", make_leaf("lte", "a", (3,))),
        ("a > 3", make_leaf("gt", "a", (3,))),
        ("a >= 3", make_leaf("gte", "a", (3,))),
        ("3 < a", make_leaf("gt", "a", (3,))),
        ("a BETWEEN 1 AND 5", make_leaf("between", "a", (1, 5))),
        ("a not in (1, 2)", make_leaf("not_in", "a", (1, 2))),
        ("a IS NOT NULL", make_leaf("is_not_null", "a", ())),
        ("a is null", make_leaf("is_null", "a", ())),
        ("s = 'it''s'", make_leaf("eq", "s", ("it's",))),
        ("s LIKE 'ab%'", make_leaf("starts_with", "s", ("ab",))),
        ("b = TRUE", make_leaf("eq", "b", (True,))),
        ("b = false", make_leaf("eq", "b", (False,))),
        ("d = 1.5e3", make_leaf("eq", "d", (1500.0,))),
        ("d = -0.25", make_leaf("eq", "d", (decimal.Decimal("-0.25"),))),
        ("d = NaN", make_leaf("eq", "d", (math.nan,))),
        ("d = -Infinity", make_leaf("eq", "d", (-math.inf,))),
        ("dt = DATE '2024-01-01'", make_leaf("eq", "dt", (dt.date(2024, 1, 1),))),
        ("t = TIME '10:00:00'", make_leaf("eq", "t", (dt.time(10),))),
        ("ts = TIMESTAMP '2024-01-01 10:00:00.123456789'",
         make_leaf("eq", "ts", (Timestamp(1704103200123, 456789),))),
        ("ts = TIMESTAMP '1969-12-31 23:59:59.999999999'", make_leaf("eq", "ts", (Timestamp(-1, 999999),))),
        ("bin = X'00ff'", make_leaf("eq", "bin", (b"\x00\xff",))),
        ("`c_smällint` = 1", make_leaf("eq", "c_smällint", (1,))),
        ("c_smällint = 1", make_leaf("eq", "c_smällint", (1,))),
        ('"weird name`x" = 1', make_leaf("eq", "weird name`x", (1,))),
        ("`we``ird` = 1", make_leaf("eq", "we`ird", (1,))),
        ("名字 = 1", make_leaf("eq", "名字", (1,))),
        ("NOT a = 1", make_leaf("neq", "a", (1,))),
        ("NOT a IN (1)", make_leaf("not_in", "a", (1,))),
        ("NOT (a = 1 OR a IS NULL)", And((make_leaf("neq", "a", (1,)), make_leaf("is_not_null", "a", ())))),
        ("a NOT BETWEEN 1 AND 5", Or((make_leaf("lt", "a", (1,)), make_leaf("gt", "a", (5,))))),
    ],
)
def test_conditions(text, leaf):
    assert parse_where(text) == leaf


@pytest.mark.parametrize(
    "text, offset",
    [
        ("", 0),
        ("a = ", 4),
        ("a = 1 AND", 9),
        ("a = 'unterminated", 4),
        ("a IN ()", 6),
        ("a ~ 3", 2),
        ("(a = 1", 6),
        ("a = 1)", 5),
        ("a = NULL", 4),
        ("a BETWEEN 1 OR 2", 12),
        ("ts = TIMESTAMP 'not a time'", 15),
        ("ts = TIMESTAMP '2024-01-01 10:00:00.1234567890'", 15),
        ("dt = DATE '2024-13-01'", 10),
        ("a IS 3", 5),
        ("AND a = 1", 0),
        ("a = = 1", 4),
    ],
)
def test_bad_input_reports_offset(text, offset):
    with pytest.raises(InvalidPredicateError) as info:
        parse_where(text)
    assert info.value.offset == offset
    assert "character" in str(info.value) or "quote" in str(info.value) or "character" in info.value.message


def test_bind_coerces_literals():
    p = parse_where(
        "a = 1.0 AND d = 2 AND f = 0.1 AND dt = '2024-01-02' AND ts = DATE '1970-01-02' AND "
        "dec = 1.5 AND t = TIME '00:00:01.5' AND ts > '2024-01-01 00:00:00.000000001' AND "
        "c_smällint IN (1, 2)").bind(SCHEMA)
    lits = [leaf.literals for leaf in p.leaves()]
    assert lits[0] == (1,) and isinstance(lits[0][0], int)
    assert lits[1] == (2.0,) and isinstance(lits[1][0], float)
    assert lits[2][0] == pytest.approx(0.1) and lits[2][0] != 0.1  # float32 rounded
    assert lits[3] == (19724,)
    assert lits[4] == (Timestamp(86_400_000, 0),)
    assert lits[5] == (decimal.Decimal("1.5"),)
    assert lits[6] == (1500,)
    assert lits[7] == (Timestamp(1704067200000, 1),)
    assert lits[8] == (1, 2)


@pytest.mark.parametrize(
    "text",
    ["zz = 1", "a = 'abc'", "a = 1.5", "a = 3000000000", "c_smällint = 40000", "s = 5", "b = 1",
     "dt = 'yesterday'", "a = TRUE", "d = 'x'", "t = 90000000"],
)
def test_bind_rejects(text):
    with pytest.raises(InvalidPredicateError):
        parse_where(text).bind(SCHEMA)


def test_expression_api_operators():
    a = col("a")
    assert (a == 1) == make_leaf("eq", "a", (1,))
    assert (a != 1) == make_leaf("neq", "a", (1,))
    assert (a < 1, a <= 1, a > 1, a >= 1) == tuple(make_leaf(o, "a", (1,)) for o in ("lt", "lte", "gt", "gte"))
    assert a.between(1, 2) == make_leaf("between", "a", (1, 2))
    assert a.isin([1, 2]) == make_leaf("in", "a", (1, 2))
    assert a.notin((1,)) == make_leaf("not_in", "a", (1,))
    assert ~(a == 1) == (a != 1)
    assert ~a.is_null() == a.is_not_null()
    assert ~((a == 1) & (a > 5)) == (a != 1) | (a <= 5)
    assert ((a == 1) & (a == 2)) & (a == 3) == And(tuple(make_leaf("eq", "a", (i,)) for i in (1, 2, 3)))
    with pytest.raises(InvalidPredicateError):
        a.isin([])
    with pytest.raises(InvalidPredicateError):
        a.isin("abc")
    with pytest.raises(InvalidPredicateError):
        _ = (a == 1) & 5


def test_columns_and_quoting():
    p = parse_where("`order` = 1 AND a = 2 OR `order` IS NULL")
    assert p.columns() == ["order", "a"]
    assert quote_identifier("order") == "`order`"
    assert quote_identifier("a b") == "`a b`"
    assert quote_identifier("c_smällint") == "c_smällint"


# ---- round trips -----------------------------------------------------------------------------

_INT32 = st.integers(-(2**31), 2**31 - 1)
_TS = st.builds(Timestamp, st.integers(-62_000_000_000_000, 253_000_000_000_000), st.integers(0, 999_999))
_VALUES = {
    "a": _INT32,
    "order": _INT32,
    "s": st.text(max_size=8),
    "d": st.floats(allow_nan=True, allow_infinity=True),
    "f": st.floats(width=32),
    "dt": st.dates(),
    "ts": _TS,
    "b": st.booleans(),
    "c_smällint": st.integers(-(2**15), 2**15 - 1),
    "weird name`x": st.integers(-(2**63), 2**63 - 1),
    "dec": st.decimals(min_value=-(10**7), max_value=10**7, places=2, allow_nan=False, allow_infinity=False),
    "t": st.times(),
    "bin": st.binary(max_size=6),
}


@st.composite
def leaves(draw):
    name = draw(st.sampled_from(sorted(_VALUES)))
    v = _VALUES[name]
    ordering = [] if name == "bin" else ["lt", "lte", "gt", "gte", "between"]  # refused on binary at bind
    op = draw(st.sampled_from(["eq", "neq", "in", "not_in", "is_null", "is_not_null", *ordering]))
    c = col(name)
    if op in ("is_null", "is_not_null"):
        return getattr(c, op)()
    if op == "in":
        return c.isin(draw(st.lists(v, min_size=1, max_size=4)))
    if op == "not_in":
        return c.notin(draw(st.lists(v, min_size=1, max_size=4)))
    if op == "between":
        return c.between(draw(v), draw(v))
    return make_leaf(op, name, (draw(v),))


predicates = st.recursive(
    leaves(),
    lambda kids: st.one_of(
        st.lists(kids, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
        st.lists(kids, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
        st.lists(kids, min_size=2, max_size=3).map(and_all),
        st.lists(kids, min_size=2, max_size=3).map(or_all),
    ),
    max_leaves=8,
)


@settings(max_examples=examples(300), deadline=None)
@given(predicates)
def test_sql_round_trip(pred):
    text = to_sql(pred)
    assert parse_where(text) == pred, text


@settings(max_examples=examples(200), deadline=None)
@given(predicates)
def test_sql_round_trip_bound(pred):
    bound = pred.bind(SCHEMA)
    assert parse_where(bound.to_sql()).bind(SCHEMA) == bound
    assert bound.bind(SCHEMA) == bound  # binding is idempotent


@settings(max_examples=examples(200), deadline=None)
@given(predicates)
def test_negation_is_an_involution(pred):
    assert pred.negate().negate() == pred or any(leaf.op == "between" for leaf in pred.leaves())


# ---- hostile input -----------------------------------------------------------------------------

_ALPHABET = st.sampled_from(list("ab()'`\"=<>!,.-+ 0123456789eENOTANDORINISNULLBETWEENDATEX_ä\\\n"))


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(_ALPHABET, max_size=60).map("".join)))
def test_fuzzed_text_only_raises_invalid_predicate(text):
    try:
        p = parse_where(text)
    except InvalidPredicateError as exc:
        assert exc.offset is None or 0 <= exc.offset <= len(text)
        return
    try:
        p.bind(SCHEMA)
    except InvalidPredicateError:
        pass


@pytest.mark.parametrize("text", ["(" * 5000 + "a = 1" + ")" * 5000, "NOT " * 5000 + "a = 1"])
def test_deep_nesting_is_rejected_cleanly(text):
    with pytest.raises(InvalidPredicateError, match="nested deeper"):
        parse_where(text)


def test_moderate_nesting_is_fine():
    assert parse_where("(" * 100 + "a = 1" + ")" * 100) == make_leaf("eq", "a", (1,))


def test_map_value_columns():
    schema = parse_row_type("m MAP<STRING, INT>")
    assert parse_where("`m[k1]` = '7'").bind(schema) == make_leaf("eq", "m[k1]", (7,))
