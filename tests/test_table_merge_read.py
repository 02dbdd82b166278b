"""Primary-key tables read by merging sorted runs, compared row for row with newest Paimon Java's own read.

Every table is written by Paimon Java (newest, in a subprocess: :mod:`_java_pk_driver`) in several commits
of seeded random records (+I/+U/-U/-D over a small key space, so keys meet across sorted runs), with a full
compaction in between (mixed levels), then read by Java and by ``plan_scan`` + ``read_plan_locally`` (and
by the Spark scan for some).  The rows must be equal exactly (floats bit for bit).
"""

from __future__ import annotations

import glob
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pyarrow.compute as pc
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.table.plan import plan_scan
from paimon_codec.table.read import read_plan_locally

HERE = Path(__file__).resolve().parent
COLUMNS = [["id", "INT NOT NULL"], ["v", "STRING"], ["n", "BIGINT"], ["d", "DOUBLE"], ["b", "BOOLEAN"]]


def _newest_jars() -> list[str]:
    try:  # the project's cached fetch, once it is there
        from oracles import java_newest  # type: ignore[import-not-found]
        jars = getattr(java_newest, "newest_jars", None)
        if jars is not None:
            return [str(j) for j in jars()]
    except ImportError:
        pass
    return sorted(glob.glob(os.environ.get("PAIMON_NEWEST_JARS", "/tmp/jt/jars/*.jar")))


def _records(rng: random.Random, count: int, kinds: tuple[str, ...], keys: int = 30):
    rows, row_kinds = [], []
    for _ in range(count):
        rows.append([rng.randrange(keys),
                     rng.choice([None, "", "a", "b", "cc", "déjà", "x" * rng.randrange(1, 4)]),
                     rng.choice([None, rng.randrange(-1000, 1000), rng.randrange(-2**40, 2**40)]),
                     rng.choice([None, rng.uniform(-100, 100), rng.random() * 1e-3, -0.0]),
                     rng.choice([None, True, False])])
        row_kinds.append(rng.choice(kinds))
    return rows, row_kinds


def _steps(seed: int, kinds: tuple[str, ...], commits: int = 6, compact_at: tuple[int, ...] = (3,)):
    rng = random.Random(seed)
    steps = []
    for i in range(commits):
        rows, row_kinds = _records(rng, rng.randrange(10, 40), kinds)
        steps.append({"rows": rows, "kinds": row_kinds})
        if i in compact_at:
            steps.append({"compact": True})
    return steps


ALL = ("+I", "+I", "+U", "-U", "-D")
ADDS = ("+I", "+U")
# name -> (options, row kinds written)
CASES: dict[str, tuple[dict, tuple[str, ...]]] = {
    "dedup": ({}, ALL),
    "dedup_ignore_delete": ({"ignore-delete": "true"}, ALL),
    "dedup_sequence_field": ({"sequence.field": "n"}, ALL),
    "dedup_sequence_fields_desc": ({"sequence.field": "b,n", "sequence.field.sort-order": "descending"}, ADDS),
    "dedup_dv": ({"deletion-vectors.enabled": "true"}, ALL),
    "first_row": ({"merge-engine": "first-row", "ignore-delete": "true"}, ALL),
    "first_row_inserts": ({"merge-engine": "first-row"}, ("+I",)),
    "partial_update": ({"merge-engine": "partial-update"}, ADDS),
    "partial_update_ignore_delete": ({"merge-engine": "partial-update", "ignore-delete": "true"}, ALL),
    "partial_update_remove_on_delete": ({"merge-engine": "partial-update",
                                         "partial-update.remove-record-on-delete": "true"}, ALL),
    "agg_retract": ({"merge-engine": "aggregation", "fields.n.aggregate-function": "sum",
                     "fields.d.aggregate-function": "sum", "fields.v.aggregate-function": "last_value",
                     "fields.b.aggregate-function": "last_non_null_value"}, ALL),
    "agg_min_max_bool": ({"merge-engine": "aggregation", "fields.n.aggregate-function": "min",
                          "fields.d.aggregate-function": "max", "fields.b.aggregate-function": "bool_and",
                          "fields.v.aggregate-function": "listagg"}, ADDS),
    "agg_first_listagg": ({"merge-engine": "aggregation", "fields.n.aggregate-function": "first_value",
                           "fields.d.aggregate-function": "first_non_null_value",
                           "fields.v.aggregate-function": "listagg", "fields.v.list-agg-delimiter": "|",
                           "fields.b.aggregate-function": "bool_or"}, ADDS),
    "agg_ignore_retract": ({"merge-engine": "aggregation", "fields.default-aggregate-function": "max",
                            "fields.n.aggregate-function": "sum", "fields.n.ignore-retract": "true",
                            "fields.d.ignore-retract": "true", "fields.v.ignore-retract": "true",
                            "fields.b.aggregate-function": "bool_or", "fields.b.ignore-retract": "true"}, ALL),
    "agg_default": ({"merge-engine": "aggregation", "fields.d.aggregate-function": "product"}, ADDS),
}


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory):
    """Every case written by newest Java (one JVM), with Java's own read of each."""
    jars = _newest_jars()
    assert jars, "newest Paimon Java jars not found (tests/oracles/java_newest.py or PAIMON_NEWEST_JARS)"
    warehouse = tmp_path_factory.mktemp("pk_merge")
    tables = []
    for i, (name, (options, kinds)) in enumerate(CASES.items()):
        tables.append({"warehouse": str(warehouse), "table": f"db.{name}", "columns": COLUMNS,
                       "primary_keys": ["id"], "options": {"bucket": "2", **options},
                       "steps": _steps(1000 + i, kinds)})
    # the same records into a deletion-vector table read with merge-on-read, and into a plain one (the oracle)
    mor_steps = _steps(77, ALL)
    for name, extra in (("dv_merge_on_read", {"deletion-vectors.enabled": "true",
                                              "deletion-vectors.merge-on-read": "true"}),
                        ("plain_for_merge_on_read", {})):
        tables.append({"warehouse": str(warehouse), "table": f"db.{name}", "columns": COLUMNS,
                       "primary_keys": ["id"], "options": {"bucket": "2", **extra},
                       "steps": mor_steps[:-2] + [mor_steps[-1]]})   # last commit left in level 0
    proc = subprocess.run([sys.executable, str(HERE / "_java_pk_driver.py")],
                          input=json.dumps({"jars": jars, "tables": tables}), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout)
    return {spec["table"].split(".")[1]: (os.path.join(str(warehouse), "db.db", spec["table"].split(".")[1]), res)
            for spec, res in zip(tables, results, strict=True)}


