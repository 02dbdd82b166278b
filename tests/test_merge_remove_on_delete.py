"""``aggregation.remove-record-on-delete`` read as Paimon Java 1.4.2 reads it (ours refused every such table).

Paimon's ``AggregateMergeFunction`` restarts a key's row from a -D record's own values (its aggregators
keep their state: ``first_value`` / ``first_non_null_value`` stay initialized) and removes the key when
the -D is its last record; records before the -D still fail the read when one retracts a function
without retraction, and the option cannot be combined with ``fields.<f>.ignore-retract``.  Tables are
written by Java 1.4.2 in several commits (``write-only``: every commit a sorted run the read merges, or
compacted fully / partly before further commits, or by lookup compaction: changelog-producer lookup,
deletion vectors), in Parquet, ORC and Avro; the oracle is Java's read:
its rows, or its failure where ours must refuse.
"""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

SCHEMA = ("id INT NOT NULL, s INT, mx INT, fv STRING, fnn INT, lnn STRING, la STRING, c ARRAY<INT>, "
          "p BIGINT, lv INT")
ARROW = pa.schema([("id", pa.int32()), ("s", pa.int32()), ("mx", pa.int32()), ("fv", pa.string()),
                   ("fnn", pa.int32()), ("lnn", pa.string()), ("la", pa.string()), ("c", pa.list_(pa.int32())),
                   ("p", pa.int64()), ("lv", pa.int32())])
OPTIONS = {"bucket": "1", "merge-engine": "aggregation", "aggregation.remove-record-on-delete": "true",
           "fields.s.aggregate-function": "sum", "fields.mx.aggregate-function": "max",
           "fields.fv.aggregate-function": "first_value", "fields.fnn.aggregate-function": "first_non_null_value",
           "fields.la.aggregate-function": "listagg", "fields.c.aggregate-function": "collect",
           "fields.p.aggregate-function": "product", "fields.lv.aggregate-function": "last_value"}


def _rows(rng: random.Random, n: int, keys: int) -> pa.Table:
    def maybe(v):
        return None if rng.random() < 0.3 else v

    rows = [{"id": rng.randrange(keys), "s": maybe(rng.randrange(-9, 9)), "mx": maybe(rng.randrange(50)),
             "fv": maybe(rng.choice("abcdef")), "fnn": maybe(rng.randrange(100)), "lnn": maybe(rng.choice("xyz")),
             "la": maybe(rng.choice(["u", "v", ""])), "c": maybe([rng.randrange(5) for _ in range(rng.randrange(3))]),
             "p": maybe(rng.randrange(1, 4)), "lv": maybe(rng.randrange(9))} for _ in range(n)]
    return pa.Table.from_pylist(rows, schema=ARROW)


def _sorted(table: pa.Table) -> list[dict]:
    return sorted(table.to_pylist(), key=lambda r: r["id"])


def _same_as_java(java, path) -> None:
    from oracles.java_newest import JavaError

    try:
        expected = _sorted(java.read(path))
    except JavaError:
        with pytest.raises(UnsupportedTypeError):
            read_plan_locally(plan_scan(path))
        return
    assert _sorted(read_plan_locally(plan_scan(path))) == expected


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
@pytest.mark.parametrize("compaction", ["none", "full", "minor", "lookup", "deletion-vectors"])
def test_remove_record_on_delete_reads_as_java(java_newest, tmp_path, fmt, compaction):
    rng = random.Random(len(fmt) * 3 + len(compaction))
    path = java_newest.create_table(tmp_path, "db.t", SCHEMA, primary_keys=["id"],
                                    options={**OPTIONS, "file.format": fmt,
                                             "write-only": str(compaction == "none").lower(),
                                             **({"changelog-producer": "lookup"} if compaction == "lookup" else {}),
                                             **({"deletion-vectors.enabled": "true"}
                                                if compaction == "deletion-vectors" else {})})
    kinds_seen = 0
    for commit in range(6):
        data = _rows(rng, 14, 10)
        kinds = [rng.choice(("+I", "+I", "+U", "-D")) for _ in range(data.num_rows)]
        kinds_seen += kinds.count("-D")
        java_newest.write(path, data, row_kinds=kinds)
        if compaction in ("full", "minor") and commit == 2:
            java_newest.compact(path, full=compaction == "full")
            java_newest.alter(path, [{"op": "set", "key": "write-only", "value": "true"}])
    expected = _sorted(java_newest.read(path))
    assert kinds_seen and 0 < len(expected) < 10      # some keys were removed by a last -D
    assert _sorted(read_plan_locally(plan_scan(path))) == expected


def test_update_before_still_fails_functions_without_retraction(java_newest, tmp_path):
    """A -U reaching ``max`` fails Paimon's read, also when a later -D replaces the row."""
    path = java_newest.create_table(tmp_path, "db.u", "id INT NOT NULL, mx INT, s INT", primary_keys=["id"],
                                    options={"bucket": "1", "write-only": "true", "merge-engine": "aggregation",
                                             "aggregation.remove-record-on-delete": "true",
                                             "fields.mx.aggregate-function": "max",
                                             "fields.s.aggregate-function": "sum"})
    java_newest.write(path, [{"id": 1, "mx": 3, "s": 1}, {"id": 2, "mx": 3, "s": 1}])
    java_newest.write(path, [{"id": 1, "mx": 3, "s": 1}], row_kinds=["-U"])
    java_newest.write(path, [{"id": 1, "mx": 5, "s": 4}, {"id": 2, "mx": 1, "s": 2}], row_kinds=["-D", "+I"])
    java_newest.write(path, [{"id": 1, "mx": 2, "s": 2}])
    _same_as_java(java_newest, path)


def test_ignore_retract_with_remove_record_on_delete_fails_as_java(java_newest, tmp_path):
    import glob
    import json

    path = java_newest.create_table(tmp_path, "db.v", "id INT NOT NULL, s INT", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "aggregation.remove-record-on-delete": "true",
                                             "fields.s.aggregate-function": "sum"})
    java_newest.write(path, [{"id": 1, "s": 3}])
    java_newest.write(path, [{"id": 1, "s": 4}])
    schema_file = sorted(glob.glob(f"{path}/schema/schema-*"))[-1]   # Java refuses to create it
    with open(schema_file) as fh:
        schema = json.load(fh)
    schema["options"]["fields.s.ignore-retract"] = "true"
    with open(schema_file, "w") as fh:
        json.dump(schema, fh)
    _same_as_java(java_newest, path)
