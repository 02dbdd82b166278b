"""Value statistics of a data file as Paimon keeps them in ``_VALUE_STATS``.

Per column: min, max (as one serialized BinaryRow each, in the file's schema order) and the null
count.  ``_VALUE_STATS_COLS`` stays null, meaning "every column" (what Paimon writes when it keeps
statistics for all columns).  ``metadata.stats-mode`` (and ``fields.<column>.stats-mode``) is
honoured as Paimon does: ``truncate(16)`` by default (strings cut to 16 code points, the max bound's
last code point incremented), ``full``, ``counts`` (null counts only) or ``none``.  Binary columns get
no bounds (Paimon keeps none).  A float column holding NaN gets null min and max, which Paimon readers
treat as unknown bounds (NaN orders above every number in Paimon's comparisons, so a bound ignoring it
could prune a matching row).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pyarrow as pa
import pyarrow.compute as pc

from ..binary_row import serialize_binary_row
from ..errors import InvalidOptionError
from ..table.manifest import SimpleStats
from ..types import RowType
from ..values import Timestamp

__all__ = ["value_stats", "parquet_statistics_columns", "parquet_dictionary_columns"]


def _bound(value: pa.Scalar, t: pa.DataType):
    if not value.is_valid:
        return None
    if pa.types.is_timestamp(t):
        n = value.cast(pa.int64()).as_py()
        return Timestamp(n, 0) if t.unit == "ms" else Timestamp.from_micros(n)
    if pa.types.is_date32(t):
        return value.cast(pa.int32()).as_py()
    return value.as_py()


def _has_nan(col) -> bool:
    return pa.types.is_floating(col.type) and bool(pc.any(pc.is_nan(col)).as_py())


def parquet_statistics_columns(data: pa.Table) -> list[str] | bool:
    """Columns whose Parquet footer statistics may be written: all but float columns holding NaN.

    pyarrow leaves NaN out of a float column's Parquet min/max, and Paimon Java pushes filters into
    parquet-java's row-group statistics filter, so ``x > 2`` would drop a row group whose only match
    is NaN (NaN is greater than every number for Paimon).  Without statistics the row group is read.
    """
    nan = {f.name for f in data.schema if _has_nan(data.column(f.name))}
    return True if not nan else [n for n in data.column_names if n not in nan]


_DICTIONARY_SAMPLE = 4096


def parquet_dictionary_columns(data: pa.Table) -> list[str] | bool:
    """Columns worth dictionary encoding: those whose first rows repeat values (distinct <= half a sample).

    pyarrow dictionary-encodes every column by default and falls back to plain encoding only after the
    dictionary outgrows a page; for columns of (nearly) unique values - primary keys, sequence numbers,
    random values - building that dictionary first costs about as much as the rest of the write.  The
    encoding is the file's own business (every Parquet reader, Paimon's included, reads both), so this only
    changes speed and size.  Nested columns keep pyarrow's default for the whole file.
    """
    if any(pa.types.is_nested(f.type) for f in data.schema):
        return True
    sample = data.slice(0, _DICTIONARY_SAMPLE)
    if sample.num_rows == 0:
        return True
    return [n for n in data.column_names
            if pc.count_distinct(sample.column(n), mode="all").as_py() * 2 <= sample.num_rows]


def _mode(options: Mapping[str, str], column: str) -> tuple[str, int]:
    """``(kind, truncate length)`` of a column's stats mode."""
    text = options.get(f"fields.{column}.stats-mode", options.get("metadata.stats-mode", "truncate(16)"))
    text = text.strip().lower()
    m = re.fullmatch(r"truncate\((\d+)\)", text)
    if m:
        return "truncate", int(m.group(1))
    if text in ("full", "counts", "none"):
        return text, 0
    raise InvalidOptionError(f"unknown stats mode {text!r} for column {column!r}",
                             expected="none, counts, full or truncate(<n>)")


def _truncate_max(text: str, n: int) -> str | None:
    """Paimon's upper bound of a string cut to ``n`` code points: the cut with its last code point
    that can be incremented incremented (and what follows dropped); ``None`` when none can."""
    if len(text) <= n:
        return text
    cut = list(text[:n])
    for i in range(n - 1, -1, -1):
        nxt = ord(cut[i]) + 1
        if 0xD800 <= nxt <= 0xDFFF:
            nxt = 0xE000  # a lone surrogate is no string: the next code point above them
        if nxt <= 0x10FFFF:
            return "".join(cut[:i]) + chr(nxt)
    return None


def value_stats(row_type: RowType, data: pa.Table, options: Mapping[str, str] | None = None) -> SimpleStats:
    """``_VALUE_STATS`` of ``data`` (columns named and typed as ``row_type``, see :mod:`.types`) under
    the table's stats options."""
    options = options or {}
    mins: list = []
    maxs: list = []
    nulls: list = []
    for f in row_type:
        col = data.column(f.name)
        kind, length = _mode(options, f.name)
        nulls.append(None if kind == "none" else int(col.null_count))
        t = col.type
        lo = hi = None
        if kind in ("full", "truncate") and len(col) > col.null_count and not f.type.is_binary \
                and not _has_nan(col):
            mm = pc.min_max(col)
            lo, hi = _bound(mm["min"], t), _bound(mm["max"], t)
            if kind == "truncate" and f.type.is_string:
                lo = lo[:length]
                hi = _truncate_max(hi, length)
                if hi is None:
                    lo = None
        mins.append(lo)
        maxs.append(hi)
    types = [f.type for f in row_type]
    return SimpleStats(serialize_binary_row(types, mins), serialize_binary_row(types, maxs), tuple(nulls))
