"""Adversarial review of stats pruning (:mod:`paimon_codec.planning.stats_prune`) on Java 1.4.2 tables the other
stats tests do not write: TINYINT / SMALLINT at their extremes, BOOLEAN files of one value, DATEs before 1970,
wide DECIMAL(20, 3) (the variable part of the BinaryRow), a partition column, and a second table whose
layout changes file by file (``metadata.stats-dense-store`` off, ``metadata.stats-keep-first-n-columns``,
a field in ``none`` mode, then a rename, SMALLINT -> INT and the options removed), read at its latest snapshot
and travelled back to one under the old names.

Every predicate's rows must be the rows of a brute-force filter of Java's whole, unfiltered read, and the
rows of Java's own filtered read; and predicates the stats decide must prune files, so the tests can fail.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples

from paimon_codec.expressions import And, Or, make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.writing import append_arrow, create_table

SCHEMA = "id INT, t TINYINT, sm SMALLINT, b BOOLEAN, d DATE, w DECIMAL(20, 3), s STRING, p STRING"
ARROW = pa.schema([("id", pa.int32()), ("t", pa.int8()), ("sm", pa.int16()), ("b", pa.bool_()), ("d", pa.date32()),
                   ("w", pa.decimal128(20, 3)), ("s", pa.string()), ("p", pa.string())])
BIG = Decimal("99999999999999999.999")


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


def _day(y: int, m: int, d: int) -> dt.date:
    return dt.date(y, m, d)


#: commit k: (t, sm, b, d, w, s) per row; rows alternate between partitions x and y (two files per commit)
COMMITS = [
    [(-128, -32768, True, _day(1969, 12, 1), -BIG, "a"), (-5, -100, True, _day(1969, 12, 31), Decimal("-1.5"), "ab"),
     (-6, -101, True, _day(1969, 12, 2), Decimal("-2"), "aa"), (-5, -100, True, _day(1969, 12, 30), Decimal("-1.5"), "ab"),
     (-100, -200, None, None, None, "a")],
    [(0, 0, False, _day(2024, 1, 1), Decimal("10000000000000000.000"), "b"),
     (5, 7, False, _day(2024, 1, 3), Decimal("20000000000000000.125"), "bz"),
     (3, None, False, _day(2024, 1, 2), Decimal("10000000000000000.000"), None),
     (None, 2, None, _day(2024, 1, 3), Decimal("20000000000000000.000"), "bb")],
    [(None, -3, None, None, None, None), (None, None, False, None, None, None), (None, None, None, None, None, None),
     (None, 5, None, None, None, None)],
    [(127, 32767, True, _day(9999, 12, 31), BIG, "z"), (127, 32767, False, _day(9999, 12, 31), BIG, "zz"),
     (126, 32766, True, _day(9999, 12, 30), BIG, "zy"), (127, 32767, True, None, BIG, "zz")],
]


def _commit(k: int, names: tuple[str, ...] = tuple(ARROW.names), types: pa.Schema = ARROW) -> pa.Table:
    rows = COMMITS[k]
    data: dict[str, list] = {"id": [10 * k + j for j in range(len(rows))]}
    for i, name in enumerate(names[1:7]):
        data[name] = [r[i] for r in rows]
    data[names[7]] = ["xy"[j % 2] for j in range(len(rows))]
    return pa.table(data, schema=pa.schema([pa.field(n, f.type) for n, f in zip(names, types, strict=True)]))


VALUES = {
    "t": [-128, -6, -5, -1, 0, 5, 6, 126, 127],
    "sm": [-32768, -101, -100, -3, 0, 7, 8, 32767],
    "b": [True, False],
    "d": [_day(1969, 11, 30), _day(1969, 12, 1), _day(1969, 12, 31), _day(1970, 1, 1), _day(2024, 1, 2),
          _day(9999, 12, 31)],
    "w": [-BIG, Decimal("-1.5"), Decimal("-1.499"), Decimal("0"), Decimal("10000000000000000"),
          Decimal("20000000000000000.125"), BIG],
    "s": ["a", "ab", "b", "c", "z", "zz", "zzz"],
    "p": ["x", "y", "w"],
}


def predicates(rename: dict[str, str] | None = None) -> list:
    """Every comparison with every literal, sets, ranges, NULL tests and NOT over AND / OR of columns with
    NULLs (``rename``: column names of the schema read)."""
    r = rename or {}
    out = []
    for col, lits in VALUES.items():
        c = r.get(col, col)
        out += [L(op, c, v) for op in ("eq", "neq", "lt", "lte", "gt", "gte") for v in lits]
        out += [L("in", c, *pair) for pair in itertools.combinations(lits[:4], 2)]
        out += [L("not_in", c, lits[0]), L("not_in", c, *lits[:2]), L("is_null", c), L("is_not_null", c)]
        out += [L("between", c, a, b) for a, b in zip(lits, lits[1:], strict=False)]
    t, sm, b = r.get("t", "t"), r.get("sm", "sm"), r.get("b", "b")
    out += [(L("eq", t, 127) & L("eq", b, False)).negate(), (L("lt", t, 0) | L("is_null", sm)).negate(),
            (L("gt", sm, 100) | L("eq", "p", "x")).negate(), L("eq", b, True).negate(),
            L("in", t, -128, 127).negate(), (L("gte", t, -5) & L("lte", t, 5)).negate()]
    return out


def _ours(path: str, pred, **kw) -> tuple[list[int], int]:
    plan = plan_scan(path, pred, **kw)
    rows = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type)
    return sorted(rows.column("id").to_pylist()), plan.report.files_pruned_by_stats


def _check(java_newest, path: str, preds: list, java_filter: bool = True, **kw) -> int:
    """Files pruned over ``preds``, checking every predicate's rows (``java_filter``: also against Java's own
    filtered read)."""
    everything = java_newest.read(path, **kw)
    row_type = plan_scan(path, **kw).row_type
    pruned = 0
    for pred in preds:
        ours, n = _ours(path, pred, **kw)
        brute = sorted(filter_table(everything, pred, row_type).column("id").to_pylist())
        java = sorted(java_newest.read(path, where=pred, **kw).column("id").to_pylist()) if java_filter else brute
        assert ours == brute == java, (str(pred), ours, brute, java)
        pruned += n
    return pruned


@pytest.fixture(scope="module")
def typed(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("review_types"), "db.typed", SCHEMA,
                                    partition_keys=["p"], options={"bucket": "-1"})
    for k in range(len(COMMITS)):
        java_newest.write(path, _commit(k))
    return path


def test_extreme_integers_dates_wide_decimals_booleans_and_partitions(typed, java_newest):
    assert _check(java_newest, typed, predicates()) > 0
    # what the stats decide, file by file (8 files: 4 commits x 2 partitions)
    assert _ours(typed, L("lt", "t", -5))[1] == 7  # only the file holding -128
    assert _ours(typed, L("gt", "sm", 32766))[1] == 6
    assert _ours(typed, L("lt", "d", _day(1969, 12, 2)))[1] == 7
    assert _ours(typed, L("gt", "w", Decimal("20000000000000000.125")))[1] == 6
    assert _ours(typed, L("eq", "b", True))[1] >= 3  # files of False only, the all-NULL one
    assert _ours(typed, L("is_null", "b"))[1] == 4  # files without a NULL b


@pytest.fixture(scope="module", params=["sparse", "dense"])
def reshaped(request, tmp_path_factory, java_newest) -> tuple[str, int]:
    """Files whose stats layouts differ: ``sm`` in ``none`` mode and only the first four columns kept - sparse
    (``stats-dense-store`` off: NULL stats in place) or dense (``_VALUE_STATS_COLS`` names the columns kept,
    under their old names) - then ``t`` renamed to ``t2``, ``sm`` SMALLINT -> INT, the options removed and
    ``s`` in ``counts`` mode.  Returns the path and the last snapshot of the old schema."""
    dense = {} if request.param == "dense" else {"metadata.stats-dense-store": "false"}
    path = java_newest.create_table(tmp_path_factory.mktemp("review_reshaped"), "db.reshaped", SCHEMA,
                                    partition_keys=["p"], options={
                                        "bucket": "-1", **dense,
                                        "fields.sm.stats-mode": "none", "metadata.stats-keep-first-n-columns": "4"})
    java_newest.write(path, _commit(0))
    old = java_newest.write(path, _commit(1))
    java_newest.alter(path, [{"op": "rename", "from": "t", "to": "t2"}])
    java_newest.alter(path, [{"op": "type", "name": "sm", "type": "INT"}])
    java_newest.alter(path, [*([{"op": "remove", "key": "metadata.stats-dense-store"}] if dense else []),
                             {"op": "remove", "key": "metadata.stats-keep-first-n-columns"},
                             {"op": "remove", "key": "fields.sm.stats-mode"},
                             {"op": "set", "key": "fields.s.stats-mode", "value": "counts"}])
    names = ("id", "t2", *ARROW.names[2:])
    types = ARROW.set(2, pa.field("sm", pa.int32()))
    for k in (2, 3):
        java_newest.write(path, _commit(k, names, types))
    assert old is not None
    return path, old


def test_stats_layouts_changing_file_by_file(reshaped, java_newest):
    path, _ = reshaped
    assert _check(java_newest, path, predicates({"t": "t2"})) > 0
    assert _ours(path, L("gt", "t2", 126))[1] >= 2  # old files (t's stats under its old name) pruned too


def test_time_travel_to_the_old_names(reshaped, java_newest):
    path, old = reshaped
    assert _check(java_newest, path, predicates(), snapshot_id=old) > 0


def test_java_0_9_tables(tmp_path, java09_tables):
    """Java 0.9 writes ``_VALUE_STATS`` without ``_VALUE_STATS_COLS`` (and before the dense store); the
    reference is its whole read filtered (its oracle cannot convert TINYINT literals for a filtered read)."""
    path = java09_tables.create_table(tmp_path, "db.typed09", SCHEMA, partition_keys=["p"],
                                      options={"bucket": "-1", "fields.sm.stats-mode": "none"})
    for k in range(len(COMMITS)):
        java09_tables.write(path, _commit(k))
    assert _check(java09_tables, path, predicates(), java_filter=False) > 0
    assert _ours(path, L("lt", "t", -5))[1] == 7


# -- compound predicates over several types and per-column stats modes: brute force -----------------------------
_HSCHEMA = pa.schema([("id", pa.int32()), ("t", pa.int8()), ("d", pa.date32()), ("dec", pa.decimal128(5, 2)),
                      ("b", pa.bool_()), ("s", pa.string())])
_HVALUES = {
    "t": st.sampled_from([-128, -1, 0, 1, 127]),
    "d": st.integers(-3, 3).map(lambda n: _day(1970, 1, 1) + dt.timedelta(days=n)),
    "dec": st.sampled_from([Decimal(x) for x in ("-999.99", "-1.00", "0.00", "0.01", "1.50", "999.99")]),
    "b": st.booleans(),
    "s": st.sampled_from(["", "a", "ab", "abc", "b", "\u00e9", "\U0001F600", "zz"]),
}


_COLS = ("t", "d", "dec", "b", "s")


def _hleaf(seen: dict[str, list]):
    """Leaves whose literals are mostly values the files hold (a file's min or max: the boundary cases)."""
    @st.composite
    def leaf(draw):
        col = draw(st.sampled_from(_COLS))
        lit = st.sampled_from(seen[col]) | _HVALUES[col] if seen[col] else _HVALUES[col]
        op = draw(st.sampled_from(["eq", "neq", "lt", "lte", "gt", "gte", "in", "not_in", "between", "is_null",
                                   "is_not_null"] + (["starts_with", "like"] if col == "s" else [])))
        if op in ("in", "not_in"):
            return L(op, col, *draw(st.lists(lit, min_size=1, max_size=3)))
        if op == "between":
            return L(op, col, draw(lit), draw(lit))
        if op in ("is_null", "is_not_null"):
            return L(op, col)
        if op == "like":
            return L(op, col, draw(st.sampled_from(["a%", "_b%", "%", "ab_", "\u00e9%", "zz"])))
        return L(op, col, draw(lit))
    return leaf()


def _negatable(p) -> bool:
    return all(leaf.op not in ("starts_with", "like") for leaf in p.leaves())


@st.composite
def _hcases(draw):
    row = st.tuples(*(st.none() | _HVALUES[c] for c in _COLS))
    files = draw(st.lists(st.lists(row, min_size=1, max_size=5), min_size=1, max_size=4))
    seen = {c: sorted({r[i] for f in files for r in f if r[i] is not None}, key=repr) for i, c in enumerate(_COLS)}
    pred = draw(st.recursive(_hleaf(seen), lambda kids: st.one_of(
        st.lists(kids, min_size=2, max_size=3).map(lambda c: And(c)),
        st.lists(kids, min_size=2, max_size=3).map(lambda c: Or(c))), max_leaves=4))
    if _negatable(pred) and draw(st.booleans()):
        pred = pred.negate()
    modes = {f"fields.{c}.stats-mode": draw(st.sampled_from(["full", "counts", "none", "truncate(1)"]))
             for c in _COLS if draw(st.booleans())}
    return files, pred, modes


@settings(max_examples=int(os.environ.get("REVIEW_EXAMPLES", examples(60))), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=_hcases())
def test_compound_predicates_over_mixed_stats_modes_keep_every_matching_row(tmp_path_factory, case):
    """AND / OR trees (and their negation: NOT over columns holding NULLs) over TINYINT, DATE around the epoch,
    DECIMAL, BOOLEAN and STRING, each column in its own stats mode: our plan's rows are a brute-force filter."""
    files, pred, modes = case
    path = create_table(tmp_path_factory.mktemp("hst") / "t", _HSCHEMA, {"bucket": "-1", **modes})
    start = 0
    for rows in files:
        cols = list(zip(*rows, strict=True))
        append_arrow(path, pa.table([pa.array(range(start, start + len(rows)), pa.int32()),
                                     *(pa.array(c, f.type) for c, f in zip(cols, list(_HSCHEMA)[1:], strict=True))],
                                    schema=_HSCHEMA))
        start += len(rows)
    base = plan_scan(path, pred, use_stats=False, use_indexes=False)
    truth = sorted(filter_table(read_plan_locally(base), base.predicate, base.row_type).column("id").to_pylist())
    assert _ours(path, pred)[0] == truth, str(pred)


def test_pypaimon_2_1_tables(tmp_path, pypaimon21):
    """pypaimon 2.1's own stats (``full``: untruncated bounds from Arrow) of the same types; the reference is
    its whole read filtered."""
    path = pypaimon21.create_table(tmp_path, "db.typed_py", SCHEMA, partition_keys=["p"],
                                   options={"bucket": "-1", "metadata.stats-mode": "full"})
    for k in range(len(COMMITS)):
        pypaimon21.write(path, _commit(k))
    assert _check(pypaimon21, path, predicates(), java_filter=False) > 0
    assert _ours(path, L("lt", "t", -5))[1] == 7
