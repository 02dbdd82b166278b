"""Rows of an input file (.parquet / .jsonl / .csv) as columns, for the file-index writer.

``FileIndexWriter.write_table`` takes a pyarrow table or ``{column: values}``; this reads either from a
file (Parquet also from an object store through :mod:`paimon_codec.storage`), converting JSON / CSV
text to each column type's Python values (:func:`paimon_codec.values.from_json`).  Bad input is one
:class:`~paimon_codec.errors.InvalidOptionError` naming the file, line and column.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa

from .. import storage
from ..errors import InvalidOptionError
from ..types import RowType
from ..values import from_json, parse_literal_text

__all__ = ["read_input_table"]


def _csv_table(path: Path, schema: RowType) -> dict[str, Any]:
    import pyarrow.csv as pacsv  # noqa: PLC0415 - only for CSV input (keeps CLI start-up light)

    arrow_native = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
                    "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_()}
    types = {f.name: arrow_native.get(f.type.root, pa.string()) for f in schema}
    try:
        table = pacsv.read_csv(
            path,
            convert_options=pacsv.ConvertOptions(column_types=types, null_values=[""], strings_can_be_null=True,
                                                 quoted_strings_can_be_null=False, include_columns=None),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise InvalidOptionError(f"{path}: cannot read CSV: {exc}") from exc
    cols: dict[str, Any] = {}
    for f in schema:
        if f.name not in table.column_names:
            continue
        arr = table.column(f.name)
        if f.type.root in arrow_native or f.type.is_string:
            cols[f.name] = arr
        else:
            cols[f.name] = [None if v is None else parse_literal_text(f.type, v) for v in arr.to_pylist()]
    return cols


def _jsonl_table(path: Path, schema: RowType) -> dict[str, list]:
    cols: dict[str, list] = {f.name: [] for f in schema}
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidOptionError(f"{path}: line {lineno} is not JSON: {exc.msg}") from exc
            if isinstance(row, list):
                if len(row) != len(schema):
                    raise InvalidOptionError(f"{path}: line {lineno} has {len(row)} values for "
                                             f"{len(schema)} columns")
                row = dict(zip(schema.names, row, strict=True))
            if not isinstance(row, dict):
                raise InvalidOptionError(f"{path}: line {lineno} is not a JSON object")
            for f in schema:
                v = row.get(f.name)
                try:
                    cols[f.name].append(None if v is None else from_json(f.type, v))
                except (ValueError, TypeError, KeyError, IndexError) as exc:
                    raise InvalidOptionError(f"{path}: line {lineno}: column {f.name!r}: {exc}") from exc
    return cols


def read_input_table(path: str | Path, schema: RowType) -> Any:
    """Rows of ``path`` column-wise: a pyarrow table (.parquet) or ``{column: values}`` (.jsonl/.csv)."""
    text = str(path)
    p = Path(text)
    suffix = p.suffix.lower()
    if suffix in (".parquet", ".pq"):
        import pyarrow.parquet as pq  # noqa: PLC0415 - only for Parquet input (keeps CLI start-up light)

        try:
            if not storage.is_local(text):  # an object-store URI: read through its filesystem
                fs, key = storage.filesystem_for(text)
                with storage.store_errors(text, "input"):
                    return pq.read_table(key, filesystem=fs)
            return pq.read_table(p)
        except (pa.ArrowInvalid, OSError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise InvalidOptionError(f"{p}: cannot read Parquet: {exc}") from exc
    if suffix in (".jsonl", ".ndjson", ".json"):
        return _jsonl_table(p, schema)
    if suffix in (".csv", ".tsv"):
        return _csv_table(p, schema)
    raise InvalidOptionError(f"input {p.name!r}: unknown format", expected=".parquet, .jsonl or .csv")
