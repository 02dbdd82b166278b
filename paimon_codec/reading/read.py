"""Reading the selected rows of one data file with pyarrow (used inside Spark tasks and locally).

Parquet, ORC and Avro data files are read (Avro through fastavro); any other format is refused by
name.  Only the Parquet row groups holding selected positions are read; rows are taken by position,
retraction rows (``_VALUE_KIND`` UPDATE_BEFORE / DELETE) of primary-key files are dropped, and the
file's columns become the table's columns by field id with Paimon's casts
(:mod:`paimon_codec.evolution.file_evolution`): a file written under an older schema reads exactly as Paimon
reads it.
"""

from __future__ import annotations

import collections
import datetime as dt
import functools
import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from .. import storage
from ..errors import CorruptDataError, MissingFileError, PaimonCodecError, UnsupportedTypeError
from ..evolution.casts_zone import refuse_orc_zone_casts
from ..evolution.file_evolution import (
    Conversion,
    FileEvolution,
    arrow_schema,
    arrow_type,
    as_arrow,
    convert_array,
)
from ..evolution.orc_char import has_char, noted_type, trim_char
from ..planning.tasks import GroupTask
from ..table.metadata_records import avro_records
from .orc_batches import java_repeating_zeros
from .orc_tail import stripe_writer_zones
from .orc_timestamps import java_timestamps
from .orc_zones import refuse_zone_dependent

__all__ = ["arrow_type", "arrow_schema", "read_file_rows", "read_group_task", "read_plan_locally", "read_tasks_locally",
           "VALUE_KIND_COLUMN", "map_bounded", "read_threads", "STORE_READ_THREADS"]

VALUE_KIND_COLUMN = "_VALUE_KIND"
# primary-key files' system columns: a schema passed to read_file_rows may ask for them (merge reads)
SYSTEM_COLUMNS = ("_SEQUENCE_NUMBER", VALUE_KIND_COLUMN)
_RETRACT_KINDS = (1, 3)  # RowKind UPDATE_BEFORE, DELETE
#: files of an object store read at once by one reader (a Spark task, the driver); measured on a loopback
#: S3 server (benchmarks/scale.py --store s3)
STORE_READ_THREADS = 8
LOCAL_READ_THREADS = 8
T = TypeVar("T")
R = TypeVar("R")


def _row_group_ranges(meta) -> np.ndarray:
    counts = np.array([meta.row_group(i).num_rows for i in range(meta.num_row_groups)], dtype=np.int64)
    return np.concatenate([[0], np.cumsum(counts)])


def _open(path: str):
    """``path`` itself when local (pyarrow opens it), else the store's random-access file: Parquet and ORC
    readers then fetch the footer and just the stripes / row groups they read, by ranged GETs."""
    if storage.is_local(path):
        return storage.split_uri(path)[2]
    fs, p = storage.filesystem_for(path)
    return fs.open_input_file(p)


class _StoreParquet:
    """A Parquet file of an object store opened as a dataset fragment of known size: pyarrow's file opener
    would first send a HEAD request for the size the manifest already gives (one round trip of three per
    file: footer, column chunks).  The footer is read once and kept for the row groups read."""

    def __init__(self, path: str, size: int) -> None:
        import pyarrow.dataset as ds

        fs, p = storage.filesystem_for(path)
        self._fragment = ds.ParquetFileFormat().make_fragment(p, fs, file_size=size)
        self._fragment.ensure_complete_metadata()
        self.metadata = self._fragment.metadata
        self.names = self._fragment.physical_schema.names

    def read(self, columns: list[str]) -> pa.Table:
        return self._fragment.to_table(columns=columns)

    def read_row_groups(self, groups: list[int], columns: list[str]) -> pa.Table:
        if not groups:
            return self._fragment.physical_schema.empty_table().select(columns)
        return self._fragment.subset(row_group_ids=groups).to_table(columns=columns)


