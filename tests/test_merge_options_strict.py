"""Merge options read exactly as Paimon parses them: a value Paimon does not read is refused, not guessed.

Paimon matches aggregate function names exactly (its factories' identifiers), reads booleans as
``true`` / ``false`` in any case and nothing else, enums in any case but not trimmed, and refuses a
sequence field named twice; ours lower-cased and trimmed the names and read any other boolean as
false (``'fields.n.aggregate-function' = 'SUM'`` summed where Paimon fails, ``'ignore-delete' = 'yes'``
read as false).  Options are parsed only where Paimon parses them: an aggregation table never reads
``ignore-delete``.

Java 1.4.2 (``java_newest``) refuses to create such tables, so each is created and written with a good
value and the option is then rewritten in its schema file, as another writer could leave it; Java's read
of the result is the oracle.
"""

from __future__ import annotations

import glob
import json
import random

import pytest

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

OPTIONS = {"bucket": "1", "write-only": "true", "merge-engine": "aggregation", "fields.n.aggregate-function": "sum",
           "fields.v.ignore-retract": "true", "changelog-producer": "none"}
BAD = [("fields.n.aggregate-function", "SUM"), ("fields.n.aggregate-function", " sum"),
       ("fields.n.aggregate-function", ""), ("merge-engine", " aggregation"), ("changelog-producer", "lookups"),
       ("fields.v.ignore-retract", "1"), ("sequence.field", "v,v"), ("sequence.field.sort-order", "desc")]


def _table(java, tmp_path, key: str, value: str, options: dict) -> str:
    options = dict(options)
    if key.startswith("sequence.field"):
        options["sequence.field"] = "v"
    path = java.create_table(tmp_path, "db.t", "id INT NOT NULL, n INT, v STRING", primary_keys=["id"],
                             options=options)
    for commit in range(2):
        java.write(path, [{"id": k, "n": commit + k, "v": "x"} for k in range(3)])
    schema_file = sorted(glob.glob(f"{path}/schema/schema-*"))[-1]
    with open(schema_file) as fh:
        schema = json.load(fh)
    schema["options"][key] = value
    with open(schema_file, "w") as fh:
        json.dump(schema, fh)
    return path


@pytest.mark.parametrize(("key", "value"), BAD)
def test_values_paimon_does_not_parse_are_refused(java_newest, tmp_path, key, value):
    from oracles.java_newest import JavaError

    path = _table(java_newest, tmp_path, key, value, OPTIONS)
    with pytest.raises(JavaError):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError) as refused:
        read_plan_locally(plan_scan(path))
    message = str(refused.value)
    assert key in message or f"'{value}'" in message, message   # names the option or the value


def test_options_an_engine_does_not_read_are_not_parsed(java_newest, tmp_path):
    path = _table(java_newest, tmp_path, "ignore-delete", "yes", OPTIONS)
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert expected == [{"id": 0, "n": 1, "v": "x"}, {"id": 1, "n": 3, "v": "x"}, {"id": 2, "n": 5, "v": "x"}]
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected


def test_options_paimon_reads_as_no_change_are_not_refused(java_newest, tmp_path):
    """'aggregation.remove-record-on-delete' / 'fields.<f>.distinct' = false are Paimon's defaults and
    'ignore-update-before' acts in Paimon's writer only: tables with them read as Java reads them."""
    rng = random.Random(4)
    path = java_newest.create_table(tmp_path, "db.t", "id INT NOT NULL, n INT, v STRING", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation",
                                             "fields.n.aggregate-function": "sum",
                                             "fields.v.aggregate-function": "listagg", "fields.v.distinct": "false",
                                             "fields.v.ignore-retract": "true", "ignore-update-before": "true",
                                             "aggregation.remove-record-on-delete": "false"})
    for _ in range(4):
        rows = [{"id": rng.randrange(8), "n": rng.randrange(-5, 5), "v": rng.choice(["a", "b", None])}
                for _ in range(15)]
        java_newest.write(path, rows, row_kinds=[rng.choice(("+I", "+U", "-U", "-D")) for _ in rows])
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert expected
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected
