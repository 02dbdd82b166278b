"""DELETE by deletion vectors on Spark (paimon_codec.spark.delete) and ``paimon-codec delete``: the same deletion
vectors as the local delete, Java reads the result exactly."""

from __future__ import annotations

import json
import shutil

import pyarrow.compute as pc
from oracles.compare import assert_same_rows
from spark_fixtures import read_via, spark  # noqa: F401
from test_dv_delete import _all_rows, _keep, _positions, _table

from paimon_codec.cli import EXIT_BAD_INPUT, main
from paimon_codec.reading import read_table
from paimon_codec.spark import delete as spark_delete
from paimon_codec.writing import delete


def test_spark_delete_equals_local_delete(tmp_path, spark, java_newest):  # noqa: F811
    ours = _table(tmp_path / "a", "t", "unaware-partitioned")
    local = str(tmp_path / "b" / "t")
    shutil.copytree(ours, local)
    where = "(id < 25 AND x IS NOT NULL) OR v = 'v3'"
    report = spark_delete(spark, ours, where, target_bytes=1)  # one Spark task per file
    local_report = delete(local, where)
    assert report.rows_deleted == local_report.rows_deleted > 0
    assert report.files_opened == local_report.files_opened
    assert _positions(ours) == _positions(local)
    expected = _keep(_all_rows(), lambda t: pc.or_(pc.and_(pc.less(t["id"], 25), pc.is_valid(t["x"])),
                                                   pc.equal(t["v"], "v3")))
    assert_same_rows(read_table(ours), expected)
    assert_same_rows(java_newest.read(ours), expected)
    for via, where in (("source", None), ("source-pushdown", "v = 'v3' OR id > 40")):  # the DataFrame source
        df, _ = read_via(spark, via, ours, where)
        assert_same_rows(df.toArrow(), java_newest.read(ours, where=where), what=f"{via}, {where}")


def test_cli_delete_local_json(tmp_path, capsys):
    path = _table(tmp_path, "t", "fixed-buckets")
    assert main(["delete", path, "--where", "id >= 100", "--local", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows_deleted"] == 60 and report["commit_kind"] == "OVERWRITE"
    assert report["files_pruned_by_stats"] > 0
    assert_same_rows(read_table(path), _keep(_all_rows(), lambda t: pc.greater_equal(t["id"], 100)))
    plain = str(tmp_path / "plain")
    shutil.copytree(path, plain)
    with open(f"{plain}/schema/schema-0") as fh:
        schema = json.load(fh)
    schema["options"].pop("deletion-vectors.enabled")
    with open(f"{plain}/schema/schema-0", "w") as fh:
        json.dump(schema, fh)
    assert main(["delete", plain, "--where", "id = 1", "--local"]) == EXIT_BAD_INPUT
    assert "deletion-vectors.enabled" in capsys.readouterr().err
