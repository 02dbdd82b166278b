"""Seeded random tables written by Paimon Java 1.4.2, read by us and by Java under random predicates.

Each table draws a format (parquet / orc / avro), a kind (append, or primary key with 1-2 buckets and
keys written twice so reads merge: deduplicate, partial-update, first-row, or aggregation with a random
function per column), a STRING partition column or none (its values include NULL, ``""``
and ``" "``), a random subset of column types, rows (nulls, edge values) in two commits, and predicates
(every comparison, IN, null tests, prefixes, AND / OR) on random columns with literals drawn from the
rows.  FLOAT / DOUBLE values include -0.0, NaN and infinities and are filtered and compared bit-exactly.
Our read must return exactly Java's rows or refuse in one line (:class:`UnsupportedTypeError`);
refusals are counted, and every table must at least be read without a predicate.

``PAIMON_RANDOM_TABLES=N`` (default 32, ~30 s) sets the number of tables, ``PAIMON_RANDOM_SEED`` the first seed.
"""

from __future__ import annotations

import datetime as dt
import decimal
import logging
import os
import random
from typing import Any

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.evolution.file_evolution import arrow_schema
from paimon_codec.expressions import And, Or, make_leaf
from paimon_codec.reading import read_table
from paimon_codec.types import parse_row_type

pytestmark = pytest.mark.java
log = logging.getLogger(__name__)

TABLES = int(os.environ.get("PAIMON_RANDOM_TABLES", "32"))
FIRST_SEED = int(os.environ.get("PAIMON_RANDOM_SEED", "1000"))
EXACT = decimal.Context(prec=80)

# type -> value maker (rng -> value of the Arrow type arrow_schema gives it)
_STRINGS = ["", " ", "a", "ab", "abc", "b", "é", "a b", "zz", "A"]


def _dec(p: int, s: int):
    def make(rng: random.Random) -> decimal.Decimal:
        edge = [10 ** p - 1, -(10 ** p - 1), 0, 1, -1]
        unscaled = rng.choice(edge) if rng.random() < 0.2 else rng.randrange(-10 ** p + 1, 10 ** p)
        return decimal.Decimal(unscaled).scaleb(-s, EXACT)
    return make


