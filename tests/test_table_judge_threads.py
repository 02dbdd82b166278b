"""Files judged by several threads (``judge_files`` / ``judge_on_driver``) get exactly the verdicts of one
file after the other, in the same order, and a broken file raises the same error as a sequential run.

Tables: the golden warehouse (written by Java Paimon: an indexed append table, primary-key tables with
deletion vectors), on local disk and copied to the S3 server, and a partitioned table written here by Java
Paimon 1.4.2 with file indexes in their own files (several files per commit) plus a primary-key table with
deletion vectors.
"""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from golden_warehouse import WAREHOUSE_JSON, table_at, tables
from plan_compare import assert_same_plans, write_java_tables

from paimon_codec.errors import PaimonCodecError
from paimon_codec.planning import judge as judge_module
from paimon_codec.planning.judge import judge_files
from paimon_codec.planning.plan import plan_scan

PREDICATES = [None, "cat = 'c3'", "code > 90", "name = 'n42'", "cat IN ('c1', 'c5') AND p = 'x'",
              "code BETWEEN 10 AND 12 OR cat = 'c0'", "name = 'absent'"]


class _Comparing:
    """A judge that judges every file list one by one and with ``threads`` threads and checks they agree.

    In the threaded run the first two files are held until both are being judged at once (a barrier), so
    every list of two or more files really is judged by two threads concurrently: left to the scheduler, a
    loaded machine lets the first thread take every file before the second one starts (seen 1 run in 20
    under CPU load), and the comparison would then test no concurrency at all."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.calls = 0
        self.files = 0
        self.thread_names: set[str] = set()

    def __call__(self, ctx, files):
        sequential = judge_files(ctx, files, threads=1)
        real = judge_module.judge_file
        names = self.thread_names
        concurrent = len(files) >= 2 and self.threads >= 2
        meet = threading.Barrier(2, timeout=120)
        entered = iter(range(len(files)))

        def recording(*args, **kwargs):
            names.add(threading.current_thread().name)
            if concurrent and next(entered) < 2:  # the first two files: judged at the same time
                meet.wait()
            return real(*args, **kwargs)

        judge_module.judge_file = recording
        try:
            threaded = judge_files(ctx, files, threads=self.threads)
        finally:
            judge_module.judge_file = real
        assert threaded == sequential  # verdicts in file order: decision, selection bitmap, bytes, notes
        self.calls += 1
        self.files += len(files)
        return threaded, "driver", 0


def _same_plans(path: str, where, judge: _Comparing):
    # stats pruning off: every file with an index is judged, by threads and one by one
    default = plan_scan(path, where, use_stats=False)
    assert_same_plans(default, plan_scan(path, where, judge=judge, use_stats=False), where, ignore={"planning_ms"})
    return default.report


@pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_golden_tables_judged_by_threads_as_one_by_one(spec, table_location):
    path = table_at(table_location, spec["table"])
    judge = _Comparing(threads=8)
    deleted = 0
    for q in spec["queries"]:
        deleted = max(deleted, _same_plans(path, q["pred"], judge).rows_deleted)
    assert judge.calls > 0
    if judge.files > len(judge.thread_names) > 0:
        assert any(n.startswith("paimon-codec-judge-") for n in judge.thread_names)
    assert deleted > 0 or "dv" not in spec["kind"]


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    return write_java_tables(java_newest, tmp_path_factory.mktemp("judge_threads"), commits=5, rows_per_commit=50)


@pytest.mark.parametrize("name", ["append", "pk_dv"])
def test_java_written_tables_judged_by_threads_as_one_by_one(java_tables, name):
    judge = _Comparing(threads=4)
    skipped = deleted = 0
    for where in PREDICATES:
        report = _same_plans(java_tables[name], where, judge)
        skipped += report.files_skipped_by_index
        deleted = max(deleted, report.rows_deleted)
    assert judge.files > judge.calls, "no file list long enough for several threads"
    assert len(judge.thread_names) > 1
    assert skipped > 0, "the Java-written indexes pruned nothing"
    assert name != "pk_dv" or deleted > 0, "the primary-key table has no deletion vector"


def test_first_failing_file_raises_the_same_error(java_tables, tmp_path):
    """Two broken index files: every run raises the sequential run's error, the earlier file's."""
    path = str(tmp_path / "append")
    shutil.copytree(java_tables["append"], path)
    seen = []

    def capture(ctx, files):
        seen.append((ctx, files))
        return judge_files(ctx, files, threads=1), "driver", 0

    plan_scan(path, "code > 90", judge=capture)
    ctx, files = seen[0]
    with_index = [f for f in files if f.index_path]
    assert len(with_index) >= 4
    os.remove(with_index[1].index_path)  # missing: a CorruptDataError naming it
    with open(with_index[-1].index_path, "r+b") as fh:  # truncated: a different error
        fh.truncate(3)
    with pytest.raises(PaimonCodecError) as first:
        judge_files(ctx, files, threads=1)
    assert with_index[1].index_path in str(first.value)
    for threads in (2, 4, 16):
        for _ in range(3):
            with pytest.raises(PaimonCodecError) as again:
                judge_files(ctx, files, threads=threads)
            assert type(again.value) is type(first.value) and str(again.value) == str(first.value)
    with pytest.raises(PaimonCodecError) as planned:
        plan_scan(path, "code > 90")
    assert str(planned.value) == str(first.value)


def test_local_files_are_judged_by_at_most_local_judge_threads(java_tables, monkeypatch):
    """A local table's files are judged by at most ``LOCAL_JUDGE_THREADS`` threads (reads are page-cache copies:
    more threads than cores only contend), a store's by ``JUDGE_THREADS``; few files on the calling thread."""
    monkeypatch.setattr(judge_module, "LOCAL_JUDGE_THREADS", 3)
    monkeypatch.setattr(judge_module, "JUDGE_THREADS", 16)
    local = [judge_module.FileProbe(f"/tmp/t/f{i}.parquet", 10) for i in range(20)]
    remote = [judge_module.FileProbe(f"s3://bucket/t/f{i}.parquet", 10) for i in range(20)]
    assert judge_module._default_threads(local) == 3
    assert judge_module._default_threads(remote) == 16
    assert judge_module._default_threads(local[:3]) == 1
    names: set[str] = set()
    real = judge_module.judge_file
    meet = threading.Barrier(3, timeout=120)
    entered = iter(range(10**6))

    def recording(*args, **kwargs):
        names.add(threading.current_thread().name)
        if next(entered) < 3:  # the first three files at once: three threads really run
            meet.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(judge_module, "judge_file", recording)
    seen = []

    def capture(ctx, files):
        seen.append(len(files))
        return judge_files(ctx, files), "driver", 0

    plan_scan(java_tables["append"], "code > 90", judge=capture, use_stats=False)
    assert seen and max(seen) >= 4, "no file list long enough for threads"
    assert len(names) == 3 and all(n.startswith("paimon-codec-judge-") for n in names)
