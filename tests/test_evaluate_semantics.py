"""Evaluator semantics with small in-memory readers (independent of the real index formats)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples
from pyroaring import BitMap, BitMap64

from paimon_codec.errors import InvalidPredicateError
from paimon_codec.expressions import And, Or, col, make_leaf
from paimon_codec.expressions.sql import parse_where
from paimon_codec.fileindex.evaluate import apply_deletion_vector, evaluate, evaluate_single
from paimon_codec.fileindex.reader import EmptyFileIndexReader, FileIndexReader
from paimon_codec.fileindex.result import REMAIN, SKIP, BitmapResult
from paimon_codec.types import parse_row_type
from paimon_codec.values import Timestamp


class ExactBitmapReader(FileIndexReader):
    """Paimon's bitmap semantics over exact values (keys mapped by ``key``)."""

    def __init__(self, values, key=lambda v: v):
        self.n = len(values)
        self.key = key
        self.by_key: dict = {}
        self.nulls = BitMap()
        for i, v in enumerate(values):
            if v is None:
                self.nulls.add(i)
            else:
                self.by_key.setdefault(key(v), BitMap()).add(i)
        self.calls: list[str] = []

    def _all(self):
        bm = BitMap()
        bm.add_range(0, self.n)
        return bm

    def visit_equal(self, literal):
        self.calls.append("eq")
        return BitmapResult(self.by_key.get(self.key(literal), BitMap()).copy())

    def visit_in(self, literals):
        self.calls.append("in")
        return BitmapResult(BitMap().union(*[self.by_key.get(self.key(v), BitMap()) for v in literals]))

    def visit_not_equal(self, literal):
        self.calls.append("neq")
        return BitmapResult(self._all() - self.by_key.get(self.key(literal), BitMap()))

    def visit_not_in(self, literals):
        self.calls.append("not_in")
        return BitmapResult(self._all() - self.visit_in(literals).bitmap)

    def visit_is_null(self):
        return BitmapResult(self.nulls.copy())

    def visit_is_not_null(self):
        return BitmapResult(self._all() - self.nulls)


class FixedReader(FileIndexReader):
    """Answers every equality with a fixed result (a bloom filter's REMAIN / SKIP)."""

    def __init__(self, result):
        self.result = result
        self.calls = 0

    def visit_equal(self, literal):
        self.calls += 1
        return self.result


class FakeContainer:
    def __init__(self, readers: dict):
        self.readers = readers
        self.columns = {c: {} for c in readers}
        self.asked: list[str] = []

    def readers_for(self, column, dtype, options=None):
        self.asked.append(column)
        return list(self.readers[column])


ROW = parse_row_type("a INT, b STRING, c INT, ts TIMESTAMP(9), t6 TIMESTAMP(6)")
A = [1, 2, None, 1, 3, 2, 1, None]
B = ["x", "y", "x", None, "z", "x", "y", "x"]


def _truth(values, pred):
    return BitMap(i for i, v in enumerate(values) if v is not None and pred(v))


def test_leaf_ands_every_reader_and_stops_when_not_remaining():
    bitmap = ExactBitmapReader(A)
    bloom_skip = FixedReader(SKIP)
    cont = FakeContainer({"a": [bloom_skip, bitmap]})
    assert evaluate(col("a") == 1, cont, ROW) is SKIP
    assert bitmap.calls == []  # stopped after the first non-remaining answer
    cont = FakeContainer({"a": [bitmap, FixedReader(REMAIN)]})
    r = evaluate(col("a") == 1, cont, ROW)
    assert r.to_dict() == {"kind": "BITMAP", "cardinality": 3, "ranges": [[0, 1], [3, 4], [6, 7]]}
    # an absent key: empty bitmap, the bloom filter is never asked
    bloom = FixedReader(REMAIN)
    r = evaluate(col("a") == 9, FakeContainer({"a": [bitmap, bloom]}), ROW)
    assert r.kind == "BITMAP" and not r.remain() and bloom.calls == 0


def test_unindexed_column_remains_and_unknown_column_is_an_error():
    cont = FakeContainer({"a": [ExactBitmapReader(A)]})
    assert evaluate(col("c") == 1, cont, ROW) is REMAIN
    assert evaluate(And(()), cont, ROW) is REMAIN and evaluate(Or(()), cont, ROW) is REMAIN
    with pytest.raises(InvalidPredicateError):
        evaluate(col("nope") == 1, cont, ROW)
    with pytest.raises(InvalidPredicateError):
        evaluate(col("a") == "abc", cont, ROW)


