"""Conformance: our reader on tables pypaimon 2.1 writes, against pypaimon's own read of the same table.

Every table kind of ``tests/pypaimon_tables.py`` is written (two or three commits) into one module
warehouse by the session's pypaimon worker; for each predicate (none, a plain column, the partition
column, a range, a column with a file index where the table has one) our rows —
``paimon_codec.reading.local_read.read_table`` (plan, read, filter exactly) — must be pypaimon's rows, as a multiset.

Two tests per case: ``test_rows_match_pypaimon`` (exact rows) and ``test_never_wrong_rows`` (exact
rows, or a one-line ``paimon_codec.errors`` refusal; never other rows, never another exception).
Cases that fail today carry ``xfail(strict=True, raises=...)`` naming the point of issue 13: the fix
flips them to an unexpected pass, which fails until the mark is removed.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from pypaimon_tables import PREDICATES, TYPED_PREDICATES, cases, predicates_of
from spark_fixtures import spark  # noqa: F401
from storage_fixtures import on_s3

from paimon_codec.errors import PaimonCodecError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table

CASES = {c.name: c for c in cases("<external>")}
WHERE = PREDICATES | TYPED_PREDICATES

# -- what goes wrong today (issue 13), per case: (reason naming the point of the issue, exception raised by
# test_rows_match_pypaimon, raised by test_never_wrong_rows or None) -> xfail(strict=True, raises=...).
# Empty now: avro data files (point 6), evolution by field id and reads under the current schema (point 1),
# TIMESTAMP(9) (point 5), primary-key merges incl. merge-on-read, rowkind.field and every engine (point 3),
# data evolution (point 2), Spark's multi-file ORC read (point 11) all failed when these tests were written.
KNOWN: dict[str, tuple[str, type | tuple, type | tuple | None]] = {}
#: (case, predicate, test) that pass although the case is in KNOWN (test 1: rows match, 2: never wrong)
PASSING_TODAY: set[tuple[str, str, int]] = set()


@pytest.fixture(scope="module")
def warehouse(pypaimon21, tmp_path_factory):
    """Every case's table, written by pypaimon into one warehouse; a table pypaimon cannot write is an error."""
    wh = tmp_path_factory.mktemp("pypaimon-warehouse")
    external = tmp_path_factory.mktemp("pypaimon-external")
    paths = {c.name: c.build(pypaimon21, wh, c.name) for c in cases(str(external))}
    return {"root": wh, "paths": paths, "theirs": {}}


def theirs(pypaimon21, warehouse, case: str, where, key) -> pa.Table:
    cache = warehouse["theirs"]
    if key not in cache:
        cache[key] = pypaimon21.read(warehouse["paths"][case], where=where, snapshot_id=key[2])
    return cache[key]


#: pypaimon 2.1 filters with pyarrow's IEEE comparisons (``-0.0 = 0.0``), not Java's ``Double.compare``
#: (``-0.0 < 0.0``, our ``semantics="paimon"`` default): the two Paimon readers disagree on a zero's sign, so
#: pypaimon's rows are compared with our read under the semantics that treat zeros as it does. No predicate
#: here has a NaN literal, where pyarrow and Spark differ too.
PYPAIMON_SEMANTICS = "spark"


def ours(path: str, where, snapshot_id: int | None = None) -> pa.Table:
    """Our rows: the table-level local read (plan, read, filter exactly)."""
    return read_table(path, where, snapshot_id, semantics=PYPAIMON_SEMANTICS)


def _params(which: int):
    out = []
    for name in CASES:
        for pred in predicates_of(name):
            marks = []
            known = KNOWN.get(name)
            if known is not None and known[which] is not None and (name, pred, which) not in PASSING_TODAY:
                marks.append(pytest.mark.xfail(strict=True, raises=known[which], reason=known[0]))
            out.append(pytest.param(name, pred, marks=marks, id=f"{name}-{pred}"))
    return out


@pytest.mark.parametrize("case,pred", _params(1))
def test_rows_match_pypaimon(pypaimon21, warehouse, case, pred):
    where = WHERE[pred]
    assert_same_rows(ours(warehouse["paths"][case], where), theirs(pypaimon21, warehouse, case, where,
                                                                   (case, pred, None)))


@pytest.fixture(scope="module")
def s3_warehouse(warehouse, s3_server):
    """pypaimon's warehouse copied into a bucket of the S3 server: case -> table URI."""
    root = str(warehouse["root"])
    uri = on_s3(s3_server)(root)
    return {"root": uri, "paths": {case: uri + os.path.abspath(p)[len(os.path.abspath(root)):]
                                   for case, p in warehouse["paths"].items()}}


def _s3_params():
    """One predicate per case (the S3 variant of test_rows_match_pypaimon; every predicate runs locally)."""
    seen: set[str] = set()
    out = []
    for p in _params(1):
        if p.values[0] not in seen and not p.marks:
            seen.add(p.values[0])
            out.append(p)
    return out


@pytest.mark.parametrize("case,pred", _s3_params())
def test_rows_match_pypaimon_on_s3(pypaimon21, warehouse, s3_warehouse, case, pred):
    """The same table read from its copy on the S3 server gives pypaimon's rows too."""
    where = WHERE[pred]
    assert_same_rows(ours(s3_warehouse["paths"][case], where),
                     theirs(pypaimon21, warehouse, case, where, (case, pred, None)))


