"""Value statistics of a data file as Paimon keeps them in ``_VALUE_STATS``.

Per column: min, max (as one serialized BinaryRow each, in the file's schema order) and the null
count.  ``_VALUE_STATS_COLS`` stays null, meaning "every column" (what Paimon writes when it keeps
statistics for all columns).  Values are exact (Paimon's ``full`` stats mode; the default
``truncate(16)`` only shortens long strings, and exact bounds are valid for every reader).  A float
column holding NaN gets null min and max, which Paimon readers treat as unknown bounds (NaN orders
above every number in Paimon's comparisons, so a bound ignoring it could prune a matching row).
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ...binary_row import serialize_binary_row
from ...types import RowType
from ...values import Timestamp
from ..manifest import SimpleStats

__all__ = ["value_stats", "parquet_statistics_columns"]


def _bound(value: pa.Scalar, t: pa.DataType):
    if not value.is_valid:
        return None
    if pa.types.is_timestamp(t):
        n = value.cast(pa.int64()).as_py()
        return Timestamp(n, 0) if t.unit == "ms" else Timestamp.from_micros(n)
    if pa.types.is_date32(t):
        return value.cast(pa.int32()).as_py()
    return value.as_py()


def _has_nan(col) -> bool:
    return pa.types.is_floating(col.type) and bool(pc.any(pc.is_nan(col)).as_py())


def parquet_statistics_columns(data: pa.Table) -> list[str] | bool:
    """Columns whose Parquet footer statistics may be written: all but float columns holding NaN.

    pyarrow leaves NaN out of a float column's Parquet min/max, and Paimon Java pushes filters into
    parquet-java's row-group statistics filter, so ``x > 2`` would drop a row group whose only match
    is NaN (NaN is greater than every number for Paimon).  Without statistics the row group is read.
    """
    nan = {f.name for f in data.schema if _has_nan(data.column(f.name))}
    return True if not nan else [n for n in data.column_names if n not in nan]


def value_stats(row_type: RowType, data: pa.Table) -> SimpleStats:
    """``_VALUE_STATS`` of ``data`` (columns named and typed as ``row_type``, see :mod:`.types`)."""
    mins, maxs, nulls = [], [], []
    for f in row_type:
        col = data.column(f.name)
        nulls.append(int(col.null_count))
        t = col.type
        lo = hi = None
        if len(col) > col.null_count:
            if not _has_nan(col):
                mm = pc.min_max(col)
                lo, hi = _bound(mm["min"], t), _bound(mm["max"], t)
        mins.append(lo)
        maxs.append(hi)
    types = [f.type for f in row_type]
    return SimpleStats(serialize_binary_row(types, mins), serialize_binary_row(types, maxs), tuple(nulls))
