"""Reading a ``scan.fallback-branch`` task planned by :mod:`paimon_codec.planning.fallback`: the fallback
branch's rows read under its own column names and handed out as the main table's, by position."""

from __future__ import annotations

import pyarrow as pa

from ..planning.tasks import FileTask, GroupTask
from .read import read_file_rows, read_group_task

__all__ = ["read_fallback_task"]


def read_fallback_task(task: GroupTask, schema: pa.Schema) -> pa.Table:
    """One fallback-branch task read under the fallback's column names, handed out as ``schema`` (the
    main table's columns, possibly a projection of them), column by column in position."""
    rename, nullable = task.params["rename"], task.params["nullable"]
    inner_schema = pa.schema([pa.field(rename[f.name], f.type, nullable[rename[f.name]]) for f in schema])
    inner = task.params["inner"]
    if isinstance(inner, FileTask):
        rows = read_file_rows(inner.path, inner.file_format, inner_schema, inner.selection, inner.primary_key_file,
                              inner.evolution, inner.file_size)
    else:
        rows = read_group_task(inner, inner_schema)
    return pa.Table.from_arrays(list(rows.columns), schema=schema)
