"""Threshold-first top-N on range bitmaps written by Java Paimon: golden payloads and Java 1.4.2 tables.

* Golden payloads (every key type, several chunk sizes): a :class:`KeyStream` read chunk by chunk from
  either end yields exactly the dictionary's keys in order, and the bound it gives for ``n`` is reached
  by at least ``n`` rows (the fact the planner's pruning rests on), also with excluded rows.
* Java 1.4.2 tables of several files (clustered, random, duplicates, nulls; BIGINT, STRING, DOUBLE): the
  values of ``ORDER BY .. LIMIT k`` over our candidates equal those of Java's full read, and clustered
  files are pruned.
"""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from conftest import load_json
from paimon_semantics import spark_compare

from paimon_codec.fileindex.range_bitmap import RangeBitmapReader
from paimon_codec.fileindex.topn_bound import KeyStream, nth_best
from paimon_codec.fileio import ByteSource
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally


def _golden_cases(golden: Path) -> list[dict]:
    return [load_json(p) for p in sorted((golden / "paimon-latest" / "range_bitmap").glob("range_*.json"))]


def test_key_streams_of_java_payloads(golden):
    cases = _golden_cases(golden)
    assert len(cases) >= 20
    for case in cases:
        data = (golden / "paimon-latest" / "range_bitmap" / case["file"]).read_bytes()
        reader = RangeBitmapReader(ByteSource(data), case["type"], case.get("options") or {})
        if reader.cardinality == 0:
            assert KeyStream(reader, True).best is None and nth_best([KeyStream(reader, True)], 1, True) is None
            continue
        keys = [reader._cmp_key(k) for k in reader.keys_by_code()]
        codes = reader.row_codes()
        for desc in (True, False):
            fresh = RangeBitmapReader(ByteSource(data), case["type"], case.get("options") or {})
            stream = KeyStream(fresh, desc)
            assert stream.best == (keys[-1] if desc else keys[0])
            while not stream.complete:
                stream.read_more()
            got = [k for part in stream.contribution() for k in (part.tolist() if hasattr(part, "tolist") else part)]
            assert got == (keys[::-1] if desc else keys), case["case"]
            for n, skip in ((1, 0), (3, 0), (len(keys), 0), (2, 1), (len(keys) + 1, 0)):
                s = KeyStream(fresh, desc, skip)
                s._parts, s._chunks_read, s.known = stream._parts, stream.chunks_read, stream.known
                bound = nth_best([s], n, desc)
                if n + skip > len(keys):
                    assert bound is None
                    continue
                code = keys.index(bound)
                reach = int(np.count_nonzero(codes >= code if desc else (codes >= 0) & (codes <= code)))
                assert reach >= n + skip, (case["case"], n, skip)  # n rows even if `skip` rows were excluded


def _spark_sorted(values: list, desc: bool) -> list:
    def cmp(a, b):
        if a is None or b is None:  # Spark: NULLS FIRST ascending, NULLS LAST descending
            return (a is None) - (b is None) if desc else (b is None) - (a is None)
        c = spark_compare(a, b)
        return -c if desc else c
    return sorted(values, key=functools.cmp_to_key(cmp))


def _norm(values: list) -> list:
    return ["nan" if isinstance(v, float) and math.isnan(v) else v for v in values]


ARROW = pa.schema([("id", pa.int32()), ("n", pa.int64()), ("s", pa.string()), ("f", pa.float64())])


def _batches(kind: str) -> list[list[dict]]:
    rng = random.Random(11)
    out, start = [], 0
    for i in range(6):
        rows = []
        for j in range(300):
            if kind == "clustered":
                n = 1000 * i + j
            elif kind == "dups":
                n = rng.randrange(4)
            else:
                n = rng.randrange(-10**6, 10**6)
            null = kind != "clustered" and j % 13 == 0
            rows.append({"id": start + j, "n": None if null else n, "s": None if null else f"k{n:+08d}",
                         "f": None if null else n / 7.0})
        out.append(rows)
        start += 300
    return out


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    warehouse = tmp_path_factory.mktemp("java142_topn")
    out = {}
    for kind in ("clustered", "random", "dups"):
        path = java_newest.create_table(warehouse, f"db.{kind}", "id INT, n BIGINT, s STRING, f DOUBLE", options={
            "bucket": "-1", "file-index.range-bitmap.columns": "n,s,f", "file-index.bitmap.columns": "id",
            "file-index.range-bitmap.n.chunk-size": "256b", "file-index.range-bitmap.s.chunk-size": "512b"})
        for batch in _batches(kind):
            java_newest.write(path, pa.Table.from_pylist(batch, schema=ARROW))
        out[kind] = (path, java_newest.read(path))
    return out


@pytest.mark.parametrize("kind", ["clustered", "random", "dups"])
@pytest.mark.parametrize("column,desc,k", [("n", True, 5), ("n", False, 40), ("n", True, 700), ("s", True, 3),
                                           ("s", False, 350), ("f", True, 8), ("f", False, 1)])
def test_topn_on_java_tables_gives_java_top_values(java_tables, kind, column, desc, k):
    path, java = java_tables[kind]
    plan = plan_scan(path, order_by=f"{column} {'DESC' if desc else 'ASC'}", limit=k)
    assert plan.report.topn_pushed, plan.report.topn_note
    ours = _spark_sorted(read_plan_locally(plan).column(column).to_pylist(), desc)[:k]
    assert _norm(ours) == _norm(_spark_sorted(java.column(column).to_pylist(), desc)[:k])
    if kind == "clustered" and k < 300:  # the k best live in one file
        assert len(plan.tasks) == 1, [t.path for t in plan.tasks]


def test_topn_on_java_tables_with_a_predicate(java_tables):
    path, java = java_tables["random"]
    plan = plan_scan(path, "n > 0", order_by=[("n", "desc"), ("id", "asc")], limit=7)
    assert plan.report.topn_pushed, plan.report.topn_note
    ours = _spark_sorted([v for v in read_plan_locally(plan).column("n").to_pylist() if v is not None and v > 0],
                         True)[:7]
    assert ours == _spark_sorted([v for v in java.column("n").to_pylist() if v is not None and v > 0], True)[:7]
