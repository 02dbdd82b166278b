"""Data-evolution tables: rows assembled by row id from the files that write their columns.

A table with ``row-tracking.enabled`` and ``data-evolution.enabled`` gives every row a global row id: a
data file covers the row ids ``[_FIRST_ROW_ID, _FIRST_ROW_ID + _ROW_COUNT)`` and holds the columns named
by ``_WRITE_COLS`` (``null`` = every column of the file's schema).  A later commit may write just some
columns of an existing row-id range (a partial-column update), so one row's values come from several
files.  Paimon (``DataEvolutionSplitRead.mergeRangesAndSort`` / ``createUnionReader``; pypaimon's
``DataEvolutionSplitRead`` agrees) reads such a table like this:

* per partition and bucket, files whose row-id ranges overlap form one group (ranges merged after
  sorting by start);
* every normal data file of a group must cover exactly the same range (anything else is an error in
  Paimon itself, refused here);
* inside a group the files are ordered by ``_MAX_SEQUENCE_NUMBER``, newest first, and each column of
  the read comes from the first file whose written columns (resolved to field ids through the file's
  own schema) contain it; a column written by no file is null (NOT NULL: an error);
* deletion vectors of such tables are kept for the group's *anchor*, its oldest normal file (lowest
  ``(max sequence number, file name)``), by position inside the range: they apply to the merged rows.

Groups of one file are ordinary files and go through the normal planner (file indexes, deletion
vectors, Spark's own reader); groups of several files become one
:class:`~paimon_codec.planning.tasks.GroupTask` read by :func:`read_row_id_group`.  Partition predicates
and the global indexes (row ids, :mod:`paimon_codec.globalindex.scan`) prune groups; file indexes do not
(a file index describes one file, not the merged rows).

``_ROW_ID`` / ``_SEQUENCE_NUMBER`` are system columns Paimon adds only when a read asks for them
(``rowTypeWithRowTracking``); a table scan returns the table's own columns, as here.

BLOB columns live in ``.blob`` files joined to a range as Paimon joins them (:mod:`.blob_columns`).
Refused by name: ``.video`` and vector-store (``.vector.``) files, files without
``_FIRST_ROW_ID``, partially overlapping ranges, two files of a range writing one column with the same
sequence number, a deletion vector on a file that is not its group's anchor.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
from pyroaring import BitMap

from ..dv.index_file import read_deletion_vector
from ..errors import CorruptDataError, UnsupportedTypeError
from ..evolution.file_evolution import evolution_for
from ..roaring import all_rows
from ..table.schema import TableSchema
from ..table.table import LiveDataFile, PaimonTable
from ..types import RowType
from .blob_columns import blob_as_descriptor, blob_bunches, is_blob_file
from .partition_prune import may_match
from .tasks import FileTask, GroupTask

__all__ = ["is_data_evolution_table", "group_by_row_id", "plan_row_id_groups", "READER",
           "DATA_EVOLUTION_OPTIONS"]

# the reader of the plan's row-id groups (named, not imported: planning sits below reading)
READER = "paimon_codec.reading.data_evolution:read_row_id_group"


def is_data_evolution_table(schema: TableSchema) -> bool:
    return schema.option_bool("row-tracking.enabled") and schema.option_bool("data-evolution.enabled")


# data-evolution.enabled changes what a read returns: this package implements it (with row tracking on,
# the only combination Paimon creates); listed in :mod:`.read_options`' table of supported options
DATA_EVOLUTION_OPTIONS: dict[str, Callable[[TableSchema], bool]] = {"data-evolution.enabled": is_data_evolution_table}


def _refuse_special(f: LiveDataFile) -> None:
    name = f.file_name
    if name.endswith(".video"):
        raise UnsupportedTypeError(".video files of data-evolution tables are not supported", path=f.path)
    if ".vector." in name:
        raise UnsupportedTypeError("vector-store files of data-evolution tables are not supported", path=f.path)
    if f.meta.first_row_id is None:
        raise UnsupportedTypeError("data-evolution data file without _FIRST_ROW_ID", path=f.path,
                                   expected="row ids assigned to every file (Paimon refuses this too)")


def _range(f: LiveDataFile) -> tuple[int, int]:
    """Inclusive row-id range of a file (``_refuse_special`` refused one without row ids)."""
    first = f.meta.first_row_id
    if first is None:
        raise UnsupportedTypeError("data-evolution data file without _FIRST_ROW_ID", path=f.path)
    return first, first + f.row_count - 1


def group_by_row_id(files: list[LiveDataFile]) -> list[list[LiveDataFile]]:
    """Files with overlapping row-id ranges, grouped (by range start), each group newest file first.

    Within a group, files keep their listing order before the stable sort by descending max sequence
    number (Paimon's order).
    """
    order = sorted(range(len(files)), key=lambda i: _range(files[i]))
    groups: list[list[int]] = []
    end = 0  # last row id of the open group (read only once a group exists)
    for i in order:
        start, last = _range(files[i])
        if groups and start <= end:
            groups[-1].append(i)
            end = max(end, last)
        else:
            groups.append([i])
            end = last
    out = []
    for g in groups:
        members = [files[i] for i in sorted(g)]
        members.sort(key=lambda f: -f.meta.max_sequence_number)
        out.append(members)
    return out


def _check_group(group: list[LiveDataFile]) -> None:
    first = _range(group[0])
    for f in group[1:]:
        if _range(f) != first:
            raise UnsupportedTypeError(
                f"data-evolution files with partially overlapping row-id ranges ({f.file_name} covers "
                f"{_range(f)}, {group[0].file_name} covers {first})", path=f.path,
                expected="every file of a row-id range covering the same rows (Paimon refuses this too)")


def _anchor(group: list[LiveDataFile]) -> LiveDataFile:
    """The oldest normal file of a group: the one its deletion vector is kept for."""
    return min(group, key=lambda f: (f.meta.max_sequence_number, f.file_name))


def _written_ids(f: LiveDataFile, file_schema: TableSchema) -> set[int]:
    ids = {fld.name: fld.id for fld in file_schema.fields}
    if f.meta.write_cols is None:
        return {i for i in ids.values() if i is not None}
    out = set()
    for name in f.meta.write_cols:
        if name not in ids:
            raise CorruptDataError(f"_WRITE_COLS names {name!r}, which schema {file_schema.id} does not have",
                                   path=f.path)
        out.add(ids[name])
    return out


def _assign_columns(group: list[LiveDataFile], row_type: RowType,
                    schema_of: Callable[[int], TableSchema], later: frozenset[int] = frozenset(),
                    partition_keys: frozenset[str] = frozenset()) -> list[list[str]]:
    """Per file (newest first): the table columns it provides (``later``: field ids blob files give).

    Two files writing one column with the same sequence number are refused (which one Paimon takes hangs
    on its file order), except a partition column: every file of a group lies in one partition and holds
    that partition's value (paimon-cpp's data-evolution tables write the partition columns in each part of
    one commit)."""
    if any(fld.id is None for fld in row_type):
        raise UnsupportedTypeError("data-evolution table schema without field ids")
    provided: dict[int, LiveDataFile] = {}
    out: list[list[str]] = []
    for f in group:
        file_schema = schema_of(f.meta.schema_id)
        written = _written_ids(f, file_schema)
        mine = []
        for fld in row_type:
            if fld.id not in written:
                continue
            newer = provided.get(fld.id)
            if newer is None:
                provided[fld.id] = f
                mine.append(fld.name)
            elif newer.meta.max_sequence_number == f.meta.max_sequence_number and fld.name not in partition_keys:
                raise UnsupportedTypeError(
                    f"two data-evolution files of one row-id range write column {fld.name!r} with the same "
                    f"sequence number {f.meta.max_sequence_number} ({newer.file_name}, {f.file_name})",
                    path=f.path)
        out.append(mine)
    for fld in row_type:
        if fld.id not in provided and fld.id not in later and not fld.type.nullable:
            raise CorruptDataError(f"NOT NULL column {fld.name!r} is written by no file of row ids "
                                   f"{_range(group[0])}", path=group[0].path)
    return out


def _refuse_uncast_stats(group: list[LiveDataFile], pred: Any, schema: TableSchema,
                         schema_of: Callable[[int], TableSchema]) -> None:
    """Refuse a predicate on a column whose statistics in this row-id range come from a file that wrote it
    with another type.  Paimon (``DataEvolutionFileStoreScan.evolutionStats``) prunes a range by the
    statistics of the newest file writing each column, read as the table's current type without a cast
    (its own TODO says so): a STRING file's min / max read as INT drops ranges holding matching rows."""
    if pred is None:
        return
    columns = {leaf.column for leaf in pred.leaves()
               if leaf.column is not None and leaf.op not in ("is_null", "is_not_null")}
    if not columns:
        return
    normal = [f for f in group if not is_blob_file(f)]  # in Paimon's order: newest first, stable
    for fld in schema.fields:
        if fld.name not in columns or fld.name in schema.partition_keys:
            continue
        for f in normal:
            file_schema = schema_of(f.meta.schema_id)
            written = {x.id: x for x in file_schema.fields if x.id in _written_ids(f, file_schema)}
            old = written.get(fld.id)
            if old is None:
                continue
            has_stats = f.meta.value_stats_cols is None or old.name in f.meta.value_stats_cols
            if has_stats and old.type.not_null() != fld.type.not_null():
                first, last = _range(f)
                raise UnsupportedTypeError(
                    f"predicate on {fld.name!r} of a data-evolution table whose row ids {first}..{last} hold it "
                    f"as {old.type} (now {fld.type}): Paimon prunes the range by that file's statistics uncast "
                    "and may skip matching rows; not reproduced", path=f.path)
            break


