"""The shared bit-sliced index arithmetic (BSI and range-bitmap) against brute force over the values."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pyroaring import BitMap

from paimon_codec.fileindex.bit_slices import BitSlices, ValueBatches, cut_slices, null_rows

column = st.lists(st.one_of(st.none(), st.integers(0, 300)), max_size=60)


def _index(values: list[int | None]) -> tuple[BitSlices, np.ndarray, np.ndarray, list[int]]:
    valid = np.array([v is not None for v in values], dtype=bool)
    stored = np.array([0 if v is None else v for v in values], dtype=np.int64)
    rows = np.flatnonzero(valid)
    max_value = int(stored[valid].max()) if rows.size else -1
    slices = cut_slices(rows, stored[valid], max(max_value, 0).bit_length())
    reads: list[int] = []

    def get_slice(i: int) -> BitMap:
        reads.append(i)
        return slices[i]

    ebm = BitMap(rows.tolist())
    return BitSlices(max_value, lambda: len(slices), lambda: ebm, get_slice), valid, stored, reads


def _rows(mask: np.ndarray) -> BitMap:
    return BitMap(np.flatnonzero(mask).tolist())


@settings(max_examples=150, deadline=None)
@given(column, st.integers(-3, 310))
def test_comparisons_match_brute_force(values, probe):
    bits, valid, stored, _ = _index(values)
    assert bits.lte(probe) == _rows(valid & (stored <= probe))
    assert bits.gte(probe) == _rows(valid & (stored >= probe))
    assert bits.eq(probe) == _rows(valid & (stored == probe))


@settings(max_examples=100, deadline=None)
@given(column, st.integers(0, 70), st.booleans())
def test_top_k_keeps_every_row_tied_with_the_kth_value(values, k, largest):
    bits, valid, stored, _ = _index(values)
    got = bits.top(k, _rows(valid), largest=largest, strict=False)
    present = sorted(stored[valid].tolist(), reverse=largest)
    if k == 0 or not present:
        assert got == BitMap()
        return
    kth = present[min(k, len(present)) - 1]
    want = valid & ((stored >= kth) if largest else (stored <= kth))
    assert got == _rows(want)


def test_answers_are_private_copies_and_out_of_range_reads_nothing():
    bits, _, _, reads = _index([5, None, 2, 5, 0])
    assert bits.lte(-1) == BitMap() and bits.gte(6) == BitMap() and bits.eq(9) == BitMap()
    assert reads == []
    everything = bits.lte(5)
    everything.clear()
    assert bits.gte(0) == BitMap([0, 2, 3, 4])


def test_an_index_without_values_answers_no_row():
    bits, _, _, reads = _index([None, None])
    assert bits.lte(0) == bits.gte(0) == bits.eq(0) == BitMap()
    assert bits.top(1, BitMap([0, 1]), largest=True, strict=True) == BitMap()
    assert reads == []


def test_cut_slices_leaves_bits_above_62_empty():
    rows = np.array([3, 7])
    slices = cut_slices(rows, np.array([(1 << 62) | 1, 2], dtype=np.int64), 64)
    assert slices[0] == BitMap([3]) and slices[1] == BitMap([7]) and slices[62] == BitMap([3])
    assert slices[63] == BitMap()


def test_null_rows_are_the_rows_missing_from_the_ebm():
    assert null_rows(5, BitMap([1, 3])) == BitMap([0, 2, 4])
    assert null_rows(0, BitMap()) == BitMap()


def test_value_batches_keep_row_order_across_single_and_batch_writes():
    buf = ValueBatches()
    buf.write(1)
    buf.write(None)
    buf.write_batch(np.array([3, 4]))
    buf.write(5)
    assert [list(b) for b in buf.batches()] == [[1, None], [3, 4], [5]]
    assert [list(b) for b in buf.batches()] == [[1, None], [3, 4], [5]]  # idempotent
