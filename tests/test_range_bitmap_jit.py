"""Range-bitmap compiled comparisons (numba, ``fileindex/range_bitmap/_jit.py``) against the pyroaring path.

Every test here loads the kernels from the first comparison (``KERNELS.after`` lowered to 0) and compares each
answer with the reference path (:class:`~paimon_codec.fileindex.bit_slices.BitSlices` over pyroaring, taken with
``PAIMON_CODEC_NO_JIT=1``) row for row, with brute force over the written values, and with the goldens Paimon's
Java wrote; hostile bytes get the same answer or the same error both ways.
"""

from __future__ import annotations

import decimal
import math
import os
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import GOLDEN_LATEST, latest_cases, load_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples
from pyroaring import BitMap
from test_range_bitmap_golden import assert_result, run_query

import paimon_codec.fileindex.range_bitmap._compiled as compiled_mod
from paimon_codec.errors import PaimonCodecError
from paimon_codec.fileindex.bit_slices import BitSlices
from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileio import ByteSource
from paimon_codec.jit import JIT_ENV, NO_JIT_ENV
from paimon_codec.roaring import EMPTY_PORTABLE, bitmap_of, serialize_optimized
from paimon_codec.types import parse_type

pytest.importorskip("numba")


@pytest.fixture(autouse=True, scope="module")
def _jit_from_the_first_comparison():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiled_mod.KERNELS, "after", 0)
        mp.delenv(NO_JIT_ENV, raising=False)
        assert compiled_mod.jit_kernels() is not None, "numba is installed: the kernels must load"
        yield


class _reference_path:
    """Within the block, comparisons take the pyroaring path."""

    def __enter__(self) -> None:
        os.environ[NO_JIT_ENV] = "1"

    def __exit__(self, *exc: object) -> None:
        del os.environ[NO_JIT_ENV]


def _outcome(fn):
    """``fn()``'s answer (a bitmap, or the result kind when it has none), or the error it raised."""
    try:
        res = fn()
        return ("bitmap", BitMap(res.bitmap)) if hasattr(res, "bitmap") else ("kind", res.kind)
    except PaimonCodecError as exc:
        return ("error", type(exc).__name__, str(exc))


def _both(fn):
    jit = _outcome(fn)
    with _reference_path():
        ref = _outcome(fn)
    return jit, ref


def _questions(lits: list, pair: tuple) -> list:
    """Every question the range bitmap answers, as ``(name, reader -> result)``."""
    out = [("is_null", lambda r: r.visit_is_null()), ("is_not_null", lambda r: r.visit_is_not_null()),
           ("in", lambda r: r.visit_in(lits)), ("not_in", lambda r: r.visit_not_in(lits)),
           ("between", lambda r: r.visit_between(*pair))]
    for i, lit in enumerate(lits):
        for op in ("equal", "not_equal", "lt", "lte", "gt", "gte"):
            out.append((f"{op} #{i}", lambda r, op=op, lit=lit: getattr(r, f"visit_{op}")(lit)))
    return out


_TYPES = {
    "TINYINT": st.integers(-128, 127),
    "SMALLINT": st.integers(-300, 300),
    "INT": st.integers(-2**31, 2**31 - 1) | st.integers(-40, 40),
    "BIGINT": st.integers(-2**63, 2**63 - 1) | st.integers(-1000, 1000),
    "DATE": st.integers(-1000, 30000),
    "DECIMAL(10,2)": st.decimals(-10**6, 10**6, places=2, allow_nan=False, allow_infinity=False),
    "DOUBLE": st.floats(allow_nan=True) | st.sampled_from([0.0, -0.0, 1.5, math.inf]),
    "FLOAT": st.floats(width=32, allow_nan=True) | st.sampled_from([0.0, -0.0, 2.5]),
    "STRING": st.text(alphabet="ab\x00é日", max_size=3),
}