SCALARS: dict[str, Any] = {
    "TINYINT": lambda r: r.choice([-128, 127, 0, r.randrange(-128, 128)]),
    "SMALLINT": lambda r: r.randrange(-2 ** 15, 2 ** 15),
    "INT": lambda r: r.choice([-2 ** 31, 2 ** 31 - 1, 0, r.randrange(-50, 50)]),
    "BIGINT": lambda r: r.choice([-2 ** 63, 2 ** 63 - 1, r.randrange(-10 ** 12, 10 ** 12)]),
    "BOOLEAN": lambda r: r.random() < 0.5,
    "FLOAT": lambda r: r.choice([0.0, -0.0, 1.5, -2.25, float("nan"), float("inf"), r.randrange(-400, 400) / 4]),
    "DOUBLE": lambda r: r.choice([0.0, -0.0, 1e300, -1e-300, float("nan"), float("inf"), -float("inf"),
                                  r.randrange(-10 ** 6, 10 ** 6) / 8]),
    "STRING": lambda r: r.choice(_STRINGS),
    "VARCHAR(10)": lambda r: r.choice(_STRINGS) + r.choice(["", "x", "  "]),
    "CHAR(3)": lambda r: r.choice(["a", "ab", "abc", "", "b", " a"]),
    "DECIMAL(5, 2)": _dec(5, 2),
    "DECIMAL(18, 4)": _dec(18, 4),
    "DECIMAL(38, 10)": _dec(38, 10),
    "DATE": lambda r: dt.date(1970, 1, 1) + dt.timedelta(days=r.randrange(-20000, 40000)),
    "TIMESTAMP(3)": lambda r: dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=r.randrange(-10 ** 12, 10 ** 12)),
    "TIMESTAMP(6)": lambda r: dt.datetime(2000, 1, 1) + dt.timedelta(microseconds=r.randrange(-10 ** 15, 10 ** 15)),
    "BYTES": lambda r: bytes(r.randrange(256) for _ in range(r.randrange(4))),
    "TIMESTAMP(9)": lambda r: r.randrange(-10 ** 18, 10 ** 18),
    "TIMESTAMP(6) WITH LOCAL TIME ZONE": lambda r: r.randrange(-10 ** 15, 10 ** 15),
    "TIME": lambda r: r.randrange(0, 86_400_000),
}
NESTED: dict[str, Any] = {
    "ARRAY<INT>": lambda r: [r.choice([None, r.randrange(-5, 5)]) for _ in range(r.randrange(3))],
    "MAP<STRING, BIGINT>": lambda r: [(k, r.choice([None, r.randrange(9)])) for k in r.sample(_STRINGS, r.randrange(3))],
    "ROW<x INT, y STRING>": lambda r: {"x": r.choice([None, r.randrange(9)]), "y": r.choice([None, *_STRINGS])},
    "ARRAY<ROW<a INT, b DECIMAL(20, 2)>>": lambda r: [None if r.random() < 0.2 else
                                                     {"a": r.randrange(9), "b": _dec(20, 2)(r)} for _ in range(r.randrange(3))],
    "MAP<INT, ARRAY<STRING>>": lambda r: [(k, r.choice([None, r.sample(_STRINGS, 2)])) for k in r.sample(range(9), r.randrange(3))],
}
# predicate literals a column type takes as the row values are (as Python values)
FILTERABLE = [t for t in SCALARS if not t.startswith(("BYTES", "TIMESTAMP", "TIME"))]
PARTITION_VALUES = {"STRING": [None, "", " ", "p1", "p 2", "a/b=c"], "INT": [None, 0, -1, 7],
                    "DATE": [None, dt.date(1970, 1, 1), dt.date(2024, 2, 29)], "BOOLEAN": [None, True, False]}


_NUMERIC = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")
_ANY = ["last_value", "last_non_null_value", "first_value", "first_non_null_value"]


def _aggregates(t: str) -> list[str]:
    """Aggregate functions of an aggregation table's value column of type ``t``."""
    if t.startswith(_NUMERIC):
        return [*_ANY, "sum", "max", "min", "product"]
    if t.startswith(("STRING", "VARCHAR")):  # listagg: unbounded STRING only (Java refuses the table)
        return [*_ANY, "max", "min"] + (["listagg"] if t == "STRING" else [])
    if t == "BOOLEAN":
        return [*_ANY, "bool_and", "bool_or"]
    if t.startswith(("DATE", "TIMESTAMP")):
        return [*_ANY, "max", "min"]
    return _ANY


def _table_spec(rng: random.Random) -> dict:
    fmt = rng.choice(["parquet", "orc", "avro"])
    pk = rng.random() < 0.4
    partitioned = rng.random() < 0.5
    scalars = [t for t in SCALARS if not (fmt == "avro" and t == "TIMESTAMP(9)")]  # Avro: precision <= 6
    types = rng.sample(scalars, rng.randrange(3, 8)) + rng.sample(list(NESTED), rng.randrange(0, 3))
    columns = [("id", "INT NOT NULL" if pk else "INT")] + [(f"c{i}", t.strip()) for i, t in enumerate(types)]
    if partitioned:
        pt_type = rng.choice(["STRING", "STRING", "INT", "DATE", "BOOLEAN"])
        columns.append(("pt", pt_type + (" NOT NULL" if pk else "")))
    options = {"file.format": fmt, "bucket": str(rng.choice([1, 2])) if pk else "-1"}
    if partitioned and rng.random() < 0.3:
        options["partition.default-name"] = "none_here"
    if partitioned and rng.random() < 0.3:
        options["partition.legacy-name"] = "false"
    indexable = [c for c, t in columns[1:] if t in ("INT", "BIGINT", "STRING", "VARCHAR(10)", "SMALLINT")]
    if indexable and rng.random() < 0.4:
        kind = rng.choice(["bloom-filter", "bitmap"])
        options[f"file-index.{kind}.columns"] = rng.choice(indexable)
    if pk:
        options["merge-engine"] = rng.choice(["deduplicate", "deduplicate", "partial-update", "first-row",
                                              "aggregation"])
        if options["merge-engine"] == "aggregation":
            for c, t in columns[1:]:
                if c != "pt":
                    options[f"fields.{c}.aggregate-function"] = rng.choice(_aggregates(t))
        if options["merge-engine"] != "first-row" and rng.random() < 0.3:
            options["deletion-vectors.enabled"] = "true"
    return {"fmt": fmt, "pk": pk, "partitioned": partitioned, "columns": columns, "options": options,
            "compact": pk and rng.random() < 0.3}


