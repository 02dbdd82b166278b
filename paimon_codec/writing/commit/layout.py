"""The Avro writer schemas of manifests, manifest lists and index manifests, per Paimon version.

Paimon declares each metadata record as a ``RowType`` and derives the Avro schema from it (record
``org.apache.paimon.avro.generated.record``, nested records named ``<parent>_<field>``, a nullable
field as the union ``["null", T]`` with default ``null``, TINYINT/SMALLINT as ``int``, TIMESTAMP(3) as
``long``/``timestamp-millis``).  The rows are declared here field by field, with the version that
added each field, and converted the same way; a commit writes with the schema of the newest
manifest already in the table when there is one (:func:`table_writer_schema`), so a table keeps
the layout of the Paimon version that wrote it.

Layouts: ``"0.9"`` (Paimon 0.9) and ``"newest"`` (Paimon 1.4: ``_VALUE_STATS_COLS``,
``_EXTERNAL_PATH``, ``_FIRST_ROW_ID``, ``_WRITE_COLS`` on data files, bucket / level / row-id ranges
on manifest-list entries, ``_EXTERNAL_PATH`` / ``_GLOBAL_INDEX`` on index files).
"""

from __future__ import annotations

import copy
from typing import Any

import fastavro

from ...errors import InvalidOptionError

__all__ = ["LAYOUTS", "avro_schema", "manifest_schema", "manifest_list_schema", "index_manifest_schema",
           "normalize_layout", "file_writer_schema"]

LAYOUTS = ("0.9", "newest")
_RECORD = "org.apache.paimon.avro.generated.record"

# (name, type, nullable, first layout that has it); a type is an atomic name, ("ARRAY", elem,
# elem_nullable) or ("ROW", fields)
_STATS = (("_MIN_VALUES", "BYTES", False, "0.9"), ("_MAX_VALUES", "BYTES", False, "0.9"),
          ("_NULL_COUNTS", ("ARRAY", "BIGINT", True), True, "0.9"))
_DATA_FILE = (
    ("_FILE_NAME", "STRING", False, "0.9"), ("_FILE_SIZE", "BIGINT", False, "0.9"),
    ("_ROW_COUNT", "BIGINT", False, "0.9"), ("_MIN_KEY", "BYTES", False, "0.9"),
    ("_MAX_KEY", "BYTES", False, "0.9"), ("_KEY_STATS", ("ROW", _STATS), False, "0.9"),
    ("_VALUE_STATS", ("ROW", _STATS), False, "0.9"), ("_MIN_SEQUENCE_NUMBER", "BIGINT", False, "0.9"),
    ("_MAX_SEQUENCE_NUMBER", "BIGINT", False, "0.9"), ("_SCHEMA_ID", "BIGINT", False, "0.9"),
    ("_LEVEL", "INT", False, "0.9"), ("_EXTRA_FILES", ("ARRAY", "STRING", False), False, "0.9"),
    ("_CREATION_TIME", "TIMESTAMP(3)", True, "0.9"), ("_DELETE_ROW_COUNT", "BIGINT", True, "0.9"),
    ("_EMBEDDED_FILE_INDEX", "BYTES", True, "0.9"), ("_FILE_SOURCE", "TINYINT", True, "0.9"),
    ("_VALUE_STATS_COLS", ("ARRAY", "STRING", False), True, "newest"),
    ("_EXTERNAL_PATH", "STRING", True, "newest"), ("_FIRST_ROW_ID", "BIGINT", True, "newest"),
    ("_WRITE_COLS", ("ARRAY", "STRING", False), True, "newest"),
)
_MANIFEST_ENTRY = (
    ("_VERSION", "INT", False, "0.9"), ("_KIND", "TINYINT", False, "0.9"), ("_PARTITION", "BYTES", False, "0.9"),
    ("_BUCKET", "INT", False, "0.9"), ("_TOTAL_BUCKETS", "INT", False, "0.9"),
    ("_FILE", ("ROW", _DATA_FILE), False, "0.9"),
)
_MANIFEST_FILE_META = (
    ("_VERSION", "INT", False, "0.9"), ("_FILE_NAME", "STRING", False, "0.9"), ("_FILE_SIZE", "BIGINT", False, "0.9"),
    ("_NUM_ADDED_FILES", "BIGINT", False, "0.9"), ("_NUM_DELETED_FILES", "BIGINT", False, "0.9"),
    ("_PARTITION_STATS", ("ROW", _STATS), False, "0.9"), ("_SCHEMA_ID", "BIGINT", False, "0.9"),
    ("_MIN_BUCKET", "INT", True, "newest"), ("_MAX_BUCKET", "INT", True, "newest"),
    ("_MIN_LEVEL", "INT", True, "newest"), ("_MAX_LEVEL", "INT", True, "newest"),
    ("_MIN_ROW_ID", "BIGINT", True, "newest"), ("_MAX_ROW_ID", "BIGINT", True, "newest"),
)
_DV_RANGE_09 = (("f0", "STRING", False, "0.9"), ("f1", "INT", False, "0.9"), ("f2", "INT", False, "0.9"))
_DV_RANGE = _DV_RANGE_09 + (("_CARDINALITY", "BIGINT", True, "newest"),)
_GLOBAL_INDEX = (
    ("_ROW_RANGE_START", "BIGINT", False, "newest"), ("_ROW_RANGE_END", "BIGINT", False, "newest"),
    ("_INDEX_FIELD_ID", "INT", False, "newest"), ("_EXTRA_FIELD_IDS", ("ARRAY", "INT", False), True, "newest"),
    ("_INDEX_META", "BYTES", True, "newest"),
)
_INDEX_ENTRY = (
    ("_VERSION", "INT", False, "0.9"), ("_KIND", "TINYINT", False, "0.9"), ("_PARTITION", "BYTES", False, "0.9"),
    ("_BUCKET", "INT", False, "0.9"), ("_INDEX_TYPE", "STRING", False, "0.9"), ("_FILE_NAME", "STRING", False, "0.9"),
    ("_FILE_SIZE", "BIGINT", False, "0.9"), ("_ROW_COUNT", "BIGINT", False, "0.9"),
    ("_DELETIONS_VECTORS_RANGES", ("ARRAY", ("ROW", _DV_RANGE), True), True, "0.9"),
    ("_EXTERNAL_PATH", "STRING", True, "newest"), ("_GLOBAL_INDEX", ("ROW", _GLOBAL_INDEX), True, "newest"),
)
_ATOMIC = {"INT": "int", "TINYINT": "int", "SMALLINT": "int", "BIGINT": "long", "STRING": "string",
           "BYTES": "bytes", "TIMESTAMP(3)": {"type": "long", "logicalType": "timestamp-millis"}}