def _read_parquet(path: str, columns: list[str], positions: np.ndarray | None,
                  file_size: int | None = None) -> pa.Table:
    import pyarrow.parquet as pq

    if file_size and not storage.is_local(path):
        pf: Any = _StoreParquet(path, file_size)
        names = pf.names
    else:
        pf = pq.ParquetFile(_open(path))
        names = pf.schema_arrow.names
    present = [c for c in columns if c in names]
    if positions is None:
        return pf.read(columns=present)
    bounds = _row_group_ranges(pf.metadata)
    groups = np.unique(np.searchsorted(bounds, positions, side="right") - 1)
    table = pf.read_row_groups(groups.tolist(), columns=present)
    # position -> offset inside the concatenation of the groups read
    group_of = np.searchsorted(bounds, positions, side="right") - 1
    starts_read = np.zeros(len(bounds) - 1, dtype=np.int64)
    sizes = np.diff(bounds)[groups]
    starts_read[groups] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    offsets = positions - bounds[group_of] + starts_read[group_of]
    return table.take(pa.array(offsets))


def _read_orc(path: str, columns: list[str], positions: np.ndarray | None) -> pa.Table:
    from pyarrow import orc

    f = orc.ORCFile(_open(path))
    present = [c for c in columns if c in f.schema.names]
    table = f.read(columns=present)
    stripes = [f.nrows] if f.nstripes == 1 else [f.read_stripe(i, columns=[]).num_rows for i in range(f.nstripes)]
    if any(pa.types.is_floating(t) for t in table.schema.types):  # Java's repeating batches (.orc_batches)
        table = java_repeating_zeros(table, stripes)
    zones = functools.cache(lambda: stripe_writer_zones(path, f.reader.serialized_file_tail()))
    refuse_zone_dependent(table, zones, path)  # LTZ columns, older offsets of the writer zone (.orc_zones)
    # TIMESTAMPs near 1970-01-01 rounded as Java rounds them (.orc_timestamps)
    table = java_timestamps(table, zones, stripes, path)
    return table if positions is None else table.take(pa.array(positions))


def _avro_value(v, t: pa.DataType):
    """One fastavro value as a Python value ``pa.array`` takes for Arrow type ``t``."""
    if v is None:
        return None
    if pa.types.is_struct(t):
        return {f.name: _avro_value(v.get(f.name), f.type) for f in t}
    if pa.types.is_map(t):
        # string-keyed maps are Avro maps; Paimon writes other maps as arrays of {key, value} records
        items = v.items() if isinstance(v, dict) else ((e.get("key"), e.get("value")) for e in v)
        return [(_avro_value(k, t.key_type), _avro_value(x, t.item_type)) for k, x in items]
    if pa.types.is_list(t):
        return [_avro_value(x, t.value_type) for x in v]
    if pa.types.is_decimal(t):
        # Paimon's Avro reader makes each value with Decimal.fromBigDecimal, which gives NULL for a value with
        # more digits than the column's precision: an aggregation table's sum of a DECIMAL(p <= 18) is added
        # unchecked (DecimalUtils.add on unscaled longs) and can be written with p + 1 digits.  fastavro
        # decodes in a context of the schema's precision, so such a value comes rounded, its exponent raised.
        sign_digits_exp = v.as_tuple()
        fits = sign_digits_exp.exponent == -t.scale and len(sign_digits_exp.digits) <= t.precision
        return v if fits else None
    if pa.types.is_integer(t) and isinstance(v, dt.time):  # time-millis / time-micros -> millis of day
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
    return v


def _read_avro(path: str, fields: list[pa.Field], positions: np.ndarray | None) -> pa.Table:
    """The named columns of an Avro data file (fastavro; logical types decoded to Python values)."""
    import fastavro

    try:
        # read whole anyway: one GET on a store instead of a window at a time
        with storage.open_input(path) if storage.is_local(path) else io.BytesIO(storage.read_bytes(path)) as fo:
            records = avro_records(fo)
    except PaimonCodecError as exc:  # a compression codec this machine cannot decode
        raise exc.with_path(path) from None
    except (ValueError, EOFError, fastavro.read.SchemaResolutionError) as exc:
        raise CorruptDataError(f"cannot read Avro data file: {exc}", path=path) from None
    if positions is not None:
        records = [records[i] for i in positions]
    names = set(records[0]) if records else set()
    arrays, out_fields = [], []
    for f in fields:
        if records and f.name not in names:
            continue
        arrays.append(pa.array([_avro_value(r.get(f.name), f.type) for r in records], type=f.type))
        out_fields.append(f)
    return pa.Table.from_arrays(arrays, schema=pa.schema(out_fields))


