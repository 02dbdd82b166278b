"""DECIMAL literals with more than 28 significant digits are parsed exactly (SQL text and JSON numbers):
Python's default decimal context (28 digits) rounded ``-32113893889838906899333850.4530944366`` when the
SQL parser negated it, so ``dec_l >= -3211...0.4530944366`` selected other rows than Java 1.4.2.  Literals
with more fractional digits than the column still round HALF_UP to its scale, as Paimon does (df17e2e).
Java gets each predicate as a Predicate object with the exact Decimal (its JSON form carries text)."""

from __future__ import annotations

import json
from decimal import Context, Decimal

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.expressions import make_leaf
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

EXACT = Context(prec=100)
BASE = Decimal("-32113893889838906899333850.4530944366")
ULP = Decimal("1e-10")
VALUES = [BASE, BASE - ULP, BASE + ULP, -BASE, +BASE.copy_negate() - ULP, Decimal("-32113893889838906899333850.45"),
          Decimal("-32113893889838906899333850.4530944370"), Decimal(0), None]
LITERALS = ["-32113893889838906899333850.4530944366", "32113893889838906899333850.4530944366",
            "-32113893889838906899333850.45309443665", "-32113893889838906899333850.45309443664",
            "1234567890123456789012345678.9012345678"]
OPS = {"gte": ">=", "gt": ">", "eq": "=", "lt": "<", "lte": "<=", "neq": "<>"}


def test_long_decimal_literals_select_javas_rows(java_newest, tmp_path):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, dec_l DECIMAL(38, 10)",
                                    options={"file.format": "parquet"})
    values = [None if v is None else v.quantize(ULP, context=EXACT) for v in VALUES]
    java_newest.write(path, pa.table({"id": pa.array(range(len(values)), pa.int32()),
                                      "dec_l": pa.array(values, pa.decimal128(38, 10))}))
    for text in LITERALS:
        for op, sql in OPS.items():
            theirs = java_newest.read(path, where=make_leaf(op, "dec_l", (Decimal(text),)))
            assert_same_rows(read_table(path, f"dec_l {sql} {text}"), theirs, what=f"SQL {sql} {text}")
            as_json = json.dumps({"op": op, "field": "dec_l", "literal": 0.5}).replace("0.5", text)
            assert_same_rows(read_table(path, as_json), theirs, what=f"JSON number {sql} {text}")
