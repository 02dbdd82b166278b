"""A DECIMAL literal with more digits than its column's type: one meaning everywhere, Paimon's.

Review finding: ``dec > 1.255`` on a ``DECIMAL(10, 2)`` column meant three things at once - the file indexes'
key codecs rounded the literal HALF_UP to the column's scale (``> 1.26``, as Paimon Java's ``PredicateBuilder``
converts every literal with ``Decimal.fromBigDecimal``), stats pruning and Spark's residual filter compared it
exactly, and the Arrow filter of a local read raised a bare ``ArrowInvalid``.  Through Spark the rows matched
neither meaning (``> 1.255`` lost the row holding 1.26 where the range-bitmap index skipped its file,
``= 1.255`` returned nothing where Java returns 1.26).  Binding now rounds such literals as Paimon does, and
refuses (one ``InvalidPredicateError``) a literal the column's precision cannot hold, which Java turns into NULL.
"""

from __future__ import annotations

from decimal import Decimal

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidPredicateError
from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally

ARROW = pa.schema([("id", pa.int32()), ("dec", pa.decimal128(10, 2))])
FILES = [["1.25", "1.26", "1.24"], ["-1.25", "-1.26", "-1.24"], ["99999999.99", "-99999999.99"], ["0.00", "0.01"]]
LITERALS = ["1.255", "1.245", "1.2549", "-1.255", "-1.245", "99999999.994", "0.005", "-0.005", "1.26", "1"]


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


PREDICATES = [L(op, "dec", Decimal(v)) for op in ("eq", "neq", "lt", "lte", "gt", "gte") for v in LITERALS] + [
    L("in", "dec", Decimal("1.255"), Decimal("-1.245")), L("not_in", "dec", Decimal("1.255"), Decimal("0.005")),
    L("between", "dec", Decimal("1.245"), Decimal("1.255")), L("between", "dec", Decimal("-1.255"), Decimal("0.004")),
    L("gt", "dec", Decimal("1.255")).negate() & L("is_not_null", "dec"),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("dec_literals"), "db.d", "id INT, dec DECIMAL(10, 2)",
                                    options={"bucket": "-1", "file-index.range-bitmap.columns": "dec"})
    start = 0
    for values in FILES:
        java_newest.write(path, pa.table({"id": list(range(start, start + len(values))),
                                          "dec": [Decimal(v) for v in values]}, schema=ARROW))
        start += len(values)
    return path


def _local(path: str, pred, **kw) -> list[int]:
    plan = plan_scan(path, pred, **kw)
    return sorted(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type).column("id").to_pylist())


@pytest.mark.parametrize("pred", PREDICATES, ids=str)
def test_local_reads_round_literals_as_paimon_does(table, java_newest, pred):
    java = sorted(java_newest.read(table, where=pred).column("id").to_pylist())
    for kw in ({}, {"use_stats": False}, {"use_indexes": False}, {"use_stats": False, "use_indexes": False}):
        assert _local(table, pred, **kw) == java, (str(pred), kw)


def test_spark_scans_round_literals_as_paimon_does(table, java_newest, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    for pred in [L("gt", "dec", Decimal("1.255")), L("eq", "dec", Decimal("1.255")), L("neq", "dec", Decimal("1.255")),
                 L("lte", "dec", Decimal("-1.255")), L("between", "dec", Decimal("1.245"), Decimal("1.255"))]:
        java = sorted(java_newest.read(table, where=pred).column("id").to_pylist())
        for driver_rows in (0, 65_536):  # Spark's reader / tasks, and pyarrow on the driver
            df, _ = scan(spark, table, pred, driver_rows=driver_rows)
            assert sorted(r["id"] for r in df.collect()) == java, (str(pred), driver_rows)


@pytest.mark.parametrize("literal", ["1E+30", "-100000000", "99999999.995", "1E+8"])
def test_a_literal_the_column_cannot_hold_is_refused(table, literal):
    for where in (L("lt", "dec", Decimal(literal)), f"dec < {Decimal(literal):f}"):
        with pytest.raises(InvalidPredicateError, match="DECIMAL"):
            plan_scan(table, where)
