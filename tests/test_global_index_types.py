"""Global-index lookups and scans on DATE, TIME, TIMESTAMP(3 / 6), TIMESTAMP_LTZ(6), DECIMAL(10, 2), FLOAT
and DOUBLE columns: literals mapped and keys ordered as Java 1.4.2's ``KeySerializer`` does (floats by
``Float.compare``: -0.0 below 0.0, NaN above everything).  Our row ids == brute force == Java's own
``GlobalIndexReader`` on Java-written B-tree files; scans answered from Java-built indexes == Java 1.4.2's
read == an index-free read, and under Spark semantics (``-0.0 = 0.0``) == the index-free Spark-semantics read."""

from __future__ import annotations

import datetime as dt
import decimal
import math
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from paimon_codec.expressions.semantics import float_order_key
from paimon_codec.fileio import ByteSource
from paimon_codec.globalindex.lookup import answer
from paimon_codec.globalindex.meta import read_sorted_meta
from paimon_codec.globalindex.table_files import GlobalIndexFile, open_reader
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table
from paimon_codec.types import parse_type
from paimon_codec.values import Timestamp

ROWS = 600
_FLOATS = [-0.0, 0.0, math.nan, math.inf, -math.inf, 1.5, -2.25, 3.0]
_BASE_MS = 1_700_000_000_000
COLUMNS = {  # column -> (type, value of row i)
    "d": ("DATE", lambda i: (i * 37) % 500 - 250),
    "t": ("TIME(3)", lambda i: (i * 7919) % 86_400_000),
    "ts3": ("TIMESTAMP(3)", lambda i: Timestamp(_BASE_MS + (i * 13) % 300 * 1000 + i % 2)),
    "ts6": ("TIMESTAMP(6)", lambda i: Timestamp(_BASE_MS + (i * 31) % 200, (i % 3) * 1000)),
    "ltz": ("TIMESTAMP(6) WITH LOCAL TIME ZONE", lambda i: Timestamp(_BASE_MS - (i * 7) % 100, (i % 4) * 250_000)),
    "dec": ("DECIMAL(10, 2)", lambda i: decimal.Decimal((i * 17) % 300 - 150) / 100),
    "f": ("FLOAT", lambda i: _FLOATS[i % 8] if i % 5 else float((i * 3) % 40) / 4 - 5),
    "db": ("DOUBLE", lambda i: _FLOATS[(i + 3) % 8] if i % 4 else (i * 7) % 90 / 8 - 5.0),
}


def _values(column: str) -> list:
    fn = COLUMNS[column][1]
    return [None if i % 19 == 0 else fn(i) for i in range(ROWS)]


def _order(v):  # Java's comparator order of values.py values (timestamps compare as (millis, nanos))
    return float_order_key(v, "paimon")


def _brute(values: list, op: str, lits: list) -> list[int]:
    o = [_order(x) for x in lits]

    def ok(v):
        if op == "is_null":
            return v is None
        if v is None:
            return False
        k = _order(v)
        return {"equal": lambda: k == o[0], "not_equal": lambda: k != o[0], "less_than": lambda: k < o[0],
                "less_or_equal": lambda: k <= o[0], "greater_than": lambda: k > o[0],
                "greater_or_equal": lambda: k >= o[0], "between": lambda: o[0] <= k <= o[1],
                "in": lambda: k in o, "not_in": lambda: k not in o, "is_not_null": lambda: True}[op]()
    return [i for i, v in enumerate(values) if ok(v)]


def _cases(values: list) -> list[tuple[str, list]]:
    present = sorted({_order(v): v for v in values if v is not None}.items())
    lo, mid, hi = present[0][1], present[len(present) // 2][1], present[-1][1]
    out = [("equal", [mid]), ("equal", [lo]), ("equal", [hi]), ("in", [lo, hi]), ("not_equal", [mid]),
           ("less_than", [mid]), ("less_or_equal", [mid]), ("greater_than", [mid]), ("greater_or_equal", [mid]),
           ("is_null", []), ("is_not_null", [])]
    if isinstance(mid, float):
        out += [("equal", [0.0]), ("equal", [-0.0]), ("equal", [math.nan]), ("less_than", [0.0]),
                ("greater_or_equal", [-0.0]), ("less_or_equal", [-0.0]), ("greater_than", [math.inf])]
    return out


@pytest.fixture(scope="module")
def java_files(tmp_path_factory, java_newest):
    schema = ", ".join(f"{c} {t}" for c, (t, _) in COLUMNS.items())
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_gi_types"), "db.t", schema,
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    return Path(path), {c: java_newest.write_global_index(path, c, "btree", _values(c)) for c in COLUMNS}


@pytest.mark.parametrize("column", list(COLUMNS))
def test_typed_lookups_equal_brute_force_and_java(java_files, java_newest, column):
    path, written = java_files
    (entry,) = written[column]
    file = path / "index" / entry["file_name"]
    f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, ROWS - 1, 0,
                        read_sorted_meta(bytes.fromhex(entry["meta"])))
    reader = open_reader(f, parse_type(COLUMNS[column][0]), ByteSource(str(file), path=str(file)))
    assert reader.codec.answers_lookups
    values = _values(column)
    java = [{"file_name": file.name, "file_size": file.stat().st_size, "meta": entry["meta"]}]
    for op, lits in _cases(values):
        ours = sorted(answer(reader, op, [reader.codec.literal(v) for v in lits]))
        assert ours == _brute(values, op, lits), (op, lits)
        assert java_newest.global_index_lookup(path, column, "btree", java, op, lits) == ours, (op, lits)