def _refuse_unwritten_not_null(f: LiveDataFile, schema: TableSchema,
                               schema_of: Callable[[int], TableSchema]) -> None:
    """A lone Parquet file of a row-id range that does not write a NOT NULL column: Paimon's Parquet reader
    fails ("Required column is missing in data file"), so ours fails naming the column.  (Its ORC and Avro
    readers hand out NULLs, as ours does: measured on Java 1.4.2.)"""
    if f.file_format != "parquet":
        return
    written = _written_ids(f, schema_of(f.meta.schema_id))
    for fld in schema.fields:
        if not fld.type.nullable and fld.id not in written:
            raise CorruptDataError(f"NOT NULL column {fld.name!r} is written by no file of row ids {_range(f)}",
                                   path=f.path)


def _may_match_partition(pred: Any, schema: TableSchema, f: LiveDataFile, semantics: Any) -> bool:
    if pred is None or not schema.partition_keys:
        return True
    return may_match(pred, dict(zip(schema.partition_keys, f.partition, strict=True)), semantics)


def plan_row_id_groups(table: PaimonTable, schema: TableSchema, files: list[LiveDataFile], pred: Any,
                       report, *, global_index: Any = None) -> tuple[list[LiveDataFile], list]:
    """Split a data-evolution snapshot's files into single files (planned as usual) and group tasks.

    Returns ``(files the planner's loop handles: ranges of one file and files of pruned partitions,
    GroupTask per multi-file range)``; the group files are accounted for in ``report`` here.
    ``global_index`` (:class:`paimon_codec.globalindex.scan.GlobalIndexAnswer`): a range none of whose
    rows is a candidate is skipped, the others read only their candidate rows.
    """
    by_bucket: dict[tuple, list[LiveDataFile]] = {}
    singles: list[LiveDataFile] = []
    for f in files:
        if not _may_match_partition(pred, schema, f, report.semantics):
            singles.append(f)  # skipped by partition in the planner's own loop, as Paimon never groups it
            continue
        _refuse_special(f)
        by_bucket.setdefault((f.entry.partition, f.bucket), []).append(f)
    tasks: list[GroupTask] = []
    schema_of = lambda sid: schema if sid == schema.id else table.schema_by_id(sid)  # noqa: E731
    for bucket_files in by_bucket.values():
        for group in group_by_row_id(bucket_files):
            _refuse_uncast_stats(group, pred, schema, schema_of)
            if len(group) == 1 and not is_blob_file(group[0]):
                _refuse_unwritten_not_null(group[0], schema, schema_of)
                singles.append(group[0])
                continue
            task = _plan_group(table, group, schema, report, FileTask, GroupTask, global_index)
            if task is not None:
                tasks.append(task)
    return singles, tasks


