"""Group tasks (primary-key buckets merged by key) dealt to a few Spark tasks: every group exactly once, the
loads balanced, at most one list per slot; and a Spark read of more groups than tasks equals Java's read."""

from __future__ import annotations

import pytest
from pyroaring import BitMap
from spark_fixtures import spark  # noqa: F401

from paimon_codec.planning.tasks import FileTask, GroupTask
from paimon_codec.spark.group_read import deal_groups


def _group(label: str, *sizes: int, selected: int | None = None) -> GroupTask:
    files = [FileTask(f"/t/{label}-{i}.parquet", "parquet", 100, size,
                      None if selected is None else BitMap(range(selected)), primary_key_file=True)
             for i, size in enumerate(sizes)]
    return GroupTask("paimon_codec.reading.merge.read:read_merge_group", files, label=label)


def test_every_group_lands_in_exactly_one_slot():
    groups = [_group(f"g{i}", 10 * (i % 7) + 1, 5) for i in range(23)]
    dealt = deal_groups(groups, 4)
    assert len(dealt) == 4
    labels = sorted(g.label for slot in dealt for g in slot)
    assert labels == sorted(g.label for g in groups)


def test_largest_first_to_the_lightest_slot():
    groups = [_group("a", 90), _group("b", 60), _group("c", 50), _group("d", 40), _group("e", 10)]
    dealt = deal_groups(groups, 2)
    loads = sorted(sum(f.file_size for g in slot for f in g.files) for slot in dealt)
    # LPT: a | b; c -> b (60 < 90); d -> a (90 < 110); e -> b (110 < 130): 120 / 130
    assert loads == [120, 130]
    assert [g.label for g in dealt[0]] == ["a", "d"] or [g.label for g in dealt[1]] == ["a", "d"]


def test_selected_share_weighs_a_group():
    # a group whose deletion vectors keep 10 of 100 rows reads a tenth of its bytes' worth of rows
    heavy, light, thin = _group("heavy", 100), _group("light", 60), _group("thin", 500, selected=10)
    dealt = deal_groups([thin, heavy, light], 2)
    by_first = {slot[0].label: [g.label for g in slot] for slot in dealt}
    assert by_first == {"heavy": ["heavy"], "light": ["light", "thin"]}


@pytest.mark.parametrize("slots", [1, 3])
def test_no_more_lists_than_groups_or_slots(slots):
    groups = [_group("x", 5), _group("y", 5)]
    dealt = deal_groups(groups, slots)
    assert len(dealt) == min(slots, 2)
    assert deal_groups([], slots) == []


def test_spark_reads_more_buckets_than_tasks_like_java(spark, java_newest, tmp_path):  # noqa: F811
    """Five buckets of sorted runs on a session of fewer cores: several merges per task, rows as Java's."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark.group_read import group_slots
    from paimon_codec.spark.scan import scan

    path = java_newest.create_table(tmp_path, "db.five", "id INT NOT NULL, v STRING, n INT", primary_keys=["id"],
                                    options={"bucket": "5", "merge-engine": "partial-update"})
    for c in range(3):
        java_newest.write(path, [{"id": i, "v": None if (i + c) % 3 else f"v{c}-{i}", "n": c * 100 + i}
                                 for i in range(c * 7, 60 + c * 7)])
    plan = plan_scan(path)
    assert len(plan.groups) == 5 > group_slots(spark)
    columns = ["id", "v", "n"]
    expected = sorted(tuple(r[c] for c in columns) for r in java_newest.read(path).to_pylist())
    df, _ = scan(spark, path)
    assert sorted(tuple(r[c] for c in columns) for r in df.collect()) == expected
