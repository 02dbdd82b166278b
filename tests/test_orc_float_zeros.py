"""FLOAT / DOUBLE zeros and NaN in ORC tables written by Paimon Java 1.4.2, read by us as Java reads them.

Java's ORC reader gives an all-zero, NULL-free batch (1024 rows from the start of a stripe) its first zero's
sign on every row (``0.0 == -0.0`` marks the batch repeating; :mod:`paimon_codec.reading.orc_batches`), which
pyarrow does not: our read returned the stored -0.0 where Java returns 0.0.  Parquet and Avro keep each
value's bits.  Predicates comparing such columns of ORC files are refused under semantics="paimon"
(:mod:`paimon_codec.planning.orc_pruning`): Java prunes by ORC statistics that leave NaN and zero signs out.
All compared bit-exactly (``exact_floats``) with Java's own read.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.expressions import make_leaf
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

NAN = float("nan")
# one list per commit (one file each): all-zero batches of both signs, with a NULL, one row, NaN among zeros
COMMITS = [[0.0, -0.0], [-0.0, 0.0, -0.0], [0.0, None, -0.0], [-0.0], [NAN, -0.0, 0.0], [1.5, -0.0, 0.0],
           [0.0] * 1000 + [-0.0] * 100 + [2.0, -0.0]]  # rows 1024.. are the second batch


def _table(java, root, fmt: str) -> str:
    path = java.create_table(root, f"db.z_{fmt}", "id INT, f FLOAT, d DOUBLE", options={"file.format": fmt})
    start = 0
    for values in COMMITS:
        java.write(path, pa.table({"id": pa.array(range(start, start + len(values)), pa.int32()),
                                   "f": pa.array(values, pa.float32()), "d": pa.array(values, pa.float64())}))
        start += len(values)
    return path


@pytest.mark.parametrize("fmt", ["orc", "parquet", "avro"])
def test_zero_signs_read_as_java(java_newest, tmp_path, fmt):
    path = _table(java_newest, tmp_path, fmt)
    theirs = java_newest.read(path)
    assert row_set_difference(read_table(path), theirs, exact_floats=True) is None


def test_orc_float_comparisons_refused_null_tests_answered(java_newest, tmp_path):
    path = _table(java_newest, tmp_path, "orc")
    for op, lits in [("eq", [-0.0]), ("gt", [-0.0]), ("lte", [1.0]), ("eq", [NAN]), ("not_in", [NAN])]:
        with pytest.raises(UnsupportedTypeError, match="ORC float statistics"):
            read_table(path, make_leaf(op, "d", lits))
    for op in ("is_null", "is_not_null"):
        where = make_leaf(op, "f")
        assert row_set_difference(read_table(path, where), java_newest.read(path, where=where),
                                  exact_floats=True) is None


def _spark_key(x: float) -> tuple:
    """Spark SQL's float order, written out: NaN equal to itself and above every number, -0.0 = 0.0."""
    return (1, 0.0) if x != x else (0, x + 0.0)


def test_orc_float_comparisons_answered_under_spark_semantics(java_newest, tmp_path):
    """The refusal guards Paimon's answer (Java's pruning); under Spark's semantics the answer is Spark SQL's
    filter of every row Java stores, which no pruning of ours narrows - so it is answered."""
    path = _table(java_newest, tmp_path, "orc")
    every = java_newest.read(path).to_pylist()
    tests = {"eq": lambda a, b: a == b, "gt": lambda a, b: a > b, "lte": lambda a, b: a <= b,
             "lt": lambda a, b: a < b}
    for op, lit in [("eq", -0.0), ("gt", -0.0), ("lte", 1.0), ("eq", NAN), ("lt", NAN)]:
        got = sorted(read_table(path, make_leaf(op, "d", [lit]), semantics="spark").column("id").to_pylist())
        want = sorted(r["id"] for r in every
                      if r["d"] is not None and tests[op](_spark_key(r["d"]), _spark_key(lit)))
        assert got == want, (op, lit)
        assert want  # every case selects rows
