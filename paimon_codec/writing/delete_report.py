"""What a DELETE did (:class:`DeleteReport`), shared by the deletion-vector delete (:mod:`.dv_delete`) and the
primary-key delete (:mod:`.pk_delete`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DeleteReport"]


@dataclass
class DeleteReport:
    table: str
    snapshot_id: int | None  # the snapshot the delete committed (None: no row matched)
    read_snapshot_id: int | None
    commit_kind: str | None
    rows_deleted: int
    files_total: int
    files_skipped_by_partition: int
    files_pruned_by_stats: int
    files_skipped_by_index: int
    files_exact_by_index: int  # candidates whose index answer was exact: not opened
    files_opened: int
    files_touched: int  # data files whose deletion vector changed (primary-key tables: level-0 files written)
    index_files_added: int
    index_files_deleted: int
    attempts: int
    seconds: float
    rows_added: int = 0  # UPDATE: the rows written back with their new values

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


