"""Top-N pushdown of a scan plan to range-bitmap indexes: a threshold first, then slices of few files.

``ORDER BY k [DESC] LIMIT n`` is pushed down when every file to read has a range bitmap on ``k`` and
its selection is exact (no predicate, or one its indexes answer exactly).  Each file's selection then
shrinks to its own top-``n`` candidates (:func:`paimon_codec.fileindex.topn.top_n_rows`: ties kept
unless the sort has a single key), whose union holds the global answer; the reader still sorts and
limits.  Answering that per file walks every bit slice of every file, although only the files holding
the table's ``n`` best values can contribute.  So the planner works in three steps:

1. **Probe** every file: its container head and its range bitmap's header (min, max, counts) - a few
   hundred bytes, read with small range requests (:data:`PROBE_GET`), the handle closed afterwards.
2. **Bound**: from the files' best keys (and, only when they are too few, their dictionaries' chunks
   at the best end) a value ``T`` that at least ``n`` candidate rows reach
   (:mod:`paimon_codec.fileindex.topn_bound`).  One more chunk of each file still reaching ``T``
   tightens it (files whose top values cluster).
3. **Answer** the files whose best key reaches ``T``: their bit slices in one request each, and the
   same per-file answer as before.  A file whose best key ranks strictly after ``T`` holds no row of
   the answer: its selection becomes empty (with NULLS FIRST its null candidates stay, read from
   its existence bitmap).

The answer is the previous per-file answer for every file that can contribute and nothing for the
others: still a superset of the global answer, which the reader's sort + limit narrows.  No byte is
read twice: each step reads other parts of the payload (header; dictionary chunks; bit slices).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pyroaring import BitMap

from ... import storage
from ...fileindex.container import EMPTY_INDEX_FLAG, FileIndexContainerReader
from ...fileindex.range_bitmap import RangeBitmapReader
from ...fileindex.topn import top_n_rows
from ...fileindex.topn_bound import KeyStream, nth_best, nth_best_possible, ranks_worse
from ...fileio import ByteSource
from ...roaring import first_n
from ...table.schema import TableSchema
from ...table.table import LiveDataFile
from ...types import RowType
from ..held_ranges import HeldRanges
from ..judge import JUDGE_THREADS, MIN_FILES_FOR_THREADS, FileVerdict, _index_view
from ..tasks import FileTask, PlanReport
from .exact import FLOATS
from .file import TopNRequest, file_reason, within

__all__ = ["push_topn", "topn_request", "PROBE_GET", "MAX_CHUNK_ROUNDS", "REFINE_ROUNDS"]

#: Minimum bytes per request while probing an index file on an object store: the container head and a
#: range-bitmap header are a few hundred bytes (the default 64 KiB read-ahead would fetch dictionary
#: bytes no probe needs).  Local files ignore it.
PROBE_GET = 4096

#: Rounds of dictionary-chunk reads at most (each reads the next chunk of the files that can still raise
#: the bound: those whose worst known key reaches the best bound still possible).
MAX_CHUNK_ROUNDS = 8
#: Of those, rounds made only to tighten a bound already found (to prune more of the files reaching it).
REFINE_ROUNDS = 3

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class _Probe:
    """One file's range bitmap on the sort column, its header read; reopened only when needed."""

    task: FileTask
    path: str | None  # the index file (None: embedded in the manifest)
    window: tuple[int, int] | None  # (start, length) of the payload; None: an empty index
    reader: RangeBitmapReader | None = None
    stream: KeyStream | None = None
    sources: list[ByteSource] = field(default_factory=list)

    held: HeldRanges | None = None  # an object-store file: kept open, every fetched byte held

    @contextlib.contextmanager
    def reading(self) -> Iterator[RangeBitmapReader]:
        """The reader, with an open handle for the block of the ``with``."""
        assert self.reader is not None and self.window is not None
        if self.path is None:
            yield self.reader
            return
        if self.held is not None:
            source = ByteSource(self.held, path=self.path)
            self.sources.append(source)
            self.reader.rebind(source.sub(*self.window))
            yield self.reader
            return
        with ByteSource(self.path) as source:  # a local file: reopened (no open descriptor per file)
            self.sources.append(source)
            self.reader.rebind(source.sub(*self.window))
            yield self.reader

    def close(self) -> None:
        if self.held is not None:
            self.held.close()


