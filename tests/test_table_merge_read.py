"""Primary-key tables read by merging sorted runs, compared row for row with newest Paimon Java's own read.

Every table is written by Paimon Java (newest, the ``java_newest`` oracle) in several commits
of seeded random records (+I/+U/-U/-D over a small key space, so keys meet across sorted runs), with a full
compaction in between (mixed levels), then read by Java and by ``plan_scan`` + ``read_plan_locally`` (and
by the Spark scan for some).  The rows must be equal exactly (floats bit for bit).
"""

from __future__ import annotations

import random

import pyarrow.compute as pc
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally

COLUMNS = [["id", "INT NOT NULL"], ["v", "STRING"], ["n", "BIGINT"], ["d", "DOUBLE"], ["b", "BOOLEAN"]]


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


SCHEMA = ", ".join(f"{name} {typ}" for name, typ in COLUMNS)


def _build(java, warehouse, name: str, options: dict, steps: list[dict]) -> tuple[str, dict]:
    """Write ``steps`` with Java into a new table; returns (path, Java's read or the Java error)."""
    from oracles.java_newest import JavaError

    path = java.create_table(warehouse, f"db.{name}", SCHEMA, primary_keys=["id"],
                             options={"bucket": "2", **options})
    try:
        for step in steps:
            if step.get("compact"):
                java.compact(path)
            else:
                rows = [dict(zip([c for c, _ in COLUMNS], r, strict=True)) for r in step["rows"]]
                java.write(path, rows, row_kinds=step["kinds"])
        return path, {"rows": [[r[c] for c, _ in COLUMNS] for r in java.read(path).to_pylist()]}
    except JavaError as exc:
        return path, {"error": str(exc).splitlines()[0]}


@pytest.fixture(scope="module")
def java_tables(java_newest, tmp_path_factory):
    """Every case written by newest Java, with Java's own read of each."""
    warehouse = str(tmp_path_factory.mktemp("pk_merge"))
    out = {name: _build(java_newest, warehouse, name, options, _steps(1000 + i, kinds))
           for i, (name, (options, kinds)) in enumerate(CASES.items())}
    # the same records into a deletion-vector table read with merge-on-read, and into a plain one (the oracle)
    mor_steps = _steps(77, ALL)
    mor_steps = mor_steps[:-2] + [mor_steps[-1]]       # the last commit stays in level 0
    out["dv_merge_on_read"] = _build(java_newest, warehouse, "dv_merge_on_read",
                                     {"deletion-vectors.enabled": "true", "deletion-vectors.merge-on-read": "true"},
                                     mor_steps)
    out["plain_for_merge_on_read"] = _build(java_newest, warehouse, "plain_for_merge_on_read", {}, mor_steps)
    return out


def _ours(path: str, where=None):
    plan = plan_scan(path, where)
    table = read_plan_locally(plan)
    return sorted(([r[c] for c in ("id", "v", "n", "d", "b")] for r in table.to_pylist()), key=lambda r: r[0])


def _java(result: dict):
    assert "error" not in result, result["error"]
    return sorted(result["rows"], key=lambda r: r[0])


@pytest.mark.parametrize("name", list(CASES))
def test_merge_read_equals_java(java_tables, name, table_location):
    path, result = java_tables[name]
    expected = _java(result)
    assert expected, "the random records should leave some rows"
    assert _ours(table_location(path)) == expected  # local disk, and a copy on the S3 server


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
    from paimon_codec.table.merge_spec import merge_spec
    from paimon_codec.table.schema import TableSchema
    from paimon_codec.types import parse_row_type

    def schema(**options):
        return TableSchema(0, parse_row_type("id INT NOT NULL, v STRING, n BIGINT"), options, ("id",), ())

    for options, needle in (({"merge-engine": "nope"}, "'merge-engine' = 'nope'"),
                            ({"merge-engine": "partial-update", "fields.n.sequence-group": "v"}, "sequence groups"),
                            ({"merge-engine": "aggregation", "fields.n.aggregate-function": "count"},
                             "aggregate function 'count'"),
                            ({"merge-engine": "aggregation", "fields.v.aggregate-function": "listagg",
                              "fields.v.distinct": "true", "fields.v.list-agg-delimiter": ""}, "distinct"),
                            ({"merge-engine": "aggregation", "aggregation.remove-record-on-delete": "true",
                              "fields.n.ignore-retract": "true"}, "aggregation.remove-record-on-delete"),
                            ({"merge-engine": "aggregation", "fields.v.aggregate-function": "nested_update",
                              "fields.v.count-limit": "ten"}, "count-limit"),
                            ({"merge-engine": "partial-update", "fields.n.aggregate-function": "sum"},
                             "partial-update with aggregate functions"),
                            ({"sequence.field": "nope"}, "sequence.field names unknown column")):
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


