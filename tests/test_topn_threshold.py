"""Top-N pushdown, threshold first: the same answer as a full sort, from far fewer index bytes.

The planner bounds the n-th best value from each file's range-bitmap header (and dictionary chunks
when needed) and answers only the files that reach it (:mod:`paimon_codec.planning.topn.push`).  Every
file's new candidates must be a subset of its previous per-file answer (the reference below:
``top_n_rows`` on every file, as the planner did before), and the candidates must still hold the
whole answer: the sort values of ``ORDER BY .. LIMIT k`` over them equal a brute-force sort of the
table read with pyarrow.  Tables come from our writer (hypothesis over value distributions) and from
Java Paimon 1.4.2; a counting store shows the bytes fetched and that none is fetched twice.
"""

from __future__ import annotations

import threading

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spark_fixtures import spark  # noqa: F401

from paimon_codec import storage
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader
from paimon_codec.fileindex.topn import top_n_rows
from paimon_codec.fileio import ByteSource
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_tasks_locally
from paimon_codec.storage import files as storage_files
from paimon_codec.storage.ranges import DEFAULT_MIN_GET, RangeReader
from paimon_codec.table.table import PaimonTable
from paimon_codec.writing.append import append_arrow
from paimon_codec.writing.create import create_table

SCHEMA = pa.schema([("id", pa.int32()), ("g", pa.string()), ("v", pa.int64())])
OPTIONS = {"bucket": "-1", "file-index.range-bitmap.columns": "v", "file-index.bitmap.columns": "g",
           "file-index.range-bitmap.v.chunk-size": "128b"}  # several dictionary chunks per file


def _make(path, files: list[list[int | None]]) -> str:
    table = create_table(path, SCHEMA, OPTIONS)
    start = 0
    for values in files:
        n = len(values)
        append_arrow(table, pa.table({"id": pa.array(range(start, start + n), pa.int32()),
                                      "g": pa.array(["a" if i % 3 else "b" for i in range(start, start + n)]),
                                      "v": pa.array(values, pa.int64())}, schema=SCHEMA))
        start += n
    return table


def _sort_values(values: list, desc: bool, nulls_first: bool, k: int) -> list:
    present = sorted((v for v in values if v is not None), reverse=desc)
    nulls = [None] * (len(values) - len(present))
    return ((nulls + present) if nulls_first else (present + nulls))[:k]


def _where_mask(t: pa.Table, where: str | None):
    if where is None:
        return None
    if where.startswith("v > "):
        return pc.fill_null(pc.greater(t["v"], int(where[4:])), False)
    assert where == "g = 'a'"
    return pc.fill_null(pc.equal(t["g"], "a"), False)


def _reference(path: str, where, column: str, desc: bool, nulls_first: bool, strict: bool, k: int) -> dict:
    """The previous planner's answer: every file's own top-k (data file path -> rows)."""
    plan = plan_scan(path, where)
    table = PaimonTable(path)
    files = {f.path: f for f in table.batch_files(table.resolve_snapshot(None, None, None))}
    out = {}
    for task in plan.tasks:
        f = files[task.path]
        with ByteSource(f.embedded_index or f.index_path) as src:
            container = FileIndexContainerReader(src)
            payload = container.slice(column, "range-bitmap")
            if payload is None:
                out[task.path] = task.selection
                continue
            reader = RangeBitmapReader(payload, "BIGINT")
            out[task.path] = top_n_rows(reader, k, desc, nulls_first, strict, task.selection)
    return out


def check(path: str, where, desc: bool, nulls_first: bool, k: int, second_key: bool = False):
    order = [("v", "desc" if desc else "asc")] + ([("id", "asc")] if second_key else [])
    plan = plan_scan(path, where, order_by=order, limit=k, nulls_first=nulls_first)
    # pushed, unless the predicate left no file to order (e.g. g = 'a' on a one-row table)
    assert plan.report.topn_pushed or (not plan.tasks and plan.report.topn_note == "no data file left to order"), \
        plan.report.topn_note
    ref = _reference(path, where, "v", desc, nulls_first, not second_key, k)
    for task in plan.tasks:  # a subset of the previous per-file answer
        old = ref[task.path]
        if old is not None:
            new = range(task.row_count) if task.selection is None else task.selection
            assert set(new) <= set(old), task.path
    schema = SCHEMA
    everything = read_tasks_locally(plan_scan(path, use_indexes=False).tasks, schema)
    got = read_tasks_locally(plan.tasks, schema)
    if where is not None:
        everything = everything.filter(_where_mask(everything, where))
        got = got.filter(_where_mask(got, where))
    assert _sort_values(got.column("v").to_pylist(), desc, nulls_first, k) == \
        _sort_values(everything.column("v").to_pylist(), desc, nulls_first, k)
    return plan


