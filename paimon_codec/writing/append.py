"""Appending Arrow data to an append table: Parquet data files + their metas, then one commit.

Rows go to ``<table>/<partition path>/bucket-<n>/data-<uuid>-<k>.parquet``: bucket 0 for a
bucket-unaware table (``bucket = -1``), ``abs(hash(bucket-key row) % bucket)`` for a fixed-bucket one
(Paimon's BinaryRow hash).  Each file's meta carries its row count, size, value stats (see
:mod:`.stats`), sequence numbers (0.. per file for bucket-unaware tables, continuing the bucket's
highest for fixed buckets, as Paimon's append writers do), empty min/max keys and the file index
the table's ``file-index.*`` options ask for (embedded in the manifest or a ``.index`` file beside
the data, by ``file-index.in-manifest-threshold``).

Refused (one line, :class:`~paimon_codec.errors.PaimonCodecError`): primary-key tables, postpone
buckets, data file formats other than Parquet, and the column types :mod:`.types` refuses.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import uuid

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import storage
from ..bucket import KeyEncoder, fixed_buckets
from ..errors import InvalidOptionError, UnsupportedFeatureError, UnsupportedTypeError, UsageError
from ..memory_size import parse_memory_size
from ..table.manifest import DataFileMeta, merge_entries
from ..table.table import PaimonTable
from ..values import Timestamp
from .commit import CommitResult, FileChange, commit_changes
from .commit.table_layout import detect_layout
from .stats import parquet_statistics_columns, value_stats
from .types import arrow_schema_for

__all__ = ["write_data_files", "append_arrow"]

log = logging.getLogger(__name__)
_EMPTY_ROW = b"\x00" * 12  # serialized arity-0 BinaryRow
_COMPRESSION = {"zstd": "zstd", "snappy": "snappy", "gzip": "gzip", "lz4": "lz4", "none": "none",
                "uncompressed": "none", "brotli": "brotli"}


def _check_table(table: PaimonTable) -> tuple[str, str]:
    schema = table.schema
    if schema.primary_keys:
        raise UnsupportedFeatureError("appending to a primary-key table: use upsert_arrow (append tables only here)",
                               path=table.path)
    if schema.bucket == -2:
        raise UnsupportedFeatureError("writing to a postpone-bucket table (bucket = -2) is not supported", path=table.path)
    fmt = schema.options.get("file.format", "parquet")  # Paimon's default since 0.9
    if fmt.strip().lower() != "parquet":
        raise UnsupportedFeatureError(f"writing {fmt} data files is not supported", path=table.path,
                               expected="file.format = parquet")
    codec = schema.options.get("file.compression", "zstd").strip().lower()
    if codec not in _COMPRESSION:
        raise UnsupportedFeatureError(f"file.compression {codec} is not supported", path=table.path,
                               expected=", ".join(sorted(_COMPRESSION)))
    return "parquet", _COMPRESSION[codec]


def _conform(data: pa.Table, schema: pa.Schema, path: str) -> pa.Table:
    extra = [n for n in data.column_names if n not in schema.names]
    if extra:
        raise UsageError(f"columns {extra} are not in the table", path=path, expected=", ".join(schema.names))
    cols = []
    for f in schema:
        if f.name in data.column_names:
            col = data.column(f.name)
            try:
                col = col.cast(f.type) if col.type != f.type else col
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                raise UnsupportedTypeError(f"column {f.name!r}: cannot write {col.type} as {f.type}: {exc}",
                                           path=path) from None
        else:
            col = pa.nulls(data.num_rows, f.type)
        if not f.nullable and col.null_count:
            raise UsageError(f"column {f.name!r} is NOT NULL but {col.null_count} values are null", path=path)
        cols.append(col)
    return pa.Table.from_arrays(cols, schema=schema)


def _internal(value, dtype):
    """A partition / bucket-key value as Paimon's internal value (days, Timestamp, ...)."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return Timestamp.from_datetime(value)
    if isinstance(value, dt.date):
        return (value - dt.date(1970, 1, 1)).days
    return value