def _sortable(type_name: str, v):
    if type_name in ("DOUBLE", "FLOAT"):
        return (1, 0.0, 0.0) if math.isnan(v) else (0, v, math.copysign(1.0, v))
    return v.encode() if isinstance(v, str) else v


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_operator_equals_the_reference_and_a_scan(data):
    """Random key types, nulls, chunk sizes and row counts; literals below / above / between / on the keys: every
    operator answers the same rows compiled and through pyroaring, and those of a scan of the values."""
    type_name = data.draw(st.sampled_from(sorted(_TYPES)))
    value = _TYPES[type_name]
    rows = data.draw(st.lists(st.none() | value, max_size=500))
    dtype = parse_type(type_name)
    options = {} if type_name in ("TINYINT", "SMALLINT") else {
        "chunk-size": data.draw(st.sampled_from(["0b", "8b", "64b", "16kb"]))}
    writer = RangeBitmapWriter(dtype, options)
    writer.write_batch(rows)
    payload = writer.serialize()
    present = [v for v in rows if v is not None]
    lits = data.draw(st.lists(st.sampled_from(present) | value if present else value, min_size=1, max_size=4))
    pair = tuple(sorted(data.draw(st.lists(value, min_size=2, max_size=2)), key=lambda v: _sortable(type_name, v)))
    for name, ask in _questions(lits, pair):
        jit, ref = _both(lambda ask=ask: ask(RangeBitmapReader(payload, dtype)))
        assert jit == ref, name
    if type_name in ("DOUBLE", "FLOAT", "DECIMAL(10,2)"):
        return  # their orders are checked against the reference above; a scan needs their stored form
    key = {str: lambda v: v.encode(), decimal.Decimal: lambda v: v}.get(type(lits[0]), lambda v: v)
    for i, lit in enumerate(lits):
        below = BitMap([r for r, v in enumerate(rows) if v is not None and key(v) < key(lit)])
        assert RangeBitmapReader(payload, dtype).visit_lt(lit).bitmap == below, i


@pytest.mark.parametrize("rows", [65_536, 70_001, 200_000])
@pytest.mark.parametrize("distinct", [3, 1000, 100_000])
def test_many_containers_and_every_kind_of_container(rows, distinct):
    """Row counts over one container (2^16 rows) and slices holding arrays, bitsets and runs (few distinct values
    in long runs, many spread out; nulls in a block and scattered): compiled = reference = a scan."""
    rng = np.random.default_rng(rows + distinct)
    values = rng.integers(0, distinct, rows)
    if distinct == 3:
        values = np.sort(values)  # runs
    nulls = rng.random(rows) < 0.05
    nulls[1000:5000] = True
    col = [None if n else int(v) for v, n in zip(values.tolist(), nulls.tolist(), strict=True)]
    writer = RangeBitmapWriter("BIGINT")
    writer.write_batch(col)
    payload = writer.serialize()
    valid = ~nulls
    for lit in sorted({0, 1, distinct // 2, distinct - 1, distinct, int(values[7]) + 1}):
        for op, holds in (("lt", np.less), ("gte", np.greater_equal), ("equal", np.equal)):
            jit, ref = _both(lambda op=op, lit=lit: getattr(RangeBitmapReader(payload, "BIGINT"), f"visit_{op}")(lit))
            assert jit == ref, (op, lit)
            assert jit[1] == bitmap_of(np.flatnonzero(valid & holds(values, lit))), (op, lit)
    low, high = distinct // 4, distinct // 2
    jit, ref = _both(lambda: RangeBitmapReader(payload, "BIGINT").visit_between(low, high))
    assert jit == ref
    assert jit[1] == bitmap_of(np.flatnonzero(valid & (values >= low) & (values <= high)))


def _portable(rows: np.ndarray, optimise: bool) -> bytes:
    bm = bitmap_of(rows)
    return serialize_optimized(bm) if optimise else bm.serialize()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 140_000), st.integers(2, 6), st.integers(0, 2**32 - 1), st.booleans(),
       st.integers(0, 2**6 - 1), st.integers(0, 2**6 - 1))
def test_kernel_on_random_slices_equals_bit_slices(row_count, slices, seed, optimise, low, high):
    """The kernel alone, on random EBMs and slices of every density (arrays, bitsets, runs when run-optimised,
    several containers), against :class:`BitSlices`' ``>=``, ``<=`` and both."""
    jit = compiled_mod.jit_kernels()
    rng = np.random.default_rng(seed)

    def rows(density: float) -> np.ndarray:
        if rng.random() < 0.3:  # a block: a run container when optimised
            a = int(rng.integers(0, row_count))
            return np.arange(a, min(row_count, a + int(rng.integers(1, 70_000))))
        return np.flatnonzero(rng.random(row_count) < density)

    ebm_rows = rows(float(rng.choice([0.001, 0.05, 0.5, 1.0])))
    parts = [_portable(rows(float(rng.choice([0.0005, 0.05, 0.5, 0.95]))), optimise) for _ in range(slices)]
    area = b"".join(parts)
    slots = np.array([[sum(map(len, parts[:i])), len(p)] for i, p in enumerate(parts)], dtype=np.int64)
    slots.flags.writeable = False
    decoded = [BitMap.deserialize(p) for p in parts]
    ebm = bitmap_of(ebm_rows)
    bits = BitSlices((1 << slices) - 1, lambda: slices, lambda: ebm, decoded.__getitem__)
    ebm_bytes = _portable(ebm_rows, optimise)
    top = (1 << slices) - 1
    low, high = max(1, low % (top + 1)), high % top  # what the reader hands it: 0 < low <= top, 0 <= high < top
    for lo, hi, want in ((low, None, bits.gte(low)), (None, high, bits.lte(high)),
                         (low, high, bits.gte(low) & bits.lte(high))):
        got = compiled_mod.compiled_between(jit, ebm_bytes, area, slots, row_count, lo, hi)
        assert got == want, (lo, hi)


