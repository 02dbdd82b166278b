"""The ``paimon_codec`` DataFrame source and sink beyond the shared scan / write tests: pushed filters (which ones,
what they prune, exact rows without Spark's filter), Spark's reuse of a pushed plan, SQL through a temporary
view, column pruning, catalog names, and the sink's abort."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from golden_warehouse import WAREHOUSE, WAREHOUSE_JSON, expected_query_rows, table_dir, tables
from pyspark.sql import datasource as sds
from spark_fixtures import spark  # noqa: F401

from paimon_codec.catalog import CatalogError, FileSystemCatalog
from paimon_codec.expressions import leaves
from paimon_codec.reading import read_table
from paimon_codec.spark.pushdown import pinned_values, push_filters, translate
from paimon_codec.table import PaimonTable
from paimon_codec.types import parse_row_type
from paimon_codec.writing import create_table

golden = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")

ROW_TYPE = parse_row_type("id INT, s STRING, c CHAR(3), ts TIMESTAMP(9), f DOUBLE, b BOOLEAN, arr ARRAY<INT>")


# -- which filters are pushed ------------------------------------------------------------------------------
@pytest.mark.parametrize("spark_filter, want", [
    (sds.EqualTo(("id",), 5), leaves.EqualTo("id", 5)),
    (sds.GreaterThanOrEqual(("id",), 5), leaves.GreaterThanOrEqual("id", 5)),
    (sds.In(("id",), (1, None, 3)), leaves.In("id", [1, 3])),  # NULL equals no row
    (sds.Not(sds.In(("id",), (1, 3))), leaves.NotIn("id", [1, 3])),
    (sds.EqualNullSafe(("id",), None), leaves.IsNull("id")),
    (sds.Not(sds.EqualTo(("id",), 5)), leaves.NotEqualTo("id", 5)),
    (sds.StringStartsWith(("s",), "ab"), leaves.StartsWith("s", "ab")),
    (sds.IsNotNull(("arr",)), leaves.IsNotNull("arr")),
    (sds.EqualTo(("f",), -0.0), leaves.EqualTo("f", -0.0)),
    (sds.EqualTo(("b",), True), leaves.EqualTo("b", True)),
])
def test_filters_that_translate(spark_filter, want):
    got = translate(spark_filter, ROW_TYPE)
    assert got is not None and str(got) == str(want.bind(ROW_TYPE))


@pytest.mark.parametrize("spark_filter", [
    sds.EqualTo(("ts",), dt.datetime(2024, 1, 1)),  # TIMESTAMP(9): Spark compares microseconds
    sds.EqualTo(("c",), "ab"),  # CHAR: padded values
    sds.EqualTo(("a", "b"), 1),  # a nested field
    sds.EqualTo(("nope",), 1),
    sds.Not(sds.In(("id",), (1, None))),  # never true in Spark
    sds.EqualTo(("id",), None),
    sds.GreaterThan(("b",), False),
    sds.EqualTo(("id",), 2**40),  # the INT column cannot hold it
    sds.Not(sds.StringContains(("s",), "x")),  # no negation of a LIKE leaf
])
def test_filters_left_to_spark(spark_filter):
    assert translate(spark_filter, ROW_TYPE) is None
    pred, rest = push_filters([spark_filter, sds.EqualTo(("id",), 1)], ROW_TYPE)
    assert rest == [spark_filter] and rest[0] is spark_filter and str(pred) == "id = 1"


def test_not_null_safe_equal_keeps_the_nulls():
    got = translate(sds.Not(sds.EqualNullSafe(("id",), 5)), ROW_TYPE)
    rows = pa.table({"id": pa.array([5, 6, None], pa.int32())})
    from paimon_codec.reading.arrow_filter import filter_table

    kept = filter_table(rows, got, parse_row_type("id INT"), "spark").column("id").to_pylist()
    assert kept == [6, None]


def test_pinned_values_are_equalities_of_one_stored_value():
    """``x = v`` conjuncts pin x to v on every kept row, on types whose equality has one stored value only:
    not DOUBLE (``-0.0 = 0.0``), CHAR (padding), TIMESTAMP; not under OR or NOT."""
    pred, rest = push_filters([sds.EqualTo(("id",), 5), sds.EqualTo(("s",), "x"), sds.EqualTo(("b",), True),
                               sds.EqualTo(("f",), 0.0), sds.GreaterThan(("id",), 1)], ROW_TYPE)
    assert rest == [] and pinned_values(pred, ROW_TYPE) == {"id": 5, "s": "x", "b": True}
    assert pinned_values(translate(sds.EqualTo(("s",), "x"), ROW_TYPE), ROW_TYPE) == {"s": "x"}
    assert pinned_values(translate(sds.Not(sds.EqualTo(("id",), 5)), ROW_TYPE), ROW_TYPE) == {}
    assert pinned_values(leaves.EqualTo("id", 5).bind(ROW_TYPE) | leaves.EqualTo("id", 6).bind(ROW_TYPE),
                         ROW_TYPE) == {}
    assert pinned_values(None, ROW_TYPE) == {}


# -- the reader without Spark: pushed filters prune, and the rows are exact --------------------------------------
def _reader(path: str, **options: str):
    from paimon_codec.spark.source import PaimonCodecReader
    from paimon_codec.spark.types import spark_schema

    return PaimonCodecReader({"path": path, **options}, spark_schema(PaimonTable(path).schema.fields), {})


def _rows(reader, partitions) -> list[dict]:
    return [r for p in partitions for b in reader.read(p) for r in b.to_pylist()]


@golden
@pytest.mark.parametrize("driver_rows", [None, "0"])  # read while planning (a small table), or in tasks
def test_pushed_filters_prune_files_and_need_no_spark_filter(driver_rows):
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    path = table_dir(spec["table"])
    knob = {} if driver_rows is None else {"source.driver-read-rows": driver_rows}
    every = _reader(path, **knob)
    all_files = sum(p.files_read for p in every.partitions())
    reader = _reader(path, pushdown="true", **knob)
    rest = list(reader.pushFilters([sds.EqualTo(("cat",), "B"), sds.EqualTo(("code",), 20)]))
    assert rest == []  # Spark will not filter again: the rows must be exact
    parts = reader.partitions()
    assert sum(p.files_read for p in parts) < all_files
    assert all((p.rows is not None) == (driver_rows is None) for p in parts)
    assert sorted(r["id"] for r in _rows(reader, parts)) == sorted(expected_query_rows(spec, "q8"))
    off = _reader(path)
    filters = [sds.EqualTo(("cat",), "B")]
    assert list(off.pushFilters(filters)) == filters  # pushdown is opt-in: Spark filters


@golden
@pytest.mark.parametrize("driver_rows", [None, "0"])
def test_pinned_columns_are_filled_not_read(driver_rows, monkeypatch):
    """Columns a pushed ``x = v`` pins are not read from files whose selection is exact; every row carries
    them all the same - the rows (every column) are those of a read without pushdown, filtered here."""
    import paimon_codec.reading.read as read_module
    from paimon_codec.planning.plan import plan_scan

    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    path = table_dir(spec["table"])
    knob = {} if driver_rows is None else {"source.driver-read-rows": driver_rows}
    every = _reader(path, **knob)
    everything = _rows(every, every.partitions())
    for filters, keep in (([sds.EqualTo(("cat",), "B"), sds.EqualTo(("code",), 20)],
                           lambda r: r["cat"] == "B" and r["code"] == 20),
                          ([sds.EqualTo(("cat",), "A")], lambda r: r["cat"] == "A")):
        reader = _reader(path, pushdown="true", **knob)
        assert list(reader.pushFilters(filters)) == []
        asked: list[list[str]] = []
        real = read_module.read_file_rows

        def spy(path, fmt, schema, *rest, real=real, asked=asked):
            asked.append(schema.names)
            return real(path, fmt, schema, *rest)

        monkeypatch.setattr(read_module, "read_file_rows", spy)
        got = _rows(reader, reader.partitions())
        monkeypatch.setattr(read_module, "read_file_rows", real)
        want = [r for r in everything if keep(r)]
        assert want and sorted(got, key=lambda r: r["id"]) == sorted(want, key=lambda r: r["id"])
        where = " AND ".join(f"{f.attribute[0]} = {f.value!r}" for f in filters)
        exact = sum(t.exact for t in plan_scan(path, where, semantics="spark").tasks)
        pinned = {f.attribute[0] for f in filters}
        assert exact and sum(not pinned & set(names) for names in asked) == exact


def test_partitions_pack_files_by_selected_bytes_and_open_cost():
    """Many files of a few selected rows each spread over the cores, as many partitions as the cores (each
    partition costs a Python worker round trip), balanced by selected bytes + an open cost a file; every file
    lands in exactly one partition; a file above the target is a partition of its own."""
    from pyroaring import BitMap

    from paimon_codec.planning.tasks import FileTask
    from paimon_codec.spark.source import _pack

    few = [FileTask(f"f{i}", "parquet", 50_000, 10 << 20, BitMap([1, 2])) for i in range(198)]
    parts = _pack(few, 128 << 20, 2)
    assert len(parts) == 2 and sorted(t.path for p in parts for t in p) == sorted(t.path for t in few)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1  # about the same cost each
    assert len(_pack(few, 128 << 20, 5)) == 5
    half = [FileTask(f"h{i}", "parquet", 100, 10 << 20, BitMap(range(50))) for i in range(40)]  # 200 MB selected
    assert len(_pack(half, 128 << 20, 1)) == 2
    assert len(_pack(few[:1], 128 << 20, 8)) == 1  # no more partitions than files
    big = [FileTask("big", "parquet", 100, 300 << 20, None), FileTask("small", "parquet", 100, 1 << 20, None)]
    assert [[t.path for t in p] for p in _pack(big, 128 << 20, 1)] == [["big"], ["small"]]


def test_group_tasks_are_dealt_to_one_wave():
    """Group tasks (a primary-key bucket to merge) are dealt with the data files to one wave of partitions,
    balanced by their files' bytes - not a partition each: 6 buckets on 2 cores are 2 partitions of 3."""
    from pyroaring import BitMap

    from paimon_codec.planning.tasks import FileTask, GroupTask
    from paimon_codec.spark.source import _pack

    def bucket(i: int, size: int) -> GroupTask:
        return GroupTask("m:f", [FileTask(f"b{i}-{r}", "parquet", 1000, size, None, True) for r in range(2)])

    groups = [bucket(i, 10 << 20) for i in range(6)]
    parts = _pack(groups, 128 << 20, 2)
    assert [len(p) for p in parts] == [3, 3]
    assert sorted(id(g) for p in parts for g in p) == sorted(id(g) for g in groups)
    mixed = [bucket(0, 60 << 20), *(FileTask(f"f{i}", "parquet", 100, 10 << 20, BitMap([1])) for i in range(4))]
    parts = _pack(mixed, 128 << 20, 2)
    assert len(parts) == 2 and [type(t).__name__ for t in parts[0]] == ["GroupTask"]  # the big bucket alone
    assert len(_pack(groups, 128 << 20, 8)) == 6  # no more partitions than tasks


