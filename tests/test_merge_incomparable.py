"""Merges whose outcome Paimon does not define by a total order: the read refuses them in one line
instead of answering with rows Paimon does not return.

* ``min`` / ``max`` aggregates on a BOOLEAN column: Paimon's ``InternalRowUtils.compare`` cannot compare
  booleans, so its read fails as soon as two non-null values of one key meet ("Incomparable type");
  ours answered with Arrow's min / max.
* A FLOAT / DOUBLE ``sequence.field`` holding NaN: Paimon's sequence comparator finds NaN equal to every
  number, so a key's records are not totally ordered and the record the merge ends on follows from its
  merge tree; ours sorted NaN first and returned another record for about half such keys.

Tables are written by Paimon Java 1.4.2 (``java_newest``) without compaction (every commit is a sorted
run the read merges) and read by Java and by ``plan_scan`` + ``read_plan_locally``.
"""

from __future__ import annotations

import random

import pytest

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

NAN = float("nan")


def _rows(table, columns):
    return sorted([repr(r[c]) for c in columns] for r in table.to_pylist())


def test_boolean_min_max_fail_like_java(java_newest, tmp_path):
    from oracles.java_newest import JavaError

    path = java_newest.create_table(tmp_path, "db.bool_max", "id INT NOT NULL, b BOOLEAN, c BOOLEAN",
                                    primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "fields.b.aggregate-function": "max",
                                             "fields.c.aggregate-function": "min"})
    java_newest.write(path, [{"id": 1, "b": True, "c": None}, {"id": 2, "b": None, "c": False}])
    java_newest.write(path, [{"id": 1, "b": None, "c": True}, {"id": 3, "b": False, "c": None}])
    # one non-null value per key: nothing to compare, Paimon reads it
    expected = _rows(java_newest.read(path), ["id", "b", "c"])
    assert expected == [["1", "True", "True"], ["2", "None", "False"], ["3", "False", "None"]]
    assert _rows(read_plan_locally(plan_scan(path)), ["id", "b", "c"]) == expected
    java_newest.write(path, [{"id": 2, "b": None, "c": True}])     # key 2: two non-null values of c
    with pytest.raises(JavaError, match="Incomparable type: BOOLEAN"):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="'min' on a bool column met two non-null values"):
        read_plan_locally(plan_scan(path))


@pytest.mark.parametrize("order", ["ascending", "descending"])
@pytest.mark.parametrize("typ", ["DOUBLE", "FLOAT"])
def test_nan_in_a_float_sequence_field(java_newest, tmp_path, typ, order):
    rng = random.Random(f"{typ}{order}")
    options = {"bucket": "1", "write-only": "true", "sequence.field": "s", "sequence.field.sort-order": order}
    mixed = java_newest.create_table(tmp_path, "db.mixed", f"id INT NOT NULL, s {typ}, v INT",
                                     primary_keys=["id"], options=options)
    only_nan = java_newest.create_table(tmp_path, "db.only_nan", f"id INT NOT NULL, s {typ}, v INT",
                                        primary_keys=["id"], options=options)
    for commit in range(5):
        java_newest.write(mixed, [{"id": i, "s": rng.choice([NAN, 1.0, -1.0, None]), "v": commit * 100 + i}
                                  for i in range(30)])
        java_newest.write(only_nan, [{"id": i, "s": rng.choice([NAN, None]), "v": commit * 100 + i}
                                     for i in range(30)])
    columns = ["id", "s", "v"]
    java_rows = _rows(java_newest.read(mixed), columns)
    try:
        ours = _rows(read_plan_locally(plan_scan(mixed)), columns)
    except UnsupportedTypeError as exc:
        assert "NaN in the floating-point sequence field 's'" in str(exc)
    else:
        assert ours == java_rows
    # NaN and nulls only: null < NaN = NaN, a total order the read reproduces
    assert _rows(read_plan_locally(plan_scan(only_nan)), columns) == _rows(java_newest.read(only_nan), columns)


def test_product_retractions_divide_like_java(java_newest, tmp_path):
    """Paimon's ``product`` retracts by dividing (Java's truncating integer division, wrapping at the
    column's width; IEEE division for floats): ours refused every such read; a retracted zero makes
    Paimon's read fail and ours refuse."""
    from oracles.java_newest import JavaError

    rng = random.Random(11)
    path = java_newest.create_table(tmp_path, "db.product", "id INT NOT NULL, t TINYINT, i INT, b BIGINT, "
                                    "f FLOAT, d DOUBLE", primary_keys=["id"],
                                    options={"bucket": "1", "write-only": "true", "merge-engine": "aggregation",
                                             **{f"fields.{c}.aggregate-function": "product" for c in "tibfd"}})
    pool = [None, 1, -1, 2, -3, 7, 127, -128]
    for _ in range(5):
        rows = [{"id": rng.randrange(10), **{c: rng.choice(pool) for c in "tib"},
                 "f": rng.choice([None, 0.5, -3.0, 1e30, 7.25]), "d": rng.choice([None, 0.1, -3.0, 1e300, 7.25])}
                for _ in range(12)]
        java_newest.write(path, rows, row_kinds=[rng.choice(("+I", "+U", "-U", "-D")) for _ in rows])
    columns = ["id", "t", "i", "b", "f", "d"]
    assert _rows(read_plan_locally(plan_scan(path)), columns) == _rows(java_newest.read(path), columns)
    java_newest.write(path, [{"id": 1, "i": 5}])
    java_newest.write(path, [{"id": 1, "i": 0}], row_kinds=["-D"])
    with pytest.raises(JavaError, match="ArithmeticException"):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="retracts a zero"):
        read_plan_locally(plan_scan(path))
