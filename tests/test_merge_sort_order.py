"""The merge order of a bucket's records (:func:`paimon_codec.reading.merge.read._merge_order`): the fast path
(a stable sort by the key alone over runs concatenated in sequence-number order) must give exactly the order of
the general sort by (key, sequence.field, _SEQUENCE_NUMBER), and is taken only where it can."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from paimon_codec.reading.merge.read import _merge_order, _sequence_ordered_runs, _sort_indices
from paimon_codec.table.merge_spec import MergeSpec


def _run(rng: np.random.Generator, keys: int, rows: int, first_seq: int) -> pa.Table:
    k = np.sort(rng.choice(keys, size=rows, replace=False))
    seq = first_seq + rng.permutation(rows)  # a run is sorted by key; its sequence numbers are not
    return pa.table({"k": pa.array(k, pa.int64()), "v": pa.array(rng.integers(0, 9, rows)),
                     "_SEQUENCE_NUMBER": pa.array(seq, pa.int64()),
                     "_VALUE_KIND": pa.array(rng.integers(0, 4, rows), pa.int8())})


def _spec(**kw) -> MergeSpec:
    return MergeSpec("deduplicate", ("k",), **kw)


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 1, 0, 2]])  # runs listed in any order
def test_runs_of_disjoint_sequence_ranges_sort_by_key_alone(order):
    rng = np.random.default_rng(7)
    runs = [_run(rng, 500, 200 + 50 * i, 1000 * i) for i in range(4)]
    runs.insert(2, runs[0].slice(0, 0))  # an empty file
    parts = [runs[i] for i in order] + [runs[4]]
    assert _sequence_ordered_runs(parts, _spec()) is not None
    used, table, merge_order = _merge_order(parts, _spec())
    assert sorted(used) == list(range(len(parts)))
    expected = _sort_indices(table, _spec()).to_numpy()
    assert np.array_equal(merge_order, expected)
    k = table.column("k").to_numpy()[merge_order]
    seq = table.column("_SEQUENCE_NUMBER").to_numpy()[merge_order]
    assert (np.diff(k) >= 0).all() and (seq[1:][k[1:] == k[:-1]] > seq[:-1][k[1:] == k[:-1]]).all()


def test_overlapping_sequence_ranges_take_the_general_sort():
    rng = np.random.default_rng(3)
    parts = [_run(rng, 300, 100, 0), _run(rng, 300, 100, 50)]  # sequence numbers 0-99 and 50-149
    assert _sequence_ordered_runs(parts, _spec()) is None
    used, table, merge_order = _merge_order(parts, _spec())
    assert used == [0, 1]
    assert np.array_equal(merge_order, _sort_indices(table, _spec()).to_numpy())


@pytest.mark.parametrize("spec", [
    MergeSpec("deduplicate", ("k",), ("v",)),            # a sequence.field orders before _SEQUENCE_NUMBER
    MergeSpec("deduplicate", ("k", "v")),                # two key columns
])
def test_sequence_fields_and_composite_keys_take_the_general_sort(spec):
    rng = np.random.default_rng(5)
    parts = [_run(rng, 300, 100, 0), _run(rng, 300, 100, 1000)]
    assert _sequence_ordered_runs(parts, spec) is None


def test_a_string_key_takes_the_general_sort():
    rng = np.random.default_rng(9)
    part = _run(rng, 300, 100, 0)
    part = part.set_column(0, "k", part.column("k").cast(pa.string()))
    assert _sequence_ordered_runs([part, part.slice(0, 0)], _spec()) is None


@pytest.mark.parametrize("descending", [False, True])
def test_a_key_twice_in_one_file_comes_out_in_sequence_order(descending):
    """A file holding a key twice (not one Paimon writes: its files are sorted by key and sequence) keeps the
    (key, sequence) order: the fast path checks its answer and sorts by both when the file's order is not it."""
    first = pa.table({"k": pa.array([1, 2, 2, 3], pa.int64()), "v": pa.array([0, 1, 2, 3]),
                      "_SEQUENCE_NUMBER": pa.array([10, 12, 11, 13] if descending else [10, 11, 12, 13], pa.int64()),
                      "_VALUE_KIND": pa.array([0, 0, 0, 0], pa.int8())})
    second = pa.table({"k": pa.array([2, 3], pa.int64()), "v": pa.array([4, 5]),
                       "_SEQUENCE_NUMBER": pa.array([20, 21], pa.int64()),
                       "_VALUE_KIND": pa.array([0, 0], pa.int8())})
    _, table, merge_order = _merge_order([second, first], _spec())
    assert np.array_equal(merge_order, _sort_indices(table, _spec()).to_numpy())
    assert table.column("v").to_numpy()[merge_order].tolist() == ([0, 2, 1, 4, 3, 5] if descending
                                                                  else [0, 1, 2, 4, 3, 5])