def test_a_merge_read_is_one_wave_of_partitions_with_javas_rows(java_newest, tmp_path):
    """Five buckets of sorted runs read through the source's partitions on a parallelism of 2: two partitions
    (not one per bucket), each merging its buckets in turn, and the rows are Java's."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark.source import PaimonCodecReader
    from paimon_codec.spark.types import spark_schema

    path = java_newest.create_table(tmp_path, "db.five", "id INT NOT NULL, v STRING, n INT", primary_keys=["id"],
                                    options={"bucket": "5", "merge-engine": "partial-update"})
    for c in range(3):
        java_newest.write(path, [{"id": i, "v": None if (i + c) % 3 else f"v{c}-{i}", "n": c * 100 + i}
                                 for i in range(c * 7, 60 + c * 7)])
    assert len(plan_scan(path).groups) == 5
    reader = PaimonCodecReader({"path": path}, spark_schema(PaimonTable(path).schema.fields), {}, 2)
    parts = reader.partitions()
    assert len(parts) == 2 and sorted(len(p.groups) for p in parts) == [2, 3]
    columns = ["id", "v", "n"]
    expected = sorted(tuple(r[c] for c in columns) for r in java_newest.read(path).to_pylist())
    assert sorted(tuple(r[c] for c in columns) for r in _rows(reader, parts)) == expected
    one_each = PaimonCodecReader({"path": path, "source.min-partitions": "8"},
                                 spark_schema(PaimonTable(path).schema.fields), {}, 2)
    assert len(one_each.partitions()) == 5  # the option wins; no more partitions than tasks


def test_spark_reads_a_merge_in_one_wave_of_the_sessions_parallelism(spark, java_newest, tmp_path):  # noqa: F811
    """``register()`` hands the session's ``defaultParallelism`` to the partition planner (a Python worker with no
    SparkContext): five buckets on ``local[2]`` are 2 Spark partitions, and the rows are Java's."""
    from paimon_codec.spark import register

    path = java_newest.create_table(tmp_path, "db.five", "id INT NOT NULL, v STRING, n INT", primary_keys=["id"],
                                    options={"bucket": "5"})
    for c in range(2):
        java_newest.write(path, [{"id": i, "v": f"v{c}-{i}", "n": c} for i in range(c * 9, 40 + c * 9)])
    register(spark)
    df = spark.read.format("paimon_codec").load(path)
    assert df.rdd.getNumPartitions() == spark.sparkContext.defaultParallelism == 2
    expected = sorted((r["id"], r["v"], r["n"]) for r in java_newest.read(path).to_pylist())
    assert sorted((r["id"], r["v"], r["n"]) for r in df.collect()) == expected


