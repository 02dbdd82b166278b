"""Snapshots and long-lived changelogs, as a streaming read follows them (Paimon's decoupled changelog lifecycle).

A table whose options keep changelogs longer than snapshots (``changelog.num-retained.max`` /
``changelog.num-retained.min`` / ``changelog.time-retained`` above their ``snapshot.*`` counterparts: Paimon's
``CoreOptions.changelogLifecycleDecoupled``) keeps, when a snapshot expires, its JSON as
``changelog/changelog-<id>`` (Paimon's ``Changelog``, a ``Snapshot``) with ``LATEST`` / ``EARLIEST`` hints beside
it.  Paimon 1.4's expiry keeps what a streaming read of that id needs:

* a table with a changelog producer: the changelog manifest list and its changelog files (the base and delta
  manifest lists are deleted);
* a table without one (an append table): the base and delta manifest lists and the data files its ``APPEND``
  commits added (index manifests are deleted).

Paimon's streaming read (``NextSnapshotFetcher``, ``ContinuousFromSnapshotStartingScanner``,
``TimeTravelUtil.earlierThanTimeMills``) takes id ``n`` from ``snapshot/snapshot-<n>`` if it exists, else from
``changelog/changelog-<n>`` **only when the options say the lifecycle is decoupled**; otherwise an expired id is
an error.  :class:`StreamSnapshots` resolves ids the same way; the options are the table's, overridden by the
reader's (dynamic options).  A long-lived changelog is never read whole: a full read needs a snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import InvalidOptionError, MissingFileError
from .snapshot import Snapshot, changelog_ids, load_changelog
from .table import PaimonTable

__all__ = ["SnapshotExpiredError", "StreamSnapshots", "changelog_decoupled", "duration_ms", "RETENTION_KEYS"]

#: the options deciding whether changelogs outlive snapshots
RETENTION_KEYS = ("snapshot.num-retained.max", "snapshot.num-retained.min", "snapshot.time-retained",
                  "changelog.num-retained.max", "changelog.num-retained.min", "changelog.time-retained")
_INT_MAX = 2 ** 31 - 1
_DEFAULTS = {"snapshot.num-retained.max": _INT_MAX, "snapshot.num-retained.min": 10}
_HOUR_MS = 3_600_000
# Paimon's TimeUtils labels (a plural form is the label + "s"), in milliseconds
_UNIT_MS: dict[str, float] = {label: ms for ms, labels in (
    (86_400_000, ("d", "day", "days")), (_HOUR_MS, ("h", "hour", "hours")),
    (60_000, ("min", "m", "minute", "minutes")), (1000, ("s", "sec", "secs", "second", "seconds")),
    (1, ("ms", "milli", "millis", "millisecond", "milliseconds")),
    (1e-3, ("µs", "micro", "micros", "microsecond", "microseconds")),
    (1e-6, ("ns", "nano", "nanos", "nanosecond", "nanoseconds"))) for label in labels}
_DURATION = re.compile(r"([0-9]+)(.*)", re.DOTALL)


class SnapshotExpiredError(MissingFileError):
    """A snapshot a streaming query still has to read was expired (deleted) by the table's retention, and no
    long-lived changelog of it is readable."""


def duration_ms(text: str, key: str = "duration") -> float:
    """Paimon's ``TimeUtils.parseDuration`` in milliseconds: ``"123ms"``, ``"1 h"``, ``"30 min"``; a bare
    number is milliseconds."""
    match = _DURATION.fullmatch(text.strip())
    unit = "" if match is None else match.group(2).strip().lower()
    if match is None or (unit and unit not in _UNIT_MS):
        raise InvalidOptionError(f"option {key} = {text!r} is not a duration",
                                 expected="a number and a unit such as 100 ms, 30 s, 10 min, 1 h, 7 d")
    return int(match.group(1)) * (_UNIT_MS[unit] if unit else 1)


def _int(options: Mapping[str, str], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise InvalidOptionError(f"option {key} = {value!r} is not an integer") from None


def changelog_decoupled(options: Mapping[str, str]) -> bool:
    """Paimon's ``CoreOptions.changelogLifecycleDecoupled``: changelogs are kept longer than snapshots (a
    ``changelog.*`` retention option missing takes its ``snapshot.*`` counterpart)."""
    snapshot_max = _int(options, "snapshot.num-retained.max")
    snapshot_max = _DEFAULTS["snapshot.num-retained.max"] if snapshot_max is None else snapshot_max
    snapshot_min = _int(options, "snapshot.num-retained.min")
    snapshot_min = _DEFAULTS["snapshot.num-retained.min"] if snapshot_min is None else snapshot_min
    snapshot_time = duration_ms(options.get("snapshot.time-retained", "1 h"), "snapshot.time-retained")
    changelog_max = _int(options, "changelog.num-retained.max")
    changelog_min = _int(options, "changelog.num-retained.min")
    changelog_time = options.get("changelog.time-retained")
    return ((changelog_max if changelog_max is not None else snapshot_max) > snapshot_max
            or (changelog_time is not None and duration_ms(changelog_time, "changelog.time-retained") > snapshot_time)
            or (changelog_min if changelog_min is not None else snapshot_min) > snapshot_min)


class StreamSnapshots:
    """The ids a streaming read of ``table`` can read: its snapshots and, when ``options`` (the table's, then
    the reader's over them) keep changelogs longer than snapshots, its long-lived changelogs."""

    def __init__(self, table: PaimonTable, options: Mapping[str, str] | None = None) -> None:
        self.table = table
        merged = dict(table.schema.options)
        merged.update({str(k).lower(): str(v) for k, v in (options or {}).items()
                       if str(k).lower() in RETENTION_KEYS})
        self.decoupled = changelog_decoupled(merged)

    def get(self, snapshot_id: int) -> Snapshot | None:
        """Snapshot ``snapshot_id``, else its long-lived changelog (decoupled lifecycle only), else ``None``."""
        try:
            return self.table.snapshot(snapshot_id)
        except MissingFileError:
            pass
        if not self.decoupled:
            return None
        try:
            return load_changelog(self.table.meta_path, snapshot_id)
        except MissingFileError:
            return None

    def ids(self) -> list[int]:
        """Every readable id, oldest first."""
        ids = set(self.table.snapshot_ids())
        if self.decoupled:
            ids.update(changelog_ids(self.table.meta_path))
        return sorted(ids)

    def earliest(self) -> int | None:
        """The earliest readable id (Paimon: the earliest long-lived changelog when decoupled and there is one,
        else the earliest snapshot)."""
        ids = self.ids()
        return ids[0] if ids else None

    def require(self, snapshot_id: int) -> Snapshot:
        """:meth:`get`, or :class:`SnapshotExpiredError` naming what is retained and why a changelog is not read."""
        snap = self.get(snapshot_id)
        if snap is not None:
            return snap
        snapshots = self.table.snapshot_ids()
        changelogs = changelog_ids(self.table.meta_path)
        kept = f"snapshots {snapshots[0]}..{snapshots[-1]}" if snapshots else "no snapshots"
        if changelogs:
            kept += f", long-lived changelogs {changelogs[0]}..{changelogs[-1]}"
        why = ""
        if snapshot_id in changelogs and not self.decoupled:
            why = ("; its long-lived changelog is not read: the options do not keep changelogs longer than "
                   "snapshots (changelog.num-retained.* / changelog.time-retained), so Paimon does not read it "
                   "either")
        raise SnapshotExpiredError(f"snapshot {snapshot_id} has expired while the streaming query still had to "
                                   f"read it (retained: {kept}){why}; restart the query from a retained snapshot "
                                   "(scan.snapshot-id) or retain snapshots or changelogs longer",
                                   path=self.table.path)