def _plan_group(table: PaimonTable, group: list[LiveDataFile], schema: TableSchema, report, FileTask,
                GroupTask, global_index: Any = None):
    blobs = [f for f in group if is_blob_file(f)]
    normal = [f for f in group if not is_blob_file(f)]
    if not normal:
        raise UnsupportedTypeError("blob files without a normal data file of their row ids", path=group[0].path)
    _check_group(normal)
    first_row_id, last = _range(normal[0])
    row_count = last - first_row_id + 1
    schema_of = lambda sid: schema if sid == schema.id else table.schema_by_id(sid)  # noqa: E731
    bunches = blob_bunches(blobs, first_row_id, row_count, schema_of)
    details, detail_of = [], {}
    for f in group:
        report.files_total += 1
        report.rows_total += f.row_count
        report.bytes_total += f.meta.file_size
        detail = {"path": os.path.relpath(f.path, table.path),
                  "bucket": f.bucket, "level": f.level, "row_count": f.row_count,
                  "file_size": f.meta.file_size, "first_row_id": first_row_id,
                  "write_cols": None if f.meta.write_cols is None else list(f.meta.write_cols)}
        report.files.append(detail)
        details.append(detail)
        detail_of[f.path] = detail
    anchor = _anchor(normal)
    for f in group:
        if f is not anchor and f.deletion_file is not None:
            raise UnsupportedTypeError(
                f"deletion vector on {f.file_name}, which is not the oldest file of its row-id range",
                path=f.path, expected=f"deletion vectors of row ids {first_row_id}.. on {anchor.file_name}")
    selection = None
    if anchor.deletion_file is not None:
        d = anchor.deletion_file
        dv = read_deletion_vector(d.path, d.offset, d.length)
        report.index_bytes_read += d.length + 8
        report.rows_deleted += dv.cardinality
        if dv.cardinality:
            deleted = np.asarray(dv.to_array(), dtype=np.int64)
            if deleted.size and (deleted.min() < 0 or deleted.max() >= row_count):
                raise CorruptDataError(f"deletion vector of {anchor.file_name} deletes a position outside its "
                                       f"{row_count} rows", path=d.path)
            keep = all_rows(row_count, path=anchor.path)
            keep.difference_update(BitMap(deleted.astype(np.uint32)))
            if not keep:
                report.files_skipped_by_deletion_vectors += len(group)
                for det in details:
                    det["decision"] = "skipped: every row deleted"
                return None
            selection = keep
    if global_index is not None:
        candidates = global_index.positions(first_row_id, row_count)
        if candidates is not None:
            selection = candidates if selection is None else selection & candidates
            if not selection:
                report.files_skipped_by_index += len(group)
                for det in details:
                    det["decision"] = "skipped: global index"
                return None
    columns = _assign_columns(normal, schema.fields, schema_of, frozenset(bunches), frozenset(schema.partition_keys))
    taken = {n for cols in columns for n in cols}
    starts: list[int | None] = [None] * len(normal)
    group = list(normal)  # then each bunch's files: the blob column, unless a normal file gives it
    for f in blobs:
        detail_of[f.path]["decision"] = "skipped: rows given by a newer blob file"
    for fid, bunch in bunches.items():
        name = next((fld.name for fld in schema.fields if fld.id == fid), None)
        for f in bunch:
            group.append(f)
            columns.append([name] if name is not None and name not in taken else [])
            starts.append(_range(f)[0] - first_row_id)
    details = [detail_of[f.path] for f in group]
    # each file reads as the table's columns through its own schema (renames by field id, casts); a blob
    # file holds its one column as it is
    file_tasks = [FileTask(f.path, f.file_format, f.row_count, f.meta.file_size, selection, False,
                           f.meta.schema_id, None if is_blob_file(f) else evolution_for(table, schema, f.meta.schema_id, report.time_zone))
                  for f in group]
    selected = row_count if selection is None else len(selection)
    for f, det, cols in zip(group, details, columns, strict=True):
        det["decision"] = "read (merged by row id)" if cols else "skipped: every column newer elsewhere"
        det["columns"] = cols
        det["rows_selected"] = selected
        if cols:
            report.files_read += 1
            report.bytes_read += f.meta.file_size
    report.rows_selected += selected
    read = [(t, c, s) for t, c, s in zip(file_tasks, columns, starts, strict=True) if c]
    return GroupTask(READER, [t for t, _, _ in read],
                     {"first_row_id": first_row_id, "row_count": row_count, "rows": selected,
                      "columns": [c for _, c, _ in read], "blob_starts": [s for _, _, s in read],
                      "blob_as_descriptor": blob_as_descriptor(schema)},
                     label=f"row ids {first_row_id}..{last}")
