"""Which snapshot of a ``scan.fallback-branch`` a time-travelling read of the main branch sees.

Paimon's ``FallbackReadFileStoreTable.copy`` hands the read's dynamic options to the fallback branch after
``rewriteOtherOptions``: ``scan.snapshot-id`` (ids differ between branches) becomes the fallback's latest
snapshot committed at or before the main snapshot's ``timeMillis``, or snapshot 1 when it has none that
early; ``scan.timestamp-millis`` is passed on as it is (the fallback's snapshot as of that time).  A tag
name is passed on too and would name a tag of the fallback branch: refused here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import CorruptDataError, MissingFileError, UnsupportedTypeError
from .schema import TableSchema
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


# options whose difference between a table and its fallback branch changes how files are read
_READ_DEFINING = ("merge-engine", "deletion-vectors.enabled", "sequence.field", "data-evolution.enabled",
                  "row-tracking.enabled", "ignore-delete", "partial-update.ignore-delete")


def check_fallback_schemas(branch: str, mine: TableSchema, theirs: TableSchema, main_meta: str, other_meta: str,
                           schema_ids: Iterable[int], main_schema: Callable[[int], TableSchema],
                           other_schema: Callable[[int], TableSchema]) -> None:
    """Refuse (by name) reading a fallback branch's files as the table's when the branches differ in what
    decides how files are read: fields, keys, read-defining options, merge options, or the schemas
    (``schema_ids``) its files were written with."""
    if (mine.fields != theirs.fields or mine.partition_keys != theirs.partition_keys
            or mine.primary_keys != theirs.primary_keys):
        raise UnsupportedTypeError(f"scan.fallback-branch {branch!r} has a different schema than the table; "
                                   "reading its partitions as the table's files is not supported",
                                   path=other_meta)
    changed = [k for k in _READ_DEFINING if mine.options.get(k) != theirs.options.get(k)]
    if not changed and mine.is_primary_key_table:
        # the merge read applies one merge to every bucket: the fallback's must be the same (any merge
        # option: aggregate functions, sequence order, lookup, ...)
        from .merge_spec import merge_spec

        if merge_spec(mine, main_meta) != merge_spec(theirs, other_meta):
            changed = ["its primary-key merge options"]
    if changed:
        raise UnsupportedTypeError(f"scan.fallback-branch {branch!r} differs in {', '.join(changed)}; reading "
                                   "its partitions is not supported", path=other_meta)
    for sid in schema_ids:
        try:
            same = main_schema(sid).fields == other_schema(sid).fields
        except (CorruptDataError, MissingFileError):
            same = False
        if not same:
            raise UnsupportedTypeError(f"scan.fallback-branch {branch!r}: schema {sid} differs between the "
                                       "branches; reading its files is not supported", path=other_meta)
