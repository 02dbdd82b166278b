"""Bloom-filter file index: byte-exact writer, FastHash values and queries against the goldens."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from _fileindex_cases import (
    cases_09,
    column_types_09,
    latest_literal,
    latest_rows,
    load_09,
    result_matches,
    rows_09,
)
from conftest import latest_cases, load_json
from hypothesis import given, settings
from hypothesis import strategies as st

import paimon_codec.fileindex.bloom._kernel as bloom_mod
from paimon_codec import formats as F
from paimon_codec.errors import CorruptDataError, InvalidOptionError, PaimonCodecError, UnsupportedTypeError
from paimon_codec.fileindex.bloom import (
    BloomFilterReader,
    BloomFilterWriter,
    bloom_sizing,
    fast_hash,
    fast_hash_array,
    wang_hash64,
    wang_hash64_array,
)
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.fileio import ByteSource
from paimon_codec.jit import NO_JIT_ENV
from paimon_codec.types import parse_type
from paimon_codec.values import from_json

LATEST = latest_cases("bloom-filter")


@pytest.fixture(autouse=True, scope="module")
def _numpy_kernels():
    """These tests hold the numpy kernels (the reference) to Java's bytes; test_fileindex_bloom_jit.py holds the
    compiled ones to both."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(NO_JIT_ENV, "1")
        yield


@pytest.mark.parametrize("case", LATEST, ids=[c["case"] for c in LATEST])
def test_latest_bloom_bytes_and_hashes(case):
    d = load_json(case["json"])
    t = parse_type(d["type"])
    rows = latest_rows(d, t)
    w = BloomFilterWriter(t, d["options"])
    w.write_array(rows)
    assert w.serialize() == case["file"].read_bytes()
    assert [None if v is None else fast_hash(t, v) for v in rows] == d["row_hash64"]
    assert fast_hash_array(t, rows).tolist() == [h for h in d["row_hash64"] if h is not None]
    r = BloomFilterReader(case["file"].read_bytes(), t)
    assert (r.num_hash_functions, r.num_bits) == (d["expected_meta"]["num_hash_functions"],
                                                  d["expected_meta"]["num_bits"])


@pytest.mark.parametrize("case", LATEST, ids=[c["case"] for c in LATEST])
def test_latest_bloom_queries(case):
    d = load_json(case["json"])
    t = parse_type(d["type"])
    r = BloomFilterReader(case["file"].read_bytes(), t)
    lits = []
    for q in d["queries"]:
        assert q["op"] == "eq"
        lit = latest_literal(q, t)
        lits.append(lit)
        if lit is not None:
            assert fast_hash(t, lit) == q["hash64"]
        assert result_matches(r.visit_equal(lit), q["result"]), q
    present = [lit for lit in lits if lit is not None]
    batch = r.might_contain_many(present)
    assert batch.tolist() == [q["result"] == "REMAIN" for q, lit in zip(d["queries"], lits, strict=True)
                              if lit is not None]
    # every written value is reported as possibly present (no false negatives)
    assert r.might_contain_many([v for v in latest_rows(d, t) if v is not None]).all()


def _bloom_cases_09():
    out = []
    for p in cases_09():
        d = load_09(p)
        for i, req in enumerate(d["indexes_requested"]):
            if req["type"] == "bloom-filter" and not req.get("force_empty"):
                out.append(pytest.param(p, i, id=f"{d['case']}-{req['column']}"))
    return out


@pytest.mark.parametrize("path,i", _bloom_cases_09())
def test_09_bloom_payloads(path, i):
    d = load_09(path)
    req = d["indexes_requested"][i]
    col = req["column"]
    t = column_types_09(d)[col]
    if "error" in d["indexes_written"][i]:
        with pytest.raises(UnsupportedTypeError):
            BloomFilterWriter(t, req.get("options"))
        return
    w = BloomFilterWriter(t, req.get("options"))
    w.write_array(rows_09(d, col))
    payload = w.serialize()
    container = FileIndexContainerReader(path.parent / d["file"])
    assert payload == container.read_payload(col, "bloom-filter")
    internals = d["java_index_internals"][f"{col}/bloom-filter"]
    r = BloomFilterReader(payload, t)
    assert (r.num_hash_functions, r.num_bits) == (internals["num_hash_functions"], internals["num_bits"])
    for value, h in internals["value_hashes"]:
        assert fast_hash(t, from_json(t, value)) == h


