"""Row selections (deleted rows, index answers) applied inside Spark's JVM Parquet reader - off by default.

A data file with a deletion vector needs its row selection for the right rows.  Spark's Parquet source
exposes each row's position in its file as the hidden column ``_metadata.row_index`` (and the file as
``_metadata.file_name``), the same position Paimon's deletion vectors and file indexes count, so the
selection can be a test evaluated in the JVM, on one Parquet scan of every file:

* ``"mask"``: each file's selection as a bitmask (an ``array<bigint>``, bit ``i % 64`` of word
  ``i // 64`` set when row ``i`` is kept) in a small DataFrame of one row per file, broadcast-joined to
  the scan on the file name; a row is kept when its bit is set.  A row of a file the plan does not know
  fails the query, and a position past the file's row count reads no bit and is dropped.  The masks
  are data, not plan: this replaced a ``CASE`` over the file names with a binary literal per file
  (files in chunks of 32, one Parquet scan per chunk, unioned), whose expressions cost the driver
  seconds to build and analyse and the tasks a string comparison per branch (measured on the scale
  benchmark's DV table, 200 files, ``amount < 10000``: 11.8 -> 5.3 s under the same load);
* ``"join"`` (masks beyond :data:`MAX_MASK_BITS` rows in total): a broadcast semi join with the kept
  positions, or an anti join with the dropped ones (whichever is smaller, per file), as a DataFrame of
  ``(file name, position)`` rows.

:data:`JVM_SELECTION` is off: on the scale benchmark's DV table (200 files x 50k rows, 5 % deleted; 2
cores, same load, medians of 3) pyarrow reading the selected rows in ``mapInArrow`` tasks beat Spark's
reader with the masks at every share of rows measured - ``cat = 's10'`` (10 %) 10.3 s against 14.5 s
collected, ``amount < 100000`` 9.2 against 13.2 s, every row counted 2.5 against 9.5 s, all six columns
of ``cat = 's10'`` 39 against 52 s; and a plain Spark read of the same files without any selection is no
faster than the masks: Spark's Parquet decoding is the cost, not the selection.  Small answers go to
pyarrow on the driver (:mod:`.routes`).  The route stays for a cluster where it measures better.

The scan reads with Parquet's dictionary filter off (:data:`.native.PARQUET_READ_OPTIONS`: on a column of
many distinct values, ``amount < 10000``, testing every row group's dictionary cost 7.7 against 3.9 s for
200 files) and lists its files on the driver (:func:`.native.listed_on_driver`).  Selections beyond :data:`MAX_JOIN_POSITIONS` stay on
the pyarrow path; so do files Spark's reader cannot give the table's rows for
(:func:`paimon_codec.spark.native.native_readable`), non-Parquet files and file names Spark would
percent-encode or that repeat within one read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyroaring import BitMap

from ..planning.tasks import FileTask
from ..reading.read import VALUE_KIND_COLUMN
from ..types import RowType
from .native import PARQUET_READ_OPTIONS, listed_on_driver

__all__ = ["JvmSelection", "jvm_selection", "selection_dataframe", "JVM_SELECTION", "MAX_MASK_BITS",
           "MAX_JOIN_POSITIONS"]

# whether files with deleted rows go to Spark's reader with the selection applied in the JVM (see above)
JVM_SELECTION = False

# the "mask" form takes at most this many rows in total (32 MB of masks, broadcast to every executor)
MAX_MASK_BITS = 256 << 20
# larger selections are joined against a DataFrame of (file, position) rows, up to this many rows
MAX_JOIN_POSITIONS = 2_000_000

_SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]+$")  # names Spark reports unchanged in _metadata.file_name
_FILE = "_metadata.file_name"
_ROW = "_metadata.row_index"
# kept: the row's bit of its file's mask; an unknown file (no mask) fails the query
_KEPT = ("CASE WHEN __pc_mask IS NULL THEN raise_error('paimon-codec: a row of a data file the scan plan does "
         "not hold') ELSE coalesce((shiftright(get(__pc_mask, CAST(__pc_row DIV 64 AS INT)), "
         "CAST(__pc_row % 64 AS INT)) & 1) = 1, false) END")


def _positions(bm: BitMap) -> np.ndarray:
    """The bitmap's positions as a view of its ``uint32`` array (no widened int64 copy: Arrow widens the
    join column itself)."""
    return np.frombuffer(bm.to_array(), dtype=np.uint32)


def _selection(t: FileTask) -> BitMap:
    if t.selection is None:  # jvm_selection takes only files with a selection
        raise ValueError(f"{t.path}: no row selection to apply")
    return t.selection


def _words(t: FileTask) -> np.ndarray:
    """The selection of ``t`` as ``ceil(row_count / 64)`` little-endian words, bit ``i % 64`` of word
    ``i // 64`` set when row ``i`` is kept (positions past the row count are left out)."""
    flags = np.zeros(-(-t.row_count // 64) * 64, dtype=bool)
    positions = _positions(_selection(t))
    flags[positions[positions < t.row_count]] = True
    return np.packbits(flags, bitorder="little").view("<i8")


@dataclass
class JvmSelection:
    """Files whose row selections Spark applies: ``mode`` ``"mask"`` or ``"join"``."""

    tasks: list[FileTask]
    mode: str


def jvm_selection(tasks: Sequence[FileTask]) -> tuple[JvmSelection | None, list[FileTask]]:
    """Split Parquet ``tasks`` (each with a selection, each natively readable: checked by the caller) into
    those Spark applies the selection of and the rest (for pyarrow)."""
    chosen: list[FileTask] = []
    rest: list[FileTask] = []
    names: set[str] = set()
    for t in tasks:
        name = _name(t)
        if t.file_format != "parquet" or t.selection is None or not _SAFE_NAME.match(name) or name in names:
            rest.append(t)
            continue
        names.add(name)
        chosen.append(t)
    if not chosen:
        return None, rest
    if sum(t.row_count for t in chosen) <= MAX_MASK_BITS:
        return JvmSelection(chosen, "mask"), rest
    if sum(min(t.selected_rows, t.row_count - t.selected_rows) for t in chosen) <= MAX_JOIN_POSITIONS:
        return JvmSelection(chosen, "join"), rest
    return None, [*rest, *chosen]


def _name(t: FileTask) -> str:
    return t.path.replace("\\", "/").rsplit("/", 1)[-1]


def _mask_frame(spark, tasks: list[FileTask]):
    """A DataFrame of ``(__pc_file, __pc_mask)``: each file's name and :func:`_words`."""
    import pyarrow as pa

    words = [_words(t) for t in tasks]
    offsets = np.zeros(len(words) + 1, dtype=np.int32)  # at most MAX_MASK_BITS / 64 words in all
    np.cumsum([len(w) for w in words], out=offsets[1:])
    masks = pa.ListArray.from_arrays(pa.array(offsets), pa.array(np.concatenate(words), pa.int64()))
    return spark.createDataFrame(pa.table({"__pc_file": pa.array([_name(t) for t in tasks], pa.string()),
                                           "__pc_mask": masks}))


def _keeps(t: FileTask) -> bool:
    """Whether the join names ``t``'s kept rows (semi join) rather than its dropped rows (anti join)."""
    kept = len(_selection(t))
    return kept <= t.row_count - kept


def _join_frame(spark, tasks: list[FileTask], keep: bool):
    """A DataFrame of ``(__pc_file, __pc_row)``: the kept (or dropped) positions of ``tasks``, or ``None``
    when there are none."""
    import pyarrow as pa

    names, rows = [], []
    for t in tasks:
        sel = _selection(t)
        positions = _positions(sel if keep else sel.flip(0, t.row_count))
        names.append(np.full(len(positions), _name(t), dtype=object))
        rows.append(positions)
    if not sum(len(r) for r in rows):
        return None
    table = pa.table({"__pc_file": pa.array(np.concatenate(names), pa.string()),
                      "__pc_row": pa.array(np.concatenate(rows), pa.int64())})
    return spark.createDataFrame(table)


def _joined(spark, df, sel: JvmSelection):
    """``df`` (with ``__pc_file`` / ``__pc_row``) narrowed to the selected rows by the join form, or
    ``None`` when no row is kept."""
    from pyspark.sql import functions as F

    on = ["__pc_file", "__pc_row"]
    parts = []
    for keep in (True, False):
        tasks = [t for t in sel.tasks if _keeps(t) == keep]
        if not tasks:
            continue
        part = df.filter(F.col("__pc_file").isin([_name(t) for t in tasks]))
        positions = _join_frame(spark, tasks, keep)
        if positions is not None:
            part = part.join(F.broadcast(positions), on, "left_semi" if keep else "left_anti")
        elif keep:
            continue  # no row kept at all
        parts.append(part)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else parts[0].unionByName(parts[1])


def selection_dataframe(spark, row_type: RowType, sel: JvmSelection, primary_key_files: bool,
                        residual: Any = None) -> Any:
    """The selected rows of ``sel``'s files (Parquet, read by Spark), as the table's columns.

    ``residual`` (a Spark Column, optional) is applied before the selection: it is cheap next to the
    per-row position lookup and usually removes most rows first (the caller applies it again anyway).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    from .types import spark_schema

    schema = spark_schema(row_type)
    read_schema = schema
    if primary_key_files:
        read_schema = T.StructType([*schema.fields, T.StructField(VALUE_KIND_COLUMN, T.ByteType(), True)])
    paths = [t.path for t in sel.tasks]
    with listed_on_driver(spark, len(paths)):
        df = spark.read.schema(read_schema).options(**PARQUET_READ_OPTIONS).parquet(*paths)
    if residual is not None:
        df = df.filter(residual)
    df = df.withColumn("__pc_file", F.col(_FILE)).withColumn("__pc_row", F.col(_ROW))
    if sel.mode == "mask":
        df = df.join(F.broadcast(_mask_frame(spark, sel.tasks)), "__pc_file", "left").filter(F.expr(_KEPT))
    else:
        df = _joined(spark, df, sel)
        if df is None:
            return spark.createDataFrame([], schema)
    if primary_key_files:
        kind = F.col(VALUE_KIND_COLUMN)
        df = df.filter(kind.isNull() | ~kind.isin(1, 3))
    return df.select(*[F.col("`" + f.name.replace("`", "``") + "`") for f in schema.fields])
