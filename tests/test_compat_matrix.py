"""The ``compat`` matrix of issue 13: writer x table kind x predicate, each cell our rows == the writer's rows.

Writers: Paimon Java 0.9 and 1.4.2 (the session's oracle JVMs), pypaimon 2.1 and its Rust writer (the
session's pypaimon worker).  Table kinds and their builders: ``tests/compat_matrix_tables.py`` (a kind a
writer cannot produce is not generated: it is recorded in ``CANNOT``).  Each table is built once per module
(two to four commits of a few hundred rows).  In every cell our exact local read
(:func:`paimon_codec.reading.read_table`) must equal the writer's own read with the same predicate, as a
multiset (top-N: the writer's rows sorted by the unique ``id``, first 5), or be a one-line refusal of
:mod:`paimon_codec.errors` (``UnsupportedTypeError`` / ``UnsupportedVersionError``) — never other rows.

With ``PAIMON_CODEC_COMPAT_OUT=path`` the results are written there as JSON (``tools/compat_matrix.py``
renders them into docs/compatibility.md).
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from compat_matrix_tables import BUILDERS, CANNOT, KINDS, NOTES, PREDICATES, TOPN, WRITERS, Writer, where_of
from oracles.compare import assert_same_rows
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError, UnsupportedVersionError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable

REPO = Path(__file__).resolve().parents[1]
_ORACLE_FIXTURES = {"java-0.9": "java09_tables", "java-1.4.2": "java_newest", "pypaimon-2.1": "pypaimon21",
                    "pypaimon-rust": "pypaimon21"}
DYNAMIC_FIXTURES = _ORACLE_FIXTURES  # the writer parameter's oracle fixture: conftest marks the test by it

SPARK_PREDICATE = "range"
SPARK_LABEL = "Spark `scan`, `v BETWEEN 1000 AND 3000`"
SPARK_WRITERS = ("java-1.4.2",)  # Spark's cells on the newest Java's tables only: the matrix stays ~2 minutes
#: (writer, kind, predicate) -> reason, for cells known to give a WRONG row set (xfail strict)
WRONG: dict[tuple[str, str, str], str] = {}


def _cells():
    out = []
    for writer in WRITERS:
        for kind in KINDS:
            if (writer, kind) in CANNOT:
                continue
            for pred in PREDICATES:
                reason = WRONG.get((writer, kind, pred))
                marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)] if reason else []
                out.append(pytest.param(writer, kind, pred, marks=marks, id=f"{writer}-{kind}-{pred}"))
    return out


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    """Tables built so far, writers' reads, and the cell results (written as JSON at the end on request)."""
    state = {"root": tmp_path_factory.mktemp("compat-matrix"), "writers": {}, "tables": {}, "theirs": {},
             "cells": {}}
    yield state
    out = os.environ.get("PAIMON_CODEC_COMPAT_OUT")
    if out:
        doc = {"writers": WRITERS, "kinds": KINDS, "predicates": {**PREDICATES, "spark": SPARK_LABEL},
               "cells": list(state["cells"].values()),
               "cannot": [{"writer": w, "kind": k, "reason": r} for (w, k), r in CANNOT.items()],
               "notes": [{"writer": w, "kind": k, "note": n} for (w, k), n in NOTES.items()]}
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)


def _writer(request, matrix, name: str) -> Writer:
    if name not in matrix["writers"]:
        oracle = request.getfixturevalue(_ORACLE_FIXTURES[name])
        matrix["writers"][name] = Writer(name, oracle, java=name.startswith("java"),
                                         native=name == "pypaimon-rust")
    return matrix["writers"][name]


def _table(request, matrix, writer: Writer, kind: str) -> str:
    """The table of (writer, kind), built on first use; a table the writer cannot build fails the cell."""
    key = (writer.name, kind)
    if key not in matrix["tables"]:
        wh = matrix["root"] / writer.name.replace(".", "_")
        wh.mkdir(exist_ok=True)
        matrix["tables"][key] = BUILDERS[kind](writer, wh, kind)
    return matrix["tables"][key]


def _theirs(matrix, writer: Writer, kind: str, path: str, where: str | None) -> pa.Table:
    key = (writer.name, kind, where)
    if key not in matrix["theirs"]:
        matrix["theirs"][key] = writer.read(path, where)
    return matrix["theirs"][key]


def _top(rows: pa.Table) -> pa.Table:
    column, n = TOPN[0].split()[0], TOPN[1]
    return rows.take(pc.sort_indices(rows, sort_keys=[(column, "descending")])[:n])


@pytest.mark.parametrize("writer_name,kind,pred", _cells())
def test_cell_reads_exactly_or_refuses(request, matrix, writer_name, kind, pred):
    writer = _writer(request, matrix, writer_name)
    path = _table(request, matrix, writer, kind)
    where = where_of(kind, pred)
    cell = {"writer": writer_name, "kind": kind, "predicate": pred, "where": where}
    matrix["cells"][(writer_name, kind, pred)] = cell
    try:
        if pred == "topn":
            mine = read_table(path, None, order_by=TOPN[0], limit=TOPN[1])
        else:
            mine = read_table(path, where)
    except (UnsupportedTypeError, UnsupportedVersionError) as exc:
        cell.update(status="refused", message=exc.message)
        assert "\n" not in str(exc).strip(), f"a refusal is one line: {exc}"
        return
    theirs = _theirs(matrix, writer, kind, path, where)
    if pred == "topn":
        theirs = _top(theirs)
    cell.update(status="wrong", rows=theirs.num_rows)
    assert_same_rows(mine, theirs)
    cell["status"] = "exact"


def _s3_cells():
    return [pytest.param(w, k, id=f"{w}-{k}") for w in WRITERS for k in KINDS if (w, k) not in CANNOT]