VALUES = {
    "random": lambda draw, n: draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n)),
    "dups": lambda draw, n: draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
    "equal": lambda draw, n: [7] * n,
    "ascending": lambda draw, n: sorted(draw(st.lists(st.integers(-1000, 1000), min_size=n, max_size=n))),
    "descending": lambda draw, n: sorted(draw(st.lists(st.integers(-1000, 1000), min_size=n, max_size=n)),
                                         reverse=True),
}


@st.composite
def tables(draw):
    kind = draw(st.sampled_from(sorted(VALUES)))
    null_every = draw(st.sampled_from([0, 0, 2, 5]))
    files = []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 40))
        values = VALUES[kind](draw, n)
        if null_every:
            values = [None if i % null_every == 0 else v for i, v in enumerate(values)]
        if draw(st.booleans()) and kind in ("random", "dups"):
            values = [v if v is None else v + 100 * len(files) for v in values]  # files in separate ranges
        files.append(values)
    return files


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(files=tables(), desc=st.booleans(), nulls_first=st.booleans(), k=st.integers(0, 90),
       where=st.sampled_from([None, None, "v > 0", "g = 'a'"]), second_key=st.booleans())
def test_threshold_topn_keeps_the_answer(tmp_path_factory, files, desc, nulls_first, k, where, second_key):
    path = _make(tmp_path_factory.mktemp("t") / "t", files)
    check(path, where, desc, nulls_first, k, second_key)


def test_clustered_files_are_pruned(tmp_path):
    """Files in separate value ranges: the top-5 lives in the last file; the others are not read."""
    path = _make(tmp_path / "t", [list(range(100 * i, 100 * i + 50)) for i in range(6)])
    plan = check(path, None, True, False, 5)
    assert len(plan.tasks) == 1 and plan.report.rows_read == 5
    assert plan.report.files_read == 1 and plan.report.bytes_read == plan.tasks[0].file_size
    plan = check(path, None, False, True, 5)  # ascending, nulls first: the first file (no nulls anywhere)
    assert len(plan.tasks) == 1
    plan = check(path, None, True, False, 120)  # more than a file holds: dictionary chunks give the bound
    assert len(plan.tasks) == 3


def test_nulls_first_keeps_null_rows_of_pruned_files(tmp_path):
    path = _make(tmp_path / "t", [[1, 2, None, 3], [50, 60, 70], [None, None, 5]])
    plan = check(path, None, True, True, 4)
    assert plan.report.rows_read >= 4  # the three null rows and the best value
    check(path, None, True, False, 2)
    check(path, None, False, False, 2)
    check(path, None, False, True, 10)


# -- bytes: a counting store ------------------------------------------------------------------------------
class _Counter:
    """Local files read through :class:`RangeReader` (as an object store reads them), every GET recorded."""

    def __init__(self) -> None:
        self.gets: list[tuple[str, int, int]] = []
        self.lock = threading.Lock()

    def open_input(self, path: str, *, min_get: int = DEFAULT_MIN_GET):
        counter = self

        class Counting(RangeReader):
            def _fetch(self, offset: int, size: int) -> None:
                before = self.bytes_fetched
                super()._fetch(offset, size)
                with counter.lock:
                    counter.gets.append((path, offset, self.bytes_fetched - before))

        local = storage_files.split_uri(path)[2]
        return Counting(pafs.LocalFileSystem().open_input_file(local), min_get=min_get, name=path)

    def index_bytes(self) -> int:
        return sum(n for p, _, n in self.gets if p.endswith(".index"))

    def assert_no_byte_twice(self) -> None:
        seen: dict[str, list[tuple[int, int]]] = {}
        for p, off, n in self.gets:
            if p.endswith(".index"):
                for a, b in seen.get(p, []):
                    assert off + n <= a or b <= off, f"{p}: [{off}, {off + n}) fetched again (had [{a}, {b}))"
                seen.setdefault(p, []).append((off, off + n))


@pytest.fixture
def counting(monkeypatch):
    counter = _Counter()
    monkeypatch.setattr(storage, "open_input", counter.open_input)
    monkeypatch.setattr(storage_files, "open_input", counter.open_input)
    return counter


