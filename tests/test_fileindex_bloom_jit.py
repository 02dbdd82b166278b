"""Bloom-filter compiled kernels (numba, ``fileindex/bloom/_jit.py``) against the numpy reference and the goldens.

Every test here runs the compiled loops for every size (``KERNELS.min_call`` lowered to 0) and compares them
with the numpy kernels (``PAIMON_CODEC_NO_JIT=1``) and with the bytes Paimon's Java wrote.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
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
from paimon_codec.fileindex.bloom import BloomFilterReader, BloomFilterWriter, bloom_sizing, wang_hash64_array
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.jit import NO_JIT_ENV
from paimon_codec.types import parse_type

pytest.importorskip("numba")

LATEST = latest_cases("bloom-filter")


@pytest.fixture(autouse=True, scope="module")
def _jit_for_every_size():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bloom_mod.KERNELS, "min_call", 0)
        mp.delenv(NO_JIT_ENV, raising=False)
        assert bloom_mod.jit_kernels(1) is not None, "numba is installed: the kernels must load"
        yield


class _numpy_path:
    """Within the block, builds and probes take the numpy kernels."""

    def __enter__(self) -> None:
        os.environ[NO_JIT_ENV] = "1"

    def __exit__(self, *exc: object) -> None:
        del os.environ[NO_JIT_ENV]


def _both(fn):
    """``(compiled, numpy)`` results of ``fn()``."""
    jit = fn()
    with _numpy_path():
        ref = fn()
    return jit, ref


_EDGE_HASHES = [0, -1, 1 << 31, (1 << 31) - 1, -(1 << 63), (1 << 63) - 1, 0x7FFFFFFF80000000,
                0x80000000_7FFFFFFF - (1 << 64), 0xFFFFFFFF, 1 << 32]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=300), st.integers(1, 5000),
       st.sampled_from([0.5, 0.1, 0.01, 0.001, 1e-6]), st.booleans(), st.integers(0, 2**32 - 1))
def test_compiled_build_and_probe_equal_numpy(values, items, fpp, mixed, seed):
    """Random values (keys to mix, or finished hashes), random sizings, a filter already holding bits: the compiled
    loops set the bytes the numpy kernels set and answer every probe alike."""
    num_bits, k = bloom_sizing(items, fpp)
    arr = np.array(values + _EDGE_HASHES, dtype=np.int64)
    rng = np.random.default_rng(seed)
    start = (rng.random(num_bits // 8) < 0.05).astype(np.uint8) << rng.integers(0, 8, num_bits // 8).astype(np.uint8)

    def build() -> bytes:
        bits = start.copy()
        bloom_mod.add_values(bits, False, arr, mixed, k, num_bits)
        return bits.tobytes()

    jit_bits, ref_bits = _both(build)
    assert jit_bits == ref_bits
    probes = np.concatenate([arr, rng.integers(-(2**63), 2**63 - 1, 200, dtype=np.int64)])
    bits = np.frombuffer(ref_bits, dtype=np.uint8)
    jit_hits, ref_hits = _both(lambda: bloom_mod.test_values(bits, probes, mixed, k, num_bits))
    assert jit_hits.tolist() == ref_hits.tolist()
    assert jit_hits[:len(arr)].all()


def test_compiled_workload_sized_filter_equals_numpy():
    """The benchmark's shape (1M BIGINT keys, fpp 0.01: 7 positions each, 9.6M bits) and a non-contiguous,
    read-only input: bytes and the count of hits agree with the numpy path."""
    rng = np.random.default_rng(401)
    keys = rng.integers(-(2**63), 2**63 - 1, 2_000_000, dtype=np.int64)[::2]
    keys.flags.writeable = False
    opts = {"items": "1000000", "fpp": "0.01"}

    def build() -> bytes:
        w = BloomFilterWriter("BIGINT", opts)
        w.write_array(keys)
        return w.serialize()

    jit_blob, ref_blob = _both(build)
    assert jit_blob == ref_blob
    probes = keys.copy()
    probes[1::2] = rng.integers(-(2**63), 2**63 - 1, len(probes[1::2]), dtype=np.int64)
    jit_hits, ref_hits = _both(lambda: BloomFilterReader(ref_blob, "BIGINT").might_contain_many(probes))
    assert np.array_equal(jit_hits, ref_hits)
    assert jit_hits[::2].all() and 0 < jit_hits[1::2].sum() < len(probes) // 4


def test_hashes_and_keys_give_the_same_bits():
    """Finished hashes (``mixed`` False) and keys mixed inside the loop set the same bits."""
    keys = np.random.default_rng(3).integers(-(2**63), 2**63 - 1, 5000, dtype=np.int64)
    opts = {"items": "4000", "fpp": "0.01"}
    a = BloomFilterWriter("BIGINT", opts)
    a.write_array(keys)
    b = BloomFilterWriter("BIGINT", opts)
    b.add_hashes(wang_hash64_array(keys))
    assert a.serialize() == b.serialize()


@pytest.mark.parametrize("case", LATEST, ids=[c["case"] for c in LATEST])
def test_compiled_latest_goldens(case):
    """Paimon 1.4.2's bloom files: the compiled build writes their bytes; the compiled probe gives their answers."""
    d = load_json(case["json"])
    t = parse_type(d["type"])
    rows = latest_rows(d, t)
    w = BloomFilterWriter(t, d["options"])
    w.write_array(rows)
    assert w.serialize() == case["file"].read_bytes()
    r = BloomFilterReader(case["file"].read_bytes(), t)
    lits = [latest_literal(q, t) for q in d["queries"]]
    present = [(q, lit) for q, lit in zip(d["queries"], lits, strict=True) if lit is not None]
    got = r.might_contain_many([lit for _, lit in present]).tolist()
    assert got == [q["result"] == "REMAIN" for q, _ in present]
    assert all(result_matches(r.visit_equal(lit), q["result"]) for q, lit in present)
    assert r.might_contain_many([v for v in rows if v is not None]).all()


