"""Which reader takes each file of a scan plan (the decision only; :mod:`.scan` builds the DataFrames).

* **pyarrow on the driver** - files with a row selection (file index, top-N candidates, deletion
  vector) when their selected rows number at most ``driver_rows`` in total, in row groups of at most
  :data:`DRIVER_READ_BYTES` of the columns read: a small answer needs no Spark job (measured: a local
  Arrow relation beats Spark's reader and Python workers for top-N candidates and selective bitmaps, even
  spread over every file, once only the columns asked for are decoded); then the files left too when they
  are whole files within the same limits (``region = 'r7'`` on the scale table, 2 files of 100k rows in
  all: 1.3 s against 1.8 s through Spark's reader, whose job start-up is the difference);
* **Spark's reader, whole files** - files every row of which is kept, and files whose selection came from
  the file index or top-N alone (a superset the residual filter narrows anyway) and touches at least
  :data:`WHOLE_FILE_SHARE` of the file's bytes (a selection spread over every row group saves no I/O),
  where Spark gives the table's rows (:func:`.native.native_readable`);
* **Spark's reader, selection on ``_metadata.row_index``** - Parquet files with deleted rows, when
  :data:`.deletions.JVM_SELECTION` is on (off by default: pyarrow reads them faster, see :mod:`.deletions`);
* **pyarrow** for the rest: on the driver under the limits above, else in ``mapInArrow`` tasks.

On an object store the footers that tell the row groups' sizes cost a GET each, so the bytes a selection
touches are estimated from the manifest instead (:func:`_store_estimate`: the file's size times the share
of its columns read), against :data:`STORE_DRIVER_READ_BYTES`: there a read is bound by request latency,
which the driver's threads hide as well as Spark's tasks do, without a Spark job and Python workers to
start (measured with ``benchmarks/scale.py --store s3``: 939 and 10,019 rows of 200 files in 7.3 and 6.3 s
on the driver against 10.0 and 8.8 s in tasks).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..planning.plan import ScanPlan
from ..planning.tasks import FileTask
from ..storage import is_local
from . import deletions
from .deletions import JvmSelection, jvm_selection
from .native import native_readable, selected_bytes

__all__ = ["ReadRoutes", "route_plan", "small_answer", "DRIVER_READ_ROWS", "DRIVER_READ_BYTES",
           "STORE_DRIVER_READ_BYTES", "WHOLE_FILE_SHARE"]

# selections holding at most this many rows in total, in row groups of at most this many bytes (of the
# columns read), are read on the driver
# (measured on the scale table, 200 local files, 2 cores: 99k selected rows of every file 1.8 s on the driver
# against 2.8 s in mapInArrow tasks and ~3 s through Spark's reader; 250k rows 5.4 s against 4.3 s in
# tasks; 949 rows needing 116 MB of column chunks 0.9 s against 2.2 s)
DRIVER_READ_ROWS = 131_072
DRIVER_READ_BYTES = 256 << 20
# the same bound for files on an object store, of estimated bytes (see the module's docstring)
STORE_DRIVER_READ_BYTES = 256 << 20
# a row selection whose row groups hold at least this share of a file's bytes is read as the whole file
WHOLE_FILE_SHARE = 0.5


@dataclass
class ReadRoutes:
    driver: list[FileTask] = field(default_factory=list)  # pyarrow, in this process
    whole: dict[tuple[str, bool], list[str]] = field(default_factory=dict)  # (format, pk) -> paths, Spark
    jvm: list[tuple[bool, JvmSelection]] = field(default_factory=list)  # (pk, files), Spark + row_index
    tasks: list[FileTask] = field(default_factory=list)  # pyarrow in mapInArrow tasks

    def counts(self, groups: int = 0) -> dict[str, int]:
        """Files per path, for :attr:`~paimon_codec.planning.plan.PlanReport.read_paths` (snake_case keys, as
        every ``--json`` key): ``driver_pyarrow``, ``spark_whole_files``, ``spark_tasks_pyarrow``,
        ``group_tasks``, ``spark_jvm_deletions_mask`` / ``spark_jvm_deletions_join``."""
        out = {"driver_pyarrow": len(self.driver),
               "spark_whole_files": sum(len(p) for p in self.whole.values()),
               "spark_tasks_pyarrow": len(self.tasks), "group_tasks": groups}
        for _, sel in self.jvm:
            # deleted rows dropped in the JVM by a bitmask / a join on _metadata.row_index
            key = f"spark_jvm_deletions_{sel.mode}"
            out[key] = out.get(key, 0) + len(sel.tasks)
        return {k: v for k, v in out.items() if v}

    def pyarrow_files(self) -> list[FileTask]:
        return [*self.driver, *self.tasks]


def _touched(t: FileTask, columns: set[str]) -> int:
    """Bytes of the row groups holding selected rows, of the columns read only (every column for a file of
    an older schema, whose columns may be named otherwise)."""
    sizes = selected_bytes(t.path, t.file_format, t.selection, None if t.evolution is not None else columns)
    return t.file_size if sizes is None else sizes[0]


def _store_estimate(t: FileTask, columns: set[str], width: int) -> int:
    """Bytes of ``t`` a read of ``columns`` fetches, estimated without its footer: the file's size times the
    share of the file's ``width`` columns read (every row group is assumed touched)."""
    if t.evolution is not None or width <= 0:
        return t.file_size
    return t.file_size * min(len(columns), width) // width


