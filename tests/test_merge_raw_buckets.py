"""Primary-key buckets Paimon reads without a merge (raw-convertible splits) are planned as plain file tasks.

Paimon 1.4.2 (``MergeTreeSplitGenerator.splitForBatch``) reads a bucket's files as they are when none is in
level 0, every file's manifest counts zero retraction rows, and the table is first-row or the files are in one
level.  The tables here are written and compacted by Paimon Java; the rows must equal Java's own read.
"""

from __future__ import annotations

import random

import pytest

from paimon_codec.planning.merge_plan import raw_convertible
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.table import PaimonTable

KINDS = ("+I", "+I", "+U", "-U", "-D")


@pytest.mark.parametrize(("engine", "levels", "deletes", "raw"), [
    ("deduplicate", [5, 5, 5], [0, 0, 0], True),          # one sorted run: each key once
    ("aggregation", [3], [0], True),
    ("deduplicate", [5, 4], [0, 0], False),               # two runs may hold the same key
    ("partial-update", [5, 0], [0, 0], False),            # level 0 is always merged
    ("first-row", [5, 4, 3], [0, 0, 0], True),            # first-row: a key lives in one level only
    ("first-row", [5, 0], [0, 0], False),
    ("first-row", [5, 4], [0, 2], False),                 # a retraction row must be dropped by the merge
    ("deduplicate", [5], [None], False),                  # count unknown (old writers): merged
    ("deduplicate", [], [], False),
])
def test_raw_convertible_follows_paimons_rule(engine, levels, deletes, raw):
    assert raw_convertible(engine, levels, deletes) is raw


def _write(java, path, rng, commits: int, kinds: tuple[str, ...]) -> None:
    for _ in range(commits):
        rows = [{"id": rng.randrange(40), "v": rng.choice([None, "a", "bb"]), "n": rng.randrange(-50, 50)}
                for _ in range(30)]
        java.write(path, rows, row_kinds=[rng.choice(kinds) for _ in rows])


def _sorted_rows(table):
    return sorted(([r["id"], r["v"], r["n"]] for r in table.to_pylist()), key=lambda r: r[0])


@pytest.mark.parametrize(("options", "kinds"), [
    ({}, KINDS),
    ({"merge-engine": "aggregation", "fields.n.aggregate-function": "sum"}, ("+I", "+U")),
    ({"merge-engine": "first-row"}, ("+I",)),
])
def test_compacted_buckets_are_read_without_a_merge(java_newest, tmp_path, options, kinds):
    """A full compaction leaves one level per bucket (deletes dropped): planned raw, rows as Java reads them;
    a later commit's level-0 file makes the bucket merge again (first-row skips level 0: still raw)."""
    rng = random.Random(len(options))
    path = java_newest.create_table(tmp_path, "db.t", "id INT NOT NULL, v STRING, n BIGINT", primary_keys=["id"],
                                    options={"bucket": "2", **options})
    _write(java_newest, path, rng, 3, kinds)
    java_newest.compact(path)
    table = PaimonTable(path)
    files = table.live_files(table.snapshot())
    assert {f.level for f in files} == {5} and all(f.meta.delete_row_count == 0 for f in files)
    plan = plan_scan(path)
    assert not plan.groups and len(plan.tasks) == len(files)
    # no retraction row in them (the manifests count none): no read filters their _VALUE_KIND
    assert not any(t.primary_key_file for t in plan.tasks)
    expected = _sorted_rows(java_newest.read(path))
    assert expected and _sorted_rows(read_plan_locally(plan)) == expected

    _write(java_newest, path, rng, 1, kinds)         # a level-0 file beside the compacted run
    plan = plan_scan(path)
    first_row = options.get("merge-engine") == "first-row"
    assert bool(plan.groups) is not first_row
    assert _sorted_rows(read_plan_locally(plan)) == _sorted_rows(java_newest.read(path))
