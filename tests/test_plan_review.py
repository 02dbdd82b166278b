"""Adversarial review of today's planning shortcuts: they may keep extra rows, never drop a matching one.

Stats pruning (:mod:`paimon_codec.planning.stats_prune`) and threshold-first top-N
(:mod:`paimon_codec.planning.topn.push`) are checked where a slip would drop rows: files of older schemas
whose column changed type (a BinaryRow slot read with the new type gives other numbers), a column dropped
and added again under the same name (new field id: the old file's values are NULL, not its stats'), a
sort column renamed or added later (old files have no index on it, and NULLs), ``_VALUE_STATS_COLS``
layouts, and top-N over string / double / decimal / date keys with ties at the bound across files and a
second sort key.  References: Java Paimon 1.4.2's own read, and a brute-force sort of the whole table.
"""

from __future__ import annotations

import functools
import math
import os
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.writing import append_arrow, create_table

#: hypothesis examples per property (REVIEW_EXAMPLES=300 for a longer hunt)
EXAMPLES = int(os.environ.get("REVIEW_EXAMPLES", "40"))


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


def _ours(path: str, pred) -> list[int]:
    plan = plan_scan(path, pred)
    return sorted(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type).column("id").to_pylist())


# -- stats pruning across schema changes (Java 1.4.2 writes and reads) -------------------------------------
OLD = pa.schema([("id", pa.int32()), ("i", pa.int32()), ("dec", pa.decimal128(5, 2)), ("s", pa.string()),
                 ("x", pa.int32()), ("j", pa.int64()), ("r", pa.decimal128(5, 2))])
NEW = pa.schema([("id", pa.int32()), ("i", pa.int64()), ("dec", pa.decimal128(10, 4)), ("x", pa.int32()),
                 ("j", pa.int32()), ("r", pa.decimal128(5, 1)), ("s", pa.int32())])


@pytest.fixture(scope="module")
def evolved(tmp_path_factory, java_newest) -> str:
    """Two files of schema 0 (i INT with negatives, dec DECIMAL(5, 2), s STRING, x without stats:
    ``_VALUE_STATS_COLS``), then i -> BIGINT, dec -> DECIMAL(10, 4), s dropped and added again as INT
    (a new field id), and two files of the last schema."""
    wh = tmp_path_factory.mktemp("review_stats")
    path = java_newest.create_table(wh, "db.evolved", "id INT, i INT, dec DECIMAL(5, 2), s STRING, x INT, j BIGINT, r DECIMAL(5, 2)",
                                    options={"bucket": "-1", "fields.x.stats-mode": "none"})
    java_newest.write(path, pa.table({"id": [0, 1, 2], "i": [-3, -2, -1], "dec": [Decimal("1.25"), Decimal("2.50"),
                                     Decimal("-7.00")], "s": ["a", "b", "c"], "x": [1, 2, 3],
                                     "j": [2**32 + 5, 2**32 + 6, 2**32 + 7], "r": [Decimal("1.25")] * 3}, schema=OLD))
    java_newest.write(path, pa.table({"id": [3, 4], "i": [-2000000000, 5], "dec": [Decimal("100.00"), None],
                                      "s": [None, "q"], "x": [None, 9],
                                      "j": [1, 2], "r": [Decimal("2.34"), Decimal("2.36")]}, schema=OLD))
    java_newest.alter(path, [{"op": "type", "name": "i", "type": "BIGINT"}])
    java_newest.alter(path, [{"op": "type", "name": "dec", "type": "DECIMAL(10, 4)"}])
    java_newest.alter(path, [{"op": "type", "name": "j", "type": "INT"}])
    java_newest.alter(path, [{"op": "type", "name": "r", "type": "DECIMAL(5, 1)"}])
    java_newest.alter(path, [{"op": "drop", "name": "s"}])
    java_newest.alter(path, [{"op": "add", "name": "s", "type": "INT"}])
    java_newest.write(path, pa.table({"id": [10, 11], "i": [2**40, -1], "dec": [Decimal("1.2500"), Decimal("0.0001")],
                                      "x": [4, 5], "j": [0, 1], "r": [Decimal("0.1"), None], "s": [1, 2]}, schema=NEW))
    java_newest.write(path, pa.table({"id": [12], "i": [7], "dec": [Decimal("-7.0000")], "x": [6], "j": [9], "r": [Decimal("9.9")], "s": [None]},
                                     schema=NEW))
    return path


