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

__all__ = ["value_stats"]


def _bound(value: pa.Scalar, t: pa.DataType):
    if not value.is_valid:
        return None
    if pa.types.is_timestamp(t):
        n = value.cast(pa.int64()).as_py()
        return Timestamp(n, 0) if t.unit == "ms" else Timestamp.from_micros(n)
    if pa.types.is_date32(t):
        return value.cast(pa.int32()).as_py()
    return value.as_py()


def value_stats(row_type: RowType, data: pa.Table) -> SimpleStats:
    """``_VALUE_STATS`` of ``data`` (columns named and typed as ``row_type``, see :mod:`.types`)."""
    mins, maxs, nulls = [], [], []
    for f in row_type:
        col = data.column(f.name)
        nulls.append(int(col.null_count))
        t = col.type
        lo = hi = None
        if len(col) > col.null_count:
            has_nan = pa.types.is_floating(t) and pc.any(pc.is_nan(col)).as_py()
            if not has_nan:
                mm = pc.min_max(col)
                lo, hi = _bound(mm["min"], t), _bound(mm["max"], t)
        mins.append(lo)
        maxs.append(hi)
    types = [f.type for f in row_type]
    return SimpleStats(serialize_binary_row(types, mins), serialize_binary_row(types, maxs), tuple(nulls))
