"""oracles.compare: row-set equality as SQL values (the yardstick every oracle test uses)."""

from __future__ import annotations

import decimal

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows, canonical_rows, row_set_difference


def _t(**cols) -> pa.Table:
    return pa.table(cols)


def test_order_does_not_matter_but_multiplicity_does():
    a = _t(id=[1, 2, 2], v=["x", "y", "y"])
    assert_same_rows(a, _t(id=[2, 1, 2], v=["y", "x", "y"]))
    diff = row_set_difference(a, _t(id=[1, 2], v=["x", "y"]))
    assert diff is not None and "1 only in ours" in diff and "'id': 2" in diff
    with pytest.raises(AssertionError, match="row sets differ"):
        assert_same_rows(a, _t(id=[1, 2, 3], v=["x", "y", "y"]))


def test_column_names_and_order_are_compared():
    with pytest.raises(AssertionError, match="columns differ"):
        assert_same_rows(_t(a=[1], b=[2]), _t(b=[2], a=[1]))
    with pytest.raises(AssertionError, match="columns differ"):
        assert_same_rows(_t(a=[1]), _t(A=[1]))


def test_floats_compare_as_sql_values_with_nan_equal_to_nan():
    f = pa.float32()
    assert_same_rows(_t(x=pa.array([0.0, float("nan"), None], f)), _t(x=pa.array([-0.0, float("nan"), None], f)))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(x=pa.array([float("nan")], f)), _t(x=pa.array([None], f)))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(x=pa.array([1.0], pa.float64())), _t(x=pa.array([1.0000001], pa.float64())))


def test_exact_floats_tell_negative_zero_from_zero_also_nested():
    f = pa.float32()
    assert_same_rows(_t(x=pa.array([-0.0, float("nan")], f)), _t(x=pa.array([-0.0, float("nan")], f)), exact_floats=True)
    with pytest.raises(AssertionError, match="only in ours"):
        assert_same_rows(_t(x=pa.array([0.0], f)), _t(x=pa.array([-0.0], f)), exact_floats=True)
    nested = pa.list_(pa.float64())
    with pytest.raises(AssertionError, match="^f: row sets differ"):
        assert_same_rows(_t(x=pa.array([[0.0]], nested)), _t(x=pa.array([[-0.0]], nested)), exact_floats=True,
                         what="f")


def test_timestamps_compare_across_units_to_the_nanosecond():
    us = pa.array([1_700_000_000_123_456, None], pa.timestamp("us"))
    ns = pa.array([1_700_000_000_123_456_000, None], pa.timestamp("ns"))
    assert_same_rows(_t(t=us), _t(t=ns))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(t=us), _t(t=pa.array([1_700_000_000_123_456_001, None], pa.timestamp("ns"))))
    assert_same_rows(_t(t=pa.array([5], pa.timestamp("ms", tz="UTC"))), _t(t=pa.array([5000], pa.timestamp("us"))))


def test_time_date_decimal_and_binary_values():
    assert_same_rows(_t(tm=pa.array([86_399_000], pa.int32())), _t(tm=pa.array([86_399_000], pa.time32("ms"))))
    assert_same_rows(_t(tm=pa.array([3], pa.time32("s"))), _t(tm=pa.array([3_000_000], pa.time64("us"))))
    assert_same_rows(_t(d=pa.array([-1], pa.date32())), _t(d=pa.array([-86_400_000], pa.date64())))
    assert_same_rows(_t(d=pa.array([decimal.Decimal("1.50")], pa.decimal128(5, 2))),
                     _t(d=pa.array([decimal.Decimal("1.5")], pa.decimal128(38, 10))))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(b=[b"\x00"]), _t(b=[b"\x00\x00"]))


def test_nested_values_compare_exactly_and_maps_ignore_entry_order():
    lt = pa.list_(pa.struct([("k", pa.string()), ("t", pa.timestamp("ns")), ("f", pa.float64())]))
    a = pa.array([[{"k": "a", "t": 1, "f": float("nan")}, None]], lt)
    assert_same_rows(_t(x=a), _t(x=pa.array([[{"k": "a", "t": 1, "f": float("nan")}, None]], lt)))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(x=a), _t(x=pa.array([[None, {"k": "a", "t": 1, "f": float("nan")}]], lt)))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(x=a), _t(x=pa.array([[{"k": "a", "t": 2, "f": float("nan")}, None]], lt)))
    m = pa.map_(pa.string(), pa.list_(pa.int32()))
    assert_same_rows(_t(m=pa.array([[("a", [1]), ("b", None)]], m)), _t(m=pa.array([[("b", None), ("a", [1])]], m)))
    with pytest.raises(AssertionError):
        assert_same_rows(_t(m=pa.array([[("a", [1])]], m)), _t(m=pa.array([[("a", [2])]], m)))
    s1 = pa.array([{"x": 1}], pa.struct([("x", pa.int32())]))
    s2 = pa.array([{"y": 1}], pa.struct([("y", pa.int32())]))
    with pytest.raises(AssertionError):  # nested field names are part of the value
        assert_same_rows(_t(s=s1), _t(s=s2))


def test_check_types_and_dictionary_columns():
    plain = _t(s=pa.array(["a", "b"]))
    dictionary = _t(s=pa.array(["a", "b"]).dictionary_encode())
    assert_same_rows(plain, dictionary)
    with pytest.raises(AssertionError, match="column types differ"):
        assert_same_rows(plain, dictionary, check_types=True)
    assert canonical_rows(_t()) == []
