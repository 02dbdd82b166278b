"""Removing the data files (and their ``.index`` files) of changes that were never committed: a lost commit
attempt, an aborted Spark write or micro-batch.  Nothing references them; one that cannot be removed is an
orphan the audit names, so a failure is logged, never raised."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from .. import storage
from ..table.table import PaimonTable
from .commit import FileChange
from .commit.plan import encode_partition

__all__ = ["discard_files", "discard_data_files"]

log = logging.getLogger(__name__)


def discard_files(paths: Iterable[str]) -> int:
    """Delete each file; returns how many were deleted."""
    removed = 0
    for path in paths:
        try:
            storage.delete(path)
            removed += 1
        except OSError as exc:  # an orphan nothing references; the audit names it
            log.warning("could not delete %s (left as an orphan): %s", path, exc)
    return removed


def discard_data_files(table: PaimonTable, changes: list[FileChange]) -> int:
    """Delete every change's data file and extra files; returns how many were deleted."""
    paths = []
    for c in changes:
        directory = table.bucket_dir(encode_partition(table, c.partition), c.bucket)
        paths += [storage.join(directory, name) for name in (c.file.file_name, *c.file.extra_files)]
    return discard_files(paths)