def test_kernel_declines_bitmaps_it_does_not_find_well_formed():
    """Each defect -> -1 (the reference path then answers or names the bad bitmap): rows at or past the row count,
    a bad cookie, a slot too short for its containers, keys out of order, array values out of order, a bitset
    whose cardinality is not the declared one, an offset header pointing elsewhere."""
    jit = compiled_mod.jit_kernels()
    good = _portable(np.arange(0, 100, 3), False)
    ebm = _portable(np.arange(100), False)

    def answer(slice_bytes: bytes, ebm_bytes: bytes = ebm, row_count: int = 100) -> BitMap | None:
        slots = np.array([[0, len(slice_bytes)]], dtype=np.int64)
        slots.flags.writeable = False
        return compiled_mod.compiled_between(jit, ebm_bytes, slice_bytes, slots, row_count, 1, None)

    assert answer(good) == BitMap(range(0, 100, 3))
    assert answer(EMPTY_PORTABLE) == BitMap()
    assert answer(good, row_count=99) is None  # row 99 is past the row count
    assert answer(good, ebm_bytes=_portable(np.arange(101), False)) is None
    assert answer(b"\x00" + good[1:]) is None  # cookie
    assert answer(good[:-1]) is None  # truncated
    assert answer(good[:4]) is None
    # array values: the descriptive header (cookie, count, key/card, offset) is 16 bytes, values follow
    values_at = len(good) - 2 * len(range(0, 100, 3))
    swapped = bytearray(good)
    swapped[values_at:values_at + 4] = swapped[values_at + 2:values_at + 4] + swapped[values_at:values_at + 2]
    assert answer(bytes(swapped)) is None
    two = _portable(np.array([5, 70_000]), False)
    keys_swapped = bytearray(two)
    keys_swapped[8:10], keys_swapped[12:14] = two[12:14], two[8:10]
    assert answer(bytes(keys_swapped), row_count=80_000, ebm_bytes=_portable(np.arange(80_000), False)) is None
    dense = _portable(np.arange(0, 100_000, 2), False)  # one bitset container and part of another
    wrong_card = bytearray(dense)
    wrong_card[10:12] = struct.pack("<H", struct.unpack("<H", dense[10:12])[0] - 1)
    big_ebm = _portable(np.arange(100_000), False)
    assert answer(dense, row_count=100_000, ebm_bytes=big_ebm) is not None
    assert answer(bytes(wrong_card), row_count=100_000, ebm_bytes=big_ebm) is None
    moved = bytearray(good)
    moved[12:16] = struct.pack("<I", struct.unpack("<I", good[12:16])[0] + 2)
    assert answer(bytes(moved)) is None


CASES = latest_cases("range-bitmap")


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_every_golden_query_both_ways(case):
    """Every query of every golden Java 1.4.2 wrote (comparisons, IN, nulls, top-N) gives the sidecar's result
    compiled and through pyroaring."""
    sidecar = load_json(case["json"])
    dtype = parse_type(sidecar["type"])
    for q in sidecar["queries"]:
        assert_result(run_query(RangeBitmapReader(ByteSource(case["file"]), dtype), dtype, q), q["result"])
        with _reference_path():
            assert_result(run_query(RangeBitmapReader(ByteSource(case["file"]), dtype), dtype, q), q["result"])


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_bytes_same_answer_or_same_error_both_ways(data):
    """Bit flips, truncations and planted numbers in a golden payload: each question gets the same rows, or the
    same error, compiled and through pyroaring (the kernel declines what it does not find well formed)."""
    payload = hostile_golden_payload(data)
    lits = data.draw(st.lists(st.integers(-5, 80), min_size=1, max_size=3))
    for name, ask in _questions(lits, (min(lits), max(lits))):
        jit, ref = _both(lambda ask=ask: ask(RangeBitmapReader(payload, "INT")))
        assert jit == ref, name