def _fixed_width_key_columns(data: pa.Table, keys: list[str], types) -> tuple[list, list] | None:
    """Bucket-key columns as numpy arrays for :meth:`KeyEncoder.hash_columns` (ints, floats, booleans,
    dates, millisecond timestamps), or ``None`` when a key needs the row-by-row path."""
    cols, masks = [], []
    for k, t in zip(keys, types, strict=True):
        col = data.column(k).combine_chunks()
        at = col.type
        if pa.types.is_timestamp(at) and at.unit == "ms" and (t.precision or 0) <= 3:
            col = col.cast(pa.int64())
        elif pa.types.is_date32(at):
            col = col.cast(pa.int32())
        elif not (pa.types.is_integer(at) or pa.types.is_floating(at) or pa.types.is_boolean(at)):
            return None
        mask = col.is_null().to_numpy(zero_copy_only=False) if col.null_count else None
        filled = col.fill_null(False if pa.types.is_boolean(col.type) else 0) if col.null_count else col
        cols.append(filled.to_numpy(zero_copy_only=False))
        masks.append(mask)
    return cols, masks


def _buckets(table: PaimonTable, data: pa.Table) -> np.ndarray:
    n = table.schema.bucket
    if n <= 0:
        return np.zeros(data.num_rows, dtype=np.int32)
    keys = [k.strip() for k in table.schema.options.get("bucket-key", "").split(",") if k.strip()]
    if not keys:
        raise InvalidOptionError(f"append table with bucket = {n} has no bucket-key option", path=table.path)
    types = [table.schema.fields.field(k).type for k in keys]
    encoder = KeyEncoder(types)
    fixed = _fixed_width_key_columns(data, keys, types) if encoder.fixed_width_only else None
    if fixed is not None:
        hashes = encoder.hash_columns(fixed[0], fixed[1])
    else:
        columns = [[_internal(v, t) for v in data.column(k).to_pylist()] for k, t in zip(keys, types, strict=True)]
        hashes = encoder.hash_many(list(zip(*columns, strict=True)))
    return fixed_buckets(hashes, n)


def _groups(table: PaimonTable, data: pa.Table, buckets: np.ndarray) -> list[tuple[tuple, int, np.ndarray | None]]:
    """``(partition values, bucket, row indices or None for all rows)`` per target directory."""
    keys = list(table.schema.partition_keys)
    types = [f.type for f in table.schema.partition_type]
    if not keys and (len(buckets) == 0 or bool((buckets == buckets[0]).all())):
        return [((), int(buckets[0]) if len(buckets) else 0, None)]
    cols = {f"k{i}": data.column(k) for i, k in enumerate(keys)}
    cols["b"] = pa.array(buckets, pa.int32())
    cols["i"] = pa.array(np.arange(data.num_rows, dtype=np.int64))
    grouped = pa.table(cols).group_by([f"k{i}" for i in range(len(keys))] + ["b"], use_threads=False) \
        .aggregate([("i", "list")])
    out: list[tuple[tuple, int, np.ndarray | None]] = []
    for row in grouped.to_pylist():
        values = tuple(_internal(row[f"k{i}"], t) for i, t in enumerate(types))
        out.append((values, int(row["b"]), np.asarray(row["i_list"], dtype=np.int64)))
    out.sort(key=lambda g: int(g[2][0]) if g[2] is not None else 0)  # first-row order, stable across runs
    return out


def _row_group_rows(piece: pa.Table, options) -> int | None:
    """Rows per Parquet row group for ``parquet.block.size`` (bytes, Parquet's own option that Paimon passes
    to its writer), estimated from the Arrow size of the rows; ``None``: pyarrow's default."""
    block = options.get("parquet.block.size")
    if not block or piece.num_rows == 0:
        return None
    per_row = max(piece.nbytes / piece.num_rows, 1e-9)
    return max(1, int(parse_memory_size(block) / per_row))