EVOLVED_PREDICATES = [
    L("lt", "i", 0), L("lt", "i", -5), L("eq", "i", -2), L("gt", "i", 100), L("between", "i", -2000000001, -1999999999),
    L("lte", "i", -2000000000), L("in", "i", -3, 2**40), L("not_in", "i", -2, 5), L("eq", "dec", Decimal("1.25")),
    L("gt", "dec", Decimal("50")), L("lt", "dec", Decimal("0")), L("eq", "dec", Decimal("-7")),
    L("between", "dec", Decimal("1"), Decimal("3")), L("eq", "s", 1), L("is_null", "s"), L("is_not_null", "s"),
    L("gt", "s", 0), L("eq", "x", 9), L("gt", "x", 3), L("is_null", "x"), L("is_not_null", "dec"),
    L("eq", "j", 5), L("lt", "j", 8), L("eq", "r", Decimal("1.3")), L("eq", "r", Decimal("1.2")),
    L("eq", "r", Decimal("2.3")), L("gte", "r", Decimal("2.4")),
]


@pytest.mark.parametrize("pred", EVOLVED_PREDICATES, ids=str)
def test_stats_pruning_keeps_rows_of_files_of_older_column_types(evolved, java_newest, pred):
    """Java's rows for every predicate (files of schema 0 hold ``i`` as INT, ``dec`` at scale 2, and an ``s``
    whose field id the table no longer has)."""
    java = sorted(java_newest.read(evolved, where=pred).column("id").to_pylist())
    assert _ours(evolved, pred) == java, str(pred)


# -- top-N over several key types: brute force ---------------------------------------------------------------
def _cmp(a, b):
    """Spark's order of non-null values: NaN above every number, -0.0 == 0.0."""
    if isinstance(a, float):
        an, bn = math.isnan(a), math.isnan(b)
        if an or bn:
            return an - bn
    return (a > b) - (a < b)


def _top(rows: list[tuple], desc: bool, nulls_first: bool, k: int, keys: int) -> list[tuple]:
    """The first ``k`` rows of a sort by the first ``keys`` fields (then ``id`` ascending when keys == 2)."""
    def cmp(r1, r2):
        a, b = r1[0], r2[0]
        if a is None or b is None:
            c = (b is None) - (a is None) if nulls_first else (a is None) - (b is None)
        else:
            c = -_cmp(a, b) if desc else _cmp(a, b)
        if c or keys == 1:
            return c
        return (r1[1] > r2[1]) - (r1[1] < r2[1])
    return sorted(rows, key=functools.cmp_to_key(cmp))[:k]


def _norm(rows: list[tuple], keys: int) -> list:
    def one(v):
        if isinstance(v, float):
            return "nan" if math.isnan(v) else v + 0.0  # -0.0 == 0.0
        return v
    return [tuple(one(x) for x in r[:keys]) for r in rows]


KEY_TYPES = {
    "s": (pa.string(), st.sampled_from(["", "a", "ab", "abc", "b", "\u00e9", "\U0001F600", "zz", "a\u00e9", "A"])),
    "f": (pa.float64(), st.sampled_from([0.0, -0.0, 1.5, -1.5, math.nan, math.inf, -math.inf, 2.0, 1e300])),
    "dec": (pa.decimal128(12, 3), st.sampled_from([Decimal(x) for x in ("0", "-1.5", "1.5", "999999999.999",
                                                                           "-999999999.999", "0.001", "2")])),
    "d": (pa.date32(), st.integers(-30, 30).map(lambda n: __import__("datetime").date(2024, 1, 1)
                                                + __import__("datetime").timedelta(days=n))),
}


@st.composite
def topn_tables(draw):
    column = draw(st.sampled_from(sorted(KEY_TYPES)))
    _, values = KEY_TYPES[column]
    files = [draw(st.lists(st.one_of(st.none(), values, values, values), min_size=1, max_size=25))
             for _ in range(draw(st.integers(1, 5)))]
    return column, files


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(spec=topn_tables(), desc=st.booleans(), nulls_first=st.booleans(), k=st.integers(0, 60),
       keys=st.sampled_from([1, 1, 2]))