# ------------------------------------------------------------------------------------- scans
def _arrow(column: str, values: list) -> pa.Array:
    t = parse_type(COLUMNS[column][0])
    if column == "d":
        return pa.array([None if v is None else dt.date(1970, 1, 1) + dt.timedelta(days=v) for v in values])
    if column == "t":
        return pa.array(values, pa.time32("ms"))
    if t.is_timestamp:
        unit = "ms" if t.precision == 3 else "us"
        raw = [None if v is None else (v.millis if unit == "ms" else v.to_micros()) for v in values]
        return pa.array(raw, pa.timestamp(unit, "UTC" if column == "ltz" else None))
    if column == "dec":
        return pa.array(values, pa.decimal128(10, 2))
    return pa.array(values, pa.float32() if column == "f" else pa.float64())


@pytest.fixture(scope="module")
def java_table(tmp_path_factory, java_newest) -> str:
    """Two Java commits of every typed column, then Java's ``BTreeGlobalIndexBuilder`` over each."""
    schema = ", ".join(f"id INT, {', '.join(f'{c} {t}' for c, (t, _) in COLUMNS.items())}".split(", "))
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_gi_types_scan"), "db.t", schema,
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    half = ROWS // 2
    for lo in (0, half):
        cols = {"id": pa.array(range(lo, lo + half), pa.int32())}
        cols |= {c: _arrow(c, _values(c)[lo:lo + half]) for c in COLUMNS}
        java_newest.write(path, pa.table(cols))
    for c in COLUMNS:
        assert java_newest.create_btree_global_index(path, c) is not None, c
    return path


SCANS = ["d = DATE '1970-01-05'", "d < DATE '1969-08-01'", "t = TIME '00:00:07.919'",
         "ts3 = TIMESTAMP '2023-11-14 22:13:21.001'", "ts3 BETWEEN TIMESTAMP '2023-11-14 22:13:20' AND "
         "TIMESTAMP '2023-11-14 22:13:30'", "ts6 = TIMESTAMP '2023-11-14 22:13:20.031002'",
         "ts6 < TIMESTAMP '2023-11-14 22:13:20.010'", "dec = 1.19", "dec IN (-1.5, 0.04, 7)", "dec > 1.30",
         "f = 0.0", "f = -0.0", "f = NaN", "f BETWEEN -0.0 AND 0.5", "f > 1.5", "db = 0.0", "db BETWEEN 0.0 AND 2",
         "db = -Infinity",
         "db BETWEEN -0.0 AND 1"]


@pytest.mark.parametrize("where", SCANS)
def test_typed_scans_equal_java_and_index_free_reads(java_table, java_newest, where):
    plan = plan_scan(java_table, where)
    assert plan.report.global_index["used"], plan.report.global_index
    ours = read_table(java_table, where)
    key = [("id", "ascending")]
    ours = ours.take(pc.sort_indices(ours, key))
    java = java_newest.read(java_table, where=where)
    assert ours["id"].to_pylist() == java.take(pc.sort_indices(java, key))["id"].to_pylist(), where
    free = read_table(java_table, where, use_indexes=False)
    assert ours["id"].to_pylist() == free.take(pc.sort_indices(free, key))["id"].to_pylist(), where


@pytest.mark.parametrize("where", ["f = 0.0", "f = -0.0", "f >= 0.0", "f <= -0.0", "db IN (0.0, 1.5)",
                                   "db BETWEEN 0.0 AND 0.0"])
def test_spark_semantics_keep_both_zeros(java_table, where):
    """Spark SQL's ``-0.0 = 0.0``: the index answer is widened so no row Spark keeps is dropped."""
    with_index = read_table(java_table, where, semantics="spark")
    free = read_table(java_table, where, semantics="spark", use_indexes=False)
    assert sorted(with_index["id"].to_pylist()) == sorted(free["id"].to_pylist()), where
    assert free.num_rows > 0