def test_and_stops_early_and_or_is_sound():
    a_reader, b_reader = ExactBitmapReader(A), ExactBitmapReader(B)
    cont = FakeContainer({"a": [a_reader], "b": [b_reader]})
    # AND: the first child leaves nothing, the second is never evaluated
    r = evaluate((col("a") == 9) & (col("b") == "x"), cont, ROW)
    assert not r.remain() and b_reader.calls == []
    # bitmap OR un-indexed column -> REMAIN (Java 0.9 returned the bitmap alone)
    assert evaluate((col("a") == 1) | (col("c") == 5), cont, ROW) is REMAIN
    # bitmap OR SKIP -> the bitmap (Java 0.9 returned SKIP)
    cont2 = FakeContainer({"a": [ExactBitmapReader(A)], "b": [FixedReader(SKIP)]})
    r = evaluate((col("a") == 1) | (col("b") == "q"), cont2, ROW)
    assert r.kind == "BITMAP" and r.bitmap == BitMap([0, 3, 6])
    r = evaluate((col("b") == "q") | (col("a") == 1), cont2, ROW)
    assert r.kind == "BITMAP" and r.bitmap == BitMap([0, 3, 6])


def test_container_is_asked_once_per_column():
    cont = FakeContainer({"a": [ExactBitmapReader(A)]})
    evaluate(parse_where("a = 1 OR a = 2 OR a IS NULL"), cont, ROW)
    assert cont.asked == ["a"]


def test_empty_index_reader():
    cont = FakeContainer({"a": [EmptyFileIndexReader()]})
    assert evaluate(col("a") == 1, cont, ROW) is SKIP
    assert evaluate(col("a").is_null(), cont, ROW) is REMAIN
    assert evaluate(col("a") != 1, cont, ROW) is REMAIN


def _ts_values():
    # rows 0/1 share micros with the literal but differ in nanos; row 2 equals it; row 3 is null
    return [Timestamp(1000, 5_001), Timestamp(1000, 5_999), Timestamp(1000, 5_500), None, Timestamp(7, 0)]


def test_timestamp9_not_equal_never_drops_rows():
    vals = _ts_values()
    reader = ExactBitmapReader(vals, key=lambda t: t.to_micros())
    lit = Timestamp(1000, 5_500)
    for pred, truth in [
        (col("ts") != lit, _truth(vals, lambda v: v != lit)),
        (col("ts").notin([lit, Timestamp(7, 0)]), _truth(vals, lambda v: v not in (lit, Timestamp(7, 0)))),
        (col("ts") == lit, _truth(vals, lambda v: v == lit)),
        (col("ts").isin([lit]), _truth(vals, lambda v: v == lit)),
    ]:
        r = evaluate(pred, FakeContainer({"ts": [reader]}), ROW)
        assert r is REMAIN or truth <= r.bitmap, pred
    # an absent collapsed key: the answer is exactly Java's complement
    r = evaluate(col("ts") != Timestamp(5, 1), FakeContainer({"ts": [reader]}), ROW)
    assert r.to_dict()["ranges"] == [[0, 5]]


def test_timestamp6_literal_finer_than_key():
    vals = [Timestamp(1000, 5_000), Timestamp(1000, 6_000), None]
    reader = ExactBitmapReader(vals, key=lambda t: t.to_micros())
    lit = Timestamp(1000, 5_500)  # no row can equal it
    r = evaluate(col("t6") != lit, FakeContainer({"t6": [reader]}), ROW)
    assert _truth(vals, lambda v: v != lit) <= r.bitmap
    r = evaluate(col("t6") != Timestamp(1000, 5_000), FakeContainer({"t6": [reader]}), ROW)
    assert r.bitmap == BitMap([1, 2])  # exact literal: Java's answer


def test_collapsed_range_predicates_widen():
    class RangeReader(FileIndexReader):
        def __init__(self):
            self.calls = []

        def visit_lt(self, v):
            self.calls.append("lt")
            return REMAIN

        def visit_lte(self, v):
            self.calls.append("lte")
            return REMAIN

        def visit_gt(self, v):
            self.calls.append("gt")
            return REMAIN

        def visit_gte(self, v):
            self.calls.append("gte")
            return REMAIN

    rr = RangeReader()
    cont = FakeContainer({"ts": [rr], "t6": [rr]})
    evaluate((col("ts") < Timestamp(1, 0)) & (col("ts") > Timestamp(1, 0)), cont, ROW)
    evaluate((col("t6") < Timestamp(1, 0)) & (col("t6") > Timestamp(1, 0)), cont, ROW)
    assert rr.calls == ["lte", "gte", "lt", "gt"]


def test_evaluate_single_ignores_column_names():
    reader = ExactBitmapReader(A)
    r = evaluate_single(parse_where("x = 1 OR whatever IS NULL"), reader, None)
    assert r.bitmap == BitMap([0, 2, 3, 6, 7])
    r = evaluate_single(make_leaf("in", None, ("1", "3")), reader, parse_row_type("v INT").fields[0].type)
    assert r.bitmap == BitMap([0, 3, 4, 6])


# ---- deletion vectors ------------------------------------------------------------------------


