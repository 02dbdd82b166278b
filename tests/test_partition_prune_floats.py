"""Partition pruning (:mod:`paimon_codec.planning.partition_prune`) of FLOAT / DOUBLE partition keys.

Review finding: partition values were compared with Python's float comparisons, under which NaN is neither
equal to itself nor ordered, so the NaN partition was dropped for ``p > 1``, ``p >= 1``, ``p = NaN``,
``p IN (NaN)``, ``p < NaN``, ``p BETWEEN 0.5 AND NaN``, ``p > Infinity`` - rows Java Paimon 1.4.2 returns
(its ``Double.compare`` puts NaN above every number, equal to itself) and the row filter keeps (Spark's order,
the same for NaN).  Partition values now compare as the row filter does; ``-0.0`` and ``0.0`` are one value
there, as for data columns (:mod:`paimon_codec.reading.arrow_filter`), where Java tells them apart.
"""

from __future__ import annotations

import math

import pyarrow as pa
import pytest

from paimon_codec.expressions import Or, make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally

VALUES = [math.nan, 1.0, -0.0, 0.0, math.inf, -math.inf, None, 2.5]
ARROW = pa.schema([("id", pa.int32()), ("p", pa.float64()), ("f", pa.float32()), ("v", pa.float64())])


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


LITERALS = [1.0, math.nan, math.inf, -math.inf, 2.5, 0.5]
OPS = ("eq", "neq", "lt", "lte", "gt", "gte")


def predicates(c: str) -> list:
    out = [L(op, c, x) for op in OPS for x in LITERALS]
    out += [L("in", c, math.nan), L("in", c, 1.0, math.nan), L("not_in", c, math.nan), L("not_in", c, 1.0, 2.5),
            L("between", c, 0.5, math.nan), L("between", c, math.nan, math.nan), L("between", c, -math.inf, 1.0),
            L("is_null", c), L("is_not_null", c), L("gt", c, 1.0).negate(), Or([L("lt", c, 0.5), L("eq", c, math.nan)])]
    return out


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("part_floats"), "db.t", "id INT, p DOUBLE, f FLOAT, v DOUBLE",
                                    partition_keys=["p", "f"], options={"bucket": "-1"})
    n = len(VALUES)
    java_newest.write(path, pa.table({"id": list(range(n)), "p": VALUES, "f": VALUES, "v": VALUES}, schema=ARROW))
    return path


def _ids(t: pa.Table) -> list[int]:
    return sorted(t.column("id").to_pylist())


def _zeros_apart(pred) -> bool:
    """Java orders -0.0 below 0.0 (``Double.compare``); the row filter, as Spark, does not."""
    return any(x == 0.0 for leaf in pred.leaves() for x in leaf.literals if isinstance(x, float))


@pytest.mark.parametrize("column", ["p", "f"])
def test_nan_and_infinite_partitions_are_kept_as_java_and_the_row_filter_keep_them(table, java_newest, column):
    everything = java_newest.read(table)
    for pred in predicates(column):
        plan = plan_scan(table, pred)
        ours = _ids(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type))
        # the same predicate on the data column v (never pruned by partition) and over the whole table
        assert ours == _ids(filter_table(everything, pred, plan.row_type)), str(pred)
        on_data = _ids(filter_table(everything, make_leaf_like(pred, "v"), plan.row_type))
        assert ours == on_data, str(pred)
        if not _zeros_apart(pred):
            assert ours == _ids(java_newest.read(table, where=pred)), str(pred)


def make_leaf_like(pred, column: str):
    """``pred`` with every leaf on ``column`` instead."""
    from paimon_codec.expressions.predicate import And, Leaf

    if isinstance(pred, Leaf):
        return pred.with_column(column)
    return type(pred)(tuple(make_leaf_like(c, column) for c in pred.children)) if isinstance(pred, (And, Or)) else pred