def _max_sequences(table: PaimonTable) -> dict[tuple[bytes, int], int]:
    latest = table.snapshot()
    if latest is None or table.schema.bucket <= 0:
        return {}
    out: dict[tuple[bytes, int], int] = {}
    for e in merge_entries(table.manifest_entries(latest)):
        key = (e.partition, e.bucket)
        out[key] = max(out.get(key, -1), e.file.max_sequence_number)
    return out


def write_data_files(table_path: str | os.PathLike, data: pa.Table, *, layout: str | None = None,
                     branch: str | None = None) -> list[FileChange]:
    """Write ``data`` as data files of the table (or of ``branch``: its schema; data files are shared);
    nothing is committed; returns the ADD changes."""
    from ..binary_row import serialize_binary_row
    from ..fileindex.options import parse_index_options
    from .data_file_index import write_data_file_index

    table = PaimonTable(os.fspath(table_path), branch=branch)
    _, compression = _check_table(table)
    schema = table.schema
    arrow_schema = arrow_schema_for(schema.fields)
    data = _conform(data, arrow_schema, table.path)
    if data.num_rows == 0:
        return []
    options = schema.options
    version = "0.9" if detect_layout(table, table.snapshot(), layout).layout == "0.9" else None
    indexed = bool(parse_index_options(options, schema.fields))
    target = parse_memory_size(options.get("target-file-size", "256 mb"))
    prefix = options.get("data-file.prefix", "data-")
    part_types = [f.type for f in schema.partition_type]
    sequences = _max_sequences(table)
    total_buckets = schema.bucket if schema.bucket > 0 else -1
    changes = []
    now = dt.datetime.now()
    created = (now - dt.datetime(1970, 1, 1)) // dt.timedelta(milliseconds=1)
    for values, bucket, rows in _groups(table, data, _buckets(table, data)):
        part = serialize_binary_row(part_types, list(values)) if part_types else _EMPTY_ROW
        directory = table.bucket_dir_of(values, bucket)
        storage.makedirs(directory)
        chunk = data if rows is None else data.take(pa.array(rows))
        per_file = max(1, int(chunk.num_rows * target / max(chunk.nbytes, 1)))
        run = uuid.uuid4()
        seq = sequences.get((part, bucket), -1) + 1
        for k, start in enumerate(range(0, chunk.num_rows, per_file)):
            piece = chunk.slice(start, per_file)
            name = f"{prefix}{run}-{k}.parquet"
            buf = io.BytesIO()
            pq.write_table(piece, buf, compression=compression, store_decimal_as_integer=True,
                           write_statistics=parquet_statistics_columns(piece),
                           row_group_size=_row_group_rows(piece, options))
            storage.write_atomic(storage.join(directory, name), buf.getvalue())
            embedded: bytes | None = None
            extra: tuple[str, ...] = ()
            if indexed:
                embedded, extra = write_data_file_index(directory, name, schema.fields, options, piece, version)
            n = piece.num_rows
            first = seq if schema.bucket > 0 else 0
            meta = DataFileMeta(
                file_name=name, file_size=buf.tell(), row_count=n, level=0, schema_id=schema.id,
                min_sequence_number=first, max_sequence_number=first + n - 1, extra_files=extra,
                delete_row_count=0, embedded_index=embedded, file_source=0, external_path=None,
                min_key=_EMPTY_ROW, max_key=_EMPTY_ROW, value_stats=value_stats(schema.fields, piece, options),
                creation_time_ms=created)
            seq += n
            changes.append(FileChange.of(part, bucket, meta, "ADD", total_buckets))
    log.info("wrote %d data files (%d rows) for %s", len(changes), data.num_rows, table.path)
    return changes


def append_arrow(table_path: str | os.PathLike, data: pa.Table, *, commit_user: str | None = None,
                 retries: int = 50, layout: str | None = None, branch: str | None = None) -> CommitResult:
    """Append ``data`` to an append table (or a branch of it): write its data files, then commit them as
    one snapshot."""
    changes = write_data_files(table_path, data, layout=layout, branch=branch)
    return commit_changes(table_path, changes, commit_user=commit_user, retries=retries, layout=layout,
                          branch=branch)
