"""Range-bitmap behaviour beyond the goldens: predicates vs a brute-force scan on random columns,
chunk sizes, laziness (ByteSource.bytes_read), options, versions and hostile bytes."""

from __future__ import annotations

import math
import struct

import numpy as np
import pyarrow as pa
import pytest
from conftest import GOLDEN_LATEST
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples
from pyroaring import BitMap

from paimon_codec.errors import (
    InvalidOptionError,
    PaimonCodecError,
    UnsupportedTypeError,
    UnsupportedVersionError,
)
from paimon_codec.fileindex import registry
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter, chunk_size_of
from paimon_codec.fileio import ByteSource
from paimon_codec.types import parse_type
from paimon_codec.values import Timestamp


def _order_key(dtype, v):
    """Independent reference ordering: Float.compare for floats, natural order otherwise."""
    if dtype.root in ("FLOAT", "DOUBLE"):
        if math.isnan(v):
            return (1, 0.0, 0.0)
        return (0, v, math.copysign(1.0, v))
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, Timestamp):
        return v.to_micros()
    return v


def _truth(dtype, rows, pred):
    return BitMap([i for i, v in enumerate(rows) if v is not None and pred(_order_key(dtype, v))])


def _values(rng, type_name, n):
    if type_name == "INT":
        vals = rng.integers(-50, 50, n).tolist()
    elif type_name == "BIGINT":
        vals = (rng.integers(-2**62, 2**62, n) // rng.integers(1, 2**40, n)).tolist()
    elif type_name == "STRING":
        alphabet = ["", "a", "ab", "b", "\x00", "é", "日本", "😀", "zz", "a\x00"]
        vals = ["".join(rng.choice(alphabet, rng.integers(0, 3))) for _ in range(n)]
    elif type_name == "DOUBLE":
        pool = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, -2.25, 1e300, -1e-300, 3.0]
        vals = [pool[i] for i in rng.integers(0, len(pool), n)]
    elif type_name == "TIMESTAMP(6)":
        vals = [Timestamp.from_micros(int(x)) for x in rng.integers(-10**6, 10**6, n)]
    else:
        raise AssertionError(type_name)
    return [None if rng.random() < 0.1 else v for v in vals]


@pytest.mark.parametrize("type_name", ["INT", "BIGINT", "STRING", "DOUBLE", "TIMESTAMP(6)"])
@pytest.mark.parametrize("chunk", ["0b", "8b", "64b", "16kb"])
def test_predicates_match_a_scan(type_name, chunk):
    rng = np.random.default_rng(hash((type_name, chunk)) & 0xFFFF)
    dtype = parse_type(type_name)
    rows = _values(rng, type_name, 700)
    writer = RangeBitmapWriter(dtype, {"chunk-size": chunk})
    writer.write_batch(rows[:300])
    for v in rows[300:]:
        writer.write(v)
    reader = RangeBitmapReader(writer.serialize(), dtype)
    present = [v for v in rows if v is not None]
    probes = present[:6] + _values(rng, type_name, 6)
    for lit in [p for p in probes if p is not None]:
        k = _order_key(dtype, lit)
        cases = {
            "eq": (reader.visit_equal(lit), lambda x, k=k: x == k),
            "neq": (reader.visit_not_equal(lit), lambda x, k=k: x != k),
            "lt": (reader.visit_lt(lit), lambda x, k=k: x < k),
            "lte": (reader.visit_lte(lit), lambda x, k=k: x <= k),
            "gt": (reader.visit_gt(lit), lambda x, k=k: x > k),
            "gte": (reader.visit_gte(lit), lambda x, k=k: x >= k),
        }
        for name, (res, pred) in cases.items():
            assert res.bitmap == _truth(dtype, rows, pred), (name, lit)
    a, b = sorted([present[0], present[-1]], key=lambda v: _order_key(dtype, v))
    ka, kb = _order_key(dtype, a), _order_key(dtype, b)
    assert reader.visit_between(a, b).bitmap == _truth(dtype, rows, lambda x: ka <= x <= kb)
    keys = {_order_key(dtype, v) for v in present[:3]}
    assert reader.visit_in(present[:3]).bitmap == _truth(dtype, rows, lambda x: x in keys)
    assert reader.visit_not_in(present[:3]).bitmap == _truth(dtype, rows, lambda x: x not in keys)
    assert reader.visit_is_null().bitmap == BitMap([i for i, v in enumerate(rows) if v is None])
    assert reader.visit_is_not_null().bitmap == BitMap([i for i, v in enumerate(rows) if v is not None])


