"""Rebuild the file index of one existing data file from the table's current ``file-index.*`` options.

This is the per-file step of Paimon's ``rewrite_file_index`` procedure, shaped so that it can run in a
Spark task: the driver turns each live data file into a picklable :class:`IndexTask`
(:func:`index_task`), the task reads the indexed columns with pyarrow, builds the whole container with
:class:`~paimon_codec.fileindex.writer.FileIndexWriter` (the same bytes Paimon Java's writer produces for
the same rows and options) and decides where it goes (:func:`run_index_task`); the driver turns the
:class:`IndexOutcome` into the new manifest metadata of the file (:func:`updated_meta`).

What the rewrite does, and the pitfalls it avoids (apache/paimon#9085, #8596):

* every index is rebuilt from the data: an index type no longer configured for a column (a column
  switched from ``bitmap`` to ``range-bitmap``) is gone from the new container, not carried over;
* a file whose new container equals its current one (embedded bytes, or the content of its
  ``.index`` file) is *unchanged*: no new file, no manifest change - a no-op rewrite commits nothing;
* a container larger than ``file-index.in-manifest-threshold`` goes to a new index file beside the data
  file and replaces the old ``.index`` name in ``_EXTRA_FILES`` (other extra files are kept).  The new
  name never reuses an existing one (``<data>.index``, then ``<data>-1.index``, ``-2`` ... as Paimon
  names rewritten index files), so older snapshots keep reading their old index file, which snapshot
  expiry removes as it does for Paimon; the name is claimed with create-if-absent, so two concurrent
  rewrites can never overwrite each other's file;
* a file written under an older schema is indexed in that schema: index columns are matched by field
  id and keyed by the file's own column names (what :mod:`~paimon_codec.table.index_schema` reads); a column the file
  does not hold, or whose type changed since, gets no index in that file.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import storage
from ..errors import InvalidOptionError
from ..evolution.file_evolution import arrow_schema
from ..fileindex.options import IndexSpec, in_manifest_threshold, parse_index_options
from ..fileindex.writer import FileIndexWriter
from ..reading.read import read_file_rows
from ..table.index_schema import same_key_type
from ..table.manifest import DataFileMeta
from ..types import RowType

__all__ = ["IndexTask", "IndexOutcome", "index_specs_for_file", "index_task", "build_container",
           "run_index_task", "updated_meta", "next_index_file_name", "INDEX_SUFFIX"]

log = logging.getLogger(__name__)

INDEX_SUFFIX = ".index"


def _base_column(column: str) -> str:
    """``m[k]`` -> ``m``; plain names unchanged."""
    return column.split("[", 1)[0] if column.endswith("]") and "[" in column else column


def index_specs_for_file(options: Mapping[str, Any], current: RowType, written: RowType) -> list[IndexSpec]:
    """The indexes ``options`` (checked against the ``current`` schema) ask for, in the names of a
    file written under ``written``: matched by field id (by name when the schemas carry no ids);
    columns the file lacks or whose type changed since are left out."""
    specs = parse_index_options(options, current)
    by_id = {f.id: f for f in written.fields if f.id is not None}
    out = []
    for spec in specs:
        base = _base_column(spec.column)
        cur = current.field(base)
        old = by_id.get(cur.id) if cur.id is not None else None
        if old is None and cur.id is None:
            old = next((w for w in written.fields if w.name == base), None)
        if old is None or not same_key_type(cur.type, old.type):
            log.debug("column %r has no index in files of this schema (missing or retyped)", spec.column)
            continue
        column = old.name + spec.column[len(base):]
        out.append(IndexSpec(column, spec.index_type, dict(spec.options)))
    return out


@dataclass(frozen=True)
class IndexTask:
    """Everything one Spark task needs to (re)index one data file; picklable, no table object."""

    data_path: str
    file_format: str
    file_name: str
    row_count: int
    file_size: int
    row_type: RowType  # the schema the file was written under
    specs: tuple[IndexSpec, ...]
    threshold: int
    extra_files: tuple[str, ...]
    old_embedded: bytes | None
    old_index_name: str | None
    paimon_version: str | None = None  # "0.9": only what Paimon 0.9 reads (bitmap V1, bloom filter)
    key: tuple = ()  # the driver's handle on the manifest entry (partition, bucket, level, name)

    @property
    def directory(self) -> str:
        return storage.parent(self.data_path)


@dataclass(frozen=True)
class IndexOutcome:
    """What a task did for one file: ``changed`` False means leave its manifest entry as it is."""

    key: tuple
    file_name: str
    changed: bool
    embedded: bytes | None
    index_file_name: str | None
    container_size: int
    rows: int
    data_bytes: int
    index_bytes_written: int


def index_task(f: Any, table_schema: Any, file_schema: Any, options: Mapping[str, Any] | None = None,
               paimon_version: str | None = None) -> IndexTask:
    """The :class:`IndexTask` of a live data file (:class:`~paimon_codec.table.table.LiveDataFile`).

    ``options`` defaults to ``table_schema.options``; ``file_schema`` is the schema of the file's
    ``_SCHEMA_ID``."""
    opts = table_schema.options if options is None else options
    meta: DataFileMeta = f.meta
    specs = index_specs_for_file(opts, table_schema.fields, file_schema.fields)
    return IndexTask(
        data_path=f.path, file_format=f.file_format, file_name=meta.file_name, row_count=meta.row_count,
        file_size=meta.file_size, row_type=file_schema.fields, specs=tuple(specs),
        threshold=in_manifest_threshold(opts), extra_files=tuple(meta.extra_files),
        old_embedded=meta.embedded_index, old_index_name=meta.index_file_name, paimon_version=paimon_version,
        key=f.entry.identifier)


def build_container(task: IndexTask) -> bytes | None:
    """The container bytes of every index of ``task`` over the file's rows; ``None`` when no index is
    configured for this file (Paimon writes no container then)."""
    if not task.specs:
        return None
    writer = FileIndexWriter(task.row_type, list(task.specs), order="java", paimon_version=task.paimon_version)
    names = list(dict.fromkeys(_base_column(s.column) for s in task.specs))
    schema = arrow_schema(RowType(tuple(task.row_type.field(n) for n in names)))
    rows = read_file_rows(task.data_path, task.file_format, schema)
    if rows.num_rows != task.row_count:
        from ..errors import CorruptDataError

        raise CorruptDataError(f"data file has {rows.num_rows} rows, its manifest entry says {task.row_count}",
                               path=task.data_path)
    writer.write_table(rows)
    return writer.serialize()


def next_index_file_name(file_name: str, taken: int) -> str:
    """Paimon's names for a data file's index files: ``<data>.index``, then ``<data>-<n>.index``."""
    return f"{file_name}{INDEX_SUFFIX}" if taken == 0 else f"{file_name}-{taken}{INDEX_SUFFIX}"


def _old_index_bytes(task: IndexTask) -> bytes | None:
    if task.old_index_name is None:
        return None
    path = storage.join(task.directory, task.old_index_name)
    try:
        return storage.read_bytes(path)
    except FileNotFoundError:
        return None  # a missing index file is rewritten like a missing index


def _claim_index_file(task: IndexTask, container: bytes) -> str:
    """Write ``container`` under the first free index-file name of the data file (create-if-absent)."""
    taken = set(task.extra_files)
    for n in range(0, 10_000):
        name = next_index_file_name(task.file_name, n)
        if name in taken:
            continue
        if storage.create_if_absent(storage.join(task.directory, name), container):
            return name
    raise InvalidOptionError(f"no free index-file name for {task.file_name} after 10000 attempts")


def run_index_task(task: IndexTask, container: bytes | None = None) -> IndexOutcome:
    """Build (unless ``container`` is given) and place the new container of one file.

    Unchanged files write nothing.  A new standalone index file is durable before the outcome is
    returned, so the commit that follows never names a file that is not complete."""
    if container is None:
        container = build_container(task)
    if container is not None and len(container) > task.threshold:
        if _old_index_bytes(task) == container and task.old_embedded is None:
            return _unchanged(task, container)
        name = _claim_index_file(task, container)
        return IndexOutcome(task.key, task.file_name, True, None, name, len(container), task.row_count,
                            _data_bytes(task), len(container))
    # embedded, or no index at all
    if container == task.old_embedded and task.old_index_name is None:
        return _unchanged(task, container)
    return IndexOutcome(task.key, task.file_name, True, container, None, len(container or b""), task.row_count,
                        _data_bytes(task), 0)


def _data_bytes(task: IndexTask) -> int:
    return task.file_size if task.specs else 0


def _unchanged(task: IndexTask, container: bytes | None) -> IndexOutcome:
    return IndexOutcome(task.key, task.file_name, False, task.old_embedded, task.old_index_name,
                        len(container or b""), task.row_count, _data_bytes(task), 0)


def updated_meta(meta: DataFileMeta, outcome: IndexOutcome) -> DataFileMeta:
    """``meta`` with the new index placement: ``_EMBEDDED_FILE_INDEX`` and the ``.index`` name in
    ``_EXTRA_FILES`` replaced (every other extra file kept, in order)."""
    extras = [n for n in meta.extra_files if not n.endswith(INDEX_SUFFIX)]
    if outcome.index_file_name is not None:
        extras.append(outcome.index_file_name)
    return dataclasses.replace(meta, embedded_index=outcome.embedded, extra_files=tuple(extras))
