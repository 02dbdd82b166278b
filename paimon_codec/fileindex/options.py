"""File-index table options, exactly as Paimon names them (FORMATS.md §10).

``file-index.<type>.columns`` lists the columns of an index type; per-column options have exactly
the shape ``file-index.<type>.<column>.<option>``; ``file-index.in-manifest-threshold`` decides
embedded vs. standalone containers.  :func:`parse_index_options` turns a table's options into the
ordered list of ``(column, index_type, options)`` the writer builds, checking every column exists
and has a type the index can hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidOptionError, UnsupportedTypeError
from ..memory_size import parse_memory_size  # re-exported: its home is paimon_codec.memory_size
from ..types import DataType, RowType, parse_row_type

__all__ = [
    "parse_memory_size",
    "parse_index_options",
    "IndexSpec",
    "INDEX_TYPES",
    "PER_INDEX_OPTIONS",
    "check_index_type",
    "in_manifest_threshold",
    "DEFAULT_IN_MANIFEST_THRESHOLD",
]

INDEX_TYPES = ("bloom-filter", "bitmap", "range-bitmap", "bsi")
# option name -> default (None = no default / index computes one)
PER_INDEX_OPTIONS: dict[str, dict[str, str | None]] = {
    "bloom-filter": {"items": "1000000", "fpp": "0.1"},
    "bitmap": {"version": "2", "index-block-size": "16kb"},
    "range-bitmap": {"chunk-size": None},
    "bsi": {},
}
DEFAULT_IN_MANIFEST_THRESHOLD = 500
_GLOBAL_KEYS = {"file-index.in-manifest-threshold", "file-index.read.enabled"}

_INTEGRAL = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME_WITHOUT_TIME_ZONE"}
_TS = {"TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"}
_SUPPORTED_ROOTS = {
    "bitmap": _INTEGRAL | _TS | {"FLOAT", "DOUBLE", "BOOLEAN", "CHAR", "VARCHAR"},
    "bloom-filter": _INTEGRAL | _TS | {"FLOAT", "DOUBLE", "CHAR", "VARCHAR", "BINARY", "VARBINARY"},
    "range-bitmap": _INTEGRAL | _TS | {"FLOAT", "DOUBLE", "BOOLEAN", "CHAR", "VARCHAR", "DECIMAL"},
    "bsi": _INTEGRAL | _TS | {"DECIMAL"},
}


def check_index_type(index_type: str, dtype: DataType, column: str = "?") -> None:
    """Raise UnsupportedTypeError if ``index_type`` cannot index a column of ``dtype``."""
    roots = _SUPPORTED_ROOTS.get(index_type)
    if roots is None:
        raise InvalidOptionError(f"unknown file index type {index_type!r}", expected=", ".join(INDEX_TYPES))
    if dtype.root not in roots:
        raise UnsupportedTypeError(f"{index_type} index cannot hold column {column!r} of type {dtype}")
    if index_type == "range-bitmap":
        if dtype.root == "DECIMAL" and (dtype.precision or 0) > 18:
            raise UnsupportedTypeError(f"range-bitmap supports DECIMAL precision <= 18, column {column!r} is {dtype}")
        if dtype.root in _TS and (dtype.precision or 0) > 6:
            raise UnsupportedTypeError(f"range-bitmap supports TIMESTAMP precision <= 6, column {column!r} is {dtype}")


@dataclass
class IndexSpec:
    """One index to build: column, index type and its (string-valued) options."""

    column: str
    index_type: str
    options: dict[str, str] = field(default_factory=dict)

    def __iter__(self):  # unpack as (column, index_type, options)
        return iter((self.column, self.index_type, self.options))


def _split_columns(value: str) -> list[str]:
    return [c.strip() for c in str(value).split(",") if c.strip()]


def parse_index_options(options: Mapping[str, Any], schema: RowType | str | list | None = None) -> list[IndexSpec]:
    """Ordered ``(column, index_type, options)`` of the indexes a table's options ask for.

    Order: columns of each ``file-index.<type>.columns`` key in the order the keys and the
    columns appear.  With a ``schema``, columns must exist and have a type the index can hold.
    """
    row_type = None if schema is None else parse_row_type(schema)
    specs: dict[tuple[str, str], IndexSpec] = {}
    per_column: list[tuple[str, str, str, str, str]] = []
    for key, raw in options.items():
        if not key.startswith("file-index."):
            continue
        value = str(raw)
        if key in _GLOBAL_KEYS:
            continue
        rest = key[len("file-index."):]
        index_type = next((t for t in sorted(INDEX_TYPES, key=len, reverse=True) if rest.startswith(t + ".")), None)
        if index_type is None:
            raise InvalidOptionError(f"unknown file-index option {key!r}",
                                     expected="file-index.<bloom-filter|bitmap|range-bitmap|bsi>.columns, "
                                              "file-index.<type>.<column>.<option> or "
                                              "file-index.in-manifest-threshold")
        tail = rest[len(index_type) + 1:]
        if tail == "columns":
            for col in _split_columns(value):
                specs.setdefault((col, index_type), IndexSpec(col, index_type, {}))
            continue
        col, dot, opt = tail.rpartition(".")
        if not dot or not col or not opt:
            raise InvalidOptionError(f"malformed file-index option {key!r}",
                                     expected=f"file-index.{index_type}.<column>.<option>")
        per_column.append((key, col, index_type, opt, value))
    for key, col, index_type, opt, value in per_column:
        spec = specs.get((col, index_type))
        if spec is None:
            raise InvalidOptionError(f"option {key!r} names column {col!r}, which is not in "
                                     f"file-index.{index_type}.columns")
        if opt not in PER_INDEX_OPTIONS[index_type]:
            raise InvalidOptionError(f"unknown {index_type} option {opt!r} in {key!r}",
                                     expected=", ".join(PER_INDEX_OPTIONS[index_type]) or "no options")
        spec.options[opt] = value
    out = list(specs.values())
    for spec in out:
        _validate_values(spec)
        if row_type is not None:
            base = spec.column.split("[", 1)[0] if spec.column.endswith("]") else spec.column
            if base not in row_type.names:
                raise InvalidOptionError(f"file-index.{spec.index_type}.columns names unknown column "
                                         f"{spec.column!r}", expected="one of " + ", ".join(row_type.names))
            dtype = row_type.field(base).type
            if base != spec.column:
                if dtype.root != "MAP":
                    raise UnsupportedTypeError(f"column {base!r} is {dtype}, not a MAP; "
                                               f"{spec.column!r} needs a map column")
                dtype = dtype.children[1]
            check_index_type(spec.index_type, dtype, spec.column)
    return out


def _validate_values(spec: IndexSpec) -> None:
    o = spec.options
    try:
        if spec.index_type == "bitmap":
            if "version" in o and o["version"].strip() not in ("1", "2"):
                raise InvalidOptionError(f"bitmap version of column {spec.column!r} must be 1 or 2, "
                                         f"got {o['version']!r}")
            if "index-block-size" in o:
                parse_memory_size(o["index-block-size"])
        elif spec.index_type == "bloom-filter":
            if "items" in o and int(o["items"]) <= 0:
                raise InvalidOptionError(f"bloom-filter items of column {spec.column!r} must be positive")
            if "fpp" in o and not 0.0 < float(o["fpp"]) < 1.0:
                raise InvalidOptionError(f"bloom-filter fpp of column {spec.column!r} must be in (0, 1)")
        elif spec.index_type == "range-bitmap" and "chunk-size" in o:
            parse_memory_size(o["chunk-size"])
    except ValueError as exc:
        if isinstance(exc, InvalidOptionError):
            raise
        raise InvalidOptionError(f"bad {spec.index_type} option for column {spec.column!r}: {exc}") from exc


def in_manifest_threshold(options: Mapping[str, Any] | None) -> int:
    """``file-index.in-manifest-threshold`` in bytes (default 500)."""
    if not options or "file-index.in-manifest-threshold" not in options:
        return DEFAULT_IN_MANIFEST_THRESHOLD
    return parse_memory_size(options["file-index.in-manifest-threshold"])