def test_sizing_matches_defaults_and_workload():
    assert bloom_sizing(1_000_000, 0.1) == (4_792_536, 3)
    assert bloom_sizing(1_000_000, 0.01) == (9_585_064, 7)
    with pytest.raises(InvalidOptionError):
        bloom_sizing(0, 0.1)
    with pytest.raises(InvalidOptionError):
        BloomFilterWriter("INT", {"fpp": "1.5"})


@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=50))
def test_wang_hash_vector_equals_scalar(values):
    assert wang_hash64_array(np.array(values, dtype=np.int64)).tolist() == [wang_hash64(v) for v in values]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=200), st.integers(-(2**31), 2**31 - 1))
def test_no_false_negatives_and_scalar_equals_batch(values, probe):
    w = BloomFilterWriter("INT", {"items": "100", "fpp": "0.05"})
    for v in values[: len(values) // 2]:
        w.write(v)
    w.write_array(np.array(values[len(values) // 2:], dtype=np.int32))
    r = BloomFilterReader(w.serialize(), "INT")
    for v in values:
        assert r.visit_equal(v).kind == "REMAIN"
    probes = values + [probe]
    assert r.might_contain_many(probes).tolist() == [r.might_contain(p) for p in probes]
    assert r.visit_equal(None).kind == "REMAIN"
    assert r.visit_not_equal(probe).kind == "REMAIN"


def test_unsupported_types_and_corrupt_payloads():
    for t in ("BOOLEAN", "DECIMAL(10, 2)", "ARRAY<INT>"):
        with pytest.raises(UnsupportedTypeError):
            BloomFilterWriter(t)
    with pytest.raises(CorruptDataError):
        BloomFilterReader(b"\x00\x00", "INT")
    with pytest.raises(CorruptDataError):
        BloomFilterReader(b"\x00\x00\x00\x00" + b"\xff" * 8, "INT")  # 0 hash functions
    with pytest.raises(CorruptDataError):
        BloomFilterReader(b"\x7f\x00\x00\x00" + b"\xff" * 8, "INT")  # more functions than bits


def _reference_member(payload: bytes, value: str) -> bool:
    """Brute force: the generated codec decodes the payload, Java's addHash arithmetic (``_reference_bits``)
    places the XXH64 of the value's UTF-8 bytes; a member has every one of those bits set."""
    import xxhash

    obj = F.plain(F.get("bloom-filter").decode(payload), full_bytes=True)
    bit_set = bytes.fromhex(obj["bit_set"]["hex"])
    h = xxhash.xxh64_intdigest(value.encode())
    want = _reference_bits([h - (1 << 64) if h >= 1 << 63 else h], obj["num_hash_functions"], len(bit_set) * 8)
    return all(w & b == w for w, b in zip(want, bit_set, strict=True))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64) | st.binary(min_size=1, max_size=60).map(lambda b: b"\x00\x00\x00\x03" + b))
def test_fuzz_random_payloads(data):
    """Random payloads: refused with our error, or every answer equals the brute-force membership test."""
    probes = ["x", "a", "b", ""]
    try:
        r = BloomFilterReader(data, "STRING")
        answers = [r.visit_equal(p) for p in probes]
        many = r.might_contain_many(probes).tolist()
    except PaimonCodecError:
        return
    want = [_reference_member(data, p) for p in probes]
    assert [a.kind == "REMAIN" for a in answers] == want
    assert many == want


def _reference_bits(hashes, k, num_bits):
    """Java's BloomFilter64.addHash, transcribed with Python ints (slow, obviously right)."""
    bits = bytearray(num_bits // 8)
    for h in hashes:
        h1 = ((h & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
        h2 = (((h >> 32) & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
        for i in range(1, k + 1):
            c = ((h1 + i * h2 + 0x80000000) & 0xFFFFFFFF) - 0x80000000
            if c < 0:
                c = ~c
            p = c % num_bits
            bits[p >> 3] |= 1 << (p & 7)
    return bytes(bits)


_EDGE_HASHES = [0, -1, 1 << 31, (1 << 31) - 1, -(1 << 63), (1 << 63) - 1, 0x7FFFFFFF80000000,
                0x80000000_7FFFFFFF - (1 << 64), 0xFFFFFFFF, 1 << 32]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=40),
       st.integers(1, 2000), st.sampled_from([0.5, 0.1, 0.01, 0.001]), st.integers(1, 9))
def test_kernels_match_java_arithmetic(hashes, items, fpp, chunk):
    hashes = hashes + _EDGE_HASHES
    num_bits, k = bloom_sizing(items, fpp)
    expected = _reference_bits(hashes, k, num_bits)
    arr = np.array(hashes, dtype=np.int64)
    old = bloom_mod._CHUNK
    bloom_mod._CHUNK = chunk  # many chunk boundaries
    try:
        opts = {"items": str(items), "fpp": str(fpp)}
        dense = BloomFilterWriter("BIGINT", opts)
        dense.add_hashes(np.tile(arr, max(1, num_bits // (len(arr) * k))))  # large batch: scatter + pack path
        small = BloomFilterWriter("BIGINT", opts)
        for part in np.array_split(arr, 5):
            small.add_hashes(part)
        scalar_w = BloomFilterWriter("BIGINT", opts)
        for h in hashes:
            for p in bloom_mod._scalar_positions(h, k, num_bits):
                scalar_w._buf[p >> 3] |= 1 << (p & 7)
        for w in (dense, small, scalar_w):
            assert w.serialize()[4:] == expected
        r = BloomFilterReader(dense.serialize(), "BIGINT")
        probes = np.concatenate([arr, arr ^ np.int64(0x5DEECE66D)])
        batch = r.test_hashes(probes)
        assert batch.tolist() == [r.test_hash(int(h)) for h in probes]
        assert batch[:len(arr)].all()
    finally:
        bloom_mod._CHUNK = old


def test_write_paths_agree_across_chunks(monkeypatch):
    monkeypatch.setattr(bloom_mod, "_CHUNK", 1000)
    rng = np.random.default_rng(7)
    values = rng.integers(-(2**63), 2**63 - 1, 5000, dtype=np.int64)
    opts = {"items": "3000", "fpp": "0.02"}
    batch = BloomFilterWriter("BIGINT", opts)
    batch.write_array(values)
    one_by_one = BloomFilterWriter("BIGINT", opts)
    for v in values.tolist():
        one_by_one.write(v)
    mixed = BloomFilterWriter("BIGINT", opts)
    mixed.write_array(values[:10])  # few values: packed OR path
    mixed.write_array(values[10:4000])  # many: dense path on a non-empty filter
    for v in values[4000:].tolist():
        mixed.write(v)
    assert batch.serialize() == one_by_one.serialize() == mixed.serialize()
    r = BloomFilterReader(batch.serialize(), "BIGINT")
    assert r.might_contain_many(values).all()
    probes = rng.integers(-(2**63), 2**63 - 1, 3000, dtype=np.int64)
    assert r.might_contain_many(probes).tolist() == [r.visit_equal(int(p)).remain() for p in probes.tolist()]
    assert r.visit_in([int(probes[0]), int(values[17])]).kind == "REMAIN"


def test_strings_batch_equals_scalar_and_large_strings():
    words = [f"w{i}-é" for i in range(300)]
    w = BloomFilterWriter("STRING", {"items": "200", "fpp": "0.05"})
    w.write_array(pa.array(words[:150], type=pa.large_string()))
    w.write_array(pa.chunked_array([pa.array(words[150:], type=pa.string())]))
    v = BloomFilterWriter("STRING", {"items": "200", "fpp": "0.05"})
    for s in words:
        v.write(s)
    assert w.serialize() == v.serialize()
    r = BloomFilterReader(w.serialize(), "STRING")
    assert r.might_contain_many(pa.array(words + [None])).all()
    assert len(r.might_contain_many(pa.array(words + [None]))) == len(words)


def test_reader_reads_header_only_until_probed():
    w = BloomFilterWriter("INT", {"items": "1000", "fpp": "0.01"})
    w.write_array(np.arange(100, dtype=np.int32))
    payload = w.serialize()
    src = ByteSource(b"\x00" * 10 + payload, base=10, length=len(payload))
    r = BloomFilterReader(src, "INT")
    assert src.bytes_read == 4 and r.num_hash_functions == w.num_hash_functions
    assert r.visit_equal(5).kind == "REMAIN"
    assert src.bytes_read >= len(payload)


def test_serialize_goes_through_generated_codec():
    from paimon_codec.generated.construct.bloom_filter import BloomFilter

    w = BloomFilterWriter("BIGINT", {"items": "64", "fpp": "0.1"})
    w.write_array(np.arange(64, dtype=np.int64))
    parsed = BloomFilter.parse(w.serialize())
    assert parsed.num_hash_functions == w.num_hash_functions
    assert len(parsed.bit_set) * 8 == w.num_bits
    assert BloomFilter.build(parsed) == w.serialize()


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_threaded_dense_build_equals_reference(monkeypatch, threads):
    """Large builds split across threads that scatter into one shared byte-per-bit array; the bits
    must be those of Java's addHash whatever the split (and with chunk boundaries inside parts)."""
    monkeypatch.setattr(bloom_mod, "_PARALLEL_MIN", 64)
    monkeypatch.setattr(bloom_mod, "_CHUNK", 100)
    monkeypatch.setattr(bloom_mod, "_build_threads", lambda: threads)
    rng = np.random.default_rng(11)
    keys = rng.integers(-(2**63), 2**63 - 1, 2500, dtype=np.int64)
    opts = {"items": "500", "fpp": "0.01"}
    num_bits, k = bloom_sizing(500, 0.01)
    assert len(bloom_mod._split(len(keys), threads)) == threads
    w = BloomFilterWriter("BIGINT", opts)
    w.write_array(keys)
    assert w.serialize()[4:] == _reference_bits(wang_hash64_array(keys).tolist(), k, num_bits)
    hashed = BloomFilterWriter("BIGINT", opts)
    hashed.add_hashes(wang_hash64_array(keys[:1200]))  # first batch: fresh dense array
    hashed.add_hashes(wang_hash64_array(keys[1200:]))  # second batch: unpacked from existing bits
    assert hashed.serialize() == w.serialize()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 8))
def test_split_covers_every_value_once(n, threads):
    parts = bloom_mod._split(n, threads)
    assert 1 <= len(parts) <= threads
    assert parts[0][0] == 0 and parts[-1][1] == n
    assert all(a <= b for a, b in parts) and all(p[1] == q[0] for p, q in zip(parts, parts[1:], strict=False))
    if len(parts) > 1:
        assert all(b - a >= bloom_mod._PARALLEL_MIN // 2 for a, b in parts)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_threaded_probe_equals_scalar(monkeypatch, threads):
    monkeypatch.setattr(bloom_mod, "_PARALLEL_MIN", 64)
    monkeypatch.setattr(bloom_mod, "_CHUNK", 100)
    monkeypatch.setattr(bloom_mod, "_build_threads", lambda: threads)
    rng = np.random.default_rng(12)
    keys = rng.integers(-(2**63), 2**63 - 1, 1000, dtype=np.int64)
    w = BloomFilterWriter("BIGINT", {"items": "800", "fpp": "0.2"})
    w.write_array(keys)
    r = BloomFilterReader(w.serialize(), "BIGINT")
    probes = np.concatenate([keys, rng.integers(-(2**63), 2**63 - 1, 1500, dtype=np.int64)])
    got = r.might_contain_many(probes)
    assert got.tolist() == [r.might_contain(int(p)) for p in probes.tolist()]
    assert got[:1000].all() and not got[1000:].all()
