"""Writing Paimon tables: create a table, append Arrow data as Parquet data files, commit.

>>> from paimon_codec.writing import create_table, append_arrow
>>> create_table("wh/db.db/t", pa.schema([("id", pa.int32()), ("v", pa.string())]), {"file.format": "parquet"})
>>> append_arrow("wh/db.db/t", pa.table({"id": [1, 2], "v": ["a", "b"]}))   # -> CommitResult(snapshot_id=1, ...)
>>> delete("wh/db.db/t", "id = 2")   # tables with deletion-vectors.enabled: -> DeleteReport(rows_deleted=1, ...)

Primary-key tables: :func:`upsert_arrow` (level-0 files, fixed or dynamic buckets) and :func:`compact_table`
(full compaction into the top level, one COMPACT snapshot).
"""

from .append import append_arrow, write_data_files
from .compact import compact_table
from .create import create_table
from .dv_delete import DeleteReport, delete
from .dv_update import update
from .primary_key import upsert_arrow, write_primary_key_files
from .stats import value_stats
from .types import arrow_schema_for, row_type_from_arrow

__all__ = ["create_table", "delete", "update", "DeleteReport", "append_arrow", "write_data_files", "value_stats",
           "arrow_schema_for", "row_type_from_arrow", "upsert_arrow", "write_primary_key_files", "compact_table"]
