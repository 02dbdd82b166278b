"""A write's rows by table partition."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..binary_row import serialize_binary_row
from ..table.table import PaimonTable
from .append import _EMPTY_ROW, _internal

__all__ = ["partitions_of"]


def partitions_of(table: PaimonTable, data: pa.Table) -> list[tuple[tuple, bytes, np.ndarray]]:
    """``(partition values, serialized partition, row indices)`` in first-row order."""
    keys = list(table.schema.partition_keys)
    if not keys:
        return [((), _EMPTY_ROW, np.arange(data.num_rows, dtype=np.int64))]
    types = [f.type for f in table.schema.partition_type]
    cols = {f"k{i}": data.column(k) for i, k in enumerate(keys)}
    cols["i"] = pa.array(np.arange(data.num_rows, dtype=np.int64))
    grouped = pa.table(cols).group_by([f"k{i}" for i in range(len(keys))], use_threads=False) \
        .aggregate([("i", "list")])
    out = []
    for row in grouped.to_pylist():
        values = tuple(_internal(row[f"k{i}"], t) for i, t in enumerate(types))
        out.append((values, serialize_binary_row(types, list(values)), np.asarray(row["i_list"], dtype=np.int64)))
    out.sort(key=lambda g: int(g[2][0]))
    return out