_FORMATS = ("parquet", "orc", "avro")
# pyarrow's ORC reader decodes every timestamp to nanoseconds and fails a value outside 1677-09-21 ..
# 2262-04-11 (Paimon stores years 0001..9999); Java's ORC reader returns those values as the file holds them
# (Julian-calendar seconds for old dates), which this reader cannot decode, so the read is refused by name
_ORC_NANOS_RANGE = "out of range for nanosecond resolution"
_ORC_TIMESTAMP_RANGE_REFUSAL = ("unsupported: an ORC TIMESTAMP value before 1677-09-21 or after 2262-04-11 "
                                "(pyarrow's ORC reader decodes timestamps as nanoseconds)")


def read_file_rows(path: str, file_format: str, schema: pa.Schema, selection: bytes | BitMap | None = None,
                   primary_key_file: bool = False, evolution: FileEvolution | None = None,
                   file_size: int | None = None) -> pa.Table:
    """The selected rows of one data file as a table of ``schema`` (the table's columns, in file order).

    ``evolution`` (from the file's :class:`~paimon_codec.planning.tasks.FileTask`) says how a file written
    under an older schema maps to the table's columns; ``None`` reads the columns by name.  ``file_size``
    (the manifest's) spares an object store the HEAD request that would ask for it (Parquet).
    """
    if file_format not in _FORMATS:
        raise UnsupportedTypeError(f"cannot read {file_format!r} data files", path=path,
                                   expected="parquet, orc or avro")
    positions = None
    if selection is not None:
        bm = selection if isinstance(selection, BitMap) else BitMap.deserialize(selection)
        positions = np.asarray(bm.to_array(), dtype=np.int64) if hasattr(bm, "to_array") \
            else np.fromiter(bm, dtype=np.int64, count=len(bm))
    # (table field, file column name or None, conversion or None) per table column
    plan: list[tuple[pa.Field, str | None, Conversion | None]] = []
    for fld in schema:
        if evolution is None or fld.name in SYSTEM_COLUMNS:  # system columns are read by name
            plan.append((fld, fld.name, None))
        else:
            col = evolution.column(fld.name)
            plan.append((fld, col.source, col.conversion))
    columns = [src for _, src, _ in plan if src is not None]
    if file_format == "orc":
        refuse_orc_zone_casts((conv for _, _, conv in plan), path)
    if primary_key_file:
        columns.append(VALUE_KIND_COLUMN)
    try:
        table = _decoded_columns(path, file_format, plan, columns, positions, file_size, primary_key_file)
    except FileNotFoundError as exc:  # listed in a manifest, gone from the store
        if isinstance(exc, PaimonCodecError):
            raise
        raise MissingFileError("data file listed in the manifest does not exist", path=path) from None
    if primary_key_file and VALUE_KIND_COLUMN in table.column_names:
        kinds = table.column(VALUE_KIND_COLUMN)
        table = table.filter(pc.invert(pc.is_in(kinds, pa.array(_RETRACT_KINDS, kinds.type))))
    if file_format == "orc":
        table = _trimmed_orc_chars(table, plan)
    arrays = []
    for fld, src, conv in plan:
        if src is None or src not in table.column_names:
            arrays.append(pa.nulls(table.num_rows, fld.type))
        elif conv is None:
            arrays.append(as_arrow(table.column(src), fld.type))
        else:
            arrays.append(convert_array(table.column(src), conv))
    return pa.Table.from_arrays(arrays, schema=pa.schema([f.remove_metadata() for f in schema]))


