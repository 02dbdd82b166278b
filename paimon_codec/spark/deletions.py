"""Row selections (deleted rows, index answers) applied inside Spark's JVM Parquet reader.

A data file with a deletion vector needs its row selection for the right rows, so it used to go
through pyarrow in Python workers (``mapInArrow``): an Arrow round trip per row that costs seconds
on a file Spark's vectorised reader scans in milliseconds.  Spark's Parquet source exposes each row's
position in its file as the hidden column ``_metadata.row_index`` (and the file as
``_metadata.file_name``), the same position Paimon's deletion vectors and file indexes count, so
the selection becomes a filter evaluated in the JVM:

* ``"filter"``: each file's selection as one binary literal, a bit per row (1 = kept), and
  ``CASE _metadata.file_name WHEN '<file>' THEN <bit row_index of its literal> ... ELSE raise_error(..)
  END`` - a constant number of plan nodes per file whatever the positions (a literal ``IN`` list of
  thousands of positions costs Spark seconds of analysis), a row of a file the plan does not know fails
  the query, and a position past the file's row count reads no bit and is dropped; files go in chunks of
  :data:`MAX_FILTER_FILES` (one Parquet scan each, unioned), so a row is compared with few names;
* ``"join"`` (more than :data:`MAX_FILTER_BITS` rows): a broadcast semi join with the kept positions, or an anti join with
  the dropped ones (whichever is smaller, per file), as a DataFrame of ``(file name, position)`` rows.

Selections beyond :data:`MAX_JOIN_POSITIONS` stay on the pyarrow path; so do files Spark's reader
cannot give the table's rows for (:func:`paimon_codec.spark.native.native_readable`), non-Parquet files
and file names Spark would percent-encode or that repeat within one read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyroaring import BitMap

from ..table.read import VALUE_KIND_COLUMN
from ..table.tasks import FileTask
from ..types import RowType

__all__ = ["JvmSelection", "jvm_selection", "selection_dataframe", "MAX_FILTER_FILES", "MAX_FILTER_BITS",
           "MAX_JOIN_POSITIONS"]

# the "filter" form reads files in chunks of at most this many files (a CASE branch each, compared per row)
# and bits (the literals travel with every task of the chunk); one Parquet scan per chunk, unioned
MAX_FILTER_FILES = 32
CHUNK_BITS = 8 << 20
# ... and takes at most this many bits in total (32 MB of literals in the plan)
MAX_FILTER_BITS = 256 << 20
# larger selections are joined against a DataFrame of (file, position) rows, up to this many rows
MAX_JOIN_POSITIONS = 2_000_000

_SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]+$")  # names Spark reports unchanged in _metadata.file_name
_FILE = "_metadata.file_name"
_ROW = "_metadata.row_index"


def _positions(bm: BitMap) -> np.ndarray:
    """The bitmap's positions as a view of its ``uint32`` array (no widened int64 copy: Arrow widens the
    join column itself)."""
    return np.frombuffer(bm.to_array(), dtype=np.uint32)


def _selection(t: FileTask) -> BitMap:
    if t.selection is None:  # jvm_selection takes only files with a selection
        raise ValueError(f"{t.path}: no row selection to apply")
    return t.selection


def _bits(t: FileTask) -> bytes:
    """The selection of ``t`` as ``ceil(row_count / 8)`` bytes, bit ``i % 8`` of byte ``i // 8`` set when
    row ``i`` is kept."""
    flags = np.zeros(t.row_count, dtype=bool)
    positions = _positions(_selection(t))
    flags[positions[positions < t.row_count]] = True
    return np.packbits(flags, bitorder="little").tobytes()


@dataclass
class JvmSelection:
    """Files whose row selections Spark applies: ``mode`` ``"filter"`` (one expression) or ``"join"``."""

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
    if MAX_FILTER_FILES > 0 and sum(t.row_count for t in chosen) <= MAX_FILTER_BITS:
        return JvmSelection(chosen, "filter"), rest
    if sum(min(t.selected_rows, t.row_count - t.selected_rows) for t in chosen) <= MAX_JOIN_POSITIONS:
        return JvmSelection(chosen, "join"), rest
    return None, [*rest, *chosen]


def _chunks(tasks: list[FileTask]) -> list[list[FileTask]]:
    out: list[list[FileTask]] = []
    bits = 0
    for t in tasks:
        if not out or len(out[-1]) >= MAX_FILTER_FILES or bits + t.row_count > CHUNK_BITS:
            out.append([])
            bits = 0
        out[-1].append(t)
        bits += t.row_count
    return out


def _filter_column(tasks: list[FileTask]):
    from pyspark.sql import functions as F

    row = F.col(_ROW)
    byte_at = (row / 8).cast("int") + 1  # 1-based byte of the row's bit
    mask = F.pow(F.lit(2), row % 8).cast("int")
    out: Any = None
    for t in tasks:
        byte = F.conv(F.hex(F.substr(F.lit(bytearray(_bits(t))), byte_at, F.lit(1))), 16, 10).cast("int")
        kept = byte.bitwiseAND(mask) != 0
        is_file = F.col(_FILE) == F.lit(_name(t))
        out = F.when(is_file, kept) if out is None else out.when(is_file, kept)
    return out.otherwise(F.raise_error(F.lit("paimon-codec: a row of a data file the scan plan does not hold")))


def _name(t: FileTask) -> str:
    return t.path.replace("\\", "/").rsplit("/", 1)[-1]


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
    if sel.mode == "filter":
        parts = []
        for chunk in _chunks(sel.tasks):
            part = spark.read.schema(read_schema).parquet(*[t.path for t in chunk])
            if residual is not None:
                part = part.filter(residual)
            parts.append(part.filter(_filter_column(chunk)))
        df = parts[0]
        for part in parts[1:]:
            df = df.unionByName(part)
    else:
        df = spark.read.schema(read_schema).parquet(*[t.path for t in sel.tasks])
        if residual is not None:
            df = df.filter(residual)
        df = df.withColumn("__pc_file", F.col(_FILE)).withColumn("__pc_row", F.col(_ROW))
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
            return spark.createDataFrame([], schema)
        df = parts[0] if len(parts) == 1 else parts[0].unionByName(parts[1])
    if primary_key_files:
        kind = F.col(VALUE_KIND_COLUMN)
        df = df.filter(kind.isNull() | ~kind.isin(1, 3))
    return df.select(*[F.col("`" + f.name.replace("`", "``") + "`") for f in schema.fields])
