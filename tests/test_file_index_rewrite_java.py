"""Rebuilding the file indexes of data files Paimon Java 1.4.2 wrote gives Java's own bytes.

Tables are written by Java without index options (or with ones that change), then the options are
set (``ALTER TABLE ... SET``, through Java's ``SchemaManager``).  For every live data file, the
container :func:`~paimon_codec.maintenance.file_index_rewrite.build_container` makes must be byte-identical
to what Java's ``DataFileIndexWriter`` writes for the same file and options, land in the same place
(embedded vs ``.index`` file, by ``file-index.in-manifest-threshold``), and a standalone index file
gets the name Java's ``FileIndexProcessor`` (its ``rewrite_file_index`` step) gives it.  Java's
``FileIndexPredicate`` evaluated on our containers answers as our own evaluation does.

Covered: a plain append table, embedded containers, a primary-key table with deletion vectors, a
partitioned table, and a column switched from bitmap to range-bitmap (apache/paimon#9085: the stale
bitmap must go).
"""

from __future__ import annotations

import shutil

import pyarrow as pa
import pytest

from paimon_codec.expressions import Or, make_leaf
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.fileindex.evaluate import evaluate
from paimon_codec.maintenance.file_index_rewrite import build_container, index_task, run_index_task
from paimon_codec.table import PaimonTable

SCHEMA = "id INT, s STRING, n BIGINT, d DOUBLE, p STRING"
OPTIONS = {
    "file-index.bitmap.columns": "s,id",
    "file-index.bloom-filter.columns": "n",
    "file-index.bloom-filter.n.items": "300",
    "file-index.range-bitmap.columns": "d,n",
}


def _rows(k: int, n: int = 120) -> pa.Table:
    ids = list(range(k * 1000, k * 1000 + n))
    return pa.table({
        "id": pa.array(ids, pa.int32()),
        "s": [None if i % 17 == 0 else f"s{(i * 7 + k) % 9}" for i in range(n)],
        "n": pa.array([None if i % 11 == 0 else (i * 37 + k) % 500 for i in range(n)], pa.int64()),
        "d": [float((i * 13) % 97) / 4 if i % 23 else None for i in range(n)],
        "p": [f"p{(i + k) % 2}" for i in range(n)],
    })


CASES = {
    # name: (create kwargs, options set at creation, options set afterwards, writes)
    "append": ({}, {}, OPTIONS, 3),
    "embedded": ({}, {}, {**OPTIONS, "file-index.in-manifest-threshold": "1 mb"}, 2),
    "pk_dv": ({"primary_keys": ["id"]}, {"bucket": "1", "deletion-vectors.enabled": "true"}, OPTIONS, 3),
    "partitioned": ({"partition_keys": ["p"]}, {}, OPTIONS, 2),
    "bitmap_to_range": ({}, {"file-index.bitmap.columns": "s,n"},
                        {"file-index.bitmap.columns": "id", "file-index.range-bitmap.columns": "s,n"}, 2),
}


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    """name -> (table path, Java writer containers, Java processor results (run on a copy))."""
    out = {}
    for name, (kwargs, create_opts, later_opts, writes) in CASES.items():
        wh = tmp_path_factory.mktemp(f"rw-{name}")
        path = java_newest.create_table(str(wh), f"db.{name}", SCHEMA,
                                        options={"bucket": "-1", **create_opts}, **kwargs)
        for k in range(writes):
            if name == "pk_dv" and k:  # updates of earlier keys; after a compaction -> deletion vectors
                if k == writes - 1:
                    java_newest.compact(path)
                java_newest.write(path, _rows(0, 60 + 20 * k).slice(20 * k))
            else:
                java_newest.write(path, _rows(k))
        changes = [{"op": "set", "key": k, "value": v} for k, v in later_opts.items()]
        if name == "bitmap_to_range":
            changes = [{"op": "remove", "key": "file-index.bitmap.columns"}] + changes
        java_newest.alter(path, changes)
        copy = str(wh / "copy")
        shutil.copytree(path, copy)
        out[name] = (path, java_newest.file_indexes(path), java_newest.file_indexes(copy, mode="processor"))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_containers_are_javas_bytes(java_tables, name):
    path, java, processor = java_tables[name]
    table = PaimonTable(path)
    files = table.data_files()
    assert files and set(java) == {f.file_name for f in files}
    if name == "pk_dv":
        assert any(f.deletion_file is not None for f in files), "the table should carry deletion vectors"
    for f in files:
        task = index_task(f, table.schema, table.schema_by_id(f.meta.schema_id))
        ours = build_container(task)
        expected = java[f.file_name]
        theirs = expected["embedded"] if expected["embedded"] is not None else expected["index_bytes"]
        assert ours == theirs, f"{name}/{f.file_name}: container differs from Java's DataFileIndexWriter"
        assert (len(ours) > task.threshold) == (expected["index_file"] is not None)
        outcome = run_index_task(task, ours)
        assert outcome.changed
        jp = processor[f.file_name]
        if outcome.index_file_name is None:
            assert outcome.embedded == ours and jp["index_file"] is None
        else:  # Java's rewrite names the new file as we do
            assert outcome.index_file_name == jp["index_file"], (outcome.index_file_name, jp["extra_files"])
            with open(f"{f.path.rsplit('/', 1)[0]}/{outcome.index_file_name}", "rb") as fh:
                assert fh.read() == ours
        if name != "bitmap_to_range":  # Java's processor keeps stale index types (apache/paimon#9085)
            assert (jp["embedded"] or jp["index_bytes"]) == ours