def _rows(table, columns):
    return sorted(([r[c] for c in columns] for r in table.to_pylist()), key=lambda r: tuple(r[:2]))


def test_merge_across_schema_evolution(java_newest, spark, tmp_path):  # noqa: F811
    """Runs written before a rename / add column merge with newer runs by field id, as Java reads them."""
    rng = random.Random(5)
    path = java_newest.create_table(tmp_path, "db.evolved", "id INT NOT NULL, v STRING, n INT",
                                    primary_keys=["id"], options={"bucket": "2", "merge-engine": "partial-update",
                                                                  "ignore-delete": "true"})

    def batch(columns):
        return [{c: (rng.randrange(20) if c == "id" else rng.choice([None, rng.randrange(100)]) if c in ("n", "e")
                     else rng.choice([None, "a", "b", "c"])) for c in columns} for _ in range(25)]

    java_newest.write(path, batch(["id", "v", "n"]))
    java_newest.compact(path)        # a compacted run and a level-0 run written under the first schema
    java_newest.write(path, batch(["id", "v", "n"]), row_kinds=[rng.choice(ALL) for _ in range(25)])
    java_newest.alter(path, [{"op": "rename", "from": "v", "to": "w"}, {"op": "add", "name": "e", "type": "INT"},
                             {"op": "type", "name": "n", "type": "BIGINT"}])
    java_newest.write(path, batch(["id", "w", "n", "e"]))
    java_newest.write(path, batch(["id", "w", "n", "e"]), row_kinds=[rng.choice(ALL) for _ in range(25)])
    columns = ["id", "w", "n", "e"]
    expected = _rows(java_newest.read(path), columns)
    assert expected
    plan = plan_scan(path)
    assert any(f.evolution is not None for g in plan.groups for f in g.files)
    assert _rows(read_plan_locally(plan), columns) == expected
    from paimon_codec.spark.scan import scan

    df, _ = scan(spark, path)   # group tasks (with their evolution recipes) pickled into Spark tasks
    assert sorted(([r[c] for c in columns] for r in df.collect()), key=lambda r: tuple(r[:2])) == expected


def test_partitioned_merge_prunes_partitions_only(java_newest, tmp_path):
    rng = random.Random(9)
    path = java_newest.create_table(tmp_path, "db.parts", "p INT NOT NULL, id INT NOT NULL, v STRING, n BIGINT",
                                    primary_keys=["p", "id"], partition_keys=["p"],
                                    options={"bucket": "2", "merge-engine": "aggregation",
                                             "fields.n.aggregate-function": "sum"})
    for _ in range(4):
        rows = [{"p": rng.randrange(3), "id": rng.randrange(15), "v": rng.choice([None, "x", "y"]),
                 "n": rng.choice([None, rng.randrange(-50, 50)])} for _ in range(30)]
        java_newest.write(path, rows, row_kinds=[rng.choice(ALL) for _ in rows])
    columns = ["p", "id", "v", "n"]
    for where in (None, "p = 1", "p = 2 AND n > 0"):
        expected = _rows(java_newest.read(path, where=where), columns)
        plan = plan_scan(path, where)
        if where == "p = 1":
            assert plan.report.files_skipped_by_partition > 0
            assert {g.label.split("partition=")[1].split(" ")[0] for g in plan.groups} == {"(1,)"}
        got = _rows(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type), columns)
        assert got == expected, where


