"""File indexes: container, bitmap, bloom filter, range bitmap, BSI; predicates and evaluation.

Typical use::

    from paimon_codec.fileindex import FileIndexContainerReader, col, evaluate, parse_where
    from paimon_codec.types import parse_row_type

    schema = parse_row_type("status STRING, region STRING, note STRING")
    container = FileIndexContainerReader("data-0.parquet.index")
    result = evaluate(parse_where("status = 'PENDING' AND region IN ('US','EU')"), container, schema)
    result.to_dict()   # {"kind": "REMAIN"} | {"kind": "SKIP"} | {"kind": "BITMAP", ...}

The predicate, result and evaluation names are imported eagerly; the index formats (writers,
readers, container) load on first use of their names.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..expressions import And, Column, Leaf, Or, Predicate, and_all, col, or_all
from ..expressions.json_form import predicate_from_json, predicate_to_json
from ..expressions.sql import parse_where, to_sql
from .evaluate import apply_deletion_vector, evaluate, evaluate_single
from .reader import EmptyFileIndexReader, FileIndexReader
from .result import REMAIN, SKIP, BitmapResult, FileIndexResult

# name -> submodule, imported lazily (index formats pull in numpy/pyarrow/codecs)
_LAZY = {
    "FileIndexWriter": "writer",
    "Placement": "writer",
    "placement": "writer",
    "FileIndexContainerReader": "container",
    "write_container": "container",
    "BitmapIndexWriter": "bitmap",
    "BitmapIndexReader": "bitmap",
    "BloomFilterWriter": "bloom",
    "BloomFilterReader": "bloom",
    "RangeBitmapWriter": "range_bitmap",
    "RangeBitmapReader": "range_bitmap",
    "BsiWriter": "bsi",
    "BsiReader": "bsi",
    "top_n_rows": "topn",
    "answer_topn_query": "topn",
    "create_reader": "registry",
    "create_writer": "registry",
    "parse_index_options": "options",
    "parse_memory_size": "options",
    "read_input_table": "input_table",
}

__all__ = [
    "col", "Column", "Predicate", "Leaf", "And", "Or", "and_all", "or_all",
    "parse_where", "to_sql", "predicate_from_json", "predicate_to_json",
    "evaluate", "evaluate_single", "apply_deletion_vector",
    "FileIndexResult", "REMAIN", "SKIP", "BitmapResult", "FileIndexReader", "EmptyFileIndexReader",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