@golden
def test_a_small_answer_is_read_while_planning():
    """A plan of few selected rows is read by ``partitions()`` (as ``scan()`` reads it on the driver) into one
    partition of Arrow IPC bytes; ``read()`` hands them over as batches of exactly Spark's Arrow schema - the
    rows the same as the tasks read.  ``source.driver-read-rows`` bounds it (0: never)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    path = table_dir(spec["table"])
    filters = [sds.EqualTo(("cat",), "A")]
    answers = {}
    for knob in ("0", None, "1"):  # tasks; read now; over the bound (more than one row selected): tasks
        reader = _reader(path, pushdown="true", **({} if knob is None else {"source.driver-read-rows": knob}))
        list(reader.pushFilters(filters))
        parts = reader.partitions()
        assert [p.rows is not None for p in parts] == ([True] if knob is None else [False] * len(parts))
        batches = [b for p in parts for b in reader.read(p)]
        want = to_arrow_schema(reader.spark_schema, timezone="UTC")
        assert batches and all(b.schema.equals(want) for b in batches)
        answers[knob] = sorted(r["id"] for b in batches for r in b.to_pylist())
    assert answers["0"] == answers[None] == answers["1"] == sorted(expected_query_rows(spec, "q1"))


@golden
def test_catalog_names_reach_the_source():
    from paimon_codec.spark.source_options import parse_source_options

    opts = parse_source_options({"warehouse": str(WAREHOUSE), "path": "golden.append_indexed", "snapshot-id": "2"})
    assert opts.path == table_dir("golden.append_indexed") and opts.snapshot_id == 2
    with pytest.raises(Exception, match="give one"):
        parse_source_options({"path": table_dir("golden.append_indexed"), "tag": "a", "scan.tag-name": "b"})
    assert parse_source_options({"path": "x", "as-of": "1970-01-01 00:00:01"}).timestamp_ms == 1000


# -- the catalog --------------------------------------------------------------------------------------------------
def test_filesystem_catalog(tmp_path):
    catalog = FileSystemCatalog(tmp_path / "wh")
    assert catalog.list_databases() == []
    catalog.create_database("sales")
    catalog.create_database("sales", ignore_if_exists=True)
    with pytest.raises(CatalogError, match="already exists"):
        catalog.create_database("sales")
    with pytest.raises(CatalogError, match="does not exist"):
        catalog.create_table("nodb.t", "id INT")
    table = catalog.create_table("sales.orders", "id BIGINT, status STRING", {"bucket": "-1"},
                                 partition_keys=["status"])
    assert table.path == str(tmp_path / "wh" / "sales.db" / "orders")
    assert catalog.list_databases() == ["sales"] and catalog.list_tables("sales") == ["orders"]
    assert catalog.get_table("sales.orders").schema.partition_keys == ("status",)
    with pytest.raises(CatalogError, match="not empty"):
        catalog.drop_database("sales")
    catalog.drop_table("sales.orders")
    assert catalog.list_tables("sales") == [] and not (tmp_path / "wh" / "sales.db" / "orders").exists()
    with pytest.raises(CatalogError, match="does not exist"):
        catalog.get_table("sales.orders")
    catalog.drop_database("sales")
    assert catalog.list_databases() == []
    with pytest.raises(Exception, match="database.table"):
        catalog.table_path("just_a_name")


# -- the sink without Spark: abort, and relative paths ------------------------------------------------------------
def test_sink_abort_deletes_what_the_tasks_wrote(tmp_path, monkeypatch):
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    from paimon_codec.spark.sink import PaimonCodecWriter

    monkeypatch.chdir(tmp_path)
    create_table("wh/db.db/t", "id BIGINT, s STRING", {"file-index.bitmap.columns": "s",
                                                      "file-index.in-manifest-threshold": "1 b"})
    schema = StructType([StructField("id", LongType()), StructField("s", StringType())])
    writer = PaimonCodecWriter({"path": "wh/db.db/t"}, schema, False, {})
    assert writer.path == str(tmp_path / "wh" / "db.db" / "t")  # resolved on the driver
    batch = pa.record_batch({"id": pa.array(range(50), pa.int64()), "s": [f"k{i % 3}" for i in range(50)]})
    message = writer.write(iter([batch]))
    written = [p for p in (tmp_path / "wh" / "db.db" / "t").rglob("*") if p.is_file() and "bucket-" in str(p)]
    assert len(written) == 2  # the data file and its index file
    writer.abort([message, None])
    assert all(not p.exists() for p in written)
    assert PaimonTable(writer.path).snapshot() is None
    again = writer.write(iter([batch]))
    writer.commit([again, None])
    assert read_table(writer.path).num_rows == 50


def test_sink_abort_deletes_the_files_of_a_partitioned_table(tmp_path):
    """Task changes name their partition by values; the abort finds their bucket directories all the same."""
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    from paimon_codec.spark.sink import PaimonCodecWriter

    path = create_table(str(tmp_path / "wh" / "db.db" / "p"), "id BIGINT, dt STRING", {}, partition_keys=["dt"])
    schema = StructType([StructField("id", LongType()), StructField("dt", StringType())])
    writer = PaimonCodecWriter({"path": path}, schema, False, {})
    batch = pa.record_batch({"id": pa.array(range(6), pa.int64()), "dt": ["d1", "d2", "d3"] * 2})
    message = writer.write(iter([batch]))
    written = [p for p in (tmp_path / "wh" / "db.db" / "p").rglob("*.parquet")]
    assert len(written) == 3  # one data file per partition
    writer.abort([message])
    assert all(not p.exists() for p in written)


# -- through Spark ------------------------------------------------------------------------------------------------
@golden
def test_spark_reuses_a_pushed_plan(spark):  # noqa: F811
    """Why pushdown is opt-in: PySpark 4.1 - 4.3 keep the read plan of the last pushdown on the relation
    (``PythonDataSourceV2.readInfo``) and every later scan of that relation reads it - a later query with no
    filter for Python, and the other scans of the same query (a self-union of two filters reads the last one's
    rows twice).  When this fails, PySpark scopes the plan to the scan: make pushdown the default
    (``source_options.SourceOptions.pushdown``)."""
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    path = table_dir(spec["table"])
    every = len(spec["all_rows_sorted_by_id"])
    cat_a = sorted(expected_query_rows(spec, "q1"))  # cat = 'A'
    cat_b_code_20 = sorted(expected_query_rows(spec, "q8"))  # cat = 'B' AND code = 20
    pushed = spark.read.format("paimon_codec").option("pushdown", "true").load(path)
    assert pushed.filter("cat = 'A'").count() == len(cat_a)
    assert pushed.count() == len(cat_a) != every  # a later query with no filter for Python: the stale plan
    fresh = spark.read.format("paimon_codec").option("pushdown", "true").load(path)
    both = fresh.filter("cat = 'A'").union(fresh.filter("cat = 'B' AND code = 20"))
    got = sorted(r.id for r in both.collect())
    assert got != sorted(cat_a + cat_b_code_20)  # one query, two scans of one relation: one plan for both
    plain = spark.read.format("paimon_codec").load(path)
    assert plain.filter("cat = 'A'").count() == len(cat_a)
    assert plain.count() == every
    union = plain.filter("cat = 'A'").union(plain.filter("cat = 'B' AND code = 20"))
    assert sorted(r.id for r in union.collect()) == sorted(cat_a + cat_b_code_20)


@golden
def test_sql_through_a_temporary_view_and_column_pruning(spark, tmp_path):  # noqa: F811
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    path = table_dir(spec["table"])
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW golden_append USING paimon_codec OPTIONS (path '{path}')")
    got = spark.sql("SELECT id FROM golden_append WHERE cat = 'B' AND code = 20").collect()
    assert sorted(r.id for r in got) == sorted(expected_query_rows(spec, "q8"))
    narrow = spark.read.format("paimon_codec").option("columns", "name,id").load(path)
    assert narrow.columns == ["name", "id"] and narrow.count() == len(spec["all_rows_sorted_by_id"])
    assert spark.read.schema("id INT").format("paimon_codec").load(path).columns == ["id"]

    catalog = FileSystemCatalog(tmp_path / "wh")
    catalog.create_database("db")
    catalog.create_table("db.events", "id BIGINT, s STRING")
    spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW events USING paimon_codec "
              f"OPTIONS (warehouse '{tmp_path / 'wh'}', path 'db.events')")
    spark.sql("INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, NULL)")
    spark.sql("INSERT INTO events SELECT id + 10, s FROM events")
    assert sorted(r.id for r in spark.sql("SELECT id FROM events WHERE s IS NOT NULL").collect()) == [1, 2, 11, 12]
    spark.sql("INSERT OVERWRITE events VALUES (7, 'z')")
    assert read_table(catalog.table_path("db.events")).to_pylist() == [{"id": 7, "s": "z"}]


# -- options order-by / limit: the first rows of the table in that order ---------------------------------------
@pytest.fixture(scope="module")
def sample_table(tmp_path_factory) -> str:
    from paimon_codec.spark.sample import write_sample_table

    return write_sample_table(tmp_path_factory.mktemp("wh"), files=4, rows_per_file=600, seed=3,
                              deleted_every=9, paimon_version="latest")


def _spark_order(rows: list[dict], keys: list[tuple[str, bool]]) -> list[dict]:
    """``rows`` in Spark's order of ``keys`` ((column, descending); nulls first ascending, last descending)."""
    for column, descending in reversed(keys):  # stable sorts, last key first
        rows = sorted(rows, key=lambda r, c=column: r[c] is not None if not descending else r[c] is None)
        present = [r for r in rows if r[column] is not None]
        nulls = [r for r in rows if r[column] is None]
        present = sorted(present, key=lambda r, c=column: r[c], reverse=descending)
        rows = present + nulls if descending else nulls + present
    return rows


