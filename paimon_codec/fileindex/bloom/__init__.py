"""Bloom-filter file index (``"bloom-filter"``, FORMATS.md §3): Paimon's ``BloomFilter64`` + ``FastHash``.

Split by idea: :mod:`.hashing` (``FastHash``: Wang's 64-bit mix for numbers, XXH64 for bytes, with
:mod:`.xxh64` hashing whole Arrow string columns), :mod:`._kernel` (bit positions of many hashes,
threaded builds and probes) and :mod:`.filter` (sizing, the writer and the lazy reader).  This
module keeps the public names and the registry factories.
"""

from __future__ import annotations

from .filter import (
    DEFAULT_FPP,
    DEFAULT_ITEMS,
    MAX_HASH_FUNCTIONS,
    BloomFilterReader,
    BloomFilterWriter,
    bloom_sizing,
    create_reader,
    create_writer,
)
from .hashing import fast_hash, fast_hash_array, wang_hash64, wang_hash64_array

__all__ = [
    "BloomFilterWriter",
    "BloomFilterReader",
    "bloom_sizing",
    "wang_hash64",
    "wang_hash64_array",
    "fast_hash",
    "fast_hash_array",
    "create_writer",
    "create_reader",
    "DEFAULT_ITEMS",
    "DEFAULT_FPP",
    "MAX_HASH_FUNCTIONS",
]