def test_topn_candidates_hold_a_valid_top_n(tmp_path_factory, spec, desc, nulls_first, k, keys):
    """The plan's candidates sorted and limited equal the whole table's top ``k`` (both keys compared when the
    sort has two: then ties at the bound must all be candidates)."""
    column, files = spec
    arrow_type, _ = KEY_TYPES[column]
    schema = pa.schema([("id", pa.int32()), (column, arrow_type)])
    path = create_table(tmp_path_factory.mktemp("t") / "t", schema,
                        {"bucket": "-1", "file-index.range-bitmap.columns": column,
                         f"file-index.range-bitmap.{column}.chunk-size": "64b"})
    start = 0
    for values in files:
        append_arrow(path, pa.table({"id": pa.array(range(start, start + len(values)), pa.int32()),
                                     column: pa.array(values, arrow_type)}, schema=schema))
        start += len(values)
    order = [(column, "desc" if desc else "asc")] + ([("id", "asc")] if keys == 2 else [])
    plan = plan_scan(path, order_by=order, limit=k, nulls_first=nulls_first)
    got = read_plan_locally(plan)
    everything = read_plan_locally(plan_scan(path))

    def rows(t):
        return list(zip(t.column(column).to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(_top(rows(got), desc, nulls_first, k, keys), keys) == \
        _norm(_top(rows(everything), desc, nulls_first, k, keys), keys), plan.report.topn_note


# -- top-N when the sort column was renamed or added later (Java 1.4.2 files) -----------------------------
@pytest.fixture(scope="module")
def sort_evolved(tmp_path_factory, java_newest) -> str:
    """Files with ``v`` indexed; then ``v`` renamed to ``w`` and ``n`` added (indexed from then on): the old
    files' ``n`` is NULL and has no index."""
    wh = tmp_path_factory.mktemp("review_topn")
    path = java_newest.create_table(wh, "db.sort_evolved", "id INT, v BIGINT", options={
        "bucket": "-1", "file-index.range-bitmap.columns": "v"})
    schema0 = pa.schema([("id", pa.int32()), ("v", pa.int64())])
    java_newest.write(path, pa.table({"id": [0, 1, 2], "v": [100, 5, None]}, schema=schema0))
    java_newest.write(path, pa.table({"id": [3, 4], "v": [7, 100]}, schema=schema0))
    java_newest.alter(path, [{"op": "rename", "from": "v", "to": "w"}])
    java_newest.alter(path, [{"op": "add", "name": "n", "type": "BIGINT"}])
    java_newest.alter(path, [{"op": "set", "key": "file-index.range-bitmap.columns", "value": "w,n"}])
    schema1 = pa.schema([("id", pa.int32()), ("w", pa.int64()), ("n", pa.int64())])
    java_newest.write(path, pa.table({"id": [10, 11, 12], "w": [1, 2, 200], "n": [-5, 3, None]}, schema=schema1))
    java_newest.write(path, pa.table({"id": [13, 14], "w": [100, -1], "n": [8, 1]}, schema=schema1))
    return path


@pytest.mark.parametrize("column", ["w", "n"])
@pytest.mark.parametrize("desc,nulls_first", [(True, False), (True, True), (False, True), (False, False)])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 6, 20])
def test_topn_on_a_renamed_or_added_sort_column(sort_evolved, java_newest, column, desc, nulls_first, k):
    java = java_newest.read(sort_evolved)
    plan = plan_scan(sort_evolved, order_by=[(column, "desc" if desc else "asc")], limit=k, nulls_first=nulls_first)
    got = read_plan_locally(plan)

    def rows(t):
        return list(zip(t.column(column).to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(_top(rows(got), desc, nulls_first, k, 1), 1) == _norm(_top(rows(java), desc, nulls_first, k, 1), 1), \
        plan.report.topn_note


# -- top-N with deletion vectors and a WHERE predicate: brute force ---------------------------------------------
DV_SCHEMA = pa.schema([("id", pa.int32()), ("g", pa.string()), ("v", pa.int64())])


def _write_with_dvs(path, files: list[list[int | None]], deleted: list[list[int]]) -> str:
    """One commit of the given files, each with a deletion vector at the given row positions (if any)."""
    import numpy as np

    from paimon_codec.dv.deletion_vector import DeletionVector
    from paimon_codec.dv.index_file import write_dv_index
    from paimon_codec.table.index_manifest import DELETION_VECTORS_INDEX, DeletionVectorRange, IndexFileMeta
    from paimon_codec.writing import write_data_files
    from paimon_codec.writing.commit import FileChange, IndexChange, commit_changes

    path = os.fspath(path)
    create_table(path, DV_SCHEMA, {"bucket": "-1", "deletion-vectors.enabled": "true",
                                   "file-index.range-bitmap.columns": "v", "file-index.bitmap.columns": "g",
                                   "file-index.range-bitmap.v.chunk-size": "64b"})
    changes: list[FileChange | IndexChange] = []
    dvs = {}
    start = 0
    for values, dead in zip(files, deleted, strict=True):
        n = len(values)
        data = pa.table({"id": pa.array(range(start, start + n), pa.int32()),
                         "g": pa.array(["a" if (start + i) % 3 else "b" for i in range(n)]),
                         "v": pa.array(values, pa.int64())}, schema=DV_SCHEMA)
        written = write_data_files(path, data, layout="newest")
        assert len(written) == 1
        changes.extend(written)
        positions = sorted({p % n for p in dead})
        if positions:
            dvs[written[0].file.file_name] = DeletionVector.from_array(np.array(positions, dtype=np.int64))
        start += n
    if dvs:
        os.makedirs(os.path.join(path, "index"), exist_ok=True)
        for m in write_dv_index(os.path.join(path, "index"), dvs, name_factory=lambda k: f"index-review-{k}"):
            ranges = tuple(DeletionVectorRange(r.data_file, r.offset, r.length, r.cardinality) for r in m.ranges)
            changes.append(IndexChange.of((), 0, IndexFileMeta(DELETION_VECTORS_INDEX, m.file_name, m.file_size,
                                                               m.row_count, ranges)))
    commit_changes(path, changes, commit_user="review", layout="newest")
    return path


@st.composite
def dv_tables(draw):
    files, deleted = [], []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 30))
        values = draw(st.lists(st.one_of(st.none(), st.integers(-20, 20), st.integers(-20, 20)), min_size=n, max_size=n))
        if draw(st.booleans()):  # delete the file's best rows (either end), or random ones
            order = sorted((i for i in range(n) if values[i] is not None), key=lambda i: values[i],
                           reverse=draw(st.booleans()))
            dead = order[:draw(st.integers(0, n))]
        else:
            dead = draw(st.lists(st.integers(0, n - 1), max_size=n))
        files.append(values)
        deleted.append(dead)
    return files, deleted