@pytest.mark.parametrize("order_by, keys, limit", [
    ("amount DESC", [("amount", True)], 7),  # range bitmaps narrow the rows read
    ("amount", [("amount", False)], 12),  # nulls first
    ("amount, id DESC", [("amount", False), ("id", True)], 6),
    ("ts", [("ts", False)], 4),
    ("id DESC", [("id", True)], 3),  # no range bitmap on id: every row read, the first kept
    ("amount DESC", [("amount", True)], 0),
])
def test_order_by_limit_options_are_the_first_rows(sample_table, order_by, keys, limit):
    """``option("order-by")`` + ``option("limit")``: the DataFrame is the first ``limit`` rows in that order -
    the sort keys of the rows are those of every row sorted as Spark sorts them and cut, each row a row of
    the table.  Filters are all left to Spark (they apply
    to those rows)."""
    every = _reader(sample_table)
    everything = _rows(every, every.partitions())
    reader = _reader(sample_table, pushdown="true", **{"order-by": order_by, "limit": str(limit)})
    filters = [sds.EqualTo(("region",), "EU")]
    assert list(reader.pushFilters(filters)) == filters
    parts = reader.partitions()
    assert len(parts) == 1 and parts[0].rows is not None
    got = _rows(reader, parts)
    want = _spark_order(everything, keys)[:limit]
    assert len(got) == limit
    assert [tuple(r[c] for c, _ in keys) for r in got] == [tuple(r[c] for c, _ in keys) for r in want]
    by_id = {r["id"]: r for r in everything}
    assert all(by_id[r["id"]] == r for r in got)