def _map(fn: Callable[[T], R], items: list[T]) -> list[R]:
    """``fn`` over ``items`` in order; in threads when there are several (each is request latency)."""
    if len(items) < MIN_FILES_FOR_THREADS:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(min(JUDGE_THREADS, len(items)), thread_name_prefix="paimon-codec-topn") as pool:
        return list(pool.map(fn, items))


def topn_request(pred: Any, keys: list[Any], limit: int | None, row_type: RowType,
                 primary_key: bool) -> TopNRequest | None:
    """What the judge computes per file while its index is open: only with a predicate (without one the
    judge reads no index, and the threshold below reads far less) and when top-N can be pushed at all."""
    if pred is None or not keys or limit is None or primary_key:
        return None
    first = keys[0]
    if row_type.field(first.column).type.root in FLOATS and len(keys) > 1:
        return None
    return TopNRequest(first.column, first.descending, first.nulls_come_first, len(keys) == 1, limit)


def push_topn(items: list[tuple[FileTask, LiveDataFile, FileVerdict]], pred: Any, keys: list[Any], limit: int,
              row_type: RowType, report: PlanReport, table: Any = None,
              schema: TableSchema | None = None) -> str | None:
    """Shrink every task's selection to its top-``limit`` candidates; a reason string when not pushed.

    ``items``: ``(task, file, its verdict)``; ``keys``: the sort keys (:class:`~paimon_codec.planning.plan.SortKey`).
    Files whose judge already answered top-N (``verdict.topn_done``) are taken as answered.
    """
    first = keys[0]
    dtype = row_type.field(first.column).type
    if dtype.root in FLOATS and len(keys) > 1:
        return "FLOAT/DOUBLE indexes order -0.0 before 0.0, which a secondary sort key may tell apart"
    for task, _, _ in items:
        if task.primary_key_file:
            return "primary-key files may hold retraction rows"

    answered: dict[int, BitMap | None] = {}
    rest = []
    for item in items:
        verdict = item[2]
        if verdict.topn_done:
            if verdict.topn_note is not None:
                return verdict.topn_note
            answered[id(item[0])] = verdict.topn_rows
        else:
            rest.append(item)

    def probe(item: tuple[FileTask, LiveDataFile, FileVerdict]) -> _Probe | str:
        return _probe(item, pred, first.column, dtype, row_type, table, schema)

    outcomes = _map(probe, rest)
    try:
        probes: list[_Probe] = []
        for outcome in outcomes:
            if isinstance(outcome, str):
                return outcome
            probes.append(outcome)
        desc, strict = first.descending, len(keys) == 1
        bound = _bound(probes, limit, desc)

        def answer(p: _Probe) -> BitMap | None:
            return _answer(p, bound, limit, desc, first.nulls_come_first, strict)

        new = _map(answer, probes)
    finally:
        for outcome in outcomes:
            if isinstance(outcome, _Probe):
                outcome.close()
    report.index_bytes_read += sum(s.bytes_read for p in probes for s in p.sources)
    answered.update((id(p.task), selection) for p, selection in zip(probes, new, strict=True))
    for task, _, _ in items:
        selection = answered[id(task)]
        if selection is not None and len(selection) == task.row_count:
            selection = None
        task.selection = selection
    return None


