"""``scan.fallback-branch`` whose branch has a schema of its own, read as Paimon Java 1.4.2 reads it.

Java's ``FallbackReadFileStoreTable`` reads the partitions the main branch lacks through the fallback
table (its own schema, keys, merge) and hands its rows out position by position; it refuses a fallback
whose column types differ (apart from NOT NULL).  These tables were refused before (a fallback branch
whose schema differed from the main branch's); each is written by Java 1.4.2 and compared with Java's read.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from oracles.java_newest import JavaError
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.evolution.file_evolution import arrow_schema
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table
from paimon_codec.reading.read import read_tasks_locally


def _key(r: dict) -> tuple:
    return tuple((v is None, v) for v in r.values())


def _table(java, tmp_path, name: str, branch_changes: list[dict], *, pk: bool = False) -> str:
    """Main branch: partition 1; fallback branch ``fb`` (changed by ``branch_changes``): partitions 1 and 2."""
    path = java.create_table(tmp_path / "wh", f"db.{name}", "p INT NOT NULL, id INT NOT NULL, v STRING, n INT",
                             primary_keys=["p", "id"] if pk else [], partition_keys=["p"],
                             options={"bucket": "1"} if pk else {})
    java.write(path, [{"p": 1, "id": i, "v": f"main{i}", "n": i} for i in range(3)])
    java.create_branch(path, "fb")
    for change in branch_changes:  # one commit each: an option set first applies to the next change
        java.alter(path, [change], branch="fb")
    names = [line.split()[0] for line in java.schema(path, branch="fb").split(", ")]
    for k in range(2):
        java.write(path, [dict(zip(names, (p, i, f"fb{p}{i}{k}", i * 10 + k), strict=True))
                          for p in (1, 2) for i in range(3)], branch="fb")
    java.alter(path, [{"op": "set", "key": "scan.fallback-branch", "value": "fb"}])
    return path


CHANGES = {
    "renamed": [{"op": "rename", "from": "v", "to": "label"}],
    "not-null": [{"op": "set", "key": "alter-column-null-to-not-null.disabled", "value": "false"},
                 {"op": "nullability", "name": "n", "nullable": False}],
    "renamed-and-other-options": [{"op": "rename", "from": "n", "to": "num"},
                                  {"op": "set", "key": "file.format", "value": "avro"}],
}


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("pk", [False, True], ids=["append", "pk"])
def test_fallback_branch_with_its_own_schema_reads_like_java(java_newest, tmp_path, change, pk):
    path = _table(java_newest, tmp_path, f"t_{change.replace('-', '_')}", CHANGES[change], pk=pk)
    theirs = java_newest.read(path)
    ours = read_table(path)
    assert ours.column_names == theirs.column_names == ["p", "id", "v", "n"]
    assert sorted(ours.to_pylist(), key=_key) == sorted(theirs.to_pylist(), key=_key)
    assert {r["p"] for r in ours.to_pylist()} == {1, 2}  # partition 2 only from the fallback branch
    for where in ("p = 2", "v LIKE 'fb%'", "n >= 11"):
        assert sorted(read_table(path, where).to_pylist(), key=_key) == \
            sorted(java_newest.read(path, where=where).to_pylist(), key=_key), where
    assert any(d.get("branch") == "fb" for d in plan_scan(path).report.files)


def test_fallback_branch_with_other_column_types_is_refused_like_java(java_newest, tmp_path):
    path = _table(java_newest, tmp_path, "retyped", [{"op": "type", "name": "n", "type": "BIGINT"}])
    with pytest.raises(JavaError, match="does not have the same row type"):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="scan.fallback-branch 'fb' has the row type"):
        read_table(path)


@pytest.mark.parametrize("projection", [["v", "p"], ["n"], ["p", "id"]])
def test_fallback_branch_projection_like_java(java_newest, tmp_path, projection):
    path = _table(java_newest, tmp_path, "proj", CHANGES["renamed"] + CHANGES["renamed-and-other-options"][:1])
    plan = plan_scan(path)
    full = arrow_schema(plan.row_type)
    ours = read_tasks_locally(plan.tasks, pa.schema([full.field(c) for c in projection]), plan.groups)
    theirs = java_newest.read(path, projection=projection)
    assert ours.column_names == projection
    assert sorted(ours.to_pylist(), key=_key) == sorted(theirs.to_pylist(), key=_key)


def test_spark_scan_of_fallback_branch_with_its_own_schema(spark, java_newest, tmp_path):  # noqa: F811
    from paimon_codec.spark import scan

    path = _table(java_newest, tmp_path, "spark", CHANGES["renamed"], pk=True)
    theirs = sorted(java_newest.read(path).to_pylist(), key=_key)
    df, _ = scan(spark, path)
    assert sorted((r.asDict() for r in df.collect()), key=_key) == theirs
