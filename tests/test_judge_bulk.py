"""The driver's bulk judge (``planning/judge_bulk.py``: read in threads, range-bitmap answers computed together)
gives every file exactly the verdict of the per-file judge (``judge_files`` one file after the other): the
rows selected, the decision, exactness, index bytes read, the deletion vector's rows - on random range-bitmap
files (key types, bit widths, nulls, dictionary and chunk sizes, deletion vectors, indexes in their own
files and embedded) under every comparison, with literals below, above, between and on the keys; and a
broken file raises the per-file run's error (the first failing file's).

The bulk computation itself (``fileindex/range_bitmap/bulk.py``) is checked against each row's code decoded
from the slices.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import write_dv_index
from paimon_codec.errors import PaimonCodecError
from paimon_codec.fileindex.container import FileIndexContainerReader, write_container
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileindex.range_bitmap import bulk as bulk_module
from paimon_codec.fileindex.range_bitmap.bulk import code_ranges_rows
from paimon_codec.fileindex.range_bitmap.reader import CodeRangeResult
from paimon_codec.planning.judge import FileProbe, JudgeContext, judge_files
from paimon_codec.planning.judge_bulk import judge_in_bulk
from paimon_codec.planning.plan import as_predicate
from paimon_codec.table.schema import TableSchema
from paimon_codec.types import parse_row_type

TYPES = ["BIGINT", "INT", "SMALLINT", "STRING", "DOUBLE"]


def _domain(rng: np.random.Generator, dtype: str, size: int) -> list:
    """``size`` distinct values of ``dtype``, ascending."""
    if dtype == "STRING":
        return [f"s{x:06d}" for x in sorted(rng.choice(1_000_000, size, replace=False))]
    if dtype == "DOUBLE":
        return sorted({float(x) / 8 for x in rng.choice(2_000_000, size, replace=False) - 1_000_000})
    bound = 30_000 if dtype == "SMALLINT" else 2_000_000_000
    return [int(x) for x in sorted(rng.choice(2 * bound, size, replace=False) - bound)]


def _column(rng: np.random.Generator, dtype: str) -> list:
    rows = int(rng.choice([0, 1, 7, 300, 5000, 70_000], p=[0.05, 0.1, 0.15, 0.3, 0.35, 0.05]))
    distinct = int(rng.choice([1, 2, 3, 40, 2000, 9000]))
    keys = _domain(rng, dtype, distinct)
    nulls = float(rng.choice([0.0, 0.2, 1.0], p=[0.5, 0.4, 0.1]))
    picks = rng.integers(0, len(keys), rows)
    null = rng.random(rows) < nulls
    return [None if n else keys[p] for p, n in zip(picks.tolist(), null.tolist(), strict=True)]


def _payload(values: list, dtype: str, chunk: str | None) -> bytes:
    writer = RangeBitmapWriter(dtype, {"chunk-size": chunk} if chunk else None)
    writer.write_batch(values)
    return writer.serialize()


def _sql(value, dtype: str) -> str:
    return f"'{value}'" if dtype == "STRING" else repr(value)


def _literals(columns: list[list], dtype: str, rng: np.random.Generator) -> list:
    keys = sorted({v for c in columns for v in c if v is not None})
    if not keys:
        return _domain(rng, dtype, 2)
    out = [keys[0], keys[-1], keys[len(keys) // 2]]
    out += [keys[int(i)] for i in rng.integers(0, len(keys), 4)]
    if dtype == "STRING":
        out += ["", "s", keys[0][:-1], keys[-1] + "x", keys[len(keys) // 3] + "0"]
    else:
        step = 0.25 if dtype == "DOUBLE" else 1
        low, high = (-30_000, 29_999) if dtype == "SMALLINT" else (keys[0] - 5, keys[-1] + 5)
        out += [max(low, keys[0] - step), min(high, keys[-1] + step), keys[len(keys) // 3] + step]
    return out


def _predicates(literals: list, dtype: str, rng: np.random.Generator) -> list[str]:
    preds = ["v IS NULL", "v IS NOT NULL"]
    for lit in literals:
        s = _sql(lit, dtype)
        preds += [f"v < {s}", f"v <= {s}", f"v > {s}", f"v >= {s}", f"v = {s}", f"v <> {s}"]
    for _ in range(4):
        a, b = sorted(rng.choice(len(literals), 2, replace=False).tolist())
        lo, hi = sorted([literals[a], literals[b]])
        preds += [f"v BETWEEN {_sql(lo, dtype)} AND {_sql(hi, dtype)}",
                  f"v IN ({_sql(lo, dtype)}, {_sql(hi, dtype)})", f"v NOT IN ({_sql(lo, dtype)})",
                  f"v < {_sql(lo, dtype)} OR v > {_sql(hi, dtype)}", f"v >= {_sql(lo, dtype)} AND k > 3"]
    return preds


def _files(tmp_path, rng: np.random.Generator, dtype: str, count: int) -> tuple[list[FileProbe], list[list]]:
    probes, columns, dvs = [], [], {}
    for i in range(count):
        values = _column(rng, dtype)
        chunk = [None, "64 b", "1 kb"][int(rng.integers(0, 3))]
        entries = [("v", [("range-bitmap", _payload(values, dtype, chunk))])]
        if rng.random() < 0.2:  # the column without an index in this file
            entries = [("k", [("range-bitmap", _payload(list(range(len(values))), "INT", None))])]
        container = write_container(entries)
        path = str(tmp_path / f"data-{dtype}-{i}.parquet")
        embedded = container if rng.random() < 0.3 else None
        if embedded is None:
            with open(path + ".index", "wb") as fh:
                fh.write(container)
        if values and rng.random() < 0.3:
            dvs[os.path.basename(path)] = DeletionVector.from_array(
                np.flatnonzero(rng.random(len(values)) < rng.choice([0.1, 1.0])))
        probes.append(FileProbe(path, len(values), 0, None if embedded else path + ".index", embedded))
        columns.append(values)
    if dvs:
        metas = write_dv_index(str(tmp_path), dvs, name_factory=lambda n: f"dv-{dtype}-{n}")
        where = {r.data_file: (os.path.join(str(tmp_path), m.file_name), r.offset, r.length, r.cardinality)
                 for m in metas for r in m.ranges}
        for i, p in enumerate(probes):
            hit = where.get(os.path.basename(p.path))
            if hit is not None:
                known = hit[3] if rng.random() < 0.5 else None  # the manifest's cardinality, or not recorded
                probes[i] = FileProbe(p.path, p.row_count, 0, p.index_path, p.embedded_index, hit[:3], known)
    return probes, columns


@pytest.fixture
def counting(monkeypatch):
    """How many answers the bulk step computed (a bulk judge that computes none would test nothing)."""
    seen = [0]
    real = bulk_module.code_ranges_rows

    def count(results):
        seen[0] += sum(not r.computed for r in results)
        return real(results)

    monkeypatch.setattr(bulk_module, "code_ranges_rows", count)
    return seen


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("seed", [1, 2])
def test_bulk_verdicts_equal_per_file_verdicts(tmp_path, dtype, seed, counting):
    rng = np.random.default_rng(seed * 100 + TYPES.index(dtype))
    probes, columns = _files(tmp_path, rng, dtype, 14)
    row_type = parse_row_type(f"k INT, v {dtype}")
    schema = TableSchema(0, row_type, {}, (), ())
    for where in _predicates(_literals(columns, dtype, rng), dtype, rng):
        for semantics in ("paimon", "spark") if dtype == "DOUBLE" else ("paimon",):
            ctx = JudgeContext(as_predicate(where, row_type), row_type, schema, True, {}, None, semantics)
            expected = judge_files(ctx, probes, threads=1)
            assert judge_in_bulk(ctx, probes, threads=4) == expected, where
            assert judge_in_bulk(ctx, probes, threads=1) == expected, where
    assert counting[0] > 0


def test_bulk_answers_are_the_rows_of_the_code_range():
    """code_ranges_rows against each row's code decoded from the slices, for every kind of range."""
    rng = np.random.default_rng(7)
    readers, requests = [], []
    for _ in range(30):
        values = _column(rng, "BIGINT")
        reader = RangeBitmapReader(_payload(values, "BIGINT", None), "BIGINT")
        top = reader.cardinality
        for a, b in [(0, top - 1), (0, top // 2), (top // 3, top - 1), (top // 4, top // 2), (1, 0), (0, -1),
                     (top, top + 3), (int(rng.integers(-2, top + 2)), int(rng.integers(-2, top + 2)))]:
            readers.append(reader)
            requests.append(CodeRangeResult(reader, a, b))
    for r in requests[::5]:
        r.load()
    assert code_ranges_rows(requests) == [None] * len(requests)
    for reader, r in zip(readers, requests, strict=True):
        codes = reader.row_codes()
        expected = np.flatnonzero((codes >= max(r.a, 0)) & (codes <= r.b) & (codes >= 0))
        assert r.computed and np.array_equal(np.frombuffer(r.bitmap.to_array(), np.uint32), expected)


def _corrupt_first_slice(index_path: str) -> None:
    """Overwrite the cookie of the first bit slice of the file's ``v`` range bitmap."""
    with open(index_path, "rb") as fh:
        data = fh.read()
    start, length = FileIndexContainerReader(data).columns["v"]["range-bitmap"]
    reader = RangeBitmapReader(data[start:start + length], "BIGINT")
    _, ebm_len, index, body = reader._bsi_head
    at = start + reader.bsi_offset + body + ebm_len + int(index[0, 0])
    with open(index_path, "r+b") as fh:
        fh.seek(at)
        fh.write(b"\xff" * 8)


@pytest.mark.parametrize("broken", [(3, 9), (9, 3)], ids=["walk-first", "open-first"])
def test_first_failing_file_raises_the_per_file_error(tmp_path, broken):
    """A slice that fails only when the answer is computed (step 2) and a missing index file (step 1): the
    bulk judge raises the error of whichever file comes first, as judging one file after the other does."""
    rng = np.random.default_rng(5)
    probes, columns = [], []
    for i in range(12):
        values = [int(x) for x in rng.integers(0, 100_000, 3000)]
        path = str(tmp_path / f"data-{i}.parquet")
        with open(path + ".index", "wb") as fh:
            fh.write(write_container([("v", [("range-bitmap", _payload(values, "BIGINT", None))])]))
        probes.append(FileProbe(path, len(values), 0, path + ".index"))
        columns.append(values)
    walk, missing = broken
    _corrupt_first_slice(probes[walk].index_path)
    os.remove(probes[missing].index_path)
    row_type = parse_row_type("k INT, v BIGINT")
    ctx = JudgeContext(as_predicate("v < 50000", row_type), row_type, TableSchema(0, row_type, {}, (), ()), True)
    with pytest.raises(PaimonCodecError) as first:
        judge_files(ctx, probes, threads=1)
    assert probes[min(broken)].index_path in str(first.value)
    for threads in (1, 4, 16):
        with pytest.raises(PaimonCodecError) as again:
            judge_in_bulk(ctx, probes, threads=threads)
        assert type(again.value) is type(first.value) and str(again.value) == str(first.value)