@pytest.mark.parametrize("case,pred", _params(2))
def test_never_wrong_rows(pypaimon21, warehouse, case, pred):
    """Exact rows or a refusal of paimon_codec.errors; today's refusals are recorded in KNOWN."""
    where = WHERE[pred]
    try:
        mine = ours(warehouse["paths"][case], where)
    except PaimonCodecError as exc:
        assert "\n" not in str(exc).strip()
        return
    assert_same_rows(mine, theirs(pypaimon21, warehouse, case, where, (case, pred, None)))


@pytest.mark.parametrize("case", ["append_parquet", "append_overwrite", "append_evolution", "pk_bucket2",
                                  "pk_bucket2_deletes", "pk_partial_update"])
@pytest.mark.parametrize("snapshot_id", [1, 2])
def test_time_travel_matches_pypaimon(pypaimon21, warehouse, case, snapshot_id, request):
    known = KNOWN.get(case)
    if known is not None:
        request.applymarker(pytest.mark.xfail(strict=True, raises=known[1], reason=known[0]))
    where = PREDICATES["plain"]
    assert_same_rows(ours(warehouse["paths"][case], where, snapshot_id),
                     theirs(pypaimon21, warehouse, case, where, (case, "plain", snapshot_id)))


_TAG = "table(kwargs['path']).create_tag(kwargs['tag'], snapshot_id=kwargs['snapshot_id'], ignore_if_exists=True)"


@pytest.mark.parametrize("case", ["append_parquet", "append_evolution", "pk_partial_update"])
def test_tag_matches_pypaimon(pypaimon21, warehouse, case):
    """A tag pypaimon creates on snapshot 1 reads (``read_table(..., tag=)``) as pypaimon reads it."""
    path = warehouse["paths"][case]
    pypaimon21.run(_TAG, path=path, tag="first", snapshot_id=1)
    where = WHERE["plain"]
    want = pypaimon21.read(path, where=where, tag="first")
    assert 0 < want.num_rows < pypaimon21.read(path, where=where).num_rows
    assert_same_rows(read_table(path, where, tag="first"), want)


#: Spark-only failures: case -> (reason, exception); the ORC one (issue 13 point 11: ``reader.orc(*paths)``
#: taking the 2nd path as mergeSchema: 0 rows silently with three files) is fixed
SPARK_KNOWN: dict[str, tuple[str, type | tuple]] = {}


def _spark_params():
    out = []
    for name, c in CASES.items():
        for pred in c.spark:
            known = SPARK_KNOWN.get(name) or (KNOWN[name][:2] if name in KNOWN else None)
            marks = [pytest.mark.xfail(strict=True, raises=known[1], reason=known[0])] if known else []
            out.append(pytest.param(name, pred, marks=marks, id=f"{name}-{pred}"))
    return out


@pytest.mark.parametrize("case,pred", _spark_params())
def test_spark_scan_matches_pypaimon(spark, pypaimon21, warehouse, case, pred):  # noqa: F811
    """The Spark pipeline (``paimon_codec.spark.scan``, Spark's own file reader where it can) agrees too."""
    from paimon_codec.spark.scan import scan

    where = WHERE[pred]
    df, _ = scan(spark, warehouse["paths"][case], where, driver_rows=0)
    want = theirs(pypaimon21, warehouse, case, where, (case, pred, None))
    got = pa.Table.from_pylist([r.asDict(recursive=True) for r in df.collect()], schema=want.schema)
    assert df.columns == want.column_names
    assert_same_rows(got, want)


@pytest.mark.parametrize("case", ["append_native_file_index", "append_types_native_index"])
def test_native_writer_wrote_file_indexes_we_use(warehouse, case):
    """The pypaimon-rust cases really exercise file indexes (else their predicates prove nothing about them):
    every file carries a bitmap on ``name`` that our planner evaluates."""
    path = warehouse["paths"][case]
    plan = plan_scan(path, WHERE["indexed"])
    assert plan.report.files_total > 0
    assert {f["index_result"] for f in plan.report.files} == {"BITMAP"}
    absent = plan_scan(path, {"op": "eq", "field": "name", "literal": "no such name"}, use_stats=False)
    assert absent.report.files_skipped_by_index == absent.report.files_total


def test_audit_is_clean_on_pypaimons_warehouse(spark, warehouse):  # noqa: F811
    """``audit`` finds every pypaimon table, checks its index files (DVs, hash indexes, file indexes,
    index-in-data-dir) and reports no finding: pypaimon's valid tables have nothing missing or orphaned."""
    from paimon_codec.spark.audit import audit_results

    _, summary = audit_results(spark, warehouse["root"])
    assert summary["findings"] == []
    audited = {os.path.realpath(t["path"]) for t in summary["tables"].values()}
    assert audited == {os.path.realpath(p) for p in warehouse["paths"].values()}
    assert summary["index_files"] > 0


def test_audit_is_clean_on_pypaimons_warehouse_on_s3(spark, warehouse, s3_warehouse):  # noqa: F811
    from paimon_codec.spark.audit import audit_results

    _, summary = audit_results(spark, s3_warehouse["root"])
    assert summary["findings"] == []
    assert {t["path"] for t in summary["tables"].values()} == set(s3_warehouse["paths"].values())
    assert summary["index_files"] > 0
