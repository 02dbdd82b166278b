"""The ``paimon_codec`` Spark data source: a Paimon table as a DataFrame, read and written by this library.

    spark.read.format("paimon_codec").load("s3://wh/db.db/t")
    spark.read.format("paimon_codec").option("warehouse", "s3://wh").option("tag", "t1").load("db.t")
    df.write.format("paimon_codec").mode("append").save("s3://wh/db.db/t")        # or "overwrite"

Reading (:class:`PaimonCodecReader`): Spark hands the query's filter conjuncts to ``pushFilters``; those that
translate exactly (:mod:`.pushdown`) become the plan's predicate - partitions, value stats, file indexes and
deletion vectors narrow the files and rows (:func:`paimon_codec.planning.plan.plan_scan`, ``semantics="spark"``)
- and are not evaluated by Spark again: ``read()`` filters every row it reads by them with
:func:`~paimon_codec.reading.arrow_filter.filter_table` (a file whose selection is exactly the matching rows is
not filtered again).  The rest go back to Spark.  A small answer (``scan()``'s bound for reading on the
driver, ``source.driver-read-rows``) is read by ``partitions()`` itself and travels as one partition of Arrow
IPC bytes.  Otherwise the planned tasks are dealt to Spark's partitions: data files (with their row
selections) and group tasks (a primary-key bucket merged by key, a data-evolution row range, read whole by
one partition) in as many partitions as ``source.split.target-size`` (128 MB) of selected bytes need, at
least one wave of the session's parallelism (``defaultParallelism`` when :func:`register` ran, or
``source.min-partitions``), balanced by selected bytes plus :data:`OPEN_COST` a file, so merges, data
evolution and schema evolution read exactly as :func:`paimon_codec.spark.scan` reads them.  ``read()`` yields
Arrow batches.

PySpark (4.1 - 4.3) hands a Python data source neither the columns a query needs nor its ``LIMIT`` / top-N,
so every column is read unless ``option("columns", "a,b")`` (or a user schema of some of the table's columns:
``spark.read.schema("a BIGINT, b STRING")``) names them.  Top-N comes as options instead: with
``option("order-by", "amount DESC")`` and ``option("limit", "10")`` the DataFrame is the first 10 rows of the
table in that order (planned with range-bitmap top-N pushdown where it can, read and cut while planning); no
filter is pushed then, so every filter of the query applies to those rows (:func:`~paimon_codec.spark.scan`
filters before it chooses).

Pushdown is opt-in (``option("pushdown", "true")``): PySpark 4.1 - 4.3 keep the read plan of the last pushdown
on the relation's provider (``PythonDataSourceV2.readInfo``, set by ``PythonScanBuilder.pushFilters``) and every
later scan of the relation reads it - a later query of the same DataFrame or temporary view that hands Python
no filter (no filter at all, or only ``OR``s / expressions: ``df.filter("id = 5").show(); df.count()`` counts
the rows of ``id = 5``), and the other scans of the same query (``df.filter(a).union(df.filter(b))`` reads
the plan of the filter planned last on both sides).  The stale read function and partitions are byte for byte those of a rightful re-run, and
nothing of the query reaches ``read()``, so the source cannot detect it
(``tests/test_spark_source.py::test_spark_reuses_a_pushed_plan`` keeps watching).  Without the option every
filter is Spark's and every plan holds every row, so a reused plan is still right.  With it, load the table
again for each query and scan each loaded DataFrame once a query.

Writing: :mod:`.sink`.  Streaming: :mod:`.stream_read` / :mod:`.stream_write` (``readStream`` / ``writeStream``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, cast

from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceWriter, InputPartition

from ..errors import InvalidOptionError
from ..expressions.semantics import SemanticsLike
from .source_options import SourceOptions, parse_source_options, storage_overrides

__all__ = ["PaimonCodecDataSource", "PaimonCodecReader", "PlanPartition", "register"]


class PlanPartition(InputPartition):
    """One Spark partition: data-file tasks (``FileTask``, read a few at once, with ``read_type``'s columns) and
    group tasks (``GroupTask``, read one after another with ``group_type``'s: every column, as the merge needs)
    dealt to it by :func:`_pack` (PySpark pickles the reader for ``read()`` before it calls ``partitions()``,
    so what planning decides travels in the partitions) - or the rows themselves, read while planning
    (``rows``: an Arrow IPC stream of Spark's schema, read from ``files_read`` files; no tasks travel then)."""

    def __init__(self, read_type: Any, files: list | None = None, groups: list | None = None,
                 rows: bytes | None = None, files_read: int = 0, group_type: Any = None) -> None:
        super().__init__(None)
        self.read_type = read_type
        self.files = files or []
        self.groups = groups or []
        self.group_type = group_type
        self.rows = rows
        self.files_read = files_read or len(self.files) + sum(len(g.files) for g in self.groups)


def _restore(storage_state: dict | None, options: dict) -> None:
    from ..storage import restore_storage_state
    from ..table.table import register_storage_options

    restore_storage_state(storage_state)
    extra = storage_overrides(options)
    if extra:
        register_storage_options(options.get("warehouse") or options.get("path") or "", extra)


def _open(opts: SourceOptions):
    """(the table, the schema a read of ``opts`` sees) - as :func:`plan_scan` chooses it."""
    from ..table import PaimonTable

    table = PaimonTable(opts.path, branch=opts.branch)
    snapshot = table.resolve_snapshot(opts.snapshot_id, opts.tag, opts.timestamp_ms)
    schema = table.schema_of(snapshot) if opts.time_travel else table.current_schema(snapshot)
    return table, schema


def _output_type(row_type, columns: tuple[str, ...] | None):
    from ..types import RowType

    if columns is None:
        return row_type
    for name in columns:
        row_type.field(name)  # an unknown column fails here, named
    return RowType(tuple(row_type.field(name) for name in columns))


#: key types whose order in Arrow is Spark's (not FLOAT / DOUBLE: Spark sorts NaN above every number and
#: ``-0.0`` with ``0.0``; not nested types)
_SORTABLE = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "BOOLEAN", "DATE", "VARCHAR", "CHAR", "DECIMAL",
             "TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE")


def _sort_keys(opts: SourceOptions, out_type: Any) -> list:
    """The ``SortKey``s of option ``order-by`` (none without it), of columns the DataFrame returns (Spark's own
    ``orderBy`` on top needs them) and of types whose order Arrow shares with Spark."""
    from ..errors import UnsupportedFeatureError
    from ..planning.plan import parse_order_by

    if opts.order_by is None:
        return []
    keys = parse_order_by(list(opts.order_by), out_type)
    for k in keys:
        if out_type.field(k.column).type.root not in _SORTABLE:
            raise UnsupportedFeatureError(f"option order-by on {k.column} ({out_type.field(k.column).type}): "
                                          "the source sorts only integer, boolean, date, string, decimal and "
                                          "timestamp columns; use paimon_codec.spark.scan(order_by=...)")
    if (opts.limit or 0) > 1 << 20:
        raise InvalidOptionError(f"option limit {opts.limit} is more rows than the source hands over while "
                                 "planning (1,048,576); use paimon_codec.spark.scan(order_by=..., limit=...)")
    return keys


def _arrow_schema(spark_schema: Any) -> Any:
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(spark_schema, timezone="UTC")


def _check_user_schema(out_type: Any, schema: Any, path: str) -> None:
    """A schema given with ``spark.read.schema(...)`` names columns of the table, with their Spark types."""
    from .types import spark_type

    for f, given in zip(out_type.fields, schema.fields, strict=True):
        if spark_type(f.type) != given.dataType:
            raise InvalidOptionError(f"column {f.name!r} is {spark_type(f.type).simpleString()} in the table, "
                                     f"the schema given says {given.dataType.simpleString()}", path=path)


class PaimonCodecReader(DataSourceReader):
    """Plans on the driver (``pushFilters`` then ``partitions``), reads on the executors (``read``)."""

    def __init__(self, options: dict, schema: Any, storage_state: dict | None, parallelism: int | None = None) -> None:
        from ..storage import storage_state as current_state

        _restore(storage_state, options)
        self.options = options
        self.opts = parse_source_options(options)
        self.storage = current_state()  # shipped with the reader to the executors
        _, table_schema = _open(self.opts)
        self.table_type = table_schema.fields
        self.out_type = _output_type(self.table_type, tuple(schema.fieldNames()))
        _check_user_schema(self.out_type, schema, self.opts.path)
        self.spark_schema = schema
        self.predicate: Any = None
        self.semantics: SemanticsLike = "spark"
        self.order_by = _sort_keys(self.opts, self.out_type)
        #: the partitions of one wave (:func:`_pack`): the session's parallelism captured by :func:`register`,
        #: else the cores of this machine
        self.parallelism = max(1, parallelism or os.cpu_count() or 1)

    def pushFilters(self, filters: list) -> Iterator:  # noqa: N802 - PySpark's name
        """Take the filters that translate exactly (``option("pushdown", "true")`` only: see the module docs)."""
        from .pushdown import push_filters

        if not self.opts.pushdown or self.order_by:  # top-N options: every filter applies to the first rows
            yield from filters
            return
        self.predicate, rest = push_filters(list(filters), self.table_type)
        yield from rest

    def partitions(self) -> list[InputPartition]:
        from ..planning.plan import plan_scan
        from ..planning.tasks import GroupTask
        from ..types import RowType

        opts = self.opts
        plan = plan_scan(opts.path, self.predicate, opts.snapshot_id, use_indexes=opts.use_indexes,
                         branch=opts.branch, tag=opts.tag, timestamp_ms=opts.timestamp_ms, semantics="spark",
                         time_zone=opts.time_zone, order_by=self.order_by or None, limit=opts.limit)
        if plan.row_type.names != self.table_type.names:  # a fallback branch of another schema, a race
            raise InvalidOptionError("the table's schema changed between Spark's analysis and planning; read again",
                                     path=opts.path)
        needed = set(self.out_type.names) | set(self.predicate.columns() if self.predicate is not None else ())
        narrow = RowType(tuple(f for f in plan.row_type.fields if f.name in needed))
        if self.order_by:
            return [self._read_first_rows(plan, narrow)]
        if plan.tasks and not plan.groups and self._small(plan, needed):
            return [self._read_now(plan.tasks, narrow)]
        parallelism = opts.min_partitions if opts.min_partitions is not None else self.parallelism
        return [PlanPartition(narrow, files=[t for t in chunk if not isinstance(t, GroupTask)],
                              groups=[t for t in chunk if isinstance(t, GroupTask)], group_type=plan.row_type)
                for chunk in _pack([*plan.groups, *plan.tasks], opts.split_bytes, parallelism)]

    def _small(self, plan: Any, columns: set[str]) -> bool:
        """Whether the plan's rows are few enough to read here, while planning, as ``scan()`` reads them on
        the driver (:func:`.routes.small_answer`): one Spark task then hands them over, where reading them
        in tasks costs a round trip to a Python worker a partition and every file opened there (the scale
        table's ``cat = 's0001'``, 939 rows of 198 files: 7 tasks)."""
        from .routes import DRIVER_READ_ROWS, small_answer

        limit = DRIVER_READ_ROWS if self.opts.driver_read_rows is None else self.opts.driver_read_rows
        return limit > 0 and small_answer(plan, plan.tasks, columns, limit)

    def _read_now(self, files: list, read_type: Any) -> PlanPartition:
        from .source_read import read_partition, to_ipc

        batches = read_partition(files, None, read_type, self.out_type, self.spark_schema, self.predicate,
                                 self.semantics)
        return PlanPartition(read_type, rows=to_ipc(batches, self.spark_schema), files_read=len(files))

    def _read_first_rows(self, plan: Any, read_type: Any) -> PlanPartition:
        """Options ``order-by`` / ``limit``: the first rows of the table in that order, read here (the plan's
        top-N candidates: :func:`plan_scan` narrows them with range-bitmap indexes where it can, else every
        row is read and the first ones kept), one partition of Arrow IPC."""
        from itertools import chain

        from .source_read import read_partition, to_ipc, top_rows

        parts = [read_partition(plan.tasks, None, read_type, self.out_type, self.spark_schema, None,
                                self.semantics)] if plan.tasks else []
        parts += [read_partition([], g, plan.row_type, self.out_type, self.spark_schema, None, self.semantics)
                  for g in plan.groups]
        rows = top_rows(chain(*parts), _arrow_schema(self.spark_schema), self.order_by, self.opts.limit or 0)
        return PlanPartition(read_type, rows=to_ipc(rows, self.spark_schema),
                             files_read=len(plan.tasks) + sum(len(g.files) for g in plan.groups))

    def read(self, partition: InputPartition) -> Iterator:
        from .source_read import from_ipc

        part = cast(PlanPartition, partition)
        if isinstance(part, PlanPartition) and part.rows is not None:
            return from_ipc(part.rows)
        if not isinstance(part, PlanPartition) or (not part.files and not part.groups):
            return iter(())  # Spark's single empty partition of a plan without tasks
        _restore(self.storage, self.options)
        return self._read_tasks(part)

    def _read_tasks(self, part: PlanPartition) -> Iterator:
        from .source_read import read_partition

        if part.files:
            yield from read_partition(part.files, None, part.read_type, self.out_type, self.spark_schema,
                                      self.predicate, self.semantics)
        for group in part.groups:
            yield from read_partition([], group, part.group_type, self.out_type, self.spark_schema,
                                      self.predicate, self.semantics)


#: what opening a file costs, in bytes read (Spark's ``spark.sql.files.openCostInBytes``): a partition of 198
#: files of a few selected rows each is as slow as one of hundreds of megabytes
OPEN_COST = 4 * 1024 * 1024


def _pack(tasks: list, target: int, min_partitions: int) -> list[list]:
    """Tasks (``FileTask``s and ``GroupTask``s) dealt to partitions of about the same cost (selected bytes +
    :data:`OPEN_COST` a file): as many as ``target`` selected bytes need, and at least ``min_partitions`` (one
    wave of the session's parallelism) when there are that many tasks, so every core reads; biggest first,
    each into the partition that holds least so far.  Opening files does not add partitions, nor do group
    tasks (a primary-key bucket to merge, a data-evolution row range): each partition costs a Spark task and a
    Python worker round trip, which outweigh the opens they spread (the scale table's ``cat = 's10'``, 1M rows
    of 200 files: 7 partitions 1.5x the time of ``scan()``, 2 partitions 1.1x); a partition reads its group
    tasks one after another."""
    import heapq

    from ..planning.tasks import GroupTask

    def selected(t: Any) -> int:
        files = t.files if isinstance(t, GroupTask) else [t]
        return sum(f.file_size * f.selected_rows // max(f.row_count, 1) for f in files)

    def cost(t: Any) -> int:
        return OPEN_COST * (len(t.files) if isinstance(t, GroupTask) else 1) + selected(t)

    total = sum(selected(t) for t in tasks)
    count = min(len(tasks), max(-(-total // max(1, target)), min_partitions))
    heap = [(0, k) for k in range(count)]
    out: list[list] = [[] for _ in range(count)]
    for t in sorted(tasks, key=cost, reverse=True):
        filled, k = heapq.heappop(heap)
        out[k].append(t)
        heapq.heappush(heap, (filled + cost(t), k))
    return [p for p in out if p]


class PaimonCodecDataSource(DataSource):
    """``format("paimon_codec")``: see the module docs."""

    #: the driver's storage options when the source was registered (the planning and reading run in Python
    #: workers, which see only what is pickled with the source)
    storage: dict = {}
    #: the session's parallelism when the source was registered (``defaultParallelism``: the cores of a local
    #: master, of a cluster's executors; None where it is not known, as over Spark Connect)
    parallelism: int | None = None

    @classmethod
    def name(cls) -> str:
        return "paimon_codec"

    def schema(self) -> Any:
        from .stream_read import with_row_kind
        from .types import spark_schema

        options = dict(self.options)
        _restore(self.storage, options)
        opts = parse_source_options(options)
        _, table_schema = _open(opts)
        return with_row_kind(options, spark_schema(_output_type(table_schema.fields, opts.columns)))

    def reader(self, schema: Any) -> DataSourceReader:
        from .stream_read import read_changelog

        if read_changelog(dict(self.options)):
            raise InvalidOptionError("read.changelog (a rowkind column) is an option of spark.readStream; a batch "
                                     "read returns the table's rows")
        return PaimonCodecReader(dict(self.options), schema, self.storage, self.parallelism)

    def streamReader(self, schema: Any) -> Any:  # noqa: N802 - PySpark's name
        """``spark.readStream.format("paimon_codec")``: :class:`~paimon_codec.spark.stream_read.PaimonStreamReader`."""
        from .stream_read import PaimonStreamReader

        options = dict(self.options)
        _restore(self.storage, options)
        return PaimonStreamReader(parse_source_options(options).path, options, schema)

    def streamWriter(self, schema: Any, overwrite: bool) -> Any:  # noqa: N802 - PySpark's name
        """``df.writeStream.format("paimon_codec")``: :class:`~paimon_codec.spark.stream_write.PaimonStreamWriter`."""
        from .stream_write import PaimonStreamWriter

        options = dict(self.options)
        _restore(self.storage, options)
        return PaimonStreamWriter(parse_source_options(options).path, options, overwrite, schema.fieldNames())

    def writer(self, schema: Any, overwrite: bool) -> DataSourceWriter:
        from .sink import PaimonCodecWriter

        options = dict(self.options)
        _restore(self.storage, options)
        return PaimonCodecWriter(options, schema, overwrite, self.storage)


def _parallelism(spark: Any) -> int | None:
    """``spark``'s default parallelism (one wave of its tasks), or None where it is not known: a Spark Connect
    session has no SparkContext (its ``spark.default.parallelism`` is read when set)."""
    try:
        return int(spark.sparkContext.defaultParallelism)
    except Exception:  # noqa: BLE001 - Spark Connect raises its own "not supported" errors here
        try:
            value = spark.conf.get("spark.default.parallelism", None)
        except Exception:  # noqa: BLE001 - a session that cannot tell
            return None
        return int(value) if value and str(value).isdigit() else None


def register(spark: Any) -> None:
    """Register ``paimon_codec`` with ``spark``; storage options registered in this process by now travel with
    it (later ones: ``option("storage.<key>", value)`` or register again), and so does the session's
    parallelism, the partitions of one wave of a read (:func:`_pack`; ``option("source.min-partitions")``
    sets it per read).  Turns on Spark's filter pushdown to Python data sources
    (``spark.sql.python.filterPushdown.enabled``, off by default: Spark refuses a source implementing
    ``pushFilters`` without it)."""
    from ..storage import storage_state

    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    state = storage_state()
    parallelism = _parallelism(spark)
    source: type[DataSource] = PaimonCodecDataSource
    if state or parallelism:  # a subclass defined here is pickled by value, carrying them to the Python workers
        source = type("PaimonCodecDataSource", (PaimonCodecDataSource,), {
            "storage": state, "parallelism": parallelism, "__module__": __name__ + "_registered"})
    spark.dataSource.register(source)