def _bloom_cases_09():
    out = []
    for p in cases_09():
        d = load_09(p)
        for i, req in enumerate(d["indexes_requested"]):
            if req["type"] == "bloom-filter" and not req.get("force_empty") and "error" not in d["indexes_written"][i]:
                out.append(pytest.param(p, i, id=f"{d['case']}-{req['column']}"))
    return out


@pytest.mark.parametrize("path,i", _bloom_cases_09())
def test_compiled_09_goldens(path, i):
    d = load_09(path)
    req = d["indexes_requested"][i]
    col = req["column"]
    w = BloomFilterWriter(column_types_09(d)[col], req.get("options"))
    w.write_array(rows_09(d, col))
    assert w.serialize() == FileIndexContainerReader(path.parent / d["file"]).read_payload(col, "bloom-filter")


def test_bit_set_too_small_is_refused_before_the_loop():
    with pytest.raises(ValueError, match="do not fit"):
        bloom_mod.add_values(np.zeros(2, dtype=np.uint8), True, np.arange(3, dtype=np.int64), True, 3, 64)
    with pytest.raises(ValueError, match="do not fit"):
        bloom_mod.test_values(np.zeros(2, dtype=np.uint8), np.arange(3, dtype=np.int64), True, 3, 24)


def test_env_var_and_missing_numba_fall_back_to_numpy(monkeypatch):
    monkeypatch.setenv(NO_JIT_ENV, "1")
    assert bloom_mod.jit_kernels(1 << 30) is None
    monkeypatch.setenv(NO_JIT_ENV, "0")
    assert bloom_mod.jit_kernels(1 << 30) is not None
    monkeypatch.setattr(bloom_mod.KERNELS, "module", None)
    monkeypatch.setattr(bloom_mod.KERNELS, "failed", False)
    monkeypatch.setitem(sys.modules, "paimon_codec.fileindex.bloom._jit", None)  # import raises ImportError
    assert bloom_mod.jit_kernels(1 << 30) is None
    keys = np.arange(10_000, dtype=np.int64)
    w = BloomFilterWriter("BIGINT", {"items": "10000", "fpp": "0.01"})
    w.write_array(keys)  # numpy path, still correct
    assert BloomFilterReader(w.serialize(), "BIGINT").might_contain_many(keys).all()


def test_kernels_compile_without_a_writable_cache(monkeypatch):
    """Where numba finds no writable cache directory it refuses ``cache=True``; the kernel compiles uncached."""
    import numba

    from paimon_codec.fileindex.bloom import _jit

    real = numba.njit
    calls = []

    def njit(*args, **kw):
        calls.append(kw.get("cache"))
        if kw.get("cache"):
            raise RuntimeError("cannot cache function 'f': no locator available for file 'x'")
        return real(*args, **kw)

    monkeypatch.setattr(_jit.numba, "njit", njit)

    def double_first(bits, values, mixed, k, num_bits):
        bits[0] = bits[0] * 2

    f = _jit._compile(_jit._ADD_SIG)(double_first)
    bits = np.array([3], dtype=np.uint8)
    f(bits, np.zeros(1, dtype=np.int64), True, 1, 8)
    assert bits.tolist() == [6] and calls == [True, False]


def test_import_and_small_filters_do_not_load_numba():
    code = ("import sys, numpy as np, paimon_codec\n"
            "from paimon_codec.fileindex.bloom import BloomFilterWriter, BloomFilterReader\n"
            "w = BloomFilterWriter('INT', {'items': '1000'}); w.write_array(np.arange(1000, dtype=np.int32))\n"
            "assert BloomFilterReader(w.serialize(), 'INT').might_contain_many(np.arange(1000)).all()\n"
            "print('numba' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != NO_JIT_ENV}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_compiled_threaded_build_and_probe_equal_numpy(monkeypatch, threads):
    """Large compiled builds split over threads (each but the first into its own bit set, ORed in) and probes
    split over threads: the bytes and answers of the numpy path, with a filter already holding bits."""
    monkeypatch.setattr(bloom_mod, "_PARALLEL_MIN", 64)
    monkeypatch.setattr(bloom_mod, "_build_threads", lambda: threads)
    rng = np.random.default_rng(21)
    keys = rng.integers(-(2**63), 2**63 - 1, 3000, dtype=np.int64)
    opts = {"items": "2000", "fpp": "0.05"}

    def build() -> bytes:
        w = BloomFilterWriter("BIGINT", opts)
        w.write_array(keys[:100])
        w.write_array(keys[100:])
        return w.serialize()

    jit_blob, ref_blob = _both(build)
    assert jit_blob == ref_blob
    assert len(bloom_mod._split(len(keys) - 100, threads)) == threads
    probes = np.concatenate([keys, rng.integers(-(2**63), 2**63 - 1, 3000, dtype=np.int64)])
    jit_hits, ref_hits = _both(lambda: BloomFilterReader(ref_blob, "BIGINT").might_contain_many(probes))
    assert jit_hits.tolist() == ref_hits.tolist() and jit_hits[:3000].all() and not jit_hits.all()
