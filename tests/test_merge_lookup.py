"""Primary-key tables that "need lookup" (``changelog-producer`` = ``lookup``, ``force-lookup``) read as
Paimon reads them: through ``LookupMergeFunction``.

Their lookup compaction writes a key's whole merged state into the level it compacts level-0 files to,
and the older state stays in the higher levels; Paimon's read merges a key's level-0 records with its
record of the lowest level above 0 only.  Merging every level (as for other tables) counted the older
states again: ``sum`` gave 16 where Paimon gives 7, ``listagg`` repeated items.

Every table is written by Paimon Java 1.4.2 (``java_newest``) in seeded random commits with full and
non-full compactions in between (several levels per bucket), and read by Java, by ``plan_scan`` +
``read_plan_locally`` and (one case) by the Spark scan; the rows must be equal exactly.
"""

from __future__ import annotations

import random

import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.table import PaimonTable

SCHEMA = "p INT NOT NULL, id INT NOT NULL, n BIGINT, d DOUBLE, v STRING"
COLUMNS = ["p", "id", "n", "d", "v"]
ALL = ("+I", "+I", "+U", "-U", "-D")
ADDS = ("+I", "+U")
LOOKUP = {"changelog-producer": "lookup"}
CASES: dict[str, tuple[dict, tuple[str, ...]]] = {
    "agg_sum": ({**LOOKUP, "merge-engine": "aggregation", "fields.n.aggregate-function": "sum",
                 "fields.d.aggregate-function": "sum", "fields.v.aggregate-function": "last_value"}, ALL),
    "agg_listagg_product": ({**LOOKUP, "merge-engine": "aggregation", "fields.n.aggregate-function": "product",
                             "fields.d.aggregate-function": "max", "fields.v.aggregate-function": "listagg"}, ADDS),
    "agg_force_lookup": ({"force-lookup": "true", "merge-engine": "aggregation",
                          "fields.n.aggregate-function": "sum", "fields.v.aggregate-function": "listagg",
                          "fields.v.ignore-retract": "true", "fields.d.aggregate-function": "last_non_null_value"},
                         ALL),
    "agg_sequence_field": ({**LOOKUP, "merge-engine": "aggregation", "sequence.field": "d",
                            "fields.n.aggregate-function": "sum", "fields.v.aggregate-function": "listagg",
                            "fields.v.ignore-retract": "true"}, ALL),
    "partial_update_remove": ({**LOOKUP, "merge-engine": "partial-update",
                               "partial-update.remove-record-on-delete": "true"}, ALL),
    "dedup_sequence_desc": ({**LOOKUP, "sequence.field": "n", "sequence.field.sort-order": "descending"}, ALL),
}


def _write(java, warehouse, name: str, options: dict, kinds: tuple[str, ...]) -> str:
    rng = random.Random(name)
    path = java.create_table(warehouse, f"db.{name}", SCHEMA, primary_keys=["p", "id"], partition_keys=["p"],
                             options={"bucket": "2", **options})
    for commit in range(8):
        rows = [{"p": rng.randrange(2), "id": rng.randrange(15), "n": rng.choice([None, rng.randrange(-9, 9)]),
                 "d": rng.choice([None, rng.uniform(-5, 5)]), "v": rng.choice([None, "", "a", "b"])}
                for _ in range(25)]
        java.write(path, rows, row_kinds=[rng.choice(kinds) for _ in rows])
        if commit in (2, 6):
            java.compact(path)                 # everything to the highest level
        elif commit == 4:
            java.compact(path, full=False)     # a lookup compaction into a lower level
    return path


@pytest.fixture(scope="module")
def lookup_tables(java_newest, tmp_path_factory):
    warehouse = str(tmp_path_factory.mktemp("lookup"))
    return {name: _write(java_newest, warehouse, name, options, kinds) for name, (options, kinds) in CASES.items()}


def _rows(table) -> list[list[str]]:
    return sorted([repr(r[c]) for c in COLUMNS] for r in table.to_pylist())


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("where", [None, "n > 0"])
def test_lookup_tables_read_like_java(java_newest, lookup_tables, name, where):
    path = lookup_tables[name]
    expected = _rows(java_newest.read(path, where=where))
    assert expected
    plan = plan_scan(path, where)
    got = read_plan_locally(plan)
    if plan.predicate is not None:
        got = filter_table(got, plan.predicate, plan.row_type)
    assert _rows(got) == expected


def test_lookup_tables_hold_a_key_in_several_levels(lookup_tables):
    """The case the lookup merge is about: a bucket's keys in several levels above 0 (lookup compaction
    moves level-0 files up as they are written)."""
    table = PaimonTable(lookup_tables["agg_sum"])
    levels = {f.level for f in table.live_files(table.snapshot())}
    assert len(levels - {0}) >= 2, levels


def test_spark_scan_merges_lookup_tables_like_java(spark, java_newest, lookup_tables):  # noqa: F811
    from paimon_codec.spark.scan import scan

    path = lookup_tables["agg_sum"]
    df, _ = scan(spark, path)
    assert sorted([repr(r[c]) for c in COLUMNS] for r in df.collect()) == _rows(java_newest.read(path))