def test_pyarrow_and_numpy_inputs_match_python_lists():
    dtype = parse_type("BIGINT")
    values = np.arange(-500, 500, dtype=np.int64)[::-1].copy()
    a = RangeBitmapWriter(dtype)
    a.write_batch(values)
    b = RangeBitmapWriter(dtype)
    b.write_array(pa.chunked_array([pa.array(values[:400]), pa.array(values[400:])]))
    c = RangeBitmapWriter(dtype)
    c.write_batch(values.tolist())
    assert a.serialize() == b.serialize() == c.serialize()
    s = RangeBitmapWriter(parse_type("STRING"))
    s.write_array(pa.array(["b", None, "a", "b"]))
    t = RangeBitmapWriter(parse_type("STRING"))
    for v in ["b", None, "a", "b"]:
        t.write(v)
    assert s.serialize() == t.serialize()


def test_chunk_size_defaults_and_options():
    assert chunk_size_of(parse_type("INT"), {}) == 16 * 1024
    for t in ("BOOLEAN", "TINYINT", "SMALLINT"):
        assert chunk_size_of(parse_type(t), None) == 0
    assert chunk_size_of(parse_type("INT"), {"chunk-size": "1 kb"}) == 1024
    assert chunk_size_of(parse_type("INT"), {"file-index.range-bitmap.c.chunk-size": "2mb"}) == 2 << 20
    with pytest.raises(InvalidOptionError):
        chunk_size_of(parse_type("INT"), {"chunk-size": "lots"})


@pytest.mark.parametrize("type_name", ["BINARY(3)", "ARRAY<INT>", "TIMESTAMP(9)", "DECIMAL(20, 2)"])
def test_unsupported_types(type_name):
    with pytest.raises(UnsupportedTypeError):
        RangeBitmapWriter(parse_type(type_name))


def test_registry_round_trip():
    w = registry.create_writer("range-bitmap", "INT", {"chunk-size": "64b"})
    w.write_array([3, 1, None, 2])
    payload = w.serialize()
    r = registry.create_reader("range-bitmap", ByteSource(payload), "INT", {})
    assert r.visit_gte(2).bitmap == BitMap([0, 3])


def test_reader_reads_only_what_a_query_needs():
    """A lookup touches the chunk directory and one chunk, never the whole dictionary."""
    n = 120_000
    dtype = parse_type("BIGINT")
    w = RangeBitmapWriter(dtype)
    values = np.arange(n, dtype=np.int64) * 7919 % (n * 13)
    w.write_batch(values)
    payload = w.serialize()

    src = ByteSource(payload)
    reader = RangeBitmapReader(src, dtype)
    header_bytes = src.bytes_read
    assert header_bytes <= 64
    assert reader.dictionary_length > 500_000
    # out-of-range literal: answered from the header alone
    assert not reader.visit_equal(-1).bitmap
    assert src.bytes_read == header_bytes
    # a key lookup: the chunk directory + one chunk of 16 KiB
    before = src.bytes_read
    code = reader.find(int(values[4321]))
    assert code == int(np.searchsorted(np.unique(values), values[4321]))
    assert src.bytes_read - before < 40_000
    # IS NULL: the BSI header and the EBM, no slice
    before = src.bytes_read
    assert not reader.visit_is_null().bitmap
    assert src.bytes_read - before < 1_000
    # an equality answer reads the slices and one more chunk, not the rest of the dictionary
    total_before = src.bytes_read
    assert list(reader.visit_equal(int(values[77])).bitmap) == [77]
    bsi_size = len(payload) - reader.bsi_offset
    assert src.bytes_read - total_before <= bsi_size + 16 * 1024 + 64
    assert src.bytes_read < len(payload) // 2


def _payload():
    w = RangeBitmapWriter(parse_type("STRING"), {"chunk-size": "16b"})
    w.write_batch(["pear", None, "apple", "fig", "kiwi", "apple", "plum", None, "date", "lime"])
    return w.serialize()


def test_version_above_one_is_unsupported():
    data = bytearray(_payload())
    data[4] = 2
    with pytest.raises(UnsupportedVersionError):
        RangeBitmapReader(bytes(data), "STRING")