@pytest.fixture(scope="module")
def wide(tmp_path_factory) -> str:
    """24 files x 2,000 random values: index files of ~40 KB, mostly dictionary and bit slices."""
    import numpy as np

    rng = np.random.default_rng(7)
    table = create_table(tmp_path_factory.mktemp("wide") / "t", SCHEMA,
                         {"bucket": "-1", "file-index.range-bitmap.columns": "v", "file-index.bitmap.columns": "g"})
    for i in range(24):
        values = rng.integers(0, 1_000_000, 2000)
        append_arrow(table, pa.table({"id": pa.array(range(2000 * i, 2000 * (i + 1)), pa.int32()),
                                      "g": pa.array(["a" if x % 3 else "b" for x in values]),
                                      "v": pa.array(values, pa.int64())}, schema=SCHEMA))
    return table


def _all_index_bytes(path: str) -> int:
    plan = plan_scan(path)
    return sum(storage.file_size(t.path + ".index") for t in plan.tasks)


def _planned(counting, path, where, desc, nulls_first, k):
    """Plan under the counting store: (plan, index bytes fetched), no byte fetched twice; then the answer
    is checked (its reference reads are not counted)."""
    counting.gets.clear()
    plan = plan_scan(path, where, order_by=[("v", "desc" if desc else "asc")], limit=k, nulls_first=nulls_first)
    assert plan.report.topn_pushed, plan.report.topn_note
    fetched = counting.index_bytes()
    counting.assert_no_byte_twice()
    gets = list(counting.gets)
    check(path, where, desc, nulls_first, k)
    counting.gets[:] = gets
    return plan, fetched


def test_topn_reads_a_fraction_of_the_index_bytes_once(wide, counting):
    total = _all_index_bytes(wide)
    plan, fetched = _planned(counting, wide, None, True, False, 5)
    # a 4 KiB probe of each file (a tenth of these small files), then the bit slices of the few reaching
    # the bound (the previous planner read every file's slices, 64 KiB at a time: more than all of them)
    assert fetched < 0.3 * total, (fetched, total)
    assert len(plan.tasks) < 8
    read = {t.path + ".index" for t in plan.tasks}
    for path in {p for p, _, _ in counting.gets if p not in read}:  # a pruned file: its probe, maybe a chunk
        assert len([g for g in counting.gets if g[0] == path]) <= 2
    plan, fetched = _planned(counting, wide, None, False, True, 5)  # + existence bitmaps of pruned files
    assert fetched < 0.35 * total, (fetched, total)


def test_topn_with_a_predicate_fetches_no_index_byte_twice(wide, counting):
    """With a predicate the judge reads each index anyway: it answers top-N through the same handle."""
    for where in ("v > 500000", "g = 'a'"):
        plan, fetched = _planned(counting, wide, where, True, False, 10)
        assert fetched <= _all_index_bytes(wide)


def _selections(plan) -> list:
    return sorted((t.path.rsplit("/", 1)[-1], None if t.selection is None else list(t.selection)) for t in plan.tasks)


def test_threshold_plans_the_same_on_the_s3_server(wide, table_location):
    """Through the store's ranged reads (held ranges, threads): the same candidates as on local disk."""
    path = table_location(wide)
    for where, order, k in ((None, "v DESC", 5), (None, "v ASC", 30), ("g = 'a'", "v DESC", 4)):
        local = plan_scan(wide, where, order_by=order, limit=k)
        remote = plan_scan(path, where, order_by=order, limit=k)
        assert remote.report.topn_pushed, remote.report.topn_note
        assert _selections(remote) == _selections(local)


@pytest.mark.spark
def test_topn_with_a_predicate_plans_the_same_in_spark_tasks(spark, tmp_path):  # noqa: F811
    """The judge answers top-N where it runs: Spark tasks give the driver's candidates."""
    from paimon_codec.spark.distributed_plan import SparkFileJudge
    from paimon_codec.spark.sample import write_sample_table

    path = write_sample_table(tmp_path, files=6, rows_per_file=400, seed=3, deleted_every=7, paimon_version="latest")
    judge = SparkFileJudge(spark, "always", files_per_task=2)
    for where, order, k in (("amount > 500", "amount DESC", 5), ("status = 'PAID'", "amount ASC", 7),
                            (None, "amount DESC", 4)):
        driver = plan_scan(path, where, order_by=order, limit=k)
        tasks = plan_scan(path, where, order_by=order, limit=k, judge=judge)
        assert driver.report.topn_pushed and tasks.report.topn_pushed, (driver.report.topn_note, tasks.report.topn_note)
        assert tasks.report.planning == "distributed"
        assert _selections(tasks) == _selections(driver)
        assert tasks.report.index_bytes_read == driver.report.index_bytes_read