@pytest.mark.parametrize("writer_name,kind", _s3_cells())
def test_cell_on_s3_reads_as_on_local_disk(request, matrix, s3_server, writer_name, kind):
    """Every table of the matrix, copied into a bucket of the S3 server, reads (``eq`` predicate: indexes,
    deletion vectors and evolution all in play) exactly the writer's rows, or refuses as it does locally."""
    from storage_fixtures import on_s3

    writer = _writer(request, matrix, writer_name)
    path = _table(request, matrix, writer, kind)
    uri = on_s3(s3_server)(path)
    where = where_of(kind, "eq")
    try:
        local = read_table(path, where)
    except (UnsupportedTypeError, UnsupportedVersionError) as exc:
        with pytest.raises(type(exc)) as there:
            read_table(uri, where)
        assert there.value.message == exc.message
        return
    mine = read_table(uri, where)
    assert_same_rows(mine, _theirs(matrix, writer, kind, path, where))
    assert_same_rows(mine, local)


def _spark_cells():
    return [pytest.param(w, k, id=f"{w}-{k}") for w in SPARK_WRITERS for k in KINDS if (w, k) not in CANNOT]


@pytest.mark.parametrize("writer_name,kind", _spark_cells())
def test_spark_scan_matches_the_writer(request, spark, matrix, writer_name, kind):  # noqa: F811
    """The Spark pipeline (``paimon_codec.spark.scan``, rows read by the executors, Spark's own file reader
    where it can) on the range predicate: the writer's rows too, or a one-line refusal.  (Newest Java's
    tables only: a Spark scan of every table would double the module's time.)"""
    from paimon_codec.spark.scan import scan

    writer = _writer(request, matrix, writer_name)
    path = _table(request, matrix, writer, kind)
    where = where_of(kind, SPARK_PREDICATE)
    cell = {"writer": writer_name, "kind": kind, "predicate": "spark", "where": where}
    matrix["cells"][(writer_name, kind, "spark")] = cell
    try:
        df, _ = scan(spark, path, where, driver_rows=0)
        theirs = _theirs(matrix, writer, kind, path, where)
        mine = pa.Table.from_pylist([r.asDict(recursive=True) for r in df.collect()], schema=theirs.schema)
    except (UnsupportedTypeError, UnsupportedVersionError) as exc:
        cell.update(status="refused", message=exc.message)
        assert "\n" not in str(exc).strip(), f"a refusal is one line: {exc}"
        return
    cell.update(status="wrong", rows=theirs.num_rows)
    assert df.columns == theirs.column_names
    assert_same_rows(mine, theirs)
    cell["status"] = "exact"


def _tool():
    spec = importlib.util.spec_from_file_location("compat_matrix_tool", REPO / "tools" / "compat_matrix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compat_page_lists_every_refusal_of_the_source():
    """docs/compatibility.md's refusal list is the one collected from the source now (after adding a refusal, run
    ``python tools/compat_matrix.py --refusals-only``), and the collector renders every refusing call
    (the one exception: inspect's global-index refusal, whose text is ``GlobalIndexFile.refusal()``)."""
    tool = _tool()
    unrendered: list[str] = []
    groups = tool.collect_refusals(unrendered=unrendered)
    assert [u.split(":")[0] for u in unrendered] == ["inspect.py"], unrendered
    assert sum(map(len, groups.values())) >= 30
    section = tool.current_section()
    assert section == tool.with_current_refusals(section), "docs/compatibility.md refusals are stale: run " \
        "python tools/compat_matrix.py --refusals-only"


def test_readme_summary_is_the_pages_counts():
    """The README's count line is the one the matrix was rendered with (``tools/compat_matrix.py`` writes both)."""
    tool = _tool()
    assert tool.readme_summary() == tool.section_summary(tool.current_section()), \
        "README compat summary is stale: run python tools/compat_matrix.py --refusals-only"


def test_every_cell_of_the_matrix_is_generated_or_marked_cannot():
    """No (writer, kind) pair is silently left out: it is a cell or a recorded 'writer cannot'."""
    generated = {(p.values[0], p.values[1]) for p in _cells()}
    for writer in WRITERS:
        for kind in KINDS:
            assert ((writer, kind) in generated) != ((writer, kind) in CANNOT), (writer, kind)
    assert set(CANNOT) | set(NOTES) <= {(w, k) for w in WRITERS for k in KINDS}


def _kind_checks():
    out = []
    for writer in WRITERS:
        for kind in ("file_index", "evolved", "pk_dv", "data_evolution"):
            if (writer, kind) in CANNOT or (kind == "pk_dv" and not writer.startswith("java")):
                continue
            out.append(pytest.param(writer, kind, id=f"{writer}-{kind}"))
    return out


@pytest.mark.parametrize("writer_name,kind", _kind_checks())
def test_table_holds_what_its_kind_names(request, matrix, writer_name, kind):
    """The cells prove something only if the writer really wrote the feature: file indexes that skip files,
    data files of several schemas, deletion vectors after the compaction, partial-column files."""
    path = _table(request, matrix, _writer(request, matrix, writer_name), kind)
    table = PaimonTable(path)
    snapshot = table.snapshot()
    if kind == "file_index":
        absent = plan_scan(path, "name = 'no such name'", use_stats=False)
        assert absent.report.files_total > 0
        assert absent.report.files_skipped_by_index == absent.report.files_total
    elif kind == "evolved":
        assert len({f.meta.schema_id for f in table.live_files(snapshot)}) == 3
    elif kind == "pk_dv":
        assert table.deletion_files(snapshot)
    else:
        assert any(len(g.files) > 1 for g in plan_scan(path).groups), "no row-id range merges several files"