def _probe(item: tuple[FileTask, LiveDataFile, FileVerdict], pred: Any, column_name: str, dtype: Any, row_type: RowType,
           table: Any, schema: TableSchema | None) -> _Probe | str:
    """Step 1 for one file: container head and range-bitmap header, or why top-N cannot be pushed."""
    task, f, verdict = item
    name = os.path.basename(f.path)
    file_type, view = _index_view(table, schema, f.meta.schema_id, row_type)
    column = column_name if view is None else view.file_column(column_name)
    if column is None:
        reason = file_reason(None, None, column_name, name, pred, False, None, file_type)
        return reason if reason is not None else f"{name} lacks {column_name}"
    file_pred = pred if view is None or pred is None else view.translate(pred)
    held: HeldRanges | None = None
    handle: Any = None
    if f.embedded_index:
        source = ByteSource(f.embedded_index, path=f"{f.path} (embedded index)")
    elif f.index_path:
        try:  # opening is the existence check (one request less on an object store)
            handle = storage.open_input(f.index_path, min_get=1)
        except FileNotFoundError:
            return f"{name} has no file index"
        if hasattr(handle, "prefetch"):  # an object store: ranged requests, each byte fetched once
            handle = held = HeldRanges(handle, PROBE_GET)
        source = ByteSource(handle, path=f.index_path)
    else:
        return f"{name} has no file index"
    keep = False
    try:
        container = FileIndexContainerReader(source, path=source.path)
        reason = file_reason(container, column, column_name, name, pred, verdict.bitmap_answer, file_pred, file_type)
        if reason is not None:
            return reason
        start, length = container.columns[column]["range-bitmap"]
        p = _Probe(task, None if f.embedded_index else f.index_path,
                   None if start == EMPTY_INDEX_FLAG else (start, length), sources=[source], held=held)
        if p.window is not None:
            p.reader = RangeBitmapReader(source.sub(start, length), dtype)
        keep = True
        return p
    finally:
        if handle is not None and not (keep and held is not None):
            handle.close()


def _bound(probes: list[_Probe], limit: int, desc: bool) -> Any:
    """Step 2: a key at least ``limit`` candidate rows reach (None: unknown, every file is answered)."""
    streams: list[KeyStream] = []
    for p in probes:
        if p.reader is None:
            continue
        sel, rows = p.task.selection, p.task.row_count
        skip = 0 if sel is None else rows - len(sel)
        if p.reader.row_count != rows:  # the index does not describe this file's rows: no contribution
            skip = p.reader.cardinality
        p.stream = KeyStream(p.reader, desc, skip)
        streams.append(p.stream)
    if limit <= 0 or not streams:
        return None

    def more(p: _Probe) -> None:
        with p.reading():
            assert p.stream is not None
            p.stream.read_more()

    bound = nth_best(streams, limit, desc)
    rounds = refinements = 0
    while rounds < MAX_CHUNK_ROUNDS:
        best = nth_best_possible(streams, limit, desc)
        if best is None:
            break
        if bound is not None:  # refine only while some file reaching the bound could fall below it
            reach = [s for s in streams if s.best is not None and not ranks_worse(s.best, bound, desc)]
            if refinements >= REFINE_ROUNDS or len(reach) < 2 or \
                    not any(ranks_worse(s.best, best, desc) for s in reach):
                break
            refinements += 1
        # only the files whose unread keys could still reach the best possible bound: with random values
        # and deletion vectors (each file's best keys discounted) no bound prunes, and reading the next chunk
        # of every file would cost a fifth of the bit slices it cannot save
        todo = [p for p in probes if p.stream is not None and p.stream.useful and not p.stream.complete
                and p.stream.frontier is not None and not ranks_worse(p.stream.frontier, best, desc)]
        if not todo:
            break
        _map(more, todo)
        bound = nth_best(streams, limit, desc)
        rounds += 1
    return bound


def _answer(p: _Probe, bound: Any, limit: int, desc: bool, nulls_first: bool, strict: bool) -> BitMap | None:
    """Step 3 for one file: its top-``limit`` candidates, or none when it cannot reach ``bound``."""
    task = p.task
    if p.reader is None:  # empty index (no rows / no values): every selected row stays a candidate
        return task.selection
    assert p.stream is not None
    worse = bound is not None and (p.stream.best is None or ranks_worse(p.stream.best, bound, desc))
    if worse and not nulls_first:
        return BitMap()  # every row ranks after >= limit rows of the table (nulls too: they come last)
    with p.reading() as reader:
        if worse:  # only null rows can rank ahead of the bound
            nulls = reader.null_rows()
            if task.selection is not None:
                nulls &= task.selection
            if reader.cardinality == 0:  # Paimon's answer for a file of nulls only (top_n_shortcut)
                return nulls
            return first_n(nulls, limit) if strict and len(nulls) > limit else nulls
        reader.prefetch_bit_slices()
        return within(top_n_rows(reader, limit, desc, nulls_first, strict, task.selection), task.selection)