def normalize_layout(layout: str) -> str:
    """``"0.9"`` or ``"newest"`` (``"latest"`` and ``"1.4"`` are accepted for the newest)."""
    text = str(layout).strip().lower()
    if text in ("0.9", "0.9.0"):
        return "0.9"
    if text in ("newest", "latest", "1.4", "1.4.2"):
        return "newest"
    raise InvalidOptionError(f"unknown Paimon metadata layout {layout!r}", expected="'0.9' or 'newest'")


def _type(spec: Any, layout: str, name: str) -> Any:
    if isinstance(spec, str):
        return copy.deepcopy(_ATOMIC[spec])
    if spec[0] == "ARRAY":
        elem = _type(spec[1], layout, name)
        return {"type": "array", "items": ["null", elem] if spec[2] else elem}
    return _record(spec[1], layout, name)


def _record(fields: tuple, layout: str, name: str) -> dict:
    out = []
    for fname, spec, nullable, since in fields:
        if since == "newest" and layout == "0.9":
            continue
        t = _type(spec, layout, f"{name}_{fname}")
        out.append({"name": fname, "type": ["null", t], "default": None} if nullable else {"name": fname, "type": t})
    return {"type": "record", "name": name, "fields": out}


def avro_schema(rows: tuple, layout: str) -> dict:
    return _record(rows, normalize_layout(layout), _RECORD)


def manifest_schema(layout: str) -> dict:
    """Avro schema of a manifest file (``ManifestEntry`` records)."""
    return avro_schema(_MANIFEST_ENTRY, layout)


def manifest_list_schema(layout: str) -> dict:
    """Avro schema of a manifest list (``ManifestFileMeta`` records)."""
    return avro_schema(_MANIFEST_FILE_META, layout)


def index_manifest_schema(layout: str) -> dict:
    """Avro schema of an index manifest (``IndexManifestEntry`` records)."""
    if normalize_layout(layout) == "0.9":
        rows = tuple((n, ("ARRAY", ("ROW", _DV_RANGE_09), True), *rest) if n == "_DELETIONS_VECTORS_RANGES"
                     else (n, s, *rest) for n, s, *rest in _INDEX_ENTRY)
        return avro_schema(rows, "0.9")
    return avro_schema(_INDEX_ENTRY, layout)


def file_writer_schema(path: str) -> tuple[dict, str]:
    """The Avro writer schema and codec of an existing metadata file (``ValueError`` if not Avro)."""
    from ...storage import open_input

    with open_input(path) as fh:
        reader = fastavro.reader(fh)
        schema = reader.writer_schema
        if not isinstance(schema, dict):
            raise ValueError(f"{path}: the Avro schema is not a record")
        return schema, reader.codec


def field_names(schema: dict) -> set[str]:
    """Top-level field names of an Avro record schema."""
    return {f["name"] for f in schema.get("fields", ())}
