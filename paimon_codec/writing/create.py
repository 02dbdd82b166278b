"""Creating a filesystem-catalog table: ``<table>/schema/schema-0`` as Paimon writes it.

The schema file is created only if absent (the same primitive as a snapshot commit), so two
processes creating one table cannot overwrite each other: the second gets an error.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence

import pyarrow as pa

from .. import storage
from ..errors import InvalidOptionError, UsageError
from ..types import Field, RowType, parse_row_type
from .types import row_type_from_arrow

__all__ = ["create_table", "schema_json"]


def _row_type(schema: pa.Schema | RowType | str) -> RowType:
    if isinstance(schema, pa.Schema):
        return row_type_from_arrow(schema)
    rt = parse_row_type(schema)
    return RowType(tuple(Field(f.name, f.type, i) for i, f in enumerate(rt)))


def schema_json(row_type: RowType, options: Mapping[str, str], partition_keys: Sequence[str],
                primary_keys: Sequence[str], schema_id: int = 0) -> dict:
    fields = [{"id": f.id, "name": f.name, "type": str(f.type)} for f in row_type]
    return {"version": 3, "id": schema_id, "fields": fields, "highestFieldId": max((f.id for f in row_type), default=-1),
            "partitionKeys": list(partition_keys), "primaryKeys": list(primary_keys), "options": dict(options),
            "timeMillis": int(time.time() * 1000)}


def create_table(path: str | os.PathLike, schema: pa.Schema | RowType | str, options: Mapping[str, object] | None = None,
                 partition_keys: Sequence[str] = (), primary_keys: Sequence[str] | None = None) -> str:
    """Create an empty table at ``path`` (``<warehouse>/<db>.db/<name>`` for a filesystem catalog);
    returns the path.  ``schema``: an Arrow schema, a :class:`RowType` or ``"a INT, b STRING"``.
    Primary-key columns become NOT NULL, as in Paimon.  An existing table is an error."""
    path = os.fspath(path)
    row_type = _row_type(schema)
    opts = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in (options or {}).items()}
    pks = list(primary_keys or ())
    for name in list(partition_keys) + pks:
        if name not in row_type.names:
            raise InvalidOptionError(f"key column {name!r} is not a column", expected=", ".join(row_type.names))
    if pks:
        row_type = RowType(tuple(Field(f.name, f.type.not_null() if f.name in pks else f.type, f.id) for f in row_type))
    bucket = int(opts.get("bucket", "-1"))
    if bucket > 0 and not pks and not opts.get("bucket-key"):
        raise InvalidOptionError(f"an append table with bucket = {bucket} needs a 'bucket-key' option",
                                 expected="bucket-key = <columns>")
    for key in opts.get("bucket-key", "").split(","):
        if key.strip() and key.strip() not in row_type.names:
            raise InvalidOptionError(f"bucket-key column {key.strip()!r} is not a column")
    text = json.dumps(schema_json(row_type, opts, partition_keys, pks), indent=2).encode()
    schema_dir = storage.join(path, "schema")
    storage.makedirs(schema_dir)
    if not storage.create_if_absent(storage.join(schema_dir, "schema-0"), text):
        raise UsageError("table already exists", path=path)
    return path
