"""FLOAT / DOUBLE file-index answers keep every row that the asked semantics' comparison selects.

Indexes key floats by their bits (-0.0 and 0.0 are different keys; NaN is one canonical key), as
Paimon's own predicates compare (``Double.compare``: -0.0 < 0.0, NaN = NaN, NaN greatest): asked with
``semantics="paimon"`` (the index layer's default, Java's answer) every index holds Paimon's rows;
Spark SQL has -0.0 = 0.0 (NaN = NaN, NaN greatest), and ``semantics="spark"`` widens float leaves so
that the answer holds Spark's rows.  Checked for every index type and operator.
"""

from __future__ import annotations

import math
import struct

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paimon_semantics import paimon_compare, selects, spark_compare

from paimon_codec.expressions import make_leaf
from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter
from paimon_codec.fileindex.evaluate import evaluate
from paimon_codec.types import parse_row_type

SPECIALS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 2.5]
OPS = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "not_in", "between", "is_null", "is_not_null"]
INDEX_OPTIONS = {
    "bitmap-v1": {"file-index.bitmap.columns": "f", "file-index.bitmap.f.version": "1"},
    "bitmap-v2": {"file-index.bitmap.columns": "f"},
    "bloom-filter": {"file-index.bloom-filter.columns": "f"},
    "range-bitmap": {"file-index.range-bitmap.columns": "f"},
}


ENGINES = {"paimon": paimon_compare, "spark": spark_compare}


def _as_float32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def _index_rows(values: list, ftype: str, kind: str, op: str, lits: tuple, semantics: str = "paimon") -> set[int]:
    schema = parse_row_type(f"f {ftype}")
    writer = FileIndexWriter(schema, INDEX_OPTIONS[kind])
    arrow = pa.float32() if ftype == "FLOAT" else pa.float64()
    writer.write_table(pa.table({"f": pa.array(values, type=arrow)}))
    container = FileIndexContainerReader(writer.serialize())
    result = evaluate(make_leaf(op, "f", lits), container, schema, semantics=semantics)
    if not result.remain():
        return set()
    bitmap = getattr(result, "bitmap", None)
    return set(range(len(values))) if bitmap is None else set(bitmap)


def _check(values: list, ftype: str, kind: str, op: str, lits: tuple) -> None:
    pred = make_leaf(op, "f", lits)
    for engine, compare in ENGINES.items():
        got = _index_rows(values, ftype, kind, op, lits, engine)
        want = {i for i, v in enumerate(values) if selects(pred, {"f": v}, compare) is True}
        missing = want - got
        assert not missing, (f"{kind} on {ftype} dropped rows {sorted(missing)} of {engine}'s "
                             f"f {op} {lits} over {values}")


def _literals(op: str, a: float, b: float) -> tuple:
    if op in ("is_null", "is_not_null"):
        return ()
    if op in ("in", "not_in"):
        return (a, b)
    if op == "between":
        return (a, b)
    return (a,)


floats = st.one_of(st.sampled_from(SPECIALS), st.floats(allow_nan=True, allow_infinity=True, width=32))


@pytest.mark.parametrize("kind", sorted(INDEX_OPTIONS))
@pytest.mark.parametrize("ftype", ["FLOAT", "DOUBLE"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(st.one_of(st.none(), floats), min_size=1, max_size=12),
       op=st.sampled_from(OPS), a=floats, b=floats)
def test_float_index_answers_are_supersets(kind, ftype, values, op, a, b):
    if ftype == "FLOAT":
        values = [None if v is None else _as_float32(v) for v in values]
        a, b = _as_float32(a), _as_float32(b)
    _check(values, ftype, kind, op, _literals(op, a, b))


@pytest.mark.parametrize("kind", sorted(INDEX_OPTIONS))
@pytest.mark.parametrize("ftype", ["FLOAT", "DOUBLE"])
def test_every_special_pair(kind, ftype):
    """Exhaustive over the special values: each op, each literal pair, on a column holding them all."""
    values = [*SPECIALS, None, -0.0, 0.0]
    for op in OPS:
        for a in SPECIALS:
            for b in SPECIALS:
                _check(values, ftype, kind, op, _literals(op, a, b))


@pytest.mark.parametrize("ftype", ["FLOAT", "DOUBLE"])
def test_bloom_over_negative_zeros(ftype):
    """A file of only -0.0 rows: ``f = 0.0`` is skipped as Java skips it (Paimon: -0.0 <> 0.0), kept under
    Spark's semantics (Spark selects every row)."""
    assert _index_rows([-0.0, -0.0], ftype, "bloom-filter", "eq", (0.0,)) == set()
    assert _index_rows([-0.0, -0.0], ftype, "bloom-filter", "eq", (0.0,), "spark") == {0, 1}
    assert _index_rows([0.0], ftype, "bloom-filter", "in", (-0.0, 5.0), "spark") == {0}


def test_zero_lookups_paimon_exact_spark_widened():
    """Asked as Paimon asks, a bit-keyed index answers with exactly Paimon's rows; Spark's widening keeps the
    index useful (only the zeros come back for ``f = 0.0``)."""
    values = [1.0, -0.0, 2.0, 0.0, math.nan]
    paimon = {("bitmap-v2", "eq", 0.0): {3}, ("bitmap-v2", "neq", math.nan): {0, 1, 2, 3},
              ("range-bitmap", "gte", 0.0): {0, 2, 3, 4}, ("range-bitmap", "lte", -0.0): {1},
              ("range-bitmap", "lt", 0.0): {1}, ("range-bitmap", "eq", math.nan): {4}}
    spark = {("bitmap-v2", "eq", 0.0): {1, 3}, ("bitmap-v2", "neq", math.nan): {0, 1, 2, 3},
             ("range-bitmap", "gte", 0.0): {0, 1, 2, 3, 4}, ("range-bitmap", "lte", -0.0): {1, 3},
             ("range-bitmap", "lt", 0.0): {1}, ("range-bitmap", "eq", math.nan): {4}}
    for semantics, answers in (("paimon", paimon), ("spark", spark)):
        for (kind, op, lit), rows in answers.items():
            assert _index_rows(values, "DOUBLE", kind, op, (lit,), semantics) == rows, (semantics, kind, op, lit)
