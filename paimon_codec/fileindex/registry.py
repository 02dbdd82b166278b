"""Index type name -> implementing module (imported lazily).

Each module exposes ``create_writer(dtype, options)`` (an object with ``write_array``/``write``
and ``serialize() -> bytes``) and ``create_reader(source: ByteSource, dtype, options)`` (a
:class:`~paimon_codec.fileindex.reader.FileIndexReader`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..errors import UnsupportedTypeError
from ..fileio import ByteSource
from ..types import DataType, parse_type
from .reader import FileIndexReader

__all__ = ["INDEX_MODULES", "index_module", "create_writer", "create_reader", "known_index_types"]

INDEX_MODULES: dict[str, str] = {
    "bitmap": "paimon_codec.fileindex.bitmap",
    "bloom-filter": "paimon_codec.fileindex.bloom",
    "range-bitmap": "paimon_codec.fileindex.range_bitmap",
    "bsi": "paimon_codec.fileindex.bsi",
}


_LOADED: dict[str, ModuleType] = {}


def known_index_types() -> tuple[str, ...]:
    return tuple(INDEX_MODULES)


def index_module(index_type: str) -> ModuleType:
    """The module implementing ``index_type`` (UnsupportedTypeError for an unknown name)."""
    module = _LOADED.get(index_type)
    if module is not None and INDEX_MODULES.get(index_type) == module.__name__:
        return module  # imported before (and the table still names it): skip importlib per reader
    name = INDEX_MODULES.get(index_type)
    if name is None:
        raise UnsupportedTypeError(f"no file index type named {index_type!r}",
                                   expected="one of " + ", ".join(INDEX_MODULES))
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # a module not written yet
        raise UnsupportedTypeError(f"file index type {index_type!r} is not available: {exc}") from exc
    _LOADED[index_type] = module
    return module


def create_writer(index_type: str, dtype: DataType | str, options: Mapping[str, Any] | None = None) -> Any:
    return index_module(index_type).create_writer(parse_type(dtype), dict(options or {}))


def create_reader(index_type: str, source: ByteSource, dtype: DataType | str,
                  options: Mapping[str, Any] | None = None) -> FileIndexReader:
    return index_module(index_type).create_reader(source, parse_type(dtype), dict(options) if options else {})