def test_float_min_max_follow_javas_total_order(java_newest, tmp_path):
    """max/min over DOUBLE/FLOAT order as Java's Double.compare: -0.0 < 0.0 and NaN above +inf."""
    rng = random.Random(3)
    path = java_newest.create_table(tmp_path, "db.floats", "id INT NOT NULL, hi DOUBLE, lo DOUBLE, f FLOAT, s DOUBLE",
                                    primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation",
                                             "write-only": "true",  # no compaction: the read merges every run
                                             "fields.hi.aggregate-function": "max",
                                             "fields.lo.aggregate-function": "min",
                                             "fields.f.aggregate-function": "max",
                                             "fields.s.aggregate-function": "sum"})
    pool = [None, 0.0, -0.0, float("nan"), 1.5, -2.25, float("inf"), float("-inf"), 1e-300]
    for _ in range(5):
        rows = [{"id": rng.randrange(12), "hi": rng.choice(pool), "lo": rng.choice(pool), "f": rng.choice(pool),
                 "s": rng.choice(pool[:3] + [0.1, 0.2, 0.3, 1e16])} for _ in range(20)]
        java_newest.write(path, rows)
    columns = ["id", "hi", "lo", "f", "s"]

    def as_text(rows):  # repr tells -0.0 from 0.0 and compares NaN equal to NaN
        return [[repr(v) for v in r] for r in rows]

    expected = as_text(_rows(java_newest.read(path), columns))
    assert as_text(_rows(read_plan_locally(plan_scan(path)), columns)) == expected


def test_retraction_of_a_function_without_one_fails_like_java(java_newest, tmp_path):
    """A -D record reaching 'max' makes Paimon's read fail; ours refuses with a one-line error too."""
    from oracles.java_newest import JavaError

    path = java_newest.create_table(tmp_path, "db.agg_max", "id INT NOT NULL, n BIGINT", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "fields.n.aggregate-function": "max"})
    java_newest.write(path, [{"id": 1, "n": 5}, {"id": 2, "n": 7}])
    java_newest.write(path, [{"id": 1, "n": 3}], row_kinds=["-D"])
    with pytest.raises(JavaError, match="does not support retraction"):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="'max' does not support retraction"):
        read_plan_locally(plan_scan(path))


@pytest.mark.parametrize("arrow_type", ["int8", "int32", "int64", "float32", "float64"])
def test_sum_and_product_equal_a_sequential_fold(arrow_type):
    """Vectorised sum/product (hot keys of hundreds of records, retractions, nulls) equal Java's
    one-record-at-a-time fold in the column's own width (integers wrap, floats round at every step)."""
    import numpy as np
    import pyarrow as pa

    from paimon_codec.reading.merge.aggregates import aggregate_field
    from paimon_codec.reading.merge.groups import Groups

    rng = random.Random(arrow_type)
    typ = getattr(pa, arrow_type)()
    np_type = typ.to_pandas_dtype()
    n = 3000
    starts = np.array([True] + [rng.random() < 0.01 for _ in range(n - 1)])
    big = np.iinfo(np_type).max if pa.types.is_integer(typ) else 1e30
    values = [None if rng.random() < 0.2 else
              (rng.randrange(-big, big) if pa.types.is_integer(typ) else rng.uniform(-1, 1) * rng.choice([1, big]))
              for _ in range(n)]
    col = pa.array(values, type=typ)
    retract = np.array([rng.random() < 0.3 for _ in range(n)])
    groups = Groups(starts)
    for func, retractions in (("sum", retract), ("product", np.zeros(n, dtype=bool))):
        expected, acc = [], None
        with np.errstate(over="ignore", invalid="ignore"):
            for i in range(n):
                if starts[i] and i:
                    expected.append(acc)
                if starts[i]:
                    acc = None
                if values[i] is None:
                    continue
                v = np_type(values[i])
                if func == "sum":
                    v = np_type(-v) if retractions[i] else v
                    acc = v if acc is None else np_type(acc + v)
                else:
                    acc = v if acc is None else np_type(acc * v)
            expected.append(acc)
        got = aggregate_field(col, func, retractions, groups, False, ",", "t").to_pylist()
        assert [repr(g) for g in got] == [repr(None if e is None else e.item()) for e in expected], func
