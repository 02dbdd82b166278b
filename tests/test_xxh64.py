"""Vectorised XXH64 of Arrow binary columns equals the xxhash library value by value."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

import paimon_codec.fileindex.bloom.xxh64 as xxh_mod
from paimon_codec.fileindex.bloom import BloomFilterWriter, fast_hash, fast_hash_array
from paimon_codec.fileindex.bloom.xxh64 import xxh64_binary_array


def _expected(values):
    return [xxhash.xxh64_intdigest(v) for v in values]


@pytest.mark.parametrize("min_group", [1, 3, 10**9])
@settings(max_examples=40, deadline=None)
@given(st.lists(st.binary(max_size=100), max_size=120))
def test_every_length_and_path(min_group, values):
    old = xxh_mod._MIN_GROUP
    xxh_mod._MIN_GROUP = min_group  # 1: every length group vectorised; huge: every value by xxhash
    try:
        for typ in (pa.binary(), pa.large_binary()):
            arr = pa.array(values, typ)
            assert xxh64_binary_array(arr).tolist() == _expected(values)
            if len(values) > 2:
                assert xxh64_binary_array(arr.slice(1, len(values) - 2)).tolist() == _expected(values[1:-1])
    finally:
        xxh_mod._MIN_GROUP = old


def test_few_lengths_sampled_then_new_lengths_later():
    rng = np.random.default_rng(3)
    head = [bytes(rng.integers(0, 256, 9, dtype=np.uint8)) for _ in range(5000)]  # one length in the sample
    tail = [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(0, 70, 3000)]
    values = head + tail + head[:100]
    assert xxh64_binary_array(pa.array(values, pa.binary())).tolist() == _expected(values)


def test_bloom_string_column_paths_agree():
    words = [f"value-{i % 997}" for i in range(3000)] + ["", "é" * 40, "x" * 33]
    arrays = [pa.array(words), pa.array(words, pa.large_string()), pa.array(words).dictionary_encode(),
              pa.array(words + [None])]
    expected = [fast_hash("STRING", w) for w in words]
    for arr in arrays:
        assert fast_hash_array("STRING", arr).tolist() == expected
    payloads = set()
    for arr in arrays + [words]:
        w = BloomFilterWriter("STRING", {"items": "3000", "fpp": "0.01"})
        w.write_array(arr)
        payloads.add(w.serialize())
    assert len(payloads) == 1


def test_fixed_size_binary_column():
    raw = [bytes([i % 256, (i * 7) % 256, 1, 2, 3]) for i in range(500)]
    arr = pa.array(raw, pa.binary(5))
    assert fast_hash_array("BINARY(5)", arr).tolist() == [fast_hash("BINARY(5)", b) for b in raw]
