"""Time travel on a table with ``scan.fallback-branch`` reads what Paimon Java 1.4.2 reads (it was refused).

Paimon hands a time travel to the fallback branch rewritten (``FallbackReadFileStoreTable.rewriteOtherOptions``):
a snapshot id becomes the fallback's latest snapshot at or before the main snapshot's time, or its snapshot 1
when it has none that early; a timestamp goes through as it is.  Found on paimon-cpp's corpus
(``append_table_with_append_pt_branch``: a fallback branch with a schema of its own, read at snapshot 1).
Java writes the main branch and the fallback branch in turns; every snapshot of the main branch is read by
id and by its commit time, by Java and by us.
"""

from __future__ import annotations

import time

import pytest
from oracles.compare import row_set_difference
from oracles.java_newest import JavaError

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable


def _table(java, tmp_path, rename: bool) -> str:
    path = java.create_table(tmp_path, "db.t", "p INT, id INT, v STRING", partition_keys=["p"],
                             options={"bucket": "-1"})
    java.create_branch(path, "fb")
    if rename:  # a fallback of its own schema: same types, another name (planned as a table of its own)
        java.alter(path, [{"op": "rename", "from": "v", "to": "w"}], branch="fb")
    fb_v = "w" if rename else "v"
    java.write(path, [{"p": 1, "id": 1, "v": "main-1"}])
    for step in range(3):
        time.sleep(0.02)  # distinct commit times: the fallback's snapshot is chosen by time
        java.write(path, [{"p": 2, "id": 10 + step, fb_v: f"fb-{step}"}, {"p": 3, "id": 20 + step, fb_v: "fb"}],
                   branch="fb")
        time.sleep(0.02)
        java.write(path, [{"p": 1, "id": 2 + step, "v": f"main-{step}"}] if step != 1 else
                   [{"p": 3, "id": 30, "v": "main"}])  # the main branch takes partition 3 at step 1
    java.alter(path, [{"op": "set", "key": "scan.fallback-branch", "value": "fb"}])
    return path


@pytest.mark.parametrize("rename", [False, True], ids=["same-schema", "own-schema"])
def test_time_travel_with_a_fallback_branch_reads_like_java(java_newest, tmp_path, rename):
    path = _table(java_newest, tmp_path, rename)
    table = PaimonTable(path)
    compared = 0
    for sid in table.snapshot_ids():
        theirs = java_newest.read(path, snapshot_id=sid)
        ours = read_table(path, snapshot_id=sid)
        assert row_set_difference(ours.select(theirs.column_names), theirs) is None, f"snapshot {sid}"
        ms = table.snapshot(sid).time_millis
        try:
            theirs = java_newest.read(path, timestamp_ms=ms)
        except JavaError as exc:  # the fallback has no snapshot that early: Java fails, we refuse
            assert "no snapshot earlier than or equal to timestamp" in str(exc)
            with pytest.raises(UnsupportedTypeError, match="no snapshot that early"):
                read_table(path, timestamp_ms=ms)
            continue
        ours = read_table(path, timestamp_ms=ms)
        assert row_set_difference(ours.select(theirs.column_names), theirs) is None, f"at {ms} ms"
        compared += 1
    assert compared == 3  # snapshot 1's time predates the fallback's first snapshot
    # snapshot 1 predates the fallback's first snapshot: Paimon reads the fallback's snapshot 1
    assert 2 in read_table(path, snapshot_id=1).column("p").to_pylist()


def test_time_travel_by_tag_with_a_fallback_branch_is_refused(java_newest, tmp_path):
    path = _table(java_newest, tmp_path, False)
    java_newest.create_tag(path, "t1", 2)
    with pytest.raises(UnsupportedTypeError, match="time travel by tag on a table with scan.fallback-branch"):
        read_table(path, tag="t1")
