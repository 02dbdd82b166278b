"""Long-lived changelogs (``changelog/changelog-<id>``) as a streaming read resolves ids
(:mod:`paimon_codec.table.long_lived_changelog`), on tables Paimon Java 1.4.2 wrote and expired; and the orphan
finder keeps what only those changelogs name, as Paimon's own orphan clean does."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from changelog_tables import RETAIN_CHANGELOGS, append_table, changelog_ids, grow_append, grow_pk, pk_table

from paimon_codec.errors import InvalidOptionError
from paimon_codec.maintenance.inventory import table_inventory
from paimon_codec.maintenance.orphans import find_orphans, used_file_names
from paimon_codec.table import PaimonTable
from paimon_codec.table.changelog_files import changelog_files
from paimon_codec.table.long_lived_changelog import (
    SnapshotExpiredError,
    StreamSnapshots,
    changelog_decoupled,
    duration_ms,
)
from paimon_codec.table.snapshot import load_changelog

DAY_MS = 24 * 3600 * 1000


@pytest.mark.parametrize(("options", "decoupled"), [
    ({}, False),  # every changelog.* option defaults to its snapshot.* counterpart
    (RETAIN_CHANGELOGS, True),
    ({"changelog.num-retained.max": "5"}, False),  # not above the default snapshot max (Integer.MAX_VALUE)
    ({"snapshot.num-retained.max": "5", "changelog.num-retained.max": "6"}, True),
    ({"snapshot.num-retained.max": "5", "changelog.num-retained.max": "5"}, False),
    ({"changelog.num-retained.min": "11"}, True),  # above the default snapshot min, 10
    ({"changelog.num-retained.min": "10"}, False),
    ({"changelog.time-retained": "61 min"}, True),  # above the default snapshot.time-retained, 1 h
    ({"changelog.time-retained": "3600 s"}, False),
    ({"snapshot.time-retained": "2 d", "changelog.time-retained": "1 days"}, False),
    ({"snapshot.time-retained": "10", "changelog.time-retained": "11ms"}, True),
])
def test_decoupled_as_paimon_defines_it(options, decoupled):
    assert changelog_decoupled(options) is decoupled


def test_durations_as_paimon_parses_them():
    assert duration_ms("1 h") == duration_ms("60min") == duration_ms(" 3600 seconds ") == 3_600_000
    assert duration_ms("250") == duration_ms("250 ms") == 250
    assert duration_ms("7 d") == 7 * DAY_MS
    for bad in ("", "h", "1 hr", "-1 s", "1.5 h"):
        with pytest.raises(InvalidOptionError, match="not a duration"):
            duration_ms(bad)


def test_expired_ids_resolve_to_their_long_lived_changelogs(tmp_path, java_newest):
    path = append_table(java_newest, str(tmp_path))
    grow_append(java_newest, path)
    table = PaimonTable(path)
    snapshots, changelogs = table.snapshot_ids(), changelog_ids(path)
    assert len(snapshots) == 2 and changelogs == list(range(1, snapshots[0]))  # every expired id kept
    readable = StreamSnapshots(table)
    assert readable.decoupled and readable.ids() == list(range(1, snapshots[-1] + 1)) and readable.earliest() == 1
    for sid in changelogs:
        snap = readable.get(sid)
        assert snap is not None and snap == load_changelog(table.meta_path, sid) and snap.id == sid
        # an append table's changelog keeps its delta manifest list: the files its APPEND commit added
        assert snap.commit_kind in ("APPEND", "COMPACT") and table.manifest_list(snap.delta_manifest_list)
    assert readable.get(snapshots[-1]) == table.snapshot(snapshots[-1])
    # the reader's options over the table's: changelogs no longer outlive snapshots, so Paimon reads none
    coupled = StreamSnapshots(table, {"changelog.num-retained.max": "2"})
    assert not coupled.decoupled and coupled.get(1) is None and coupled.ids() == snapshots
    with pytest.raises(SnapshotExpiredError, match="snapshot 1 has expired .*long-lived changelog is not read"):
        coupled.require(1)
    assert java_newest.expire(path, {**RETAIN_CHANGELOGS, "changelog.num-retained.max": "2"}, changelogs=True) > 0
    gone = [sid for sid in changelogs if sid not in changelog_ids(path)]
    assert gone and StreamSnapshots(table).get(gone[0]) is None
    with pytest.raises(SnapshotExpiredError, match=f"snapshot {gone[0]} has expired"):
        StreamSnapshots(table).require(gone[0])


def _only_changelogs_name(path: str, tmp_path) -> set[str]:
    """The files that only the long-lived changelogs name: those of a copy without ``changelog/`` are orphans."""
    copy = str(tmp_path / "without_changelogs" / os.path.basename(path))
    shutil.copytree(path, copy)
    shutil.rmtree(os.path.join(copy, "changelog"))
    return {os.path.relpath(f.path, copy) for f in find_orphans(copy, older_than_ms=None).orphans}


@pytest.mark.parametrize("kind", ["append", "input", "lookup"])
def test_files_only_long_lived_changelogs_name_are_not_orphans(tmp_path, java_newest, kind):
    """Paimon's orphan clean counts the files of long-lived changelogs as used; so do our orphan finder and audit
    (0 orphans), and the same table without its ``changelog/`` directory has orphans: the check can fail."""
    if kind == "append":
        path = append_table(java_newest, str(tmp_path / "wh"))
        grow_append(java_newest, path)
    else:
        path = pk_table(java_newest, str(tmp_path / "wh"), kind)
        grow_pk(java_newest, path)
    assert changelog_ids(path)
    assert find_orphans(path, older_than_ms=None).orphans == []
    findings = table_inventory(path)[1]  # the audit's orphan and missing-file findings: none
    assert [f for f in findings if f.finding in ("orphan", "missing", "orphan-check-skipped")] == []
    assert java_newest.orphan_files(path, int(time.time() * 1000) + DAY_MS) == []
    only = _only_changelogs_name(path, tmp_path)
    assert only and all(os.path.exists(os.path.join(path, rel)) for rel in only)
    table = PaimonTable(path)
    named = {f.file_name for cid in changelog_ids(path) for f in changelog_files(table, table_changelog(table, cid))}
    if kind != "append":  # a producer's changelog files are among them
        assert {os.path.basename(rel) for rel in only} & named
    assert {os.path.basename(rel) for rel in only} <= used_file_names(path)[0]


def table_changelog(table: PaimonTable, cid: int):
    return load_changelog(table.meta_path, cid)
