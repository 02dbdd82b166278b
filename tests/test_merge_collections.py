"""Aggregates over ARRAY / MAP fields read as Paimon Java 1.4.2 reads them: ``collect`` (with and without
``distinct``), ``merge_map`` and ``nested_update`` (``count-limit``), with retractions (-U / -D).

Ours refused every one of them ("aggregate function 'collect' is not supported").  Java's results carry
the iteration order of the ``HashSet`` / ``HashMap`` each fold step builds, so the arrays and maps are
compared element by element, in order.  Tables are written by Java 1.4.2 in several commits (every
commit a sorted run the read merges), read without compaction and after a full compaction (the merged
values then come from Java's compaction), in Parquet, ORC and Avro.
"""

from __future__ import annotations

import decimal
import random

import pytest

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

SCHEMA = ("id INT NOT NULL, a ARRAY<INT>, s ARRAY<STRING>, l ARRAY<BIGINT>, f ARRAY<DOUBLE>, "
          "dec ARRAY<DECIMAL(12, 2)>, ts ARRAY<TIMESTAMP(6)>, rc ARRAY<ROW<x INT, y STRING>>, "
          "m MAP<STRING, INT>, mi MAP<INT, STRING>, n ARRAY<ROW<x INT, y STRING>>, "
          "nk ARRAY<ROW<k INT, s STRING, v INT>>")
OPTIONS = {"bucket": "1", "merge-engine": "aggregation",
           "fields.a.aggregate-function": "collect",
           "fields.s.aggregate-function": "collect", "fields.s.distinct": "true",
           "fields.l.aggregate-function": "collect", "fields.l.distinct": "true",
           "fields.f.aggregate-function": "collect", "fields.f.distinct": "true",
           "fields.dec.aggregate-function": "collect", "fields.dec.distinct": "true",
           "fields.ts.aggregate-function": "collect", "fields.ts.distinct": "true",
           "fields.rc.aggregate-function": "collect", "fields.rc.distinct": "true",
           "fields.m.aggregate-function": "merge_map", "fields.mi.aggregate-function": "merge_map",
           "fields.n.aggregate-function": "nested_update", "fields.n.count-limit": "7",
           "fields.nk.aggregate-function": "nested_update", "fields.nk.nested-key": "k, s"}


def _row(rng: random.Random, k: int) -> dict:
    def some(make, p=0.15, most=6):
        return None if rng.random() < p else [make() for _ in range(rng.randrange(most))]

    words = [f"w{i}" for i in range(40)] + ["", "é", "long string of words"]
    return {"id": k,
            "a": some(lambda: rng.choice([None, rng.randrange(-3, 9)])),
            "s": some(lambda: rng.choice(words + [None])),
            "l": some(lambda: rng.choice([rng.randrange(-2 ** 40, 2 ** 40), rng.randrange(10)])),
            "f": some(lambda: rng.choice([0.0, -0.0, 1.5, float("nan"), rng.random(), -2.25])),
            "dec": some(lambda: decimal.Decimal(rng.randrange(-10 ** 5, 10 ** 5)) / 100),
            "ts": some(lambda: rng.choice([-1, 0, 1_700_000_000_123_456, rng.randrange(-10 ** 15, 10 ** 15)])),
            "rc": some(lambda: {"x": rng.randrange(3), "y": rng.choice(["p", "q", None])}),
            "m": None if rng.random() < 0.15 else {rng.choice(words): rng.randrange(100)
                                                   for _ in range(rng.randrange(6))},
            "mi": None if rng.random() < 0.15 else {rng.randrange(-50, 50): rng.choice(words)
                                                    for _ in range(rng.randrange(6))},
            "n": some(lambda: {"x": rng.randrange(4), "y": rng.choice(["p", "q"])}, most=4),
            "nk": some(lambda: {"k": rng.randrange(-20, 20), "s": rng.choice(["p", "a longer key text", None]),
                                "v": rng.randrange(100)}, most=5)}


def _arrow_schema():
    import pyarrow as pa

    row = pa.struct([("x", pa.int32()), ("y", pa.string())])
    return pa.schema([("id", pa.int32()), ("a", pa.list_(pa.int32())), ("s", pa.list_(pa.string())),
                      ("l", pa.list_(pa.int64())), ("f", pa.list_(pa.float64())),
                      ("dec", pa.list_(pa.decimal128(12, 2))), ("ts", pa.list_(pa.timestamp("us"))),
                      ("rc", pa.list_(row)), ("m", pa.map_(pa.string(), pa.int32())),
                      ("mi", pa.map_(pa.int32(), pa.string())), ("n", pa.list_(row)),
                      ("nk", pa.list_(pa.struct([("k", pa.int32()), ("s", pa.string()), ("v", pa.int32())])))])