def _value(rng: random.Random, t: str) -> Any:
    maker = SCALARS.get(t) or NESTED.get(t)
    return maker(rng)


def _rows(rng: random.Random, spec: dict, ids: list[int]) -> list[dict]:
    rows = []
    for i in ids:
        row: dict[str, Any] = {"id": i}
        for name, t in spec["columns"][1:]:
            t = t.replace(" NOT NULL", "")
            if name == "pt":
                # Java's lookup (first-row, deletion vectors) names local files after the partition and
                # fails writing a value holding '/' ("No such file or directory"), so none there
                lookup = spec["options"].get("merge-engine") == "first-row" or "deletion-vectors.enabled" in spec["options"]
                choices = [v for v in PARTITION_VALUES[t] if not (spec["pk"] and v is None)
                           and not (lookup and isinstance(v, str) and "/" in v)]
                row[name] = rng.choice(choices)
            else:
                row[name] = None if rng.random() < 0.15 else _value(rng, t)
        rows.append(row)
    return rows


def _predicates(rng: random.Random, spec: dict, rows: list[dict], n: int) -> list:
    # FLOAT / DOUBLE columns with -0.0 / NaN included: read_table's default semantics="paimon" orders them
    # by Java's Double.compare as Java's row filters do
    cols = [(c, t) for c, t in spec["columns"] if t.split(" NOT NULL")[0] in FILTERABLE + ["INT", "STRING", "DATE"]]
    out = []
    for _ in range(n):
        leaves = []
        for _ in range(rng.choice([1, 1, 2])):
            name, t = rng.choice(cols)
            seen = [r[name] for r in rows if r[name] is not None] or [_value(rng, t.split(" NOT NULL")[0])]
            lit = rng.choice(seen)
            ops = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "not_in", "is_null", "is_not_null"]
            if isinstance(lit, str):
                ops.append("starts_with")
            if isinstance(lit, dt.date):
                lit = lit.isoformat()
            op = rng.choice(ops)
            if op in ("is_null", "is_not_null"):
                leaves.append(make_leaf(op, name))
            elif op in ("in", "not_in"):
                leaves.append(make_leaf(op, name, [lit] + [x if not isinstance(x, dt.date) else x.isoformat()
                                                           for x in rng.sample(seen, min(2, len(seen)))]))
            else:
                leaves.append(make_leaf(op, name, [lit]))
        out.append(leaves[0] if len(leaves) == 1 else rng.choice([And, Or])(tuple(leaves)))
    return out


WIDENINGS = {"INT": "BIGINT", "SMALLINT": "INT", "FLOAT": "DOUBLE", "VARCHAR(10)": "STRING",
             "DECIMAL(5, 2)": "DECIMAL(18, 4)", "TINYINT": "SMALLINT"}


