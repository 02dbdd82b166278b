"""Scan planning and local reads against the golden warehouse (no Spark)."""

from __future__ import annotations

import os

import pytest
from golden_warehouse import (
    WAREHOUSE_JSON,
    expected_all_rows,
    expected_query_rows,
    normalize_rows,
    table_dir,
    tables,
)

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import arrow_schema, read_tasks_locally
from paimon_codec.table import PaimonTable

pytestmark = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")


def _local_rows(plan):
    table = read_tasks_locally(plan.tasks, arrow_schema(plan.row_type))
    return normalize_rows(tuple(r.values()) for r in table.to_pylist())


@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_full_read_gives_the_expected_rows(spec):
    plan = plan_scan(table_dir(spec["table"]))
    assert _local_rows(plan) == normalize_rows(expected_all_rows(spec))
    assert plan.report.files_total == len(spec["files"]["data_files"])
    assert plan.report.rows_selected == len(expected_all_rows(spec))


def _queries():
    return [(spec, q) for spec in tables() for q in spec["queries"]]


@pytest.mark.parametrize("spec,query", _queries(), ids=lambda x: x["table"] if "table" in x else x["id"])
def test_index_selection_is_a_superset_of_the_answer(spec, query):
    """Rows the plan selects, filtered, are exactly the expected answer (index results are supersets)."""
    from paimon_codec.expressions.json_form import predicate_from_json

    plan = plan_scan(table_dir(spec["table"]), query["pred"])
    pred = predicate_from_json(query["pred"])
    rows = read_tasks_locally(plan.tasks, arrow_schema(plan.row_type)).to_pylist()
    names = plan.row_type.names

    def holds(p, row) -> bool:
        kids = getattr(p, "children", None)
        if kids is not None:
            res = [holds(c, row) for c in kids]
            return all(res) if type(p).__name__ == "And" else any(res)
        v = row[p.column]
        if p.op == "is_null":
            return v is None
        if p.op == "is_not_null":
            return v is not None
        if v is None:
            return False
        if p.op == "eq":
            return v == p.literals[0]
        if p.op == "in":
            return v in p.literals
        raise AssertionError(p.op)

    got = normalize_rows(tuple(r[n] for n in names) for r in rows if holds(pred, r))
    want = expected_query_rows(spec, query["id"])
    if spec["kind"] == "append":
        assert [r[0] for r in got] == sorted(want)
    else:
        assert got == normalize_rows(want)


@pytest.mark.parametrize("query", [q for q in (tables()[0]["queries"] if tables() else [])], ids=lambda q: q["id"])
def test_append_pruning_matches_java_file_index_decisions(query):
    """Without OR, the files we read are exactly those Java's FileIndexPredicate keeps."""
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    plan = plan_scan(table_dir(spec["table"]), query["pred"], use_stats=False)
    read = {f["path"] for f in plan.report.files if f["decision"] == "read"}
    java_keep = {f["path"] for f in spec["files"]["data_files"] if f["file_index_test_predicate"][query["id"]]}
    if query["pred"]["op"] == "or":
        assert read >= java_keep  # our OR is sound where Java 0.9's is not
    else:
        assert read == java_keep
    assert plan.report.files_skipped_by_index == plan.report.files_total - len(read)


def test_pruning_skips_files_and_reads_fewer_bytes():
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    plan = plan_scan(table_dir(spec["table"]), "cat = 'nope'", use_stats=False)
    assert plan.report.files_skipped_by_index == plan.report.files_total and not plan.tasks
    plan = plan_scan(table_dir(spec["table"]), "code = 1001", use_stats=False)
    assert plan.report.files_skipped_by_index >= 2
    assert plan.report.bytes_read < plan.report.bytes_total
    assert plan.report.index_bytes_read > 0


def test_deletion_vectors_shape_the_selection():
    spec = next(t for t in tables() if t["table"] == "golden.pk_dv_fixed")
    plan = plan_scan(table_dir(spec["table"]))
    deleted = {os.path.basename(f["path"]): f["deletion_file"]["deleted_positions"]
               for f in spec["files"]["data_files"] if "deletion_file" in f}
    for task in plan.tasks:
        name = os.path.basename(task.path)
        if name in deleted:
            assert task.selection is not None
            assert sorted(set(range(task.row_count)) - set(task.selection)) == deleted[name]
        else:
            assert task.selection is None
    assert plan.report.rows_deleted == sum(len(v) for v in deleted.values())


def test_level0_files_of_dv_tables_are_not_read():
    spec = next(t for t in tables() if t["table"] == "golden.pk_dv_fixed")
    table = PaimonTable(table_dir(spec["table"]))
    appended = [s["id"] for s in spec["index_manifest"]["snapshots"] if s["commit_kind"] == "APPEND"][-1]
    plan = plan_scan(table, None, appended)
    level0 = [f for f in table.data_files(appended) if f.level == 0]
    assert level0 and plan.report.files_skipped_level0 == len(level0)
    assert all(t.path not in {f.path for f in level0} for t in plan.tasks)


def test_bad_predicates_are_clear_errors():
    from paimon_codec.errors import InvalidPredicateError

    with pytest.raises(InvalidPredicateError):
        plan_scan(table_dir("golden.append_indexed"), "nosuchcolumn = 1")
