"""Scans of data-evolution tables use the global indexes pypaimon 2.1 wrote: a predicate on an indexed
column is answered into row ids, files without a candidate are skipped and the others read only their
candidate rows - and the rows returned equal brute force over the whole table, pypaimon 2.1's read, and
Paimon Java 1.4.2's read where Java can read the index (its B-tree; Java 1.4.2 misreads pypaimon's
bitmap layout - ``test_java_142_misreads_pypaimon_bitmap_global_index``).  The plan report says which
global indexes answered."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from oracles.pypaimon21 import pypaimon_venv
from spark_fixtures import spark  # noqa: F401

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table

BATCH, BATCHES = 1500, 4


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory, java_newest) -> Path:
    """4 appended files (row ids 0..5999), names distinct per file; B-tree on ``name``, bitmap on ``v``;
    then Java rewrites column ``id`` of the first file's rows (a two-file row-id range)."""
    warehouse = tmp_path_factory.mktemp("pypaimon21_global_scan")
    script = textwrap.dedent(f"""
        import pyarrow as pa
        from pypaimon import CatalogFactory, Schema
        cat = CatalogFactory.create({{"warehouse": {str(warehouse)!r}}})
        cat.create_database("db", True)
        s = pa.schema([("id", pa.int32()), ("name", pa.string()), ("v", pa.int64())])
        cat.create_table("db.t", Schema.from_pyarrow_schema(s, options={{
            "row-tracking.enabled": "true", "data-evolution.enabled": "true"}}), False)
        t = cat.get_table("db.t")
        for b in range({BATCHES}):
            ids = list(range(b * {BATCH}, (b + 1) * {BATCH}))
            names = [None if i % 11 == 0 else f"b{{b}}-{{i % 40}}" for i in ids]
            vs = [None if i % 13 == 0 else (i * 37) % 1000 for i in ids]
            wb = t.new_batch_write_builder(); w = wb.new_write(); c = wb.new_commit()
            w.write_arrow(pa.table({{"id": ids, "name": names, "v": vs}}, schema=s))
            c.commit(w.prepare_commit()); w.close(); c.close()
        cat.get_table("db.t").create_global_index("name", index_type="btree")
        cat.get_table("db.t").create_global_index("v", index_type="bitmap")
    """)
    proc = subprocess.run([str(pypaimon_venv()), "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    path = warehouse / "db.db" / "t"
    java_newest.write_partial(path, [(pa.table({"id": pa.array([10_000 + i for i in range(BATCH)], pa.int32())}), 0)])
    return path


def _sorted(t: pa.Table) -> pa.Table:
    t = t.select(["id", "name", "v"])
    return t.take(pc.sort_indices(t, [("id", "ascending"), ("name", "ascending"), ("v", "ascending")]))


QUERIES = [
    ("name = 'b2-7'", lambda t: pc.equal(t["name"], "b2-7"), 3),
    ("name = 'b0-7'", lambda t: pc.equal(t["name"], "b0-7"), 3),  # only in the two-file range
    ("name IN ('b1-3', 'b3-39', 'nope')", lambda t: pc.is_in(t["name"], pa.array(["b1-3", "b3-39", "nope"])), 2),
    ("name = 'nope'", lambda t: pc.equal(t["name"], "nope"), 4),
    ("name > 'b3-5'", lambda t: pc.greater(t["name"], "b3-5"), 3),
    ("name IS NULL", lambda t: pc.is_null(t["name"]), 0),
    ("v < 3", lambda t: pc.less(t["v"], 3), 0),
    ("v = 999 AND name >= 'b2'", lambda t: pc.and_kleene(pc.equal(t["v"], 999), pc.greater_equal(t["name"], "b2")), 2),
    ("name = 'b1-1' OR id = 10003", lambda t: pc.or_kleene(pc.equal(t["name"], "b1-1"), pc.equal(t["id"], 10003)), 0),
    ("name = 'b1-1' OR v = 5", lambda t: pc.or_kleene(pc.equal(t["name"], "b1-1"), pc.equal(t["v"], 5)), 0),
]


@pytest.mark.parametrize("where, brute, min_skipped", QUERIES, ids=[q[0] for q in QUERIES])
def test_scan_with_global_index_equals_paimon_and_brute_force(table_dir, java_newest, pypaimon21, where, brute,
                                                             min_skipped):
    plan = plan_scan(str(table_dir), where)
    everything = read_table(str(table_dir))
    expected = _sorted(everything.filter(pc.fill_null(brute(everything), False)))
    ours = _sorted(read_table(str(table_dir), where))
    assert ours.equals(expected), where
    assert _sorted(pypaimon21.read(table_dir, where=where)).equals(expected), where
    if " v " not in f" {where} ":  # the B-tree: Java 1.4.2 reads it as pypaimon wrote it
        assert _sorted(java_newest.read(table_dir, where=where)).equals(expected), where
    if "OR id" in where:  # a leaf no index answers: every row stays a candidate, the report says why
        assert not plan.report.global_index["used"], plan.report.global_index
        assert any("no single-column global index on id" in d for d in plan.report.global_index["decisions"])
    else:
        assert plan.report.global_index["used"] and plan.report.global_index["files"], plan.report
    assert plan.report.files_skipped_by_index >= min_skipped, plan.report.summary()
    if plan.report.global_index["used"]:  # only candidate rows are read
        assert plan.report.rows_selected <= plan.report.global_index["candidate_rows"]


def test_java_142_misreads_pypaimon_bitmap_global_index(table_dir, java_newest, pypaimon21):
    """Java 1.4.2's bitmap global index is a bitmap file-index payload; pypaimon 2.1 writes its own BGIX
    layout under the same index type, and Java 1.4.2 finds no row in it.  The data, pypaimon 2.1 and our
    scan agree; Java's answer is not followed."""
    everything = read_table(str(table_dir))
    want = everything.filter(pc.fill_null(pc.equal(everything["v"], 999), False)).num_rows
    assert want > 0
    assert pypaimon21.read(table_dir, where="v = 999").num_rows == want == read_table(str(table_dir), "v = 999").num_rows
    assert java_newest.read(table_dir, where="v = 999").num_rows == 0


def test_selective_lookup_reads_only_candidate_rows(table_dir):
    plan = plan_scan(str(table_dir), "name = 'b2-7'")
    r = plan.report
    assert r.files_skipped_by_index == 4 and r.files_read == 1, r.summary()  # 2 single files + a 2-file range
    assert r.rows_selected == r.global_index["candidate_rows"] < BATCH
    no_index = plan_scan(str(table_dir), "name = 'b2-7'", use_indexes=False).report
    assert no_index.global_index is None and no_index.rows_selected == BATCH * BATCHES  # every row id once


def test_ignore_update_action_reads_without_global_index(table_dir, tmp_path):
    """With ``global-index.column-update-action = IGNORE`` an index may be stale: not used."""
    import json
    import shutil

    copy = tmp_path / "t"
    shutil.copytree(table_dir, copy)
    schema_file = max((copy / "schema").iterdir(), key=lambda p: int(p.name.split("-")[1]))
    schema = json.loads(schema_file.read_text())
    schema["options"]["global-index.column-update-action"] = "IGNORE"
    schema_file.write_text(json.dumps(schema))
    assert plan_scan(str(copy), "name = 'b2-7'").report.global_index is None
    assert plan_scan(str(table_dir), "name = 'b2-7'").report.global_index is not None


# ------------------------------------------------------------------------------- Java 1.4.2's own B-tree
@pytest.fixture(scope="module")
def java_table(tmp_path_factory, java_newest) -> str:
    """4 appended commits through Java, then Java's ``BTreeGlobalIndexBuilder`` over ``name``, committed."""
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_global_scan"), "db.t",
                                    "id INT, name STRING, v BIGINT",
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    for b in range(BATCHES):
        ids = list(range(b * BATCH, (b + 1) * BATCH))
        java_newest.write(path, pa.table({
            "id": pa.array(ids, pa.int32()),
            "name": [None if i % 11 == 0 else f"b{b}-{i % 40}" for i in ids],
            "v": pa.array([None if i % 13 == 0 else (i * 37) % 1000 for i in ids], pa.int64())}))
    assert java_newest.create_btree_global_index(path, "name") is not None
    return path


JAVA_QUERIES = ["name = 'b2-7'", "name IN ('b0-3', 'b3-39')", "name < 'b1'", "name IS NULL", "name IS NOT NULL",
                "name = 'b1-1' AND v > 500", "name = 'b1-1' OR name = 'b3-2'", "name <> 'b0-0'",
                "name NOT IN ('b0-0', 'b1-1')", "name = 'nope'", "name >= 'b1'"]


#: leaves whose answer is most rows: the planner reads the data instead of walking the index
MOST_ROWS = {"name IS NOT NULL", "name <> 'b0-0'", "name NOT IN ('b0-0', 'b1-1')", "name >= 'b1'"}


@pytest.mark.parametrize("where", JAVA_QUERIES)
def test_java_btree_global_index_scan_equals_java(java_table, java_newest, where):
    plan = plan_scan(java_table, where)
    gi = plan.report.global_index
    if where in MOST_ROWS:
        assert not gi["used"] and not gi["files"] and "prune little" in gi["decisions"][0], gi
    else:
        assert gi["used"] and gi["files"] and "used" in gi["decisions"][0], gi
    everything = read_table(java_table)
    ours = _sorted(read_table(java_table, where))
    assert ours.equals(_sorted(java_newest.read(java_table, where=where))), where
    brute = _sorted(read_table(java_table, where, use_indexes=False))
    assert ours.equals(brute) and ours.num_rows <= everything.num_rows
    if where == "name = 'b2-7'":
        assert plan.report.files_skipped_by_index == BATCHES - 1 and plan.report.rows_selected == ours.num_rows


# ------------------------------------------------------------------------------- exact answers
EXACT_CASES = [("name = 'b2-7'", True), ("name IN ('b0-3', 'b3-39')", True), ("name = 'b1-1' OR name = 'b3-2'", True),
               ("name = 'nope'", True), ("name = 'b1-1' AND v > 500", False), ("name < 'b1'", False),
               ("name IS NULL", False), ("name = 'b1-1' OR id = 7", False)]


@pytest.mark.parametrize(("where", "exact"), EXACT_CASES, ids=[c[0] for c in EXACT_CASES])
def test_btree_equality_marks_files_exact(java_table, where, exact):
    """A B-tree equality / IN answer over a range the index covers is exactly the matching rows: such files
    are marked exact (no residual filter); each exact selection == a brute-force filter of the whole file."""
    import pyarrow.parquet as pq

    from paimon_codec.reading.arrow_filter import to_arrow_expression

    plan = plan_scan(java_table, where)
    assert plan.tasks or where == "name = 'nope'"
    for t in plan.tasks:
        assert t.exact == exact, (where, t.path)
        if t.exact:
            assert t.file_format == "parquet"
            table = pq.read_table(t.path)
            table = table.append_column("__pos", pa.array(range(table.num_rows), pa.int64()))
            want = table.filter(to_arrow_expression(plan.predicate, plan.row_type)).column("__pos").to_pylist()
            assert (list(range(t.row_count)) if t.selection is None else list(t.selection)) == want, t.path
    assert plan.report.files_exact == (len(plan.tasks) if exact else 0)


@pytest.mark.spark
@pytest.mark.parametrize("where", ["name = 'b2-7'", "name IN ('b0-3', 'b3-39')", "name = 'b1-1' AND v > 500"])
def test_spark_scan_of_exact_global_answers_equals_java(spark, java_table, java_newest, where):  # noqa: F811
    """Exact files skip Spark's filter on the driver and in tasks: the rows are still Java 1.4.2's."""
    from paimon_codec.spark import scan

    want = sorted(java_newest.read(java_table, where=where).column("id").to_pylist())
    for driver_rows in (10**9, 0):
        df, _ = scan(spark, java_table, where, columns=["id"], driver_rows=driver_rows)
        assert sorted(df.toArrow().column("id").to_pylist()) == want, (where, driver_rows)