def hostile_golden_payload(data: st.DataObject) -> bytes:
    """A golden range-bitmap payload (INT, 64-byte chunks) truncated, with 1-4 bits flipped or with a planted
    32-bit number; half the time aimed at the back half, where most bytes are slices."""
    payload = bytearray((GOLDEN_LATEST / "range_bitmap" / "range_int_chunk_64b.bin").read_bytes())
    mode = data.draw(st.sampled_from(["truncate", "flip", "int"]))
    low = len(payload) // 2 if data.draw(st.booleans()) else 0
    if mode == "truncate":
        payload = payload[:data.draw(st.integers(0, len(payload) - 1))]
    elif mode == "flip":
        for _ in range(data.draw(st.integers(1, 4))):
            pos = data.draw(st.integers(low, len(payload) - 1))
            payload[pos] ^= 1 << data.draw(st.integers(0, 7))
    else:
        pos = data.draw(st.integers(low, len(payload) - 4))
        payload[pos:pos + 4] = struct.pack(">i", data.draw(st.sampled_from([-1, 0, 1, 2**31 - 1, 65536])))
    return bytes(payload)


def test_no_jit_and_small_processes_keep_the_reference_path():
    """``PAIMON_CODEC_NO_JIT=1`` never loads numba; without it a process loads the kernels only once the reference
    path walked ``KERNELS.after`` rows, or from the first comparison with ``PAIMON_CODEC_JIT=1``."""
    code = ("import sys\n"
            "from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter, _compiled\n"
            "w = RangeBitmapWriter('INT'); w.write_batch(list(range(1000)))\n"
            "data = w.serialize()\n"
            "for _ in range(3): RangeBitmapReader(data, 'INT').visit_lt(500).bitmap\n"
            "print(_compiled.jit_kernels() is not None, 'numba' in sys.modules)\n"
            "_compiled.KERNELS.after = 2000\n"
            "print(_compiled.jit_kernels() is not None)\n")
    env = {k: v for k, v in os.environ.items() if k not in (NO_JIT_ENV, JIT_ENV)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "True"]
    out = subprocess.run([sys.executable, "-c", code], env={**env, JIT_ENV: "1"}, capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"]
    env[NO_JIT_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_plans_select_the_same_rows_both_ways(tmp_path):
    """Whole plans of a table whose files carry range-bitmap indexes (ints with nulls, strings; files over one
    container of rows): every predicate selects the same files and rows compiled and through pyroaring, and the
    rows whose values match."""
    import pyarrow as pa

    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.writing.append import append_arrow
    from paimon_codec.writing.create import create_table

    path = create_table(tmp_path / "db.db" / "t", "v BIGINT, s STRING", {
        "bucket": "-1", "file-index.range-bitmap.columns": "v,s", "file-index.range-bitmap.v.chunk-size": "64b"})
    rng = np.random.default_rng(7)
    values: list = []
    for n in (3_000, 70_000, 500):
        v = rng.integers(-50, 5_000, n).tolist()
        v = [None if rng.random() < 0.05 else x for x in v]
        values += v
        append_arrow(path, pa.table({"v": pa.array(v, pa.int64()),
                                     "s": pa.array([None if x is None else f"k{x % 97:03d}" for x in v])}))
    wheres = ["v < 10", "v <= -50", "v > 4990", "v >= 2500", "v = 77", "v <> 77", "v BETWEEN 100 AND 200",
              "v IN (1, 2, 4999)", "v NOT IN (1, 2)", "v IS NULL", "v IS NOT NULL", "s < 'k010'", "s = 'k042'",
              "v > 1000 AND s >= 'k090'", "v < 0 OR v > 4995"]
    for where in wheres:
        jit = plan_scan(path, where)
        with _reference_path():
            ref = plan_scan(path, where)
        got = [(t.path, t.selection) for t in jit.tasks]
        assert got == [(t.path, t.selection) for t in ref.tasks], where
    base = 0
    lt10 = []
    for t in plan_scan(path, "v < 10").tasks:  # files in write order: positions -> the written values
        assert t.selection is not None
        lt10 += [base + int(r) for r in t.selection]
        base += t.row_count
    assert lt10 == [i for i, x in enumerate(values) if x is not None and x < 10]
