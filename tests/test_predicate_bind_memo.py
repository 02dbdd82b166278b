"""Binding is memoised per schema object, fresh-reader evaluation shares payload windows, and
index modules are looked up once: none of it may change a result."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import paimon_codec.fileindex as fi
from paimon_codec.errors import InvalidPredicateError, UnsupportedTypeError
from paimon_codec.expressions import And, Or, make_leaf, parse_where
from paimon_codec.fileindex import registry
from paimon_codec.fileio import ByteSource
from paimon_codec.types import parse_row_type


def test_rebinding_to_the_same_schema_returns_the_bound_leaf():
    schema = parse_row_type("d DATE, s STRING")
    leaf = make_leaf("eq", "d", ("2024-01-02",))
    bound = leaf.bind(schema)
    assert bound is not leaf and bound.literals == (19724,)
    assert bound.bind(schema) is bound
    assert leaf.bind(schema).literals == (19724,)  # the unbound original is unchanged
    assert leaf.literals == ("2024-01-02",)


def test_memo_is_per_schema_object_not_per_value():
    as_date = parse_row_type("d DATE")
    as_string = parse_row_type("d STRING")
    leaf = make_leaf("eq", "d", ("2024-01-02",))
    assert leaf.bind(as_string).literals == ("2024-01-02",)
    assert leaf.bind(as_date).literals == (19724,)
    bound_date = leaf.bind(as_date)
    with pytest.raises(InvalidPredicateError):
        bound_date.bind(as_string)  # an int is no STRING literal: the memo must not hide that
    narrow = parse_row_type("d SMALLINT")
    wide = make_leaf("eq", "d", (70000,)).bind(parse_row_type("d BIGINT"))
    with pytest.raises(InvalidPredicateError):
        wide.bind(narrow)


def test_an_unbindable_leaf_is_not_remembered():
    schema = parse_row_type("a INT")
    leaf = make_leaf("eq", "a", ("not a number",))
    for _ in range(2):
        with pytest.raises(InvalidPredicateError):
            leaf.bind(schema)
    with pytest.raises(InvalidPredicateError):
        make_leaf("eq", "missing", (1,)).bind(schema)


def test_compound_rebinding_and_identity_when_nothing_changes():
    schema = parse_row_type("a INT, s STRING")
    pred = And((make_leaf("eq", "a", (1,)), Or((make_leaf("in", "s", ("x", "y")), make_leaf("is_null", "s", ())))))
    bound = pred.bind(schema)
    assert bound is pred  # every literal already of its column type
    assert pred.bind(schema) is pred
    changed = And((make_leaf("eq", "a", (1.0,)), make_leaf("eq", "s", ("x",))))
    b = changed.bind(schema)
    assert b is not changed and type(b.children[0].literals[0]) is int
    assert b.bind(schema) is b and b == changed.bind(schema)


def test_memo_is_no_part_of_equality_hash_or_pickle():
    schema = parse_row_type("a BIGINT")
    plain = make_leaf("in", "a", (1, 2, 3))
    bound = plain.bind(schema)
    assert bound == make_leaf("in", "a", (1, 2, 3)) and hash(bound) == hash(make_leaf("in", "a", (1, 2, 3)))
    for clone in (pickle.loads(pickle.dumps(bound)), copy.deepcopy(bound), copy.copy(bound)):
        assert clone == bound
        assert "_bound_to" not in vars(clone)
        assert clone.bind(schema) == bound
    tree = And((bound, make_leaf("eq", "a", (4,)))).bind(schema)
    restored = pickle.loads(pickle.dumps(tree))
    assert restored == tree and "_bound_to" not in vars(restored)


def _w7_like(seed: int):
    rng = np.random.default_rng(seed)
    columns = {f"c{k}": rng.integers(0, 40, 500).astype(np.int32) for k in range(4)}
    schema = parse_row_type(", ".join(f"c{k} INT" for k in range(4)))
    writer = fi.FileIndexWriter(schema, [(f"c{k}", "bitmap", {"version": "1"}) for k in range(4)])
    writer.write_table(columns)
    return schema, columns, writer.serialize()


@pytest.mark.parametrize("reuse", [False, True])
def test_fresh_and_reused_readers_answer_like_a_scan(reuse):
    schema, columns, data = _w7_like(7)
    source = ByteSource(data)
    container = fi.FileIndexContainerReader(source)
    preds = [make_leaf("eq", "c2", (v,)) for v in range(45)]
    for round_ in range(2):  # the second round hits the binding memo (and, with reuse, the readers)
        for p in preds:
            r = fi.evaluate(p, container, schema, reuse_readers=reuse)
            expected = np.flatnonzero(columns["c2"] == p.literals[0]).tolist()
            if expected:
                assert r.kind == "BITMAP" and list(r.bitmap) == expected, (round_, p)
            else:
                assert not r.remain(), (round_, p)
        tree = parse_where("c1 = 3 OR c2 = 5 AND c1 >= 0")
        r = fi.evaluate(tree, container, schema, reuse_readers=reuse)
        want = np.flatnonzero((columns["c1"] == 3) | (columns["c2"] == 5)).tolist()
        assert list(r.bitmap) == want


def test_readers_for_shares_one_window_per_payload():
    schema, _, data = _w7_like(3)
    source = ByteSource(data)
    container = fi.FileIndexContainerReader(source)
    (a,) = container.readers_for("c1", schema.fields[1].type)
    (b,) = container.readers_for("c1", "INT")
    assert a is not b and a.source is b.source
    start, length = container.columns["c1"]["bitmap"]
    assert (a.source.base, len(a.source)) == (start, length)
    assert a.visit_equal(3).to_dict() == b.visit_equal(3).to_dict()
    assert source.bytes_read <= container.head_length + 2 * length  # only c1's payload, by both readers


def test_registry_follows_changes_to_its_table(monkeypatch):
    bitmap = registry.index_module("bitmap")
    assert registry.index_module("bitmap") is bitmap
    monkeypatch.setitem(registry.INDEX_MODULES, "bitmap", "paimon_codec.fileindex.bloom")
    assert registry.index_module("bitmap").__name__ == "paimon_codec.fileindex.bloom"
    monkeypatch.delitem(registry.INDEX_MODULES, "bitmap")
    with pytest.raises(UnsupportedTypeError):
        registry.index_module("bitmap")
