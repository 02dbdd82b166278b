"""Table schemas: ``<table>/schema/schema-<id>`` JSON files."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import storage
from ..errors import (
    CorruptDataError,
    InvalidOptionError,
    InvalidSchemaError,
    PaimonCodecError,
    UnsupportedVersionError,
)
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


_TYPE_EXPECTED = "a type string (e.g. 'INT NOT NULL') or an object of type ARRAY / MULTISET / MAP / ROW"
_FIELD_EXPECTED = "an object with name, type and id"


def _member(obj, key: str, where: str, expected: str):
    """``obj[key]`` of a JSON object, or an error naming the record path (``fields[2].type.element``)."""
    if not isinstance(obj, dict):
        raise CorruptDataError(f"{where} is {type(obj).__name__} {_short(obj)}", expected=expected)
    if key not in obj:
        raise CorruptDataError(f"{where} lacks {key!r}", expected=expected)
    return obj[key]


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_field_type(t, where: str = "type") -> DataType:
    # Paimon writes atomic types as strings and nested ones as JSON objects.
    if isinstance(t, str):
        try:
            return parse_type(t)
        except InvalidSchemaError as exc:  # type text in a schema file: the file is corrupt, not the call
            raise CorruptDataError(f"{where}: {exc.message}", expected=exc.expected) from None
        except PaimonCodecError as exc:
            exc.message = f"{where}: {exc.message}"
            exc.args = (exc._render(),)
            raise
    if isinstance(t, dict):
        kind = str(t.get("type", "")).upper()
        nullable = not kind.endswith("NOT NULL")
        base = kind.replace(" NOT NULL", "")
        if base.startswith("ARRAY") or base.startswith("MULTISET"):
            child = _parse_field_type(_member(t, "element", where, _TYPE_EXPECTED), f"{where}.element")
            return DataType("ARRAY" if base.startswith("ARRAY") else "MULTISET", nullable, children=(child,))
        if base.startswith("MAP"):
            return DataType("MAP", nullable, children=(
                _parse_field_type(_member(t, "key", where, _TYPE_EXPECTED), f"{where}.key"),
                _parse_field_type(_member(t, "value", where, _TYPE_EXPECTED), f"{where}.value")))
        if base.startswith("ROW"):
            members = t.get("fields", [])
            if not isinstance(members, list):
                raise CorruptDataError(f"{where}.fields is {type(members).__name__} {_short(members)}",
                                       expected="a list of fields")
            kids = []
            for i, f in enumerate(members):
                at = f"{where}.fields[{i}]"
                kids.append((str(_member(f, "name", at, _FIELD_EXPECTED)),
                             _parse_field_type(_member(f, "type", at, _FIELD_EXPECTED), f"{at}.type")))
            return DataType("ROW", nullable, children=tuple(k for _, k in kids),
                            field_names=tuple(n for n, _ in kids))
    raise CorruptDataError(f"cannot understand {where} {_short(t)}", expected=_TYPE_EXPECTED)


def _fields(obj: dict, path: str | None) -> RowType:
    raw = _member(obj, "fields", "schema", "the fields of a table schema")
    if not isinstance(raw, list):
        raise CorruptDataError(f"schema fields is {type(raw).__name__} {_short(raw)}", expected="a list of fields")
    if not raw:  # Paimon creates no table without columns; nothing can be read or judged by a column here
        raise CorruptDataError("schema declares no fields", expected="at least one field")
    out = []
    for i, f in enumerate(raw):
        at = f"fields[{i}]"
        name = _member(f, "name", at, _FIELD_EXPECTED)
        ftype = _parse_field_type(_member(f, "type", at, _FIELD_EXPECTED), f"{at}.type")
        out.append(Field(str(name), ftype, _field_id(f.get("id"), path, f"{at}.id")))
    return RowType(tuple(out))


def _string_map(raw, where: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise CorruptDataError(f"{where} is {type(raw).__name__} {_short(raw)}", expected="an object of strings")
    return {str(k): str(v) for k, v in raw.items()}


def _names(raw, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise CorruptDataError(f"{where} is {type(raw).__name__} {_short(raw)}", expected="a list of field names")
    return tuple(raw)


def _field_id(raw, path: str | None, what: str = "field id") -> int | None:
    return None if raw is None else checked_int(raw, what, path, lo=INT32[0], hi=INT32[1])


def parse_schema(obj: dict, path: str | None = None) -> TableSchema:
    try:
        version = obj.get("version", 1)
        if version not in SUPPORTED_SCHEMA_VERSIONS or isinstance(version, bool):
            raise UnsupportedVersionError(f"unsupported table schema version {version}", path=path,
                                          expected=" or ".join(map(str, SUPPORTED_SCHEMA_VERSIONS)))
        fields = _fields(obj, path)
        schema = TableSchema(
            id=checked_int(_member(obj, "id", "schema", "the schema id"), "schema id", path),
            fields=fields,
            options=_string_map(obj.get("options"), "options"),
            primary_keys=_names(obj.get("primaryKeys"), "primaryKeys"),
            partition_keys=_names(obj.get("partitionKeys"), "partitionKeys"),
            version=version,
            comment=obj.get("comment"),
            highest_field_id=_field_id(obj.get("highestFieldId"), path),
            raw=obj,
        )
    except PaimonCodecError as exc:
        raise exc.with_path(path) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptDataError(f"malformed table schema: {type(exc).__name__}: {exc}", path=path,
                               expected="a table schema object as Paimon writes it") from None
    for name in schema.partition_keys + schema.primary_keys:
        if name not in fields.names:
            raise CorruptDataError(f"schema names key column {name!r} that is not a field", path=path,
                                   expected=f"one of the fields {_short(list(fields.names))}")
    return schema


def schema_ids(table_path: str | os.PathLike) -> list[int]:
    """Ids of every schema file present."""
    return numbered_ids(storage.join(os.fspath(table_path), "schema"), "schema-")


def load_schema(table_path: str | os.PathLike, schema_id: int | None = None) -> TableSchema:
    """Load schema ``schema_id`` (default: the highest) of a table."""
    if schema_id is None:
        ids = schema_ids(table_path)
        if not ids:
            raise CorruptDataError("table has no schema files", path=storage.join(os.fspath(table_path), "schema"))
        schema_id = ids[-1]
    path = storage.join(os.fspath(table_path), "schema", f"schema-{schema_id}")
    obj = read_json_object(path, f"schema {schema_id}")
    return parse_schema(obj, path)
