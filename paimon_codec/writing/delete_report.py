"""What a DELETE did (:class:`DeleteReport`), shared by the deletion-vector delete (:mod:`.dv_delete`) and the
primary-key delete (:mod:`.pk_delete`), and the clean-up of the data files of a commit that did not happen."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .. import storage
from ..table.table import PaimonTable
from .commit import FileChange
from .commit.plan import encode_partition

__all__ = ["DeleteReport", "discard_data_files"]


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


def discard_data_files(table: PaimonTable, changes: list[FileChange]) -> None:
    """Remove the data files (and their ``.index`` files) of a commit that did not happen."""
    for c in changes:
        directory = table.bucket_dir(encode_partition(table, c.partition), c.bucket)
        for name in (c.file.file_name, *c.file.extra_files):
            try:
                storage.delete(os.path.join(directory, name))
            except OSError:  # an orphan nothing references; the audit names it
                pass