def _exercise(data: bytes, type_name: str) -> None:
    """Every question a user asks, and (when the bytes were accepted) answers that agree with each other:
    rows inside the row count, ``<`` / ``>=`` and ``=`` / ``<>`` partitioning the non-null rows, ``IN`` the union
    of its equalities, ``BETWEEN`` the meet of its bounds (:mod:`fuzz.answers`)."""
    from fuzz.answers import check_index_answers

    reader = RangeBitmapReader(data, type_name)
    lits = ("apple", "b", "zzz", "") if type_name == "STRING" else (0, 5, -3, 10**6)
    for lit in lits:
        for res in (reader.visit_equal(lit), reader.visit_lt(lit), reader.visit_gte(lit),
                    reader.visit_not_equal(lit), reader.visit_is_null()):
            _ = res.bitmap
    for pair in (lits[:2], lits[2:]):
        check_index_answers(reader, "range-bitmap", list(pair))
    from paimon_codec.fileindex.topn import top_n_rows
    top_n_rows(reader, 3, True, False, True)
    reader.describe()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_bytes_raise_only_our_errors(data):
    type_name = data.draw(st.sampled_from(["STRING", "INT"]))
    if type_name == "STRING":
        payload = _payload()
    else:
        payload = (GOLDEN_LATEST / "range_bitmap" / "range_int_chunk_64b.bin").read_bytes()
    mutated = bytearray(payload)
    mode = data.draw(st.sampled_from(["truncate", "flip", "int"]))
    if mode == "truncate":
        mutated = mutated[:data.draw(st.integers(0, len(payload) - 1))]
    elif mode == "flip":
        for _ in range(data.draw(st.integers(1, 4))):
            pos = data.draw(st.integers(0, len(payload) - 1))
            mutated[pos] ^= 1 << data.draw(st.integers(0, 7))
    else:
        pos = data.draw(st.integers(0, len(payload) - 4))
        mutated[pos:pos + 4] = struct.pack(">i", data.draw(st.sampled_from([-1, 0, 1, 2**31 - 1, 65536])))
    try:
        _exercise(bytes(mutated), type_name)
    except PaimonCodecError:
        pass


_COMPARISONS = {
    "eq": (lambda r, a: r.visit_equal(a), lambda x, a: x == a),
    "lt": (lambda r, a: r.visit_lt(a), lambda x, a: x < a),
    "lte": (lambda r, a: r.visit_lte(a), lambda x, a: x <= a),
    "gt": (lambda r, a: r.visit_gt(a), lambda x, a: x > a),
    "gte": (lambda r, a: r.visit_gte(a), lambda x, a: x >= a),
    "neq": (lambda r, a: r.visit_not_equal(a), lambda x, a: x != a),
}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fixed_width_directory_and_comparisons_match_brute_force(data):
    """The fixed-width dictionary directory (checked and searched as whole arrays, chunks built on demand)
    and the slices read in one go answer every comparison as a scan of the raw values does, over random
    columns, chunk sizes (one key a chunk .. one chunk) and literals present or not."""
    type_name = data.draw(st.sampled_from(["INT", "BIGINT", "SMALLINT"]))
    bound = {"INT": 2**31 - 1, "BIGINT": 2**63 - 1, "SMALLINT": 2**15 - 1}[type_name]
    span = data.draw(st.sampled_from([5, 300, bound]))
    value = st.integers(-min(span, bound + 1), min(span, bound))
    rows = data.draw(st.lists(st.one_of(st.none(), value), min_size=0, max_size=400))
    dtype = parse_type(type_name)
    options = {} if type_name == "SMALLINT" else {"chunk-size": data.draw(st.sampled_from(["0b", "8b", "64b", "16kb"]))}
    writer = RangeBitmapWriter(dtype, options)
    writer.write_batch(rows)
    reader = RangeBitmapReader(writer.serialize(), dtype)
    present = sorted({v for v in rows if v is not None})
    assert reader.keys_by_code() == present
    literals = data.draw(st.lists(st.one_of(st.sampled_from(present) if present else value, value),
                                  min_size=1, max_size=6))
    for lit in literals:
        for name, (ask_reader, holds) in _COMPARISONS.items():
            want = BitMap([i for i, v in enumerate(rows) if v is not None and holds(v, lit)])
            assert reader_fresh_or_kept(reader, dtype, writer, ask_reader, lit) == want, (name, lit)


def reader_fresh_or_kept(reader, dtype, writer, ask_reader, literal):
    """The kept reader's answer (slices and chunks cached by earlier questions), checked equal to a fresh
    reader's (nothing cached), so a cache can never change an answer."""
    kept = ask_reader(reader, literal).bitmap
    fresh = ask_reader(RangeBitmapReader(writer.serialize(), dtype), literal).bitmap
    assert kept == fresh
    return kept
