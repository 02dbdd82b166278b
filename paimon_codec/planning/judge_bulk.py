"""Judging many files on the driver: read in threads, compute the range-bitmap answers in one go.

:func:`~.judge.judge_file` judges one file start to end - what a Spark task and a single file need.  The
driver judges all of a scan's files, and there the work splits in three steps over every file:

1. **read** (threads, :data:`~.judge.JUDGE_THREADS`): open each file's index, evaluate the predicate; a
   range bitmap's comparison reads the bytes its answer needs (EBM, slices) but is not computed
   (:func:`~.judge.index_stage` with ``defer``);
2. **compute** (the calling thread): every deferred answer, by
   :func:`~paimon_codec.fileindex.range_bitmap.bulk.code_ranges_rows` - exactly the rows each file's own
   comparison gives, without sixteen threads taking turns at the interpreter lock for CPU-bound walks;
3. **decide** (:func:`~.judge.verdict_stage`): the deletion vector, the selection, the decision - in threads
   when some file has a deletion vector to read, else here.

The verdicts are :func:`~.judge.judge_files`' (``tests/test_judge_bulk.py`` compares them on random files),
and a failure raises the error of the first failing file in ``files`` order, as one file after the other would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from ..fileio import ByteSource
from .judge import (
    JUDGE_THREADS,
    MIN_FILES_FOR_THREADS,
    FileVerdict,
    JudgeContext,
    index_stage,
    judge_files,
    verdict_stage,
)
from .judge_sources import SharedSource, open_dv_source
from .probe import FileProbe

__all__ = ["in_file_order", "judge_in_bulk", "judge_on_driver"]

T = TypeVar("T")


def in_file_order(count: int, work: Callable[[int], T], workers: int) -> tuple[list[T | None], dict[int, BaseException]]:
    """``work(i)`` for ``i`` in ``range(count)`` by ``workers`` threads, handed out in order; after a failure
    no further index is handed out, so every index below the first failing one has been worked.  Returns the
    outputs (``None`` where not worked) and the errors by index."""
    out: list[T | None] = [None] * count
    errors: dict[int, BaseException] = {}
    if workers <= 1:
        for i in range(count):
            try:
                out[i] = work(i)
            except BaseException as exc:  # noqa: BLE001 - re-raised by the caller, unchanged
                errors[i] = exc
                break
        return out, errors
    lock = threading.Lock()
    next_index = iter(range(count))

    def run() -> None:
        while True:
            with lock:
                i = -1 if errors else next(next_index, -1)
            if i < 0:
                return
            try:
                out[i] = work(i)
            except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread, unchanged
                with lock:
                    errors[i] = exc

    pool = [threading.Thread(target=run, name=f"paimon-codec-judge-{k}", daemon=True) for k in range(workers)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return out, errors


def judge_in_bulk(ctx: JudgeContext, files: list[FileProbe], threads: int | None = None) -> list[FileVerdict]:
    """:func:`~.judge.judge_files`' verdicts, the range-bitmap answers computed together (module doc).

    A top-N request keeps each file's index open between the predicate and the top-N step: such plans, and
    plans without a predicate to evaluate, are judged file by file."""
    n = len(files)
    if ctx.topn is not None or ctx.pred is None or not ctx.use_indexes or n < MIN_FILES_FOR_THREADS:
        return judge_files(ctx, files, threads)
    from ..fileindex.range_bitmap.bulk import code_ranges_rows
    from ..fileindex.range_bitmap.reader import CodeRangeResult

    workers = min(max(1, JUDGE_THREADS if threads is None else threads), n)
    staged, errors = in_file_order(n, lambda i: index_stage(ctx, files[i], None, defer=True), workers)
    done = min(errors, default=n)  # files after the first failure are not judged further
    deferred = [(i, r) for i in range(done) for r in (staged[i][1],)  # type: ignore[index]
                if isinstance(r, CodeRangeResult) and not r.computed]
    for (i, _), exc in zip(deferred, code_ranges_rows([r for _, r in deferred]), strict=True):
        if exc is not None and i < done:
            errors[i] = exc
            done = i
    sources: dict[str, ByteSource] = {}
    extents: dict[str, tuple[int, int]] = {}
    for f in files[:done]:  # the span of each vector file's entries (as judge_files)
        if f.deletion is not None:
            dv_path, offset, length = f.deletion
            lo, hi = extents.get(dv_path, (offset, offset))
            extents[dv_path] = (min(lo, offset), max(hi, offset + length + 8))
    lock = threading.Lock()

    def decide(i: int) -> FileVerdict:
        with lock:  # opening a vector file once for all threads (a few per table)
            source = open_dv_source(files[i], sources, extents, SharedSource)
        verdict, result = staged[i]  # type: ignore[misc]
        return verdict_stage(ctx, files[i], source, verdict, result, [])

    try:
        verdicts, late = in_file_order(done, decide, workers if extents else 1)
    finally:
        for source in sources.values():
            source.close()
    errors.update(late)
    if errors:
        raise errors[min(errors)]
    return verdicts  # type: ignore[return-value]  # every slot filled when no file failed


def judge_on_driver(ctx: JudgeContext, files: list[FileProbe]) -> tuple[list[FileVerdict], str, int]:
    """The default judge: every file here (:data:`~.judge.JUDGE_THREADS` at once, the range-bitmap answers
    computed together: :func:`judge_in_bulk`) -> ``(verdicts, "driver", 0 tasks)``."""
    return judge_in_bulk(ctx, files), "driver", 0