def _to_java(rows: list[dict]):
    import pyarrow as pa

    out = []
    for r in rows:
        r = dict(r)
        for name in ("m", "mi"):
            if r[name] is not None:
                r[name] = list(r[name].items())
        if r["ts"] is not None:
            r["ts"] = [pa.scalar(v, pa.timestamp("us")).as_py() for v in r["ts"]]
        out.append(r)
    return pa.Table.from_pylist(out, schema=_arrow_schema())


def _comparable(table) -> list:
    def norm(v):
        if isinstance(v, float) and v != v:
            return "NaN"
        if isinstance(v, float):
            return repr(v)     # -0.0 and 0.0 apart, as Java keeps them apart
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, tuple):
            return tuple(norm(x) for x in v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        return v
    return sorted((norm(r) for r in table.to_pylist()), key=lambda r: r["id"])


def _write(java, path, seed: int, commits: int = 5, keys: int = 12) -> None:
    rng = random.Random(seed)
    for _ in range(commits):
        rows = [_row(rng, rng.randrange(keys)) for _ in range(20)]
        kinds = [rng.choice(("+I", "+I", "+U", "-U", "-D")) for _ in rows]
        java.write(path, _to_java(rows), row_kinds=kinds)


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
@pytest.mark.parametrize("compact", [False, True])
def test_collection_aggregates_read_as_java(java_newest, tmp_path, fmt, compact):
    options = {**OPTIONS, "file.format": fmt, "write-only": str(not compact).lower()}
    path = java_newest.create_table(tmp_path, "db.t", SCHEMA, primary_keys=["id"], options=options)
    _write(java_newest, path, seed=len(fmt) * 10 + compact)
    if compact:
        java_newest.compact(path)
        java_newest.alter(path, [{"op": "set", "key": "write-only", "value": "true"}])
        _write(java_newest, path, seed=7, commits=2)
    expected = _comparable(java_newest.read(path))
    assert expected and any(len(r["s"] or []) > 12 for r in expected)   # beyond a 16-bucket HashSet
    assert any(len(r["nk"] or []) > 12 for r in expected)
    assert _comparable(read_plan_locally(plan_scan(path))) == expected


def test_distinct_collect_of_binary_elements_is_refused(java_newest, tmp_path):
    """Paimon 1.4.2 puts BINARY elements in a HashSet by identity: their order (and the duplicates kept)
    follow object addresses, so a merge of them is refused by name."""
    path = java_newest.create_table(tmp_path, "db.b", "id INT NOT NULL, b ARRAY<BYTES>", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation",
                                             "fields.b.aggregate-function": "collect",
                                             "fields.b.distinct": "true"})
    java_newest.write(path, [{"id": 1, "b": [b"x", b"y"]}])
    java_newest.write(path, [{"id": 1, "b": [b"x"]}])
    assert java_newest.read(path).num_rows == 1
    with pytest.raises(UnsupportedTypeError, match="BINARY"):
        read_plan_locally(plan_scan(path))


@pytest.mark.parametrize("fmt", ["parquet", "avro"])
def test_roaring_bitmap_union_reads_as_java(java_newest, tmp_path, fmt):
    """``rbm32``: Java OR-s the bitmaps of a key and writes them after runOptimize; the bytes of
    our merge equal Java's (inputs written without run containers, so a re-serialization shows)."""
    import pyarrow as pa
    from pyroaring import BitMap

    rng = random.Random(5)
    path = java_newest.create_table(tmp_path, "db.r", "id INT NOT NULL, b BYTES", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "file.format": fmt, "fields.b.aggregate-function": "rbm32"})
    for _ in range(4):
        rows = []
        for _ in range(12):
            start = rng.randrange(0, 200_000)
            bm = BitMap(range(start, start + rng.choice([1, 50, 5000]))) | BitMap(rng.sample(range(10 ** 6), 20))
            rows.append({"id": rng.randrange(6), "b": None if rng.random() < 0.2 else bm.serialize()})
        java_newest.write(path, pa.Table.from_pylist(rows, schema=pa.schema([("id", pa.int32()), ("b", pa.binary())])))
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert any(r["b"] and r["b"][:2] == b";0" for r in expected)   # run containers after Java's runOptimize
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected


@pytest.mark.parametrize("delimiter", [",", "--"])
def test_listagg_distinct_reads_as_java(java_newest, tmp_path, delimiter):
    """``listagg`` with ``distinct`` (ours refused it): input tokens already in the accumulator are
    skipped, the accumulator itself is kept as written (a first value 'a,a' stays)."""
    import pyarrow as pa

    rng = random.Random(len(delimiter))
    path = java_newest.create_table(tmp_path, "db.l", "id INT NOT NULL, v STRING", primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "fields.v.aggregate-function": "listagg", "fields.v.distinct": "true",
                                             "fields.v.list-agg-delimiter": delimiter})
    tokens = ["a", "b", "c", "", "a-", "-"]
    for _ in range(5):
        rows = [{"id": rng.randrange(5),
                 "v": None if rng.random() < 0.15 else delimiter.join(rng.choice(tokens)
                                                                      for _ in range(rng.randrange(4)))}
                for _ in range(10)]
        java_newest.write(path, pa.Table.from_pylist(rows, schema=pa.schema([("id", pa.int32()), ("v", pa.string())])))
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert len(expected) == 5
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected


@pytest.mark.parametrize("ts_field", [None, "ts"])
def test_merge_map_with_keytime_reads_as_java(java_newest, tmp_path, ts_field):
    """``merge_map_with_keytime``: a null row removes its key (which, put again, moves to its bucket's
    tail), a null time stamp is skipped, a later time stamp (string order) replaces the row."""
    import pyarrow as pa

    rng = random.Random(3)
    schema = "id INT NOT NULL, m MAP<STRING, ROW<ts STRING, v INT>>" if ts_field else \
        "id INT NOT NULL, m MAP<STRING, ROW<v INT, ts STRING>>"
    options = {"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
               "fields.m.aggregate-function": "merge_map_with_keytime"}
    if ts_field:
        options["fields.m.ts-field"] = ts_field
    path = java_newest.create_table(tmp_path, "db.k", schema, primary_keys=["id"], options=options)
    row = pa.struct([("ts", pa.string()), ("v", pa.int32())] if ts_field else [("v", pa.int32()), ("ts", pa.string())])
    arrow = pa.schema([("id", pa.int32()), ("m", pa.map_(pa.string(), row))])
    for _ in range(6):
        rows = []
        for _ in range(10):
            entries = {f"k{rng.randrange(30)}": None if rng.random() < 0.15 else
                       {"ts": rng.choice([None, "2024-01-0" + str(rng.randrange(1, 10)), "2024-01-10"]),
                        "v": rng.randrange(100)} for _ in range(rng.randrange(8))}
            rows.append({"id": rng.randrange(3), "m": None if rng.random() < 0.1 else list(entries.items())})
        java_newest.write(path, pa.Table.from_pylist(rows, schema=arrow))
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert len(expected) == 3 and any(len(r["m"] or []) > 12 for r in expected)
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected


def test_nested_partial_update_reads_as_java(java_newest, tmp_path):
    """``nested_partial_update`` (ours refused it): rows grouped by their nested key in Java's HashMap
    order, each field the last non-null value of its key's rows."""
    import pyarrow as pa

    rng = random.Random(11)
    path = java_newest.create_table(tmp_path, "db.np", "id INT NOT NULL, n ARRAY<ROW<k INT, s STRING, a INT, b STRING>>",
                                    primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "fields.n.aggregate-function": "nested_partial_update",
                                             "fields.n.nested-key": "k,s"})
    row = pa.struct([("k", pa.int32()), ("s", pa.string()), ("a", pa.int32()), ("b", pa.string())])
    arrow = pa.schema([("id", pa.int32()), ("n", pa.list_(row))])
    for _ in range(6):
        rows = [{"id": rng.randrange(3),
                 "n": None if rng.random() < 0.1 else
                 [None if rng.random() < 0.05 else
                  {"k": rng.randrange(12), "s": rng.choice(["x", "a longer key", None]),
                   "a": rng.choice([None, rng.randrange(50)]), "b": rng.choice([None, "p", "q"])}
                  for _ in range(rng.randrange(6))]} for _ in range(10)]
        java_newest.write(path, pa.Table.from_pylist(rows, schema=arrow))
    expected = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert len(expected) == 3 and any(len(r["n"] or []) > 12 for r in expected)
    assert sorted(read_plan_locally(plan_scan(path)).to_pylist(), key=lambda r: r["id"]) == expected
