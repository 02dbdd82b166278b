"""Stats pruning (:mod:`paimon_codec.planning.stats_prune`) against tables real writers made.

Append tables written by Java Paimon 1.4.2 (stats modes ``truncate(16)`` by default, ``full``, ``counts``,
``none`` with per-column ``fields.<col>.stats-mode``, a rename and an added column), pypaimon 2.1
(``full``; and its default, no stats) and this library's writer (default, ``truncate(3)``).  Five files
each: long strings sharing a 16-character prefix (truncated bounds), short strings, non-ASCII and
astral code points, an all-NULL file, NULLs, integers, dates, decimals, booleans and doubles.

For every predicate of a generated matrix, the rows of our scan (plan with stats pruning + read +
exact filter) must be the rows Java Paimon's own read returns for the same predicate; and queries that
the stats clearly decide must really prune files (``files_pruned_by_stats``), where stats exist, and
prune nothing where the writer kept none.
"""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal

import pyarrow as pa
import pytest

from paimon_codec.expressions import And, Or, make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.writing import append_arrow, create_table

SCHEMA = "id INT, i BIGINT, s STRING, d DATE, dec DECIMAL(10, 2), b BOOLEAN, f DOUBLE"
P = "abcdefghijklmnop"  # 16 characters: the default truncation keeps exactly this prefix
DAY0 = dt.date(2024, 1, 1)
ASTRAL = "\U0001F600"
ARROW = pa.schema([("id", pa.int32()), ("i", pa.int64()), ("s", pa.string()), ("d", pa.date32()),
                   ("dec", pa.decimal128(10, 2)), ("b", pa.bool_()), ("f", pa.float64())])


def _file(k: int) -> pa.Table:
    """File ``k`` (five rows, ids ``10k..10k+4``)."""
    rows = []
    for j in range(5):
        s = {0: f"{P}0{j}", 1: f"{P}1{j}" if j < 4 else None, 2: f"k2-{j}", 3: None,
             4: ["\u00e9t\u00e9" + "x" * 20, ASTRAL + "a" * 20, "zz", "\u00e9t\u00e9", "zz" + "z" * 30][j]}[k]
        rows.append({"id": 10 * k + j, "i": None if k == 3 else 100 * k + j, "s": s,
                     "d": None if k == 3 else DAY0 + dt.timedelta(days=10 * k + j),
                     "dec": None if k == 3 else Decimal(f"{k}.{j}0"),
                     "b": {0: True, 1: False, 2: j % 2 == 0, 3: None, 4: True}[k],
                     "f": None if k == 3 else 1.5 * k + j})
    return pa.Table.from_pylist(rows, schema=ARROW)


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


def _day(n: int) -> dt.date:
    return DAY0 + dt.timedelta(days=n)


STRINGS = [P, P + "00", P + "03", P + "04", P + "1", P + "13", P[:15] + "q", P[:15], "k2-0", "k2-4", "k2-5",
           "k", "zz", "zzz", "", "\u00e9t\u00e9", ASTRAL, ASTRAL + "a" * 20, "zz" + "z" * 30]
PREFIXES = [P, P + "1", P + "0", "abc", "k2", "k3", "\u00e9t", ASTRAL + "a", "zz", "zzz", "", "b"]
LIKES = ["abc%01", "%z%", "k2%1", P + "1_", "zz%", "abc_", "k2-_", ASTRAL + "a%", "k2-4", "_2%"]
SCALARS = {
    "i": [-5, 0, 4, 50, 100, 104, 150, 204, 400, 404, 1000],
    "d": [_day(n) for n in (-1, 0, 4, 10, 25, 40, 44, 100)],
    "dec": [Decimal(x) for x in ("-1", "0.00", "0.40", "1.25", "2.40", "4.40", "9.99")],
    "b": [True, False],
    "f": [0.0, 3.0, 7.5, 100.0],
}
COMPARE = ("eq", "neq", "lt", "lte", "gt", "gte")