WHERES = {None: None, "v > 0": L("gt", "v", 0), "g = 'a'": L("eq", "g", "a"), "v in (1, 5, 20)": L("in", "v", 1, 5, 20),
          "v <> 3 or v is null": L("neq", "v", 3) | L("is_null", "v")}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(spec=dv_tables(), desc=st.booleans(), nulls_first=st.booleans(), k=st.integers(0, 40),
       keys=st.sampled_from([1, 2]), where=st.sampled_from(sorted(WHERES, key=str)))
def test_topn_with_deletion_vectors_and_a_predicate(tmp_path_factory, spec, desc, nulls_first, k, keys, where):
    """Deletion vectors that remove a file's best keys (or any rows) and a predicate's found set: the
    candidates still hold the top ``k`` of the live matching rows."""
    files, deleted = spec
    path = _write_with_dvs(tmp_path_factory.mktemp("dv") / "t", files, deleted)
    pred = WHERES[where]
    order = [("v", "desc" if desc else "asc")] + ([("id", "asc")] if keys == 2 else [])
    plan = plan_scan(path, pred, order_by=order, limit=k, nulls_first=nulls_first)
    got = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type)
    base = plan_scan(path, pred, use_indexes=False, use_stats=False)
    everything = filter_table(read_plan_locally(base), base.predicate, base.row_type)
    live = sum(len(v) - len({p % len(v) for p in d}) for v, d in zip(files, deleted, strict=True))
    assert plan_scan(path, use_indexes=False).report.rows_read >= 0 and \
        read_plan_locally(plan_scan(path, use_indexes=False)).num_rows == live  # the reference applies the DVs

    def rows(t):
        return list(zip(t.column("v").to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(_top(rows(got), desc, nulls_first, k, keys), keys) == \
        _norm(_top(rows(everything), desc, nulls_first, k, keys), keys), plan.report.topn_note


# -- read_table sorts as Spark: NaN above every number (Arrow puts it beside the NULLs) -----------------------
@pytest.mark.parametrize("desc,nulls_first", [(True, False), (True, True), (False, True), (False, False)])
@pytest.mark.parametrize("k", [1, 2, 3, 5, 9])
@pytest.mark.parametrize("pushed", [True, False])
def test_read_table_orders_nan_as_spark(tmp_path, desc, nulls_first, k, pushed):
    from paimon_codec.reading.local_read import read_table

    schema = pa.schema([("id", pa.int32()), ("f", pa.float64())])
    options = {"bucket": "-1"} | ({"file-index.range-bitmap.columns": "f"} if pushed else {})
    path = create_table(tmp_path / "t", schema, options)
    files = [[1.0, math.nan, None, -0.0], [0.0, 5.0, None], [math.nan, -math.inf, 2.5]]
    start = 0
    for values in files:
        append_arrow(path, pa.table({"id": pa.array(range(start, start + len(values)), pa.int32()),
                                     "f": pa.array(values, pa.float64())}, schema=schema))
        start += len(values)
    order = [("f", "desc" if desc else "asc"), ("id", "asc")]
    got = read_table(path, order_by=order, limit=k, nulls_first=nulls_first)
    everything = read_plan_locally(plan_scan(path))

    def rows(t):
        return list(zip(t.column("f").to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(rows(got), 1) == _norm(_top(rows(everything), desc, nulls_first, k, 1), 1)
    got = read_table(path, order_by=order[:1], limit=k, nulls_first=nulls_first)
    assert _norm(rows(got), 1) == _norm(_top(rows(everything), desc, nulls_first, k, 1), 1)


@pytest.mark.parametrize("where", [None, "g = 'a'"])
@pytest.mark.parametrize("nulls_first", [False, True])
def test_topn_never_brings_back_deleted_rows_of_a_file_of_nulls(tmp_path, where, nulls_first):
    """Review finding: a file whose sort column is NULL in every row answers top-N with all its rows
    (the index's ``top_n_shortcut``), deleted ones included; the plan must keep only live rows."""
    path = _write_with_dvs(tmp_path / "t", [[None, None, None], [None], [None]], [[0, 2], [], []])
    order = [("v", "asc"), ("id", "asc")]
    plan = plan_scan(path, WHERES[where], order_by=order, limit=1, nulls_first=nulls_first)
    got = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type)
    assert 0 not in got.column("id").to_pylist() and 2 not in got.column("id").to_pylist()
    assert sorted(got.column("id").to_pylist())[:1] == [1]


# -- stats pruning of our writer's truncated bounds: brute force ------------------------------------------------
_CHARS = st.sampled_from(["a", "b", "z", "\u00e9", "\U0001F600", "\uffff", "\U0010FFFF", "\ud7ff", "\ue000"])
_TEXT = st.lists(_CHARS, max_size=5).map("".join)
_OPS = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "not_in", "between", "starts_with", "like", "is_null",
        "is_not_null"]


@st.composite
def stats_cases(draw):
    files = [draw(st.lists(st.tuples(st.one_of(st.none(), st.integers(-5, 5)), st.one_of(st.none(), _TEXT)),
                           min_size=1, max_size=6)) for _ in range(draw(st.integers(1, 4)))]
    op = draw(st.sampled_from(_OPS))
    column = "s" if op in ("starts_with", "like") else draw(st.sampled_from(["i", "s"]))
    lit = _TEXT if column == "s" else st.integers(-6, 6)
    if op in ("in", "not_in"):
        lits = draw(st.lists(lit, min_size=1, max_size=3))
    elif op == "between":
        lits = [draw(lit), draw(lit)]
    elif op in ("is_null", "is_not_null"):
        lits = []
    elif op == "like":
        lits = [draw(st.lists(st.one_of(_CHARS, st.just("%"), st.just("_")), max_size=4).map("".join))]
    else:
        lits = [draw(lit)]
    return files, L(op, column, *lits), draw(st.sampled_from(["truncate(1)", "truncate(2)", "full"]))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])
@given(case=stats_cases())
def test_stats_pruning_of_truncated_bounds_keeps_every_matching_row(tmp_path_factory, case):
    """Strings of astral, U+FFFF, U+10FFFF and surrogate-neighbour code points cut to 1 or 2 code points:
    our plan's rows are a brute-force filter of the whole table."""
    files, pred, mode = case
    schema = pa.schema([("id", pa.int32()), ("i", pa.int64()), ("s", pa.string())])
    path = create_table(tmp_path_factory.mktemp("st") / "t", schema, {"bucket": "-1", "metadata.stats-mode": mode})
    start = 0
    for rows in files:
        append_arrow(path, pa.table({"id": pa.array(range(start, start + len(rows)), pa.int32()),
                                     "i": pa.array([r[0] for r in rows], pa.int64()),
                                     "s": pa.array([r[1] for r in rows], pa.string())}, schema=schema))
        start += len(rows)
    base = plan_scan(path, pred, use_stats=False, use_indexes=False)
    truth = sorted(filter_table(read_plan_locally(base), base.predicate, base.row_type).column("id").to_pylist())
    assert _ours(path, pred) == truth, str(pred)
