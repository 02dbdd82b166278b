"""Reading the selected rows of one data file with pyarrow (used inside Spark tasks and locally).

Only the row groups holding selected positions are read; rows are taken by position, retraction
rows (``_VALUE_KIND`` UPDATE_BEFORE / DELETE) of primary-key files are dropped, and columns are cast
to the table's Arrow schema (columns missing from an older file become nulls).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from ..errors import UnsupportedTypeError
from ..types import DataType, RowType

__all__ = ["arrow_type", "arrow_schema", "read_file_rows", "read_plan_locally", "read_tasks_locally",
           "VALUE_KIND_COLUMN"]

VALUE_KIND_COLUMN = "_VALUE_KIND"
_RETRACT_KINDS = (1, 3)  # RowKind UPDATE_BEFORE, DELETE


def arrow_type(t: DataType) -> pa.DataType:
    """Arrow type of a Paimon type as this library hands rows to Spark (TIME = int32 millis)."""
    r = t.root
    simple = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
              "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "CHAR": pa.string(),
              "VARCHAR": pa.string(), "BINARY": pa.binary(), "VARBINARY": pa.binary(), "DATE": pa.date32(),
              "TIME_WITHOUT_TIME_ZONE": pa.int32(),
              "TIMESTAMP_WITHOUT_TIME_ZONE": pa.timestamp("us"),
              "TIMESTAMP_WITH_LOCAL_TIME_ZONE": pa.timestamp("us", tz="UTC")}
    if r in simple:
        return simple[r]
    if r == "DECIMAL":
        return pa.decimal128(t.precision or 10, t.scale or 0)
    if r == "ARRAY":
        return pa.list_(pa.field("element", arrow_type(t.children[0]), t.children[0].nullable))
    if r == "MAP":
        return pa.map_(arrow_type(t.children[0]), arrow_type(t.children[1]))
    if r == "ROW":
        return pa.struct([pa.field(n, arrow_type(c), c.nullable) for n, c in zip(t.field_names, t.children,
                                                                                  strict=True)])
    raise UnsupportedTypeError(f"cannot read a {t} column")


def arrow_schema(row_type: RowType) -> pa.Schema:
    return pa.schema([pa.field(f.name, arrow_type(f.type), f.type.nullable) for f in row_type])


def _cast_column(col: pa.ChunkedArray | pa.Array, target: pa.DataType) -> pa.Array:
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if col.type == target:
        return col
    if pa.types.is_time(col.type) and pa.types.is_integer(target):
        unit = col.type.unit
        ints = col.cast(pa.int64() if col.type.bit_width == 64 else pa.int32())
        if unit == "us":
            ints = pc.divide(ints, 1000)
        elif unit == "ns":
            ints = pc.divide(ints, 1_000_000)
        return ints.cast(target)
    return col.cast(target)


def _row_group_ranges(meta) -> np.ndarray:
    counts = np.array([meta.row_group(i).num_rows for i in range(meta.num_row_groups)], dtype=np.int64)
    return np.concatenate([[0], np.cumsum(counts)])


def _read_parquet(path: str, columns: list[str], positions: np.ndarray | None) -> pa.Table:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    present = [c for c in columns if c in pf.schema_arrow.names]
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

    f = orc.ORCFile(path)
    present = [c for c in columns if c in f.schema.names]
    table = f.read(columns=present)
    return table if positions is None else table.take(pa.array(positions))


def read_file_rows(path: str, file_format: str, schema: pa.Schema, selection: bytes | BitMap | None = None,
                   primary_key_file: bool = False) -> pa.Table:
    """The selected rows of one data file as a table of ``schema`` (in file order)."""
    positions = None
    if selection is not None:
        bm = selection if isinstance(selection, BitMap) else BitMap.deserialize(selection)
        positions = np.asarray(bm.to_array(), dtype=np.int64) if hasattr(bm, "to_array") \
            else np.fromiter(bm, dtype=np.int64, count=len(bm))
    columns = list(schema.names)
    if primary_key_file:
        columns.append(VALUE_KIND_COLUMN)
    if file_format == "parquet":
        table = _read_parquet(path, columns, positions)
    elif file_format == "orc":
        table = _read_orc(path, columns, positions)
    else:
        raise UnsupportedTypeError(f"cannot read {file_format} data files", path=path,
                                   expected="parquet or orc")
    if primary_key_file and VALUE_KIND_COLUMN in table.column_names:
        kinds = table.column(VALUE_KIND_COLUMN)
        table = table.filter(pc.invert(pc.is_in(kinds, pa.array(_RETRACT_KINDS, kinds.type))))
    arrays = []
    for fld in schema:
        if fld.name in table.column_names:
            arrays.append(_cast_column(table.column(fld.name), fld.type))
        else:
            arrays.append(pa.nulls(table.num_rows, fld.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def read_tasks_locally(tasks: Sequence, schema: pa.Schema, groups: Sequence = ()) -> pa.Table:
    """Read every file task and group task of a plan in this process (no Spark) and concatenate."""
    from .plan import read_group_task

    parts = [read_file_rows(t.path, t.file_format, schema, t.selection, t.primary_key_file) for t in tasks]
    parts.extend(read_group_task(g, schema) for g in groups)
    return pa.concat_tables(parts) if parts else schema.empty_table()


def read_plan_locally(plan) -> pa.Table:
    """Every row a :class:`~paimon_codec.table.plan.ScanPlan` selects, read in this process (no Spark).

    Index answers are supersets: apply ``plan.predicate`` to the result for exact rows.
    """
    return read_tasks_locally(plan.tasks, arrow_schema(plan.row_type), plan.groups)
