"""Primary-key data files as Paimon's ``KeyValueDataFileWriterImpl`` writes them.

A file holds ``_KEY_<k>`` for each primary key (ids ``1073741823 + field id``), ``_SEQUENCE_NUMBER``
(BIGINT NOT NULL, id ``2147483646``), ``_VALUE_KIND`` (TINYINT NOT NULL, id ``2147483645``: 0 +I, 1 -U,
2 +U, 3 -D), then every value column, rows sorted by key.  Its meta carries the first and last key as
BinaryRow (``_MIN_KEY`` / ``_MAX_KEY``), key stats (system fields: ``truncate(128)`` unless a
``fields._KEY_<k>.stats-mode`` says otherwise), value stats (the table's stats mode), the records'
sequence range, the retraction count (``_DELETE_ROW_COUNT``), the level, ``_FILE_SOURCE`` (0 APPEND for
writes, 1 COMPACT for compaction output) and the file index of the value columns where configured.
Files roll at ``target-file-size`` (Paimon's default for primary-key tables: 128 MB).
"""

from __future__ import annotations

import datetime as dt
import io
import uuid
from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .. import storage
from ..binary_row import serialize_binary_row
from ..memory_size import parse_memory_size
from ..table.manifest import DataFileMeta
from ..table.table import PaimonTable
from ..types import Field, RowType
from .stats import parquet_dictionary_columns, parquet_statistics_columns, value_stats
from .types import arrow_schema_for

__all__ = ["KEY_PREFIX", "SEQUENCE_COLUMN", "KIND_COLUMN", "RETRACT_KINDS", "key_value_schema",
           "write_key_value_files", "FILE_SOURCE_APPEND", "FILE_SOURCE_COMPACT"]

KEY_PREFIX = "_KEY_"
SEQUENCE_COLUMN = "_SEQUENCE_NUMBER"
KIND_COLUMN = "_VALUE_KIND"
KEY_FIELD_ID_START = (2**31 - 1) // 2  # Integer.MAX_VALUE / 2
SEQUENCE_FIELD_ID = 2**31 - 2  # Integer.MAX_VALUE - 1
KIND_FIELD_ID = 2**31 - 3  # Integer.MAX_VALUE - 2
RETRACT_KINDS = (1, 3)
FILE_SOURCE_APPEND = 0
FILE_SOURCE_COMPACT = 1
_KEY_STATS_MODE = "truncate(128)"


def _field(name: str, t: pa.DataType, field_id: int, nullable: bool) -> pa.Field:
    return pa.field(name, t, nullable=nullable, metadata={b"PARQUET:field_id": str(field_id).encode()})


def key_value_schema(table: PaimonTable) -> pa.Schema:
    """The Arrow schema of the table's primary-key data files."""
    schema = table.schema
    values = arrow_schema_for(schema.fields)
    fields = []
    for name in schema.primary_keys:
        f = schema.fields.field(name)
        fields.append(_field(KEY_PREFIX + name, values.field(name).type, KEY_FIELD_ID_START + int(f.id or 0), False))
    fields.append(_field(SEQUENCE_COLUMN, pa.int64(), SEQUENCE_FIELD_ID, False))
    fields.append(_field(KIND_COLUMN, pa.int8(), KIND_FIELD_ID, False))
    return pa.schema(fields + list(values))


def _key_row_type(table: PaimonTable) -> RowType:
    return RowType(tuple(Field(KEY_PREFIX + n, table.schema.fields.field(n).type.not_null(), i)
                         for i, n in enumerate(table.schema.primary_keys)))


def _key_stats_options(options: Mapping[str, str]) -> dict[str, str]:
    out = {k: v for k, v in options.items() if k.startswith(f"fields.{KEY_PREFIX}")}
    out["metadata.stats-mode"] = _KEY_STATS_MODE
    return out


def _row_of(table: pa.Table, names: list[str], i: int, types) -> bytes:
    from .append import _internal

    return serialize_binary_row(types, [_internal(table.column(n)[i].as_py(), t) for n, t in zip(names, types,
                                                                                             strict=True)])


def write_key_value_files(table: PaimonTable, directory: str, records: pa.Table, *, level: int,
                          file_source: int, compression: str, paimon_version: str | None = None,
                          name_prefix: str | None = None, created_after_ms: int | None = None) -> list[DataFileMeta]:
    """Write ``records`` (the value columns + ``_SEQUENCE_NUMBER`` + ``_VALUE_KIND``, in file order: sorted by key
    except in a postpone bucket) as primary-key data files in ``directory``; returns their metas (nothing
    committed).  ``name_prefix`` replaces ``data-file.prefix``; ``created_after_ms``: the files' creation times
    are later than it and strictly increase from file to file (postpone-bucket files are replayed in that
    order)."""
    from ..fileindex.options import parse_index_options
    from .data_file_index import write_data_file_index

    schema = table.schema
    options = schema.options
    kv_schema = key_value_schema(table)
    value_names = list(schema.fields.names)
    keys = list(schema.primary_keys)
    key_types = [f.type for f in _key_row_type(table)]
    key_rt = _key_row_type(table)
    indexed = bool(parse_index_options(options, schema.fields))
    target = parse_memory_size(options.get("target-file-size", "128 mb"))
    prefix = name_prefix if name_prefix is not None else options.get("data-file.prefix", "data-")
    run = uuid.uuid4()
    created = (dt.datetime.now() - dt.datetime(1970, 1, 1)) // dt.timedelta(milliseconds=1)
    if created_after_ms is not None:
        created = max(created, created_after_ms + 1)
    columns = [records.column(k) for k in keys] + [records.column(SEQUENCE_COLUMN), records.column(KIND_COLUMN)] + \
        [records.column(n) for n in value_names]
    full = pa.Table.from_arrays(columns, schema=kv_schema)
    per_file = max(1, int(full.num_rows * target / max(full.nbytes, 1)))
    storage.makedirs(directory)
    metas = []
    for k, start in enumerate(range(0, full.num_rows, per_file)):
        piece = full.slice(start, per_file)
        name = f"{prefix}{run}-{k}.parquet"
        buf = io.BytesIO()
        pq.write_table(piece, buf, compression=compression, store_decimal_as_integer=True,
                       write_statistics=parquet_statistics_columns(piece),
                       use_dictionary=parquet_dictionary_columns(piece))
        storage.write_atomic(storage.join(directory, name), buf.getvalue())
        values = piece.select(value_names)
        embedded: bytes | None = None
        extra: tuple[str, ...] = ()
        if indexed:
            embedded, extra = write_data_file_index(directory, name, schema.fields, options, values, paimon_version)
        seq = piece.column(SEQUENCE_COLUMN)
        kinds = piece.column(KIND_COLUMN).to_numpy()
        key_names = [KEY_PREFIX + n for n in keys]
        meta = DataFileMeta(
            file_name=name, file_size=buf.tell(), row_count=piece.num_rows, level=level, schema_id=schema.id,
            min_sequence_number=int(pc.min(seq).as_py()), max_sequence_number=int(pc.max(seq).as_py()),
            extra_files=extra, delete_row_count=int(np.isin(kinds, RETRACT_KINDS).sum()),
            embedded_index=embedded, file_source=file_source, external_path=None,
            min_key=_row_of(piece, key_names, 0, key_types),
            max_key=_row_of(piece, key_names, piece.num_rows - 1, key_types),
            key_stats=value_stats(key_rt, piece.select(key_names), _key_stats_options(options)),
            value_stats=value_stats(schema.fields, values, options),
            creation_time_ms=created + k if created_after_ms is not None else created)
        metas.append(meta)
    return metas
