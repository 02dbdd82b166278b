"""Where a streaming read of a Paimon table starts: Paimon's ``scan.mode`` (``latest-full``, ``latest``,
``from-snapshot[-full]``, ``from-timestamp``) and its companions ``scan.snapshot-id`` / ``scan.timestamp-millis``,
read from the reader's options or else the table's (the reader's win).  A table that keeps changelogs longer
than snapshots starts, like Paimon, from a long-lived changelog too (:mod:`~paimon_codec.table.long_lived_changelog`):
``scan.snapshot-id`` may name an expired snapshot whose changelog remains, and ``from-timestamp`` looks at the
changelogs' times as well.

A ``scan.snapshot-id`` older than everything retained starts, as in Paimon 1.4 (``ContinuousFromSnapshotStartingScanner``
/ ``ContinuousFromSnapshotFullStartingScanner``), at the earliest: ``from-snapshot`` at the earliest readable id
(long-lived changelog or snapshot), ``from-snapshot-full`` with a full read of the earliest snapshot - with a
logged warning, since the changes before it are gone.  (A batch read of an expired ``scan.snapshot-id`` is an
error in Paimon, and here.)"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ..errors import InvalidOptionError
from ..table.long_lived_changelog import SnapshotExpiredError, StreamSnapshots
from ..table.table import PaimonTable

__all__ = ["StreamStart", "stream_start", "scan_mode", "SnapshotExpiredError"]

log = logging.getLogger(__name__)

_MODES = ("latest-full", "full", "latest", "from-snapshot", "from-snapshot-full", "from-timestamp", "default")


@dataclass(frozen=True)
class StreamStart:
    """Where a stream starts: ``snapshot`` delivered already (``full``: snapshot ``snapshot`` is read whole
    by the first batch)."""

    snapshot: int
    full: bool

    def offset(self) -> dict:
        return {"snapshot": self.snapshot, "full": True} if self.full else {"snapshot": self.snapshot}


def _option(options: dict, table: PaimonTable, key: str) -> str | None:
    """A reader option, else the table's own option (Paimon reads ``scan.*`` from both; the reader's wins)."""
    lowered = {str(k).lower(): v for k, v in options.items()}
    if key in lowered:
        return str(lowered[key])
    value = table.schema.options.get(key)
    return None if value is None else str(value)


def _int_option(options: dict, table: PaimonTable, key: str) -> int | None:
    value = _option(options, table, key)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidOptionError(f"option {key} = {value!r} is not an integer", path=table.path) from None


def scan_mode(table: PaimonTable, options: dict) -> str:
    """Paimon's ``scan.mode`` of a streaming read (``default`` resolved by the options that are set)."""
    snapshot_id = _int_option(options, table, "scan.snapshot-id")
    timestamp = _int_option(options, table, "scan.timestamp-millis")
    mode = (_option(options, table, "scan.mode") or "default").strip().lower()
    if mode not in _MODES:
        raise InvalidOptionError(f"scan.mode {mode!r} is not supported by a streaming read", path=table.path,
                                 expected=", ".join(m for m in _MODES if m != "default"))
    if mode == "default":
        mode = "from-snapshot" if snapshot_id is not None else "from-timestamp" if timestamp is not None \
            else "latest-full"
    return mode


def stream_start(table: PaimonTable, options: dict) -> StreamStart:
    """The start offset of a new query on ``table``: Paimon's ``scan.mode`` and its companions."""
    mode = scan_mode(table, options)
    snapshot_id = _int_option(options, table, "scan.snapshot-id")
    timestamp = _int_option(options, table, "scan.timestamp-millis")
    ids = table.snapshot_ids()
    latest = ids[-1] if ids else 0
    if mode in ("latest-full", "full"):
        return StreamStart(latest, full=latest > 0)
    if mode == "latest":
        return StreamStart(latest, full=False)
    readable = StreamSnapshots(table, options)
    if mode in ("from-snapshot", "from-snapshot-full"):
        if snapshot_id is None:
            raise InvalidOptionError(f"scan.mode {mode} needs scan.snapshot-id", path=table.path)
        if mode == "from-snapshot-full":  # a full read needs the snapshot itself, never a changelog
            if ids and snapshot_id < ids[0]:  # Paimon's ContinuousFromSnapshotFullStartingScanner: the earliest
                log.warning("%s: scan.snapshot-id %d is older than the earliest snapshot %d; the full read starts "
                            "there, as Paimon's does", table.path, snapshot_id, ids[0])
                return StreamStart(ids[0], full=True)
            if snapshot_id not in ids:
                raise InvalidOptionError(f"scan.snapshot-id {snapshot_id} does not exist", path=table.path,
                                         expected=f"a retained snapshot ({ids[0] if ids else 0}..{latest})")
            return StreamStart(snapshot_id, full=True)
        earliest = readable.earliest()
        if earliest is not None and snapshot_id < earliest:  # Paimon's ContinuousFromSnapshotStartingScanner
            what = "snapshot or long-lived changelog" if readable.decoupled else "snapshot"
            log.warning("%s: scan.snapshot-id %d is older than the earliest %s %d; the stream starts there, as "
                        "Paimon's does (the changes before it are gone)", table.path, snapshot_id, what, earliest)
            snapshot_id = earliest
        return StreamStart(snapshot_id - 1, full=False)
    if timestamp is None:
        raise InvalidOptionError("scan.mode from-timestamp needs scan.timestamp-millis", path=table.path)
    candidates = readable.ids()
    start = candidates[0] - 1 if candidates else 0  # nothing earlier: from the earliest readable id
    for sid in candidates:
        t = readable.get(sid)
        if t is not None and t.time_millis is not None and t.time_millis < timestamp:
            start = sid
    return StreamStart(start, full=False)
