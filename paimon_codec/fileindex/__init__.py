"""File indexes: container, bitmap, bloom filter, range bitmap, BSI; their evaluation and top-N.

Typical use::

    from paimon_codec.expressions import parse_where
    from paimon_codec.fileindex import FileIndexContainerReader, evaluate
    from paimon_codec.types import parse_row_type

    schema = parse_row_type("status STRING, region STRING, note STRING")
    container = FileIndexContainerReader("data-0.parquet.index")
    result = evaluate(parse_where("status = 'PENDING' AND region IN ('US','EU')"), container, schema)
    result.to_dict()   # {"kind": "REMAIN"} | {"kind": "SKIP"} | {"kind": "BITMAP", ...}

Predicates (``col``, ``parse_where``, ``Predicate``, ...) live in :mod:`paimon_codec.expressions`; every
name here is imported explicitly, so type checkers see what it is.
"""

from __future__ import annotations

from .bitmap import BitmapIndexReader, BitmapIndexWriter
from .bloom import BloomFilterReader, BloomFilterWriter
from .bsi import BsiReader, BsiWriter
from .container import FileIndexContainerReader, write_container
from .evaluate import apply_deletion_vector, evaluate, evaluate_single
from .input_table import read_input_table
from .options import parse_index_options, parse_memory_size
from .range_bitmap import RangeBitmapReader, RangeBitmapWriter
from .reader import EmptyFileIndexReader, FileIndexReader
from .registry import create_reader, create_writer
from .result import REMAIN, SKIP, BitmapResult, FileIndexResult
from .topn import answer_topn_query, top_n_rows
from .writer import FileIndexWriter, Placement, placement

__all__ = [
    "evaluate", "evaluate_single", "apply_deletion_vector",
    "FileIndexResult", "REMAIN", "SKIP", "BitmapResult", "FileIndexReader", "EmptyFileIndexReader",
    "FileIndexWriter", "Placement", "placement", "FileIndexContainerReader", "write_container",
    "BitmapIndexWriter", "BitmapIndexReader", "BloomFilterWriter", "BloomFilterReader",
    "RangeBitmapWriter", "RangeBitmapReader", "BsiWriter", "BsiReader",
    "top_n_rows", "answer_topn_query", "create_reader", "create_writer",
    "parse_index_options", "parse_memory_size", "read_input_table",
]
