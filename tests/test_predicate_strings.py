"""String and binary predicates: one row set on every path, Paimon Java 1.4.2's (review of predicate semantics).

Review findings, each checked below against Java 1.4.2's filtered read:

* LIKE's ``_`` matched a line terminator in the Arrow and Spark row filters (their LIKE); Paimon compiles ``_``
  to the regular expression ``.``, which matches none of ``\\n``, ``\\r``, U+0085, U+2028, U+2029 - so
  ``s LIKE 'a_b'`` returned ``'a\\nb'``, a row Java does not;
* a backslash in a LIKE pattern means two things in Paimon 1.4 (an escape in patterns holding ``_``, a plain
  character in the others: ``LIKE 'a\\%'`` is ``starts_with 'a\\'``), another in Spark / Arrow / newer Paimon:
  refused, in the SQL text and in a ``like`` leaf;
* ``starts_with`` / ``ends_with`` / ``contains`` / ``like`` on a non-string column: Java throws
  ``ClassCastException``; the Arrow filter raised a bare ``ArrowNotImplementedError`` (INT) or silently
  returned no row (BINARY: the literal matched as the text ``"b'a'"``), Spark returned rows: refused at bind;
* ``<``, ``<=``, ``>``, ``>=``, ``BETWEEN`` on BINARY: Java orders bytes *signed* (``X'ff' < X'7f'``), Arrow,
  Spark and Python unsigned: refused (equality and IN agree and stay);
* a plan of an ``ends_with`` / ``contains`` predicate failed: its report renders the predicate as SQL text,
  which those operators have none of.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidPredicateError, UnsupportedFeatureError
from paimon_codec.expressions import make_leaf, parse_where
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally

TERMINATORS = ["a\nb", "a\rb", "a\x85b", "a\u2028b", "a\u2029b", "a\r\nb"]
VALUES = ["a", "ab", "a_b", "a%b", "a\\b", "a\\%", "a%", "", "\x00", "a\x00b", "\U0001F600", "a\U0001F600b", "\uffff",
          "é", "e\u0301", "abc", "a.b", "a*b", "[a]", "a\tb", "a\x0bb", "a\x0cb", "_", "%", None, "xa_by"] + TERMINATORS
ARROW = pa.schema([("id", pa.int32()), ("s", pa.string()), ("i", pa.int32()), ("bin", pa.binary())])
BINS = [b"", b"\x00", b"\x7f", b"\x80", b"\xff", b"a", b"ab", None]


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


LIKES = ["a_b", "a__", "_", "%_%", "a_%", "%_b", "a%b", "__", "a_b%", "%a_b_", "a._", "[_]", "a*_", "\U0001F600%", "%"]
PREDICATES = [L("like", "s", p) for p in LIKES] + [
    L("starts_with", "s", "a"), L("starts_with", "s", ""), L("ends_with", "s", "b"), L("ends_with", "s", "_"),
    L("contains", "s", "%"), L("contains", "s", "\n"), L("contains", "s", ""),
    L("not_in", "s", "a", None), L("in", "s", "a", None), L("not_in", "i", 1, None), L("not_in", "s", "a"),
    L("eq", "bin", b"\x80"), L("in", "bin", b"a", b"\xff"), L("neq", "bin", b"\x7f"), L("not_in", "bin", b"", None),
    L("like", "s", "a_b") & L("neq", "s", "a_b"), L("like", "s", "_") | L("like", "s", "a\u2028_"),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("strings"), "db.s", "id INT, s STRING, i INT, bin BYTES",
                                    options={"bucket": "-1", "file-index.bitmap.columns": "s",
                                             "file-index.bloom-filter.columns": "bin"})
    for start in range(0, len(VALUES), 8):
        chunk = VALUES[start:start + 8]
        ids = list(range(start, start + len(chunk)))
        java_newest.write(path, pa.table({"id": ids, "s": chunk, "i": [k % 3 if k % 5 else None for k in ids],
                                          "bin": [BINS[k % len(BINS)] for k in ids]}, schema=ARROW))
    return path


def _ids(t: pa.Table) -> list[int]:
    return sorted(t.column("id").to_pylist())


def _local(path: str, pred, **kw) -> list[int]:
    plan = plan_scan(path, pred, **kw)
    return _ids(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type))


@pytest.mark.parametrize("pred", PREDICATES, ids=repr)
def test_local_reads_return_javas_rows(table, java_newest, pred):
    java = _ids(java_newest.read(table, where=pred))
    for kw in ({}, {"use_stats": False}, {"use_indexes": False}, {"use_stats": False, "use_indexes": False}):
        assert _local(table, pred, **kw) == java, (pred, kw)


def test_like_underscore_matches_no_line_terminator(table, java_newest):
    """The finding itself, spelled out (so a change of Java's semantics shows here first)."""
    java = java_newest.read(table, where=L("like", "s", "a_b"))
    assert sorted(java.column("s").to_pylist()) == sorted(["a_b", "a%b", "a\\b", "a\x00b", "a\U0001F600b", "a.b",
                                                           "a*b", "a\tb", "a\x0bb", "a\x0cb"])
    assert _local(table, L("like", "s", "a_b")) == _ids(java)


def test_spark_scans_return_javas_rows(table, java_newest, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    for pred in [L("like", "s", "a_b"), L("like", "s", "%_b"), L("like", "s", "a_%"), L("like", "s", "a%b"),
                 L("ends_with", "s", "_"), L("not_in", "s", "a", None), L("in", "bin", b"a", b"\xff"),
                 L("like", "s", "a_b") | L("starts_with", "s", "[")]:
        java = _ids(java_newest.read(table, where=pred))
        for driver_rows in (0, 65_536):  # Spark's reader / tasks, and pyarrow on the driver
            df, _ = scan(spark, table, pred, driver_rows=driver_rows)
            assert sorted(r["id"] for r in df.collect()) == java, (pred, driver_rows)


@pytest.mark.parametrize("where", [
    "s LIKE 'a\\%'", "s LIKE 'a\\_b'", "s LIKE 'a\\b'", "s LIKE '%\\%'",
    L("like", "s", "a\\%"), L("like", "s", "a\\_b"), L("like", "s", "\\"),
    "bin > X'7f'", "bin <= X'80'", "bin BETWEEN X'00' AND X'ff'", "NOT bin < X'00'", L("gte", "bin", b"a"),
])
def test_refused_in_one_line(table, where):  # rows Paimon's versions / engines disagree on: a refusal
    with pytest.raises(UnsupportedFeatureError, match="backslash|orders bytes signed"):
        plan_scan(table, parse_where(where) if isinstance(where, str) else where)


@pytest.mark.parametrize("where", [
    L("starts_with", "i", "1"), L("like", "i", "1%"), L("contains", "bin", b"a"), L("starts_with", "bin", b"a"),
    L("ends_with", "i", 1), "i LIKE '1%'",
])
def test_string_operators_on_other_columns_are_usage_errors(table, where):
    with pytest.raises(InvalidPredicateError, match="needs a CHAR / VARCHAR column"):
        plan_scan(table, parse_where(where) if isinstance(where, str) else where)


def test_a_plan_of_a_predicate_without_sql_form_is_read(table, java_newest):
    pred = L("ends_with", "s", "b") | L("contains", "s", "%")
    plan = plan_scan(table, pred)
    assert "ends_with" in str(plan.predicate).lower() or "EndsWith" in str(plan.predicate)
    assert _local(table, pred) == _ids(java_newest.read(table, where=pred))
