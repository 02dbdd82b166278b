"""Time travel on a primary-key table whose merge options were altered since: Paimon reads the old
snapshot with the snapshot's fields but the table's *current* options (``AbstractFileStoreTable
.tryTimeTravel`` copies the old schema with them), so the current merge applies.  Ours merged with the
options of the snapshot's schema: after ``fields.n.aggregate-function`` went from ``sum`` to ``max``, a read
of an older snapshot summed (27 where Java 1.4.2 reads 26, the largest per-commit sum).

Written and read (by snapshot id and by tag) by Java 1.4.2 (``java_newest``), no compaction: each commit
is a sorted run the read merges.
"""

from __future__ import annotations

import random

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

COLUMNS = ["id", "n", "s", "v"]


def _rows(table):
    return sorted([r[c] for c in COLUMNS] for r in table.to_pylist())


def test_time_travel_merges_with_the_current_options(java_newest, tmp_path):
    rng = random.Random(17)
    path = java_newest.create_table(tmp_path, "db.tt", "id INT NOT NULL, n INT, s INT, v STRING",
                                    primary_keys=["id"],
                                    options={"bucket": "1", "write-only": "true", "merge-engine": "aggregation",
                                             "fields.n.aggregate-function": "sum", "sequence.field": "s"})

    def write(tag: str) -> None:
        java_newest.write(path, [{"id": rng.randrange(5), "n": rng.randrange(10), "s": rng.randrange(4), "v": tag}
                                 for _ in range(8)])

    for _ in range(3):
        write("a")
    old = java_newest.snapshot_id(path)
    java_newest.create_tag(path, "before", old)
    java_newest.alter(path, [{"op": "set", "key": "fields.n.aggregate-function", "value": "max"},
                             {"op": "set", "key": "sequence.field.sort-order", "value": "descending"},
                             {"op": "add", "name": "e", "type": "INT"}])
    write("b")
    for travel in ({"snapshot_id": old}, {"tag": "before"}):
        expected = _rows(java_newest.read(path, **travel))
        assert expected
        plan = plan_scan(path, **travel)
        assert "e" not in plan.row_type.names      # the snapshot's fields ...
        assert _rows(read_plan_locally(plan)) == expected, travel   # ... merged by the current options
    assert _rows(read_plan_locally(plan_scan(path))) == _rows(java_newest.read(path, projection=COLUMNS))
