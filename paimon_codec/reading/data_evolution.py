"""Reading a data-evolution table's row-id groups (planned by :mod:`paimon_codec.planning.data_evolution`):
each column of a row-id range from the file the plan assigned it to, BLOB columns from their bunch."""

from __future__ import annotations

import pyarrow as pa

from ..errors import CorruptDataError
from .blob_file import read_blob_bunch_part
from .read import read_file_rows

__all__ = ["read_row_id_group"]


def read_row_id_group(task, schema: pa.Schema) -> pa.Table:
    """The rows of one row-id range: each column from the file the plan assigned it to.

    Every file of the range holds the same rows in row-id order, so the selected positions (rows left by
    the deletion vector) are the same in each file and the columns line up by position.
    """
    row_count, expected = task.params["row_count"], task.params["rows"]
    by_name: dict[str, pa.Array] = {}
    starts = task.params.get("blob_starts") or [None] * len(task.files)
    blob_parts: dict[str, list[pa.Array]] = {}
    for ft, names, start in zip(task.files, task.params["columns"], starts, strict=True):
        wanted = [name for name in names if name in schema.names]
        if not wanted:
            continue
        if start is not None:  # one file of a BLOB column's bunch: its rows of the range, in order
            blob_parts.setdefault(wanted[0], []).append(read_blob_bunch_part(
                ft.path, start, ft.row_count, ft.selection, task.params.get("blob_as_descriptor", False)))
            continue
        if ft.row_count != row_count:
            raise CorruptDataError(f"file holds {ft.row_count} rows of a {row_count}-row row-id range",
                                   path=ft.path)
        part = read_file_rows(ft.path, ft.file_format, pa.schema([schema.field(n) for n in wanted]),
                              ft.selection, evolution=ft.evolution)
        if part.num_rows != expected:
            raise CorruptDataError(f"read {part.num_rows} rows, expected {expected}", path=ft.path)
        for name, column in zip(wanted, part.columns, strict=True):
            by_name[name] = column
    for name, parts in blob_parts.items():
        by_name[name] = pa.concat_arrays(parts)
        if len(by_name[name]) != expected:
            raise CorruptDataError(f"blob files of column {name!r} gave {len(by_name[name])} rows, expected {expected}",
                                   path=task.files[0].path)
    arrays = [by_name[f.name] if f.name in by_name else pa.nulls(expected, f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)
