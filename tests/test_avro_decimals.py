"""DECIMAL values in Avro data files, every precision Paimon Java 1.4.2 writes (Avro ``bytes`` with the
decimal logical type, 1 <= p <= 38), read as Java reads them; and an aggregation table whose ``sum`` of a
DECIMAL(18, 4) went past 18 digits (Paimon adds compact decimals as unchecked longs) and was written so by
a compaction: Java's Avro (and ORC) reader returns NULL for such a value (``Decimal.fromBigDecimal``),
its Parquet reader the 19-digit value; our Avro read crashed (``ArrowInvalid: Decimal type with precision 18
does not fit``)."""

from __future__ import annotations

import decimal
import random

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

D = decimal.Decimal
EXACT = decimal.Context(prec=80)
PRECISIONS = [1, 2, 9, 10, 17, 18, 19, 28, 29, 38]


def test_every_avro_decimal_precision_reads_as_java(java_newest, tmp_path):
    rng = random.Random(6)
    cols = [(f"d{p}", p, min(p - 1, rng.choice([0, 2, 4, p // 2]))) for p in PRECISIONS]
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, " + ", ".join(
        f"{n} DECIMAL({p}, {s})" for n, p, s in cols) + ", nest ARRAY<ROW<x DECIMAL(18, 4)>>",
        options={"file.format": "avro"})
    data: dict = {"id": pa.array(range(40), pa.int32())}
    for n, p, s in cols:
        edge = [D(10**p - 1).scaleb(-s, EXACT), D(1 - 10**p).scaleb(-s, EXACT), D(0), None]
        data[n] = pa.array(edge + [D(rng.randrange(-10**p + 1, 10**p)).scaleb(-s, EXACT) for _ in range(36)],
                           pa.decimal128(p, s))
    data["nest"] = pa.array([[{"x": D(rng.randrange(-10**18 + 1, 10**18)).scaleb(-4, EXACT)}, None] for _ in range(40)],
                            pa.list_(pa.struct([("x", pa.decimal128(18, 4))])))
    java_newest.write(path, pa.table(data))
    assert_same_rows(read_table(path), java_newest.read(path))


@pytest.mark.parametrize("fmt", ["avro", "parquet", "orc"])
def test_overflowed_compact_decimal_sum_reads_as_java(java_newest, tmp_path, fmt):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT NOT NULL, d DECIMAL(18, 4)", primary_keys=["id"],
                                    options={"bucket": "1", "file.format": fmt, "merge-engine": "aggregation",
                                             "fields.d.aggregate-function": "sum",
                                             # files of the top level are read without a merge
                                             "deletion-vectors.enabled": "true"})
    for v in ("99999999999999.9999", "0.0001", "50000000000000.0000"):
        java_newest.write(path, pa.table({"id": pa.array([1, 2], pa.int32()),
                                          "d": pa.array([D(v), D(v) - D(1)], pa.decimal128(18, 4))}))
    java_newest.compact(path)  # one file per bucket holding the sums as Java wrote them
    theirs = java_newest.read(path)
    sums = theirs.column("d").to_pylist()
    # past DECIMAL(18, 4): NULL where Java's reader checks the precision (Avro, ORC), else 19 digits (Parquet)
    assert any(v is None or v >= D(10**14) for v in sums), sums
    assert_same_rows(read_table(path), theirs)