def predicates(s: str = "s") -> list:
    """The matrix: every comparison with every literal, sets, ranges, NULL tests, prefixes, and
    AND / OR / NOT combinations (``s``: the string column's name in the table)."""
    out = []
    values = dict(SCALARS, **{s: STRINGS})
    for col, lits in values.items():
        out += [L(op, col, v) for op in COMPARE for v in lits]
        out += [L("in", col, *pair) for pair in itertools.islice(itertools.combinations(lits, 2), 0, None, 3)]
        out += [L("not_in", col, *lits[:2]), L("not_in", col, lits[0]), L("is_null", col), L("is_not_null", col)]
        out += [L("between", col, a, b) for a, b in zip(lits, lits[2:], strict=False)]
    out += [L("starts_with", s, p) for p in PREFIXES] + [L("like", s, pat) for pat in LIKES]
    out += [And([L("gt", "i", 100), L("eq", s, "k2-1")]), Or([L("lt", "i", 0), L("eq", s, "zz")]),
            Or([L("eq", "i", 1000), L("is_null", s)]), And([L("eq", "b", False), L("gte", "d", _day(20))]),
            L("gt", "i", 50).negate(), And([L("eq", s, "k2-1"), L("gt", "i", 100)]).negate(),
            Or([L("eq", s, "k2-2"), L("lt", "dec", Decimal("0.10"))]).negate()]
    return out


def _ours(path: str, pred) -> tuple[list[int], object]:
    plan = plan_scan(path, pred)
    rows = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type)
    return sorted(rows.column("id").to_pylist()), plan.report


# -- the tables --------------------------------------------------------------------------------------
JAVA_TABLES = {
    "java_default": {},
    "java_full": {"metadata.stats-mode": "full"},
    "java_counts": {"metadata.stats-mode": "counts", "fields.s.stats-mode": "truncate(4)"},
    "java_none_some": {"metadata.stats-mode": "none", "fields.s.stats-mode": "full",
                       "fields.i.stats-mode": "truncate(16)"},
}
#: tables whose stats bound ``i`` and ``s`` (prunable by value), and those that keep none at all
BOUNDED = {"java_default", "java_full", "java_none_some", "java_evolved", "pypaimon_full", "ours_default",
           "ours_trunc3"}
NO_STATS = {"pypaimon_default"}


@pytest.fixture(scope="module")
def tables(tmp_path_factory, java_newest, pypaimon21) -> dict[str, tuple[str, str]]:
    """name -> (table path, name of its string column)."""
    wh = tmp_path_factory.mktemp("stats_prune")
    out: dict[str, tuple[str, str]] = {}
    for name, options in JAVA_TABLES.items():
        path = java_newest.create_table(wh, f"db.{name}", SCHEMA, options={"bucket": "-1", **options})
        for k in range(5):
            java_newest.write(path, _file(k))
        out[name] = (path, "s")
    # schema evolution: files of schema 0 (s), then s renamed to s2 and n added (schema 2)
    path = java_newest.create_table(wh, "db.java_evolved", SCHEMA, options={"bucket": "-1"})
    for k in range(3):
        java_newest.write(path, _file(k))
    java_newest.alter(path, [{"op": "rename", "from": "s", "to": "s2"}])
    java_newest.alter(path, [{"op": "add", "name": "n", "type": "INT"}])
    for k in (3, 4):
        java_newest.write(path, _file(k).rename_columns([*ARROW.names[:2], "s2", *ARROW.names[3:]])
                          .append_column("n", pa.array([k] * 5, pa.int32())))
    out["java_evolved"] = (path, "s2")
    for name, options in (("pypaimon_full", {"metadata.stats-mode": "full"}), ("pypaimon_default", {})):
        path = pypaimon21.create_table(wh, f"db.{name}", SCHEMA, options={"bucket": "-1", **options})
        for k in range(5):
            pypaimon21.write(path, _file(k))
        out[name] = (path, "s")
    for name, options in (("ours_default", {}), ("ours_trunc3", {"metadata.stats-mode": "truncate(3)"})):
        path = create_table(wh / "db.db" / name, SCHEMA, options)
        for k in range(5):
            append_arrow(path, _file(k))
        out[name] = (path, "s")
    return out


NAMES = [*JAVA_TABLES, "java_evolved", "pypaimon_full", "pypaimon_default", "ours_default", "ours_trunc3"]


