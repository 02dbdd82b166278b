"""Reading whole data files with Spark's own Parquet / ORC readers.

A file whose scan keeps every row (the index answered REMAIN and no deletion vector removed rows)
needs no row selection, so Spark's vectorised reader is the fastest way to read it: it runs in the
JVM, prunes row groups with the residual filter's statistics and skips the Python worker round
trip.  It is used only where it gives exactly the rows the Arrow path
(:func:`paimon_codec.reading.read.read_file_rows`) gives: the file's footer must hold every table
column with the same physical meaning (same Arrow type after pyarrow decoding, or a timestamp of the
same time-zone kind in millis or micros), and the file must have been written under a schema with
the table's field ids, names and types (``FileTask.evolution is None``): files of an older schema
(renamed, dropped, re-added or re-typed columns) go through the Arrow path, which maps columns by
field id.  TIME columns (which Spark has no type for), nested types, TIMESTAMP(7..9) columns
(nanoseconds), INT96 timestamps and paths Spark would treat as globs go through the Arrow path too.
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pyarrow as pa

from ..reading.read import VALUE_KIND_COLUMN, arrow_type
from ..storage import is_local
from ..types import RowType
from .connect_mode import is_spark_connect

__all__ = ["native_readable", "native_dataframe", "selected_bytes", "listed_on_driver", "PARQUET_READ_OPTIONS"]

# Hadoop options of Spark's Parquet reads (a data source's options reach the reader's Hadoop conf).
# parquet-mr's dictionary filter prunes a row group when no dictionary value can match a pushed-down filter:
# it decodes (and boxes into a hash set) the whole dictionary page of the filtered column of every row
# group first.  Measured on the scale table (200 files, amount < 100,000 over 50k-value dictionaries):
# 10.4 s with it, 2.5 s without; 'cat = ...' 2.0 -> 2.0 s.  Row groups are still pruned by their min/max
# statistics, and files the index proves empty are not read at all; the filter only ever prunes (the rows
# are filtered again in Spark), so this changes no answer.
PARQUET_READ_OPTIONS = {"parquet.filter.dictionary.enabled": "false"}

_LISTING_CONF = "spark.sql.sources.parallelPartitionDiscovery.threshold"
_LISTING_LOCK = threading.Lock()

_GLOB_CHARS = set("*?[]{}\\")
_NESTED = {"ARRAY", "MAP", "ROW", "MULTISET"}


def _compatible(file_type: pa.DataType, table_type: pa.DataType, file_format: str) -> bool:
    if file_type == table_type:
        return True
    if pa.types.is_timestamp(file_type) and pa.types.is_timestamp(table_type) and file_format == "parquet":
        # Spark reads INT64 millis/micros timestamps; the UTC-adjusted flag must match the column kind
        return file_type.unit in ("ms", "us") and (file_type.tz is None) == (table_type.tz is None)
    return False


@functools.lru_cache(maxsize=4096)
def _footer_of(path: str, mtime_ns: int, size: int) -> Any:
    import pyarrow.parquet as pq

    return pq.read_metadata(path)


def _footer(path: str) -> Any:
    """The Parquet footer of a local file, read once per version of the file (keyed by its path, mtime and size):
    routing reads it twice - the row groups a selection touches (:func:`selected_bytes`) and the columns'
    types (:func:`native_readable`) - and 200 footers cost ~0.1 s a read."""
    st = os.stat(path)
    return _footer_of(path, st.st_mtime_ns, st.st_size)


def _file_schema(path: str, file_format: str) -> pa.Schema | None:
    try:
        if file_format == "parquet":
            return _footer(path).schema.to_arrow_schema()
        if file_format == "orc":
            from pyarrow import orc

            return orc.ORCFile(path).schema
    except (OSError, pa.ArrowException):
        return None  # let the Arrow path report the problem with the file's path
    return None


def selected_bytes(path: str, file_format: str, selection: Any,
                   columns: Collection[str] | None = None) -> tuple[int, int] | None:
    """``(bytes of the Parquet row groups holding a selected row, bytes of every row group)`` of a local
    Parquet file (compressed column chunks; of the top-level ``columns`` only, when given), or ``None``
    when that cannot be told (other formats, a store).

    A row selection saves reading only the row groups it leaves out: when it touches (nearly) all of them,
    Spark's vectorised reader in the JVM reads the whole file faster than pyarrow picks the rows.
    """
    if file_format != "parquet" or not is_local(path) or selection is None:
        return None
    try:
        meta = _footer(path)
    except (OSError, pa.ArrowException):
        return None
    touched = total = start = 0
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        size = sum(rg.column(c).total_compressed_size for c in range(rg.num_columns)
                   if columns is None or rg.column(c).path_in_schema.split(".", 1)[0] in columns)
        total += size
        if rg.num_rows and selection.range_cardinality(start, start + rg.num_rows):
            touched += size
        start += rg.num_rows
    return touched, total


def _nanos(t) -> bool:
    return t.is_timestamp and (t.precision if t.precision is not None else 6) > 6


def native_readable(path: str, file_format: str, row_type: RowType, primary_key_file: bool = False,
                    evolution: Any = None) -> bool:
    """Whether Spark's reader gives exactly this file's rows as the table's columns (reads the footer).

    ``evolution`` is the file task's :class:`~paimon_codec.evolution.file_evolution.FileEvolution`: a file of an
    older schema is never read natively.
    """
    if evolution is not None or file_format not in ("parquet", "orc") or _GLOB_CHARS & set(path):
        return False
    if not is_local(path):  # Spark's JVM may lack the store's connector; the Arrow path rebuilds it from the URI
        return False
    if any(f.type.root in _NESTED or f.type.root == "TIME_WITHOUT_TIME_ZONE" or _nanos(f.type)
           for f in row_type):
        return False
    schema = _file_schema(path, file_format)
    if schema is None:
        return False
    names = set(schema.names)
    if len(names) != len(schema.names):
        return False
    if primary_key_file:
        if VALUE_KIND_COLUMN not in names or schema.field(VALUE_KIND_COLUMN).type != pa.int8():
            return False
    for f in row_type:
        if f.name in names and not _compatible(schema.field(f.name).type, arrow_type(f.type), file_format):
            return False
    return True


@contextmanager
def listed_on_driver(spark, paths: int) -> Iterator[None]:
    """While ``spark.read`` of ``paths`` explicit local files builds its file index, list them on the driver.

    Above ``spark.sql.sources.parallelPartitionDiscovery.threshold`` (32) root paths, Spark lists them in a
    distributed job - a Spark job whose tasks each stat a few files - when the DataFrame is created (measured:
    200 files of a scan, 2.2 s against 0.23 s listed on the driver).  Our paths are files the plan already
    named, on local disk (:func:`native_readable`), so a stat each on the driver is the cheap way.  The
    session's setting is raised only around the (eager) creation of the file index and restored; a lock
    keeps concurrent scans from restoring each other's value.
    """
    conf = spark.conf
    with _LISTING_LOCK:
        old = conf.get(_LISTING_CONF, None)
        try:
            current = int(old) if old is not None else 32
        except ValueError:
            current = 32
        if paths <= current:
            yield
            return
        conf.set(_LISTING_CONF, str(paths))
        try:
            yield
        finally:
            if old is None:
                conf.unset(_LISTING_CONF)
            else:
                conf.set(_LISTING_CONF, old)


def native_dataframe(spark, row_type: RowType, paths: Sequence[str], file_format: str,
                     primary_key_files: bool = False) -> Any:
    """One DataFrame of every row of ``paths`` (files of one format), with the table's columns.

    Primary-key files also carry ``_VALUE_KIND``; their retraction rows (UPDATE_BEFORE, DELETE)
    are dropped, as the Arrow path does.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    from .types import spark_schema

    schema = spark_schema(row_type)
    read_schema = schema
    if primary_key_files:
        read_schema = T.StructType([*schema.fields, T.StructField(VALUE_KIND_COLUMN, T.ByteType(), True)])
    reader = spark.read.schema(read_schema)
    if file_format == "parquet":
        reader = reader.options(**PARQUET_READ_OPTIONS)
    with listed_on_driver(spark, len(paths)):
        if file_format == "parquet" and not is_spark_connect(spark) and len(paths) > 1:
            df = _parquet_of_many(spark, reader, paths)
        else:  # DataFrameReader.orc(path, mergeSchema=None, ...): several paths must go as one list
            df = reader.parquet(*paths) if file_format == "parquet" else reader.orc(list(paths))
    if primary_key_files:
        kind = F.col(VALUE_KIND_COLUMN)
        df = df.filter(kind.isNull() | ~kind.isin(1, 3)).drop(VALUE_KIND_COLUMN)
    return df


