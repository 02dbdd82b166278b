"""One loop for writes that must be re-planned when another commit lands first.

A DELETE (deletion vectors or ``-D`` records) reads a snapshot, decides what to write from it and commits.
When the commit fails with :class:`~paimon_codec.errors.CommitConflictError` (another writer changed a
deletion vector it changes, removed a file it marks, or - for ``-D`` records - committed anything after its
read), what it decided may be stale, so the whole attempt is run again on the latest snapshot, up to
``retries`` more times.  An attempt cleans up what it wrote before it raises; this loop only decides
whether to try again.  (The commit protocol's own loop, :func:`.protocol.commit_changes` ``retries``, is
different: it only retries taking the next snapshot id with the same changes.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from ...errors import CommitConflictError

log = logging.getLogger(__name__)

T = TypeVar("T")


def replan_on_conflict(attempt: Callable[[int], T], *, retries: int, what: str, path: str) -> T:
    """``attempt(n)`` for n = 1, 2, ...: its result, or - when it raised ``CommitConflictError`` - the next
    attempt; the last attempt's conflict (attempt ``retries + 1``) is raised."""
    if retries < 0:
        raise ValueError(f"retries must be >= 0, not {retries}")
    n = 1
    while True:
        try:
            return attempt(n)
        except CommitConflictError as exc:
            if n > retries:
                raise
            n += 1
            log.info("%s on %s conflicted with another commit (%s); re-planning (attempt %d)", what, path, exc, n)