def test_deletion_vectors_discount_a_files_best_keys(tmp_path):
    """File 0 holds the earliest ``ts`` and a deletion vector (every 50th row): its bound skips as many of
    its best keys as it has deleted rows, and still prunes every other file."""
    from paimon_codec.spark.sample import write_sample_table

    path = write_sample_table(tmp_path, files=6, rows_per_file=400, seed=4, deleted_every=50, paimon_version="latest")
    everything = read_tasks_locally(plan_scan(path, use_indexes=False).tasks, arrow_schema_of(path))
    for order, k, files in (("ts ASC", 5, 1), ("ts DESC", 7, 1), ("amount DESC", 9, None), ("amount ASC", 30, None)):
        column, direction = order.split()
        plan = plan_scan(path, order_by=order, limit=k)
        assert plan.report.topn_pushed, plan.report.topn_note
        got = read_tasks_locally(plan.tasks, arrow_schema_of(path))
        desc = direction == "DESC"
        assert _sort_values(got.column(column).to_pylist(), desc, not desc, k) == \
            _sort_values(everything.column(column).to_pylist(), desc, not desc, k)
        if files is not None:
            assert len(plan.tasks) == files
            assert any(t.has_deletions for t in plan.tasks) == (direction == "ASC")


def arrow_schema_of(path: str):
    from paimon_codec.reading.read import arrow_schema

    return arrow_schema(plan_scan(path).row_type)


def test_held_ranges_fetch_each_byte_once():
    import io

    from paimon_codec.errors import TruncatedDataError
    from paimon_codec.planning.held_ranges import HeldRanges

    data = bytes(range(256)) * 40  # 10,240 bytes

    class Exact(io.BytesIO):
        def __init__(self, payload: bytes) -> None:
            super().__init__(payload)
            self.reads: list[tuple[int, int]] = []

        def read(self, size: int = -1) -> bytes:
            at = self.tell()
            out = super().read(size)
            self.reads.append((at, len(out)))
            return out

    raw = Exact(data)
    f = HeldRanges(raw, 1000)
    f.seek(100)
    assert f.read(10) == data[100:110] and raw.reads == [(100, 1000)]  # a miss reads ahead
    f.seek(5000)
    assert f.read(4) == data[5000:5004]
    f.prefetch(1050, 4000)  # only the gap between the two held windows
    assert raw.reads[-1] == (1100, 3900)
    f.seek(0)
    assert f.read(6000) == data[:6000]  # pieces held + [0, 100) + [6000...): read ahead stops at nothing held
    f.seek(9000)
    assert f.read() == data[9000:]
    spans = sorted(raw.reads)
    assert all(a + n <= b for (a, n), (b, _) in zip(spans, spans[1:], strict=False))  # no byte twice
    assert f.fetched == sum(n for _, n in raw.reads)

    class Short(Exact):
        def read(self, size: int = -1) -> bytes:
            return super().read(size)[:-1]

    with pytest.raises(TruncatedDataError):
        HeldRanges(Short(data), 64).read(10)


def test_topn_over_no_file_says_so(tmp_path):
    """Hypothesis found it: ``g = 'a'`` prunes a one-row table's only file (its row is ``'b'``); the plan is empty and
    the report says why top-N was not pushed instead of leaving the note empty."""
    path = _make(tmp_path / "t", [[7]])
    plan = plan_scan(path, "g = 'a'", order_by=[("v", "asc")], limit=1)
    assert plan.tasks == [] and not plan.report.topn_pushed
    assert plan.report.topn_note == "no data file left to order"
    check(path, "g = 'a'", False, False, 0)


def test_files_without_a_candidate_are_reported_skipped(tmp_path):
    """Files in separate value ranges: top-1 ascending has its candidate in the first file only; the report's
    per-file decisions name exactly the files the plan reads (the others: no top-N candidate)."""
    path = _make(tmp_path / "t", [[1, 2], [10, 20], [30, 40]])
    plan = plan_scan(path, order_by=[("v", "asc")], limit=1)
    assert plan.report.topn_pushed, plan.report.topn_note
    read = {f["path"] for f in plan.report.files if f["decision"] == "read"}
    assert {path + "/" + r for r in read} == {t.path for t in plan.tasks} and len(read) == 1
    skipped = [f for f in plan.report.files if f["decision"] == "skipped: no top-N candidate"]
    assert len(skipped) == 2 and all(f["rows_topn_candidates"] == 0 for f in skipped)