def _evolve(java, path: str, rng: random.Random, spec: dict, rows: list[dict]) -> list[dict]:
    """One random schema change (add / rename / drop a value column, widen its type); ``spec["columns"]``
    and the rows written so far follow it."""
    cols = spec["columns"]
    # a file-index column: Java refuses to rename or drop it; an aggregated column keeps its option's name
    named = set(spec["options"].values()) | {k.split(".")[1] for k in spec["options"] if k.startswith("fields.")}
    values = [i for i, (c, _) in enumerate(cols) if c not in ("id", "pt") and c not in named]
    op = rng.choice(["add", "rename", "drop", "type"] if values else ["add"])
    if op == "add":
        t = rng.choice(FILTERABLE)
        name = f"n{len(cols)}"
        java.alter(path, [{"op": "add", "name": name, "type": t}])
        cols.append((name, t))
        return [dict(r, **{name: None}) for r in rows]
    i = rng.choice(values)
    name, t = cols[i]
    if op == "rename":
        java.alter(path, [{"op": "rename", "from": name, "to": name + "_r"}])
        cols[i] = (name + "_r", t)
        return [{(k + "_r" if k == name else k): v for k, v in r.items()} for r in rows]
    if op == "drop":
        java.alter(path, [{"op": "drop", "name": name}])
        del cols[i]
        return [{k: v for k, v in r.items() if k != name} for r in rows]
    if t in WIDENINGS:
        java.alter(path, [{"op": "type", "name": name, "type": WIDENINGS[t]}])
        cols[i] = (name, WIDENINGS[t])
    return rows


def _run_table(java, tmp_path, seed: int) -> tuple[int, int, list[str]]:
    rng = random.Random(seed)
    spec = _table_spec(rng)
    name = f"r{seed}"
    path = java.create_table(str(tmp_path), f"db.{name}", ", ".join(f"{c} {t}" for c, t in spec["columns"]),
                             primary_keys=["id"] + (["pt"] if spec["partitioned"] else []) if spec["pk"] else [],
                             partition_keys=["pt"] if spec["partitioned"] else [], options=spec["options"])
    schema = arrow_schema(parse_row_type(java.schema(path)))
    all_rows: list[dict] = []
    n = rng.randrange(5, 30)
    for commit in range(2):
        if commit and rng.random() < 0.35:
            all_rows = _evolve(java, path, rng, spec, all_rows)
            schema = arrow_schema(parse_row_type(java.schema(path)))
        ids = rng.sample(range(n), rng.randrange(1, n)) if spec["pk"] else list(range(commit * n, commit * n + n))
        rows = _rows(rng, spec, ids)
        all_rows += rows
        kinds = None
        if commit and spec["pk"] and spec["options"]["merge-engine"] == "deduplicate":
            kinds = [rng.choice(["+I", "+I", "+U", "-D"]) for _ in rows]
        java.write(path, pa.Table.from_pylist(rows, schema=schema), row_kinds=kinds)
    if spec["compact"]:
        java.compact(path)
    compared = refused = 0
    failures: list[str] = []
    for where in [None, *_predicates(rng, spec, all_rows, 4)]:
        label = f"seed {seed} {spec['fmt']} {'pk' if spec['pk'] else 'append'} {spec['columns']} where {where}"
        theirs = java.read(path, where=where)
        try:
            ours = read_table(path, where)
        except UnsupportedTypeError as exc:
            # an ORC LTZ column in a file naming no writer zone: by design (tests/test_orc_zone_java.py)
            if where is None and "a time zone it does not record" not in str(exc):
                failures.append(f"{label}: refused the whole table: {exc}")
            refused += 1
            log.info("%s: refused: %s", label, exc)
            continue
        diff = row_set_difference(ours.select(theirs.column_names), theirs, exact_floats=True)
        if diff is not None:
            failures.append(f"{label}:\n{diff}")
        compared += 1
    return compared, refused, failures


def test_random_java_tables_read_as_java_reads_them(java_newest, tmp_path):
    compared = refused = 0
    failures: list[str] = []
    for seed in range(FIRST_SEED, FIRST_SEED + TABLES):
        c, r, f = _run_table(java_newest, tmp_path, seed)
        compared, refused, failures = compared + c, refused + r, failures + f
    log.warning("random tables: %d tables, %d reads compared, %d refused", TABLES, compared, refused)
    assert not failures, "\n\n".join(failures[:8]) + f"\n({len(failures)} failures)"
    assert compared >= TABLES  # each table read at least once without a predicate