@pytest.mark.parametrize("name", NAMES)
def test_rows_are_javas_for_every_predicate(tables, java_newest, pypaimon21, name):
    """Java's read is the reference; predicates on ``dec`` of pypaimon's tables are read by pypaimon (Java's
    Parquet filter refuses pypaimon's fixed-length DECIMAL(10, 2): "declared type (java.lang.Long) does not
    match"; pypaimon's oracle cannot evaluate LIKE exactly)."""
    path, s = tables[name]
    preds = predicates(s)
    if name == "java_evolved":
        preds += [L("eq", "n", 3), L("is_null", "n"), L("gt", "n", 3), L("is_not_null", "n"),
                  Or([L("eq", "n", 4), L("lt", "i", 10)])]
    pruned = 0
    for pred in preds:
        ours, report = _ours(path, pred)
        reader = pypaimon21 if name.startswith("pypaimon") and "dec" in pred.columns() else java_newest
        java = sorted(reader.read(path, where=pred).column("id").to_pylist())
        assert ours == java, (name, str(pred), report.files)
        pruned += report.files_pruned_by_stats
    if name in NO_STATS:
        assert pruned == 0
    else:
        assert pruned > 0


def _pruned(path: str, where) -> int:
    return plan_scan(path, where).report.files_pruned_by_stats


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_stats_decide_what_they_bound(tables, name, table_location):
    """Queries no row of a file can match drop every such file before its index is looked at (on local
    disk, and on the S3 server: file schemas of older schema ids are read from the store)."""
    path, s = tables[name]
    path = table_location(path)
    assert _pruned(path, "i > 1000") == 5  # the all-NULL file too
    assert _pruned(path, "i < 0") == 5
    assert _pruned(path, "i = 150") == 5  # between the bounds of no file
    assert _pruned(path, L("eq", "i", 204)) == 4
    assert _pruned(path, L("eq", s, "k2-1")) == 4
    # a long value is bounded by the truncated prefix only where the mode truncates
    assert _pruned(path, L("eq", s, P + "13")) >= 3
    assert _pruned(path, L("starts_with", s, "k2")) == 4
    assert _pruned(path, L("like", s, "k2%1")) == 4  # LIKE: by the characters before its first wildcard
    assert _pruned(path, L("is_not_null", s)) >= 1  # file 3: every s is NULL
    # a file whose every value is NULL matches no comparison
    report = plan_scan(path, L("neq", "i", 7)).report
    assert report.files_pruned_by_stats == 1 and report.files_read == 4


@pytest.mark.parametrize("name", [n for n in NAMES if n not in BOUNDED | NO_STATS])
def test_null_counts_alone_prune_all_null_files(tables, name, table_location):
    path, s = tables[name]
    path = table_location(path)
    assert _pruned(path, L("is_not_null", "i")) == 1
    assert _pruned(path, L("gt", "i", 1000)) == 1  # no bounds: only the all-NULL file
    assert _pruned(path, L("is_null", "i")) == 4


def test_types_without_exact_bounds_are_not_pruned_by_value(tables):
    path, _ = tables["java_full"]
    assert _pruned(path, L("gt", "f", 1000.0)) == 1  # doubles: only the all-NULL file


def test_use_stats_false_prunes_nothing(tables):
    path, _ = tables["java_default"]
    plan = plan_scan(path, "i > 1000", use_stats=False)
    assert plan.report.files_pruned_by_stats == 0 and plan.report.files_read == 5


def test_cli_plan_json_reports_stats_pruning(tables, capsys):
    import json

    from paimon_codec.cli import main

    path, _ = tables["ours_default"]
    assert main(["plan", path, "--where", "i > 1000", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert report["files_pruned_by_stats"] == report["files_total"] == 5 and report["files_read"] == 0
    assert {f["decision"] for f in report["files"]} == {"skipped: stats"}
    assert main(["plan", path, "--where", "i > 1000"]) == 0
    assert "files_pruned_by_stats" in capsys.readouterr().out


def test_primary_key_tables_are_not_pruned_by_value_stats(tmp_path, java_newest):
    """Value stats of a primary-key table describe rows before the merge (an update moves a key's value
    out of a file's range): no file is dropped by them, and the rows are Java's."""
    path = java_newest.create_table(tmp_path, "db.pk", SCHEMA.replace("id INT", "id INT NOT NULL"),
                                    primary_keys=["id"], options={"bucket": "1", "deletion-vectors.enabled": "true"})
    java_newest.write(path, _file(0))
    java_newest.compact(path, full=True)
    java_newest.write(path, _file(0).set_column(1, "i", pa.array([900] * 5, pa.int64())))
    java_newest.compact(path, full=True)
    for where in ("i > 800", "i < 10", "i = 2"):
        ours, report = _ours(path, where)
        assert report.files_pruned_by_stats == 0
        assert ours == sorted(java_newest.read(path, where=where).column("id").to_pylist()), where