@pytest.mark.parametrize("options, error", [
    ({"order-by": "amount"}, "go together"),
    ({"limit": "3"}, "go together"),
    ({"order-by": "amount", "limit": "-1"}, "go together"),
    ({"order-by": "nope", "limit": "3"}, "unknown column"),
])
def test_order_by_limit_options_refused(sample_table, options, error):
    from paimon_codec.errors import UsageError

    with pytest.raises(UsageError, match=error):
        _reader(sample_table, **options)


def test_order_by_limit_options_through_spark(spark, sample_table):  # noqa: F811
    """Through Spark: with Spark's own ``orderBy(...).limit(n)`` on top the rows' keys are ``scan()``'s top-N;
    a filter of the query applies to the first rows (pushdown on or not: none is pushed)."""
    from pyspark.sql import functions as F

    from paimon_codec.spark import scan

    want, _ = scan(spark, sample_table, order_by=[("amount", "desc")], limit=8)
    df = (spark.read.format("paimon_codec").option("pushdown", "true").option("order-by", "amount DESC")
          .option("limit", "8").load(sample_table))
    got = df.orderBy(F.col("amount").desc()).limit(8).collect()
    assert [r["amount"] for r in got] == [r["amount"] for r in want.collect()] and len(got) == 8
    first = {r["id"]: r for r in got}
    eu = df.filter("region = 'EU'").collect()
    assert {r["id"] for r in eu} == {i for i, r in first.items() if r["region"] == "EU"}
