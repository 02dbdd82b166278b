"""A write's rows by table partition, and where a partition's bucket keeps its data files."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .. import storage
from ..binary_row import serialize_binary_row
from ..table.paths import DEFAULT_PARTITION_NAME, bucket_dir_name, partition_path
from ..table.table import PaimonTable
from .append import _EMPTY_ROW, _internal

__all__ = ["bucket_directory", "partitions_of"]


def bucket_directory(table: PaimonTable, values: tuple, bucket: int) -> str:
    """The directory of a bucket's data files (``data-file.path-directory`` honoured) for partition ``values``."""
    schema = table.schema
    options = schema.options
    rel = partition_path(schema.partition_keys, values, [f.type for f in schema.partition_type],
                         options.get("partition.default-name", DEFAULT_PARTITION_NAME),
                         schema.option_bool("partition.legacy-name", True))
    base = table.path if not options.get("data-file.path-directory") else \
        storage.join(table.path, options["data-file.path-directory"])
    return storage.join(base, rel, bucket_dir_name(bucket)) if rel else storage.join(base, bucket_dir_name(bucket))


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