def _width(plan: ScanPlan, t: FileTask) -> int:
    """Columns of the schema ``t`` was written under (0 when unknown)."""
    try:
        return len(plan.table.schema_by_id(t.schema_id).fields) if t.schema_id is not None else 0
    except Exception:  # noqa: BLE001 - an estimate only: the read itself reports a missing schema
        return 0


def read_whole(t: FileTask, columns: set[str] | None = None, filtered: bool = True) -> bool:
    """Whether Spark's own reader may read all of ``t``: every row kept, or a selection that saves little I/O
    and is not needed for the right rows - it came from the file index or top-N pushdown (a superset the
    residual filter, sort and limit narrow anyway), not from a deletion vector.  ``filtered=False``: no
    residual filter follows (the selections are exact answers), so every selection is needed."""
    if t.selection is None:
        return True
    if t.has_deletions or not filtered:
        return False
    sizes = selected_bytes(t.path, t.file_format, t.selection,
                           None if columns is None or t.evolution is not None else columns)
    return sizes is not None and sizes[0] >= WHOLE_FILE_SHARE * sizes[1]


def small_answer(plan: ScanPlan, tasks: list[FileTask], columns: set[str], driver_rows: int) -> bool:
    """Whether ``tasks`` (read for ``columns``) are few enough rows and bytes to read on the driver."""
    if driver_rows <= 0 or sum(t.selected_rows for t in tasks) > driver_rows:
        return False
    local = [t for t in tasks if is_local(t.path)]
    remote = [t for t in tasks if not is_local(t.path)]
    if remote and sum(_store_estimate(t, columns, _width(plan, t)) for t in remote) > STORE_DRIVER_READ_BYTES:
        return False
    return sum(_touched(t, columns) if t.selection is not None else t.file_size for t in local) <= DRIVER_READ_BYTES


def route_plan(plan: ScanPlan, *, native: bool = True, driver_rows: int = DRIVER_READ_ROWS,
               exact_apart: bool = False) -> ReadRoutes:
    """The reader of every file task of ``plan`` (group tasks always run in ``mapInArrow``).  ``exact_apart``:
    the rows of exact tasks (``FileTask.exact``) are not filtered again, so their selections are never widened
    to whole files (see :func:`read_whole`): they go to pyarrow, on the driver or in tasks."""
    routes = ReadRoutes()
    columns = set(plan.row_type.names)
    tasks = plan.tasks
    selective = [t for t in tasks if t.selection is not None]
    selective_small = bool(selective) and small_answer(plan, selective, columns, driver_rows)
    if selective_small:
        routes.driver.extend(selective)
        tasks = [t for t in tasks if t.selection is None]
    # what is left are whole files, few rows in all: no Spark job is cheaper than Spark's reader (not tried
    # when the selective files were refused: the files left include them, so every sum is at least as large)
    if tasks and (selective_small or not selective) and small_answer(plan, tasks, columns, driver_rows):
        routes.driver.extend(tasks)
        tasks = []
    rest: list[FileTask] = []
    deleted: dict[bool, list[FileTask]] = {}  # files with deleted rows Spark's reader can take, per pk flag
    for t in tasks:
        if native and read_whole(t, columns, not (exact_apart and t.exact)) and native_readable(t.path, t.file_format, plan.row_type,
                                                                  t.primary_key_file, t.evolution):
            routes.whole.setdefault((t.file_format, t.primary_key_file), []).append(t.path)
        elif native and deletions.JVM_SELECTION and t.has_deletions and t.file_format == "parquet" \
                and "_metadata" not in columns \
                and native_readable(t.path, t.file_format, plan.row_type, t.primary_key_file, t.evolution):
            deleted.setdefault(t.primary_key_file, []).append(t)
        else:
            rest.append(t)
    for pk, dv_tasks in deleted.items():
        sel, fallback = jvm_selection(dv_tasks)
        rest.extend(fallback)
        if sel is not None:
            routes.jvm.append((pk, sel))
    if rest:
        (routes.driver if small_answer(plan, rest, columns, driver_rows) else routes.tasks).extend(rest)
    return routes
