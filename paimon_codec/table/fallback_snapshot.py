"""Which snapshot of a ``scan.fallback-branch`` a time-travelling read of the main branch sees.

Paimon's ``FallbackReadFileStoreTable.copy`` hands the read's dynamic options to the fallback branch after
``rewriteOtherOptions``: ``scan.snapshot-id`` (ids differ between branches) becomes the fallback's latest
snapshot committed at or before the main snapshot's ``timeMillis``, or snapshot 1 when it has none that
early; ``scan.timestamp-millis`` is passed on as it is (the fallback's snapshot as of that time).  A tag
name is passed on too and would name a tag of the fallback branch: refused here.
"""

from __future__ import annotations

from typing import Any

from ..errors import CorruptDataError, MissingFileError, UnsupportedTypeError
from .snapshot import Snapshot, load_snapshot, snapshot_ids

FIRST_SNAPSHOT_ID = 1


def fallback_snapshot(meta_path: str, branch: str, main_snapshot: Snapshot, travel: tuple[str, Any] | None,
                      main_meta_path: str) -> Snapshot | None:
    """The fallback branch's snapshot (``meta_path``: its directory) for a read of ``main_snapshot`` chosen by
    ``travel`` (``None``: the latest; ``("snapshot_id", id)``, ``("timestamp_ms", ms)``, ``("tag", name)``);
    ``None`` when the branch has no snapshot to read."""
    ids = snapshot_ids(meta_path)
    if travel is None:
        return load_snapshot(meta_path, ids[-1]) if ids else None
    kind, value = travel
    if kind == "tag":
        raise UnsupportedTypeError(f"time travel by tag on a table with scan.fallback-branch {branch!r} is not "
                                   "supported (Paimon looks the tag up in the fallback branch)", path=main_meta_path)
    if kind == "snapshot_id":
        if main_snapshot.time_millis is None:
            raise CorruptDataError("snapshot without timeMillis", path=main_meta_path)
        limit = main_snapshot.time_millis
    else:
        limit = int(value)
    chosen = None
    for sid in ids:
        snap = load_snapshot(meta_path, sid)
        if snap.time_millis is not None and snap.time_millis <= limit:
            chosen = snap
    if chosen is not None:
        return chosen
    if kind == "timestamp_ms":
        raise UnsupportedTypeError(f"time travel to {limit} ms on a table with scan.fallback-branch {branch!r}, "
                                   "which has no snapshot that early, is not supported", path=meta_path)
    try:  # Paimon's fallback to FIRST_SNAPSHOT_ID
        return load_snapshot(meta_path, FIRST_SNAPSHOT_ID)
    except MissingFileError:
        raise UnsupportedTypeError(f"scan.fallback-branch {branch!r} has no snapshot {FIRST_SNAPSHOT_ID} (expired), "
                                   "which Paimon reads for this time travel", path=meta_path) from None
