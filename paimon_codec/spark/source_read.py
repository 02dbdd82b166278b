"""What a ``paimon_codec`` source task does on an executor: read its planned tasks, filter, hand Spark Arrow.

The rows come exactly as :func:`paimon_codec.spark.scan` returns them: the same readers (``read_file_rows``
for data files with their selections and schema evolution, ``read_group_task`` for key merges and
data-evolution row ranges), nanosecond timestamps cut to Spark's microseconds, and the pushed predicate
applied by :func:`~paimon_codec.reading.arrow_filter.filter_table` under Spark's semantics (Spark does not filter
these rows again).  Batches are cast to exactly the Arrow schema PySpark checks the first batch against
(``to_arrow_schema(schema, timezone="UTC")``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from ..expressions.semantics import SemanticsLike

__all__ = ["read_partition", "top_rows", "to_ipc", "from_ipc"]

_BATCH_ROWS = 65536


def _spark_arrow_schema(spark_schema: Any) -> pa.Schema:
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(spark_schema, timezone="UTC")


def _as_spark(table: pa.Table, target: pa.Schema) -> pa.Table:
    """``table`` (already of the output columns, in order) as exactly ``target``'s types and nullability."""
    from .types import to_spark_micros

    table = to_spark_micros(table)
    columns = [col if col.type == f.type else col.cast(f.type) for col, f in zip(table.columns, target, strict=True)]
    return pa.Table.from_arrays(columns, schema=target)


def read_partition(files: list, group: Any, read_type: Any, out_type: Any, spark_schema: Any, predicate: Any,
                   semantics: SemanticsLike) -> Iterator[pa.RecordBatch]:
    """Arrow batches of one partition: ``files`` (``FileTask``s, read a few at once: pyarrow decodes without the
    GIL, and a selective partition is bound by opening files, not by bytes) or ``group`` (a ``GroupTask``).
    A file whose selection is exactly the matching rows (``FileTask.exact``) is read for the returned columns
    alone, less those the predicate pins to one value (:func:`~.pushdown.pinned_values`: filled with it); the
    others with the predicate's columns too, and filtered."""
    from ..evolution.file_evolution import arrow_schema
    from ..reading.arrow_filter import filter_table
    from ..reading.read import map_bounded, read_file_rows, read_group_task, read_threads
    from ..types import RowType
    from .pushdown import pinned_values

    target = _spark_arrow_schema(spark_schema)
    schema = arrow_schema(read_type)
    names = out_type.names
    pinned = {k: v for k, v in pinned_values(predicate, read_type).items() if k in set(names)}
    if not set(names) - set(pinned):  # read one column at least: a read of none would count no rows
        pinned = {}
    returned = arrow_schema(RowType(tuple(f for f in read_type.fields if f.name in set(names) - set(pinned))))

    def filtered(table: pa.Table, exact: bool) -> pa.Table:
        if predicate is not None and not exact:
            table = filter_table(table, predicate, read_type, semantics)
        columns = [pa.repeat(pa.scalar(pinned[n], schema.field(n).type), table.num_rows) if n in pinned
                   and n not in table.column_names else table.column(n) for n in names]
        return _as_spark(pa.Table.from_arrays(columns, names=names), target)

    if group is not None:
        yield from filtered(read_group_task(group, schema), False).to_batches(max_chunksize=_BATCH_ROWS)
        return

    def one(t: Any) -> pa.Table:
        exact = predicate is None or t.exact
        rows = read_file_rows(t.path, t.file_format, returned if exact else schema, t.selection, t.primary_key_file,
                              t.evolution, t.file_size)
        return filtered(rows, exact)

    threads = min(len(files), read_threads([t.path for t in files])) if files else 1
    for table in map_bounded(one, files, threads):
        yield from table.to_batches(max_chunksize=_BATCH_ROWS)


def _first_rows(table: pa.Table, keys: list, limit: int) -> pa.Table:
    """The first ``limit`` rows of ``table`` in the order of ``keys`` (``SortKey``s), nulls placed key by key as
    each key says (a ``is null`` column before each value: Arrow places nulls for all keys at once)."""
    import pyarrow.compute as pc

    columns = dict(zip(table.column_names, table.columns, strict=True))
    order = []
    for i, k in enumerate(keys):
        columns[f"__null_{i}"] = pc.is_null(table.column(k.column))
        order += [(f"__null_{i}", "descending" if k.nulls_come_first else "ascending"),
                  (k.column, "descending" if k.descending else "ascending")]
    indices = pc.sort_indices(pa.table(columns), sort_keys=order)
    return table.take(indices[:limit])


def top_rows(batches: Iterator[pa.RecordBatch], schema: pa.Schema, keys: list, limit: int) -> Iterator[pa.RecordBatch]:
    """The first ``limit`` rows of ``batches`` (of ``schema``) in the order of ``keys``, as Spark's ``ORDER BY
    ... LIMIT`` keeps them (ties at the last place: any of them, as Spark's); memory: ``limit`` rows plus
    a few batches (the rows so far are cut back to ``limit`` whenever twice as many are held)."""
    held: list[pa.RecordBatch] = []
    count = 0
    for batch in batches:
        held.append(batch)
        count += batch.num_rows
        if count >= max(2 * limit, _BATCH_ROWS):
            kept = _first_rows(pa.Table.from_batches(held, schema), keys, limit)
            held, count = kept.to_batches(), kept.num_rows
    yield from _first_rows(pa.Table.from_batches(held, schema), keys, limit).to_batches(max_chunksize=_BATCH_ROWS)


def to_ipc(batches: Iterator[pa.RecordBatch], spark_schema: Any) -> bytes:
    """``batches`` (of Spark's Arrow schema, as :func:`read_partition` yields them) as one Arrow IPC stream,
    in batches of up to 65,536 rows."""
    schema = _spark_arrow_schema(spark_schema)
    table = pa.Table.from_batches(list(batches), schema).combine_chunks()  # a file's few rows: not a batch each
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, schema) as writer:
        writer.write_table(table, max_chunksize=_BATCH_ROWS)
    return sink.getvalue().to_pybytes()


def from_ipc(data: bytes) -> Iterator[pa.RecordBatch]:
    """The batches of a stream written by :func:`to_ipc` (none for a stream of no rows)."""
    yield from pa.ipc.open_stream(pa.py_buffer(data))