def _ours(path: str, where=None):
    plan = plan_scan(path, where)
    table = read_plan_locally(plan)
    return sorted(([r[c] for c in ("id", "v", "n", "d", "b")] for r in table.to_pylist()), key=lambda r: r[0])


def _java(result: dict):
    assert "error" not in result, result["error"]
    return sorted(result["rows"], key=lambda r: r[0])


@pytest.mark.parametrize("name", list(CASES))
def test_merge_read_equals_java(java_tables, name):
    path, result = java_tables[name]
    expected = _java(result)
    assert expected, "the random records should leave some rows"
    assert _ours(path) == expected


def test_merge_reads_several_sorted_runs(java_tables):
    """The tables really hold several runs per bucket, level 0 beside compacted levels."""
    from paimon_codec.table import PaimonTable

    table = PaimonTable(java_tables["dedup"][0])
    files = table.live_files(table.snapshot())
    for bucket in (0, 1):
        levels = [f.level for f in files if f.bucket == bucket]
        assert levels.count(0) >= 2 and max(levels) > 0, levels
    plan = plan_scan(table)
    assert len(plan.groups) == 2 and not plan.tasks


def test_dv_merge_on_read_merges_level0(java_tables):
    path, _ = java_tables["dv_merge_on_read"]
    _, plain = java_tables["plain_for_merge_on_read"]
    plan = plan_scan(path)
    assert any(f.path for g in plan.groups for f in g.files)
    assert _ours(path) == _java(plain)


def test_value_predicate_is_applied_after_the_merge(java_tables):
    """A filter on a value column must not drop an older run's file: it is applied to merged rows only."""
    path, result = java_tables["dedup"]
    expected = [r for r in _java(result) if r[2] is not None and r[2] > 0]
    plan = plan_scan(path, "n > 0")
    table = read_plan_locally(plan)
    table = table.filter(pc.greater(table.column("n"), 0))
    got = sorted(([r[c] for c in ("id", "v", "n", "d", "b")] for r in table.to_pylist()), key=lambda r: r[0])
    assert got == expected


def test_refusals_name_the_feature(tmp_path):
    from paimon_codec.table.merge.spec import merge_spec
    from paimon_codec.table.schema import TableSchema
    from paimon_codec.types import parse_row_type

    def schema(**options):
        return TableSchema(0, parse_row_type("id INT NOT NULL, v STRING, n BIGINT"), options, ("id",), ())

    for options, needle in (({"merge-engine": "nope"}, "merge-engine 'nope'"),
                            ({"merge-engine": "partial-update", "fields.n.sequence-group": "v"}, "sequence groups"),
                            ({"merge-engine": "aggregation", "fields.n.aggregate-function": "count"},
                             "aggregate function 'count'"),
                            ({"merge-engine": "aggregation", "fields.v.aggregate-function": "listagg",
                              "fields.v.distinct": "true"}, "distinct"),
                            ({"merge-engine": "aggregation", "aggregation.remove-record-on-delete": "true"},
                             "aggregation.remove-record-on-delete")):
        with pytest.raises(UnsupportedTypeError, match=needle):
            merge_spec(schema(**options))


@pytest.mark.parametrize("name", ["dedup", "partial_update_ignore_delete", "agg_retract"])
def test_spark_scan_merges_like_java(spark, java_tables, name):  # noqa: F811
    from paimon_codec.spark.scan import scan

    path, result = java_tables[name]
    df, report = scan(spark, path, "n > 0")
    got = sorted(([r[c] for c in ("id", "v", "n", "d", "b")] for r in df.collect()), key=lambda r: r[0])
    assert got == [r for r in _java(result) if r[2] is not None and r[2] > 0]
    assert report.files_read >= 4