def test_apply_deletion_vector_rules():
    bm = BitmapResult(BitMap([0, 1, 5]))
    assert apply_deletion_vector(bm, 8, None).to_dict()["ranges"] == [[0, 2], [5, 6]]
    assert apply_deletion_vector(bm, 8, [1]).to_dict()["ranges"] == [[0, 1], [5, 6]]
    assert apply_deletion_vector(bm, 8, [0, 1, 5]) is SKIP
    # equal to the selection -> REMAIN (also when everything is deleted)
    assert apply_deletion_vector(BitmapResult(BitMap(range(8))), 8, [2]) is REMAIN
    assert apply_deletion_vector(bm, 8, range(8)) is REMAIN
    assert apply_deletion_vector(REMAIN, 8, [3]) is REMAIN
    assert apply_deletion_vector(SKIP, 8, None) is SKIP
    assert apply_deletion_vector(BitmapResult(BitMap()), 8, None) is SKIP
    # guards: 64-bit DV or too many rows -> REMAIN
    assert apply_deletion_vector(bm, 8, BitMap64([1])) is REMAIN
    assert apply_deletion_vector(bm, 8, [1], bitmap64=True) is REMAIN
    assert apply_deletion_vector(SKIP, 2**31, None) is REMAIN


@settings(max_examples=examples(150), deadline=None)
@given(
    st.integers(0, 300),
    st.lists(st.integers(0, 299), max_size=40),
    st.one_of(st.just("REMAIN"), st.just("SKIP"), st.lists(st.integers(0, 299), max_size=60)),
)
def test_apply_deletion_vector_is_sound(n, deleted, res):
    result = REMAIN if res == "REMAIN" else SKIP if res == "SKIP" else BitmapResult(BitMap(res))
    out = apply_deletion_vector(result, n, deleted)
    live = BitMap(range(n)) - BitMap(deleted)
    wanted = live if res == "REMAIN" else BitMap() if res == "SKIP" else live & BitMap(res)
    if out is SKIP:
        assert not wanted
    elif out is REMAIN:
        assert wanted == live or res == "REMAIN" or not live
    else:
        assert out.bitmap == wanted and wanted != live


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(0, 5)), min_size=0, max_size=30),
    st.lists(st.one_of(st.none(), st.sampled_from("xyz")), min_size=30, max_size=30),
    st.data(),
)
def test_random_trees_never_drop_matching_rows(avals, bvals, data):
    n = len(avals)
    bvals = bvals[:n]
    row = parse_row_type("a INT, b STRING, c INT")
    readers = {"a": [ExactBitmapReader(avals)], "b": [FixedReader(data.draw(st.sampled_from([REMAIN, SKIP])))]}
    leaf = st.one_of(
        st.integers(0, 6).map(lambda v: col("a") == v),
        st.integers(0, 6).map(lambda v: col("a") != v),
        st.lists(st.integers(0, 6), min_size=1, max_size=3).map(lambda v: col("a").isin(v)),
        st.lists(st.integers(0, 6), min_size=1, max_size=3).map(lambda v: col("a").notin(v)),
        st.just(col("a").is_null()),
        st.just(col("a").is_not_null()),
        st.sampled_from("xyzq").map(lambda v: col("b") == v),
        st.integers(0, 6).map(lambda v: col("c") == v),
    )
    tree = data.draw(st.recursive(leaf, lambda k: st.lists(k, min_size=1, max_size=3).flatmap(
        lambda xs: st.sampled_from([And(tuple(xs)), Or(tuple(xs))])), max_leaves=6))
    result = evaluate(tree, FakeContainer(readers), row)
    if readers["b"][0].result is SKIP:
        # the bloom filter says no row holds b == v: rows are only "matching" where that agrees
        bvals = [None] * n

    def holds(p, i):
        if isinstance(p, And):
            return all(holds(c, i) for c in p.children)
        if isinstance(p, Or):
            return any(holds(c, i) for c in p.children)
        v = {"a": avals, "b": bvals, "c": [None] * n}[p.column][i] if p.column != "c" else 0
        if p.op == "is_null":
            return v is None
        if p.op == "is_not_null":
            return v is not None
        if v is None:
            return False
        return {"eq": v == p.literal, "neq": v != p.literal, "in": v in p.literals,
                "not_in": v not in p.literals}[p.op]

    truth = BitMap(i for i in range(n) if holds(tree, i))
    if result is SKIP:
        assert not truth
    elif result is not REMAIN:
        assert truth <= result.bitmap


def test_readers_are_reused_across_evaluations_unless_disabled():
    cont = FakeContainer({"a": [ExactBitmapReader(A)]})
    for v in range(5):
        evaluate(col("a") == v, cont, ROW)
    assert cont.asked == ["a"]
    for v in range(3):
        evaluate(col("a") == v, cont, ROW, reuse_readers=False)
    assert cont.asked == ["a"] * 4
    # a different type for the same column name gets its own readers
    evaluate(col("a") == 1, cont, parse_row_type("a BIGINT"))
    assert cont.asked == ["a"] * 5
