"""Table schemas: ``<table>/schema/schema-<id>`` JSON files."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import CorruptDataError, InvalidOptionError, PaimonCodecError, UnsupportedVersionError
from ..types import DataType, Field, RowType, parse_type
from .metadata_checks import INT32, checked_int
from .metadata_files import numbered_ids, read_json_object

__all__ = ["TableSchema", "load_schema", "schema_ids"]

# TableSchema versions: 1 = Paimon 0.7, 2 = 0.8, 3 = 0.9 and every release since (pypaimon writes 3).
SUPPORTED_SCHEMA_VERSIONS = (1, 2, 3)


@dataclass(frozen=True)
class TableSchema:
    id: int
    fields: RowType
    options: dict[str, str]
    primary_keys: tuple[str, ...]
    partition_keys: tuple[str, ...]
    version: int = 3
    comment: str | None = None
    highest_field_id: int | None = None
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def bucket(self) -> int:
        """``bucket`` option: fixed count, -1 dynamic (default), -2 postpone."""
        text = self.options.get("bucket", "-1")
        try:
            return int(text)
        except ValueError:
            raise InvalidOptionError(f"bucket option {text!r} is not an integer") from None

    @property
    def partition_type(self) -> RowType:
        return RowType(tuple(self.fields.field(name) for name in self.partition_keys))

    @property
    def is_primary_key_table(self) -> bool:
        return bool(self.primary_keys)

    def option_bool(self, key: str, default: bool = False) -> bool:
        value = self.options.get(key)
        if value is None:
            return default
        return value.strip().lower() == "true"

    @property
    def deletion_vectors_enabled(self) -> bool:
        return self.option_bool("deletion-vectors.enabled")


def _parse_field_type(t) -> DataType:
    # Paimon writes atomic types as strings and nested ones as JSON objects.
    if isinstance(t, str):
        return parse_type(t)
    if isinstance(t, dict):
        kind = str(t.get("type", "")).upper()
        nullable = not kind.endswith("NOT NULL")
        base = kind.replace(" NOT NULL", "")
        if base.startswith("ARRAY") or base.startswith("MULTISET"):
            child = _parse_field_type(t["element"])
            return DataType("ARRAY" if base.startswith("ARRAY") else "MULTISET", nullable, children=(child,))
        if base.startswith("MAP"):
            return DataType("MAP", nullable, children=(_parse_field_type(t["key"]), _parse_field_type(t["value"])))
        if base.startswith("ROW"):
            kids = [(f["name"], _parse_field_type(f["type"])) for f in t.get("fields", [])]
            return DataType("ROW", nullable, children=tuple(k for _, k in kids),
                            field_names=tuple(n for n, _ in kids))
    raise CorruptDataError(f"cannot understand field type {t!r}")


def _field_id(raw, path: str | None) -> int | None:
    return None if raw is None else checked_int(raw, "field id", path, lo=INT32[0], hi=INT32[1])


def parse_schema(obj: dict, path: str | None = None) -> TableSchema:
    try:
        version = obj.get("version", 1)
        if version not in SUPPORTED_SCHEMA_VERSIONS or isinstance(version, bool):
            raise UnsupportedVersionError(f"unsupported table schema version {version}", path=path,
                                          expected=" or ".join(map(str, SUPPORTED_SCHEMA_VERSIONS)))
        fields = RowType(tuple(Field(str(f["name"]), _parse_field_type(f["type"]), _field_id(f.get("id"), path))
                               for f in obj["fields"]))
        schema = TableSchema(
            id=checked_int(obj["id"], "schema id", path),
            fields=fields,
            options={str(k): str(v) for k, v in (obj.get("options") or {}).items()},
            primary_keys=tuple(obj.get("primaryKeys") or ()),
            partition_keys=tuple(obj.get("partitionKeys") or ()),
            version=version,
            comment=obj.get("comment"),
            highest_field_id=_field_id(obj.get("highestFieldId"), path),
            raw=obj,
        )
    except PaimonCodecError as exc:
        raise exc.with_path(path) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptDataError(f"malformed table schema: {type(exc).__name__}: {exc}", path=path) from None
    for name in schema.partition_keys + schema.primary_keys:
        if name not in fields.names:
            raise CorruptDataError(f"schema names key column {name!r} that is not a field", path=path)
    return schema


def schema_ids(table_path: str | os.PathLike) -> list[int]:
    """Ids of every schema file present."""
    return numbered_ids(os.path.join(os.fspath(table_path), "schema"), "schema-")


def load_schema(table_path: str | os.PathLike, schema_id: int | None = None) -> TableSchema:
    """Load schema ``schema_id`` (default: the highest) of a table."""
    if schema_id is None:
        ids = schema_ids(table_path)
        if not ids:
            raise CorruptDataError("table has no schema files", path=os.path.join(os.fspath(table_path), "schema"))
        schema_id = ids[-1]
    path = os.path.join(os.fspath(table_path), "schema", f"schema-{schema_id}")
    obj = read_json_object(path, f"schema {schema_id}")
    return parse_schema(obj, path)
