"""``UPDATE table SET col = literal, ... WHERE ...`` on append tables with deletion vectors.

What Paimon's UPDATE does on such a table: the matching rows are marked deleted in their files' deletion
vectors and written again, with the new values, as new data files - the deletes and the new files in one
commit (``commitKind`` ``OVERWRITE``, as any commit carrying deletion-vector index changes).  The matching
rows are found as :func:`paimon_codec.writing.dv_delete.delete` finds them; each touched file's matching
rows are read whole (every column, at those positions) and written with
:func:`paimon_codec.writing.write_data_files` (file indexes built, fixed buckets by the bucket key).
``SET`` takes literals (a new value per column); expressions of other columns are not supported.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ..errors import InvalidOptionError
from ..evolution.file_evolution import arrow_schema
from ..expressions.semantics import SemanticsLike
from ..planning.plan import ScanPlan
from ..planning.tasks import FileTask
from ..reading.read import read_file_rows
from ..table.table import PaimonTable
from .append import write_data_files
from .commit import FileChange
from .dv_delete import DeleteReport, PositionFinder, delete

__all__ = ["update"]


def _rewriter(assignments: Mapping[str, Any]):
    def rewrite(table: PaimonTable, plan: ScanPlan, matches: list[tuple[FileTask, np.ndarray]]) -> list[FileChange]:
        schema = arrow_schema(plan.row_type)
        parts = []
        for task, positions in matches:
            rows = read_file_rows(task.path, task.file_format, schema, BitMap(positions.tolist()),
                                  evolution=task.evolution, file_size=task.file_size)
            for name, value in assignments.items():
                i = rows.schema.get_field_index(name)
                try:
                    column = pa.array([value] * rows.num_rows, type=rows.schema.field(i).type)
                except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
                    raise InvalidOptionError(f"SET {name} = {value!r}: not a {rows.schema.field(i).type} value "
                                             f"({exc})", path=table.path) from None
                rows = rows.set_column(i, rows.schema.field(i), column)
            parts.append(rows)
        return write_data_files(table.path, pa.concat_tables(parts)) if parts else []
    return rewrite


def update(table: PaimonTable | str | os.PathLike, assignments: Mapping[str, Any], where: Any, *,
           semantics: SemanticsLike = "paimon", commit_user: str | None = None, conflict_retries: int = 3,
           find_positions: PositionFinder | None = None) -> DeleteReport:
    """Set ``assignments`` (``{column: literal}``) on the rows of ``table`` matching ``where``: one commit of
    the old rows' deletion vectors and the new rows' data files.  ``report.rows_deleted`` rows were
    replaced by ``report.rows_added`` (equal)."""
    t = table if isinstance(table, PaimonTable) else PaimonTable(os.fspath(table))
    names = t.schema.fields.names
    unknown = [n for n in assignments if n not in names]
    if not assignments or unknown:
        raise InvalidOptionError(f"UPDATE SET needs columns of the table, got {sorted(assignments) or 'none'}",
                                 path=t.path, expected=", ".join(names))
    return delete(t.path, where, semantics=semantics, commit_user=commit_user, conflict_retries=conflict_retries,
                  find_positions=find_positions, replacement=_rewriter(dict(assignments)))