def test_stale_index_type_is_dropped(java_tables):
    path, _, _ = java_tables["bitmap_to_range"]
    table = PaimonTable(path)
    for f in table.data_files():
        old = FileIndexContainerReader(f.embedded_index or open(f.index_path, "rb").read())
        assert old.index_types("s") == ["bitmap"]  # written by Java when the table had the bitmap option
        new = FileIndexContainerReader(build_container(index_task(f, table.schema,
                                                                  table.schema_by_id(f.meta.schema_id))))
        assert new.index_types("s") == ["range-bitmap"] and new.index_types("n") == ["range-bitmap"]
        assert new.index_types("id") == ["bitmap"]


def L(op, col, *lits):  # noqa: N802 - reads like SQL
    return make_leaf(op, col, tuple(lits))


PREDICATES = [L("eq", "s", "s3"), L("eq", "s", "nope"), L("in", "s", "s1", "s8"), L("is_null", "s"),
              L("eq", "id", 1005), L("eq", "id", 99999), L("eq", "n", 74), L("eq", "n", 100000),
              L("gt", "d", 20.0), L("between", "d", 1.0, 2.0), L("lt", "n", 5), L("is_null", "d"),
              Or((L("eq", "s", "s1"), L("eq", "id", 7)))]


def _normal(result):
    """REMAIN, SKIP (an empty bitmap skips too) or the selected positions."""
    if result.kind == "BITMAP":
        rows = list(result.bitmap)
        return rows if rows else "SKIP"
    return result.kind


@pytest.mark.parametrize("name", ["append", "partitioned", "bitmap_to_range"])
def test_java_evaluates_our_containers_as_we_do(java_tables, java_newest, name):
    path, _, _ = java_tables[name]
    table = PaimonTable(path)
    row_type = table.schema.fields
    skipped = 0
    for f in table.data_files():
        container = build_container(index_task(f, table.schema, table.schema_by_id(f.meta.schema_id)))
        for pred in PREDICATES:
            ours = _normal(evaluate(pred.bind(row_type), FileIndexContainerReader(container), row_type))
            theirs = java_newest.evaluate_file_index(path, container, pred)
            theirs = "SKIP" if theirs == [] else theirs
            assert ours == theirs, (name, f.file_name, str(pred))
            skipped += theirs == "SKIP"
    assert skipped, "some predicate should let Java skip a file on our indexes"