def _decoded_columns(path: str, file_format: str, plan: list[tuple[pa.Field, str | None, Conversion | None]],
                     columns: list[str], positions: np.ndarray | None, file_size: int | None,
                     primary_key_file: bool) -> pa.Table:
    """The file's columns as its format's reader decodes them (before evolution and NULL-filling)."""
    with storage.store_errors(path, "data file"):
        if file_format in ("parquet", "orc"):
            try:
                table = _read_parquet(path, columns, positions, file_size) if file_format == "parquet" \
                    else _read_orc(path, columns, positions)
            except pa.ArrowNotImplementedError as exc:  # e.g. a compression codec this pyarrow lacks
                raise UnsupportedTypeError(f"unsupported: {file_format} data file: {str(exc).splitlines()[0]}",
                                           path=path) from None
            except pa.ArrowInvalid as exc:
                if file_format == "orc" and _ORC_NANOS_RANGE in str(exc):
                    raise UnsupportedTypeError(f"{_ORC_TIMESTAMP_RANGE_REFUSAL}: {str(exc).splitlines()[0]}",
                                               path=path) from None
                raise
        else:
            avro_fields = [pa.field(src, arrow_type(conv.src) if conv is not None else fld.type)
                           for fld, src, conv in plan if src is not None]
            if primary_key_file:
                avro_fields.append(pa.field(VALUE_KIND_COLUMN, pa.int8()))
            table = _read_avro(path, avro_fields, positions)
    return table


def _trimmed_orc_chars(table: pa.Table, plan: list[tuple[pa.Field, str | None, Conversion | None]]) -> pa.Table:
    """``table`` (an ORC file's columns) with its CHAR values unpadded (:mod:`~paimon_codec.evolution.orc_char`); the file's own
    type of a column is the evolution's source type, else the table's (noted on the Arrow field)."""
    for fld, src, conv in plan:
        if src is None or src not in table.column_names:
            continue
        file_type = conv.src if conv is not None else noted_type(fld)
        if file_type is not None and has_char(file_type):
            i = table.column_names.index(src)
            table = table.set_column(i, table.field(i), trim_char(table.column(i), file_type))
    return table


def read_threads(paths: Sequence[str]) -> int:
    """How many files to read at once: :data:`STORE_READ_THREADS` when any is on an object store (each file
    costs a footer GET and a column-chunk GET there: reads are latency-bound, and pyarrow waits for them
    without the GIL), else the cores (local reads are bound by decoding)."""
    if any(not storage.is_local(p) for p in paths):
        return STORE_READ_THREADS
    return max(1, min(LOCAL_READ_THREADS, os.cpu_count() or 1))


def map_bounded(fn: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """``fn`` of every item, in order, run in up to ``workers`` threads, with at most ``2 * workers`` calls
    started and not yet consumed (memory in flight stays bounded however many items there are)."""
    if workers <= 1:
        yield from map(fn, items)
        return
    from concurrent.futures import ThreadPoolExecutor

    window: collections.deque = collections.deque()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            for item in items:
                if len(window) >= 2 * workers:
                    yield window.popleft().result()
                window.append(pool.submit(fn, item))
            while window:
                yield window.popleft().result()
        finally:  # a failure or an abandoned generator: start no more of the queued calls
            for fut in window:
                fut.cancel()


def read_tasks_locally(tasks: Sequence, schema: pa.Schema, groups: Sequence = ()) -> pa.Table:
    """Read every file task and group task of a plan in this process (no Spark) and concatenate."""

    def read(t) -> pa.Table:
        return read_file_rows(t.path, t.file_format, schema, t.selection, t.primary_key_file,
                              getattr(t, "evolution", None), getattr(t, "file_size", None))

    parts = list(map_bounded(read, tasks, read_threads([t.path for t in tasks])))
    parts.extend(read_group_task(g, schema) for g in groups)
    return pa.concat_tables(parts) if parts else schema.empty_table()


def read_plan_locally(plan) -> pa.Table:
    """Every row a :class:`~paimon_codec.planning.plan.ScanPlan` selects, read in this process (no Spark).

    Index answers are supersets: apply ``plan.predicate`` to the result for exact rows.
    """
    return read_tasks_locally(plan.tasks, arrow_schema(plan.row_type), plan.groups)


def read_group_task(task: GroupTask, schema: pa.Schema) -> pa.Table:
    """Run a group task's reader (see :class:`GroupTask`)."""
    import importlib

    module, _, name = task.reader.partition(":")
    return getattr(importlib.import_module(module), name)(task, schema)