def _parquet_of_many(spark, reader, paths: Sequence[str]) -> Any:
    """``reader.parquet(*paths)`` with the paths handed to the JVM in one py4j call: PySpark turns a list
    into a Java list one ``add`` call per element (200 round trips for 200 files).  The paths travel as one
    string split on NUL, which no POSIX path holds (and :func:`native_readable` admits local paths only)."""
    from pyspark.sql import DataFrame

    jvm = spark._jvm
    as_list = _nul_splitter(jvm).splitAsStream("\0".join(paths)).toList()
    return DataFrame(reader._jreader.parquet(jvm.PythonUtils.toSeq(as_list)), spark)


#: per JVM view, a ``java.util.regex.Pattern`` splitting on NUL: each ``jvm.java.util.regex.Pattern`` lookup is four
#: py4j round trips (a package or class name each), and a scan's driver time is mostly such round trips
_NUL_SPLITTERS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_PATTERN_LITERAL = 0x10  # java.util.regex.Pattern.LITERAL


def _nul_splitter(jvm) -> Any:
    splitter = _NUL_SPLITTERS.get(jvm)
    if splitter is None:
        splitter = _NUL_SPLITTERS[jvm] = jvm.java.util.regex.Pattern.compile("\0", _PATTERN_LITERAL)
    return splitter
