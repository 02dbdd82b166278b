"""The fuzz harness's answer checks (:mod:`fuzz.answers`): they hold on every seed, and they catch a reader
that answers inconsistently."""

from __future__ import annotations

import pytest
from pyroaring import BitMap

from fuzz.answers import WrongAnswer, check_dv, check_hash_index, check_index_answers
from fuzz.targets import GOLDEN, TARGETS
from paimon_codec.fileindex.result import REMAIN, BitmapResult

ANSWERING = ["bitmap", "bloom-filter", "range-bitmap", "bsi", "dv-entry", "dv-file", "puffin", "delete-map",
             "hash-index"]


@pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden files (the seeds) not found at {GOLDEN}")
@pytest.mark.parametrize("name", ANSWERING)
def test_relations_hold_on_every_seed(name):
    """Every seed (bytes Paimon Java or our writers made) is accepted and passes the checks: a failure in the
    fuzz run is then the reader's, not a relation that real indexes break."""
    target = TARGETS[name]
    for seed in target.corpus():
        target.run(seed.data, seed.meta)


class _Reader:
    """A range-bitmap-like reader over ``values`` (None = null) with one planted fault."""

    def __init__(self, values, fault=None):
        self.values, self.fault, self.row_count = values, fault, len(values)

    def _rows(self, pred, name):
        rows = BitMap(i for i, v in enumerate(self.values) if pred(v))
        if self.fault == name:
            rows.add(0 if 0 not in rows else len(self.values) - 1)
        return BitmapResult(rows)

    def visit_is_null(self):
        return self._rows(lambda v: v is None, "null")

    def visit_is_not_null(self):
        return self._rows(lambda v: v is not None, "not_null")

    def visit_equal(self, x):
        return self._rows(lambda v: v == x, "eq")

    def visit_not_equal(self, x):
        return self._rows(lambda v: v is not None and v != x, "ne")

    def visit_in(self, xs):
        return self._rows(lambda v: v in xs, "in")

    def visit_lt(self, x):
        return self._rows(lambda v: v is not None and v < x, "lt")

    def visit_gte(self, x):
        return self._rows(lambda v: v is not None and v >= x, "gte")

    def visit_lte(self, x):
        return self._rows(lambda v: v is not None and v <= x, "lte")

    def visit_between(self, lo, hi):
        return self._rows(lambda v: v is not None and lo <= v <= hi, "between")


VALUES = [None, 3, 1, 4, 1, 5, None, 9, 2, 6]


def test_a_consistent_reader_passes():
    check_index_answers(_Reader(VALUES), "range-bitmap", [1, 5])


@pytest.mark.parametrize("fault", ["null", "not_null", "eq", "ne", "in", "lt", "gte", "lte", "between"])
def test_each_planted_fault_is_caught(fault):
    with pytest.raises(WrongAnswer):
        check_index_answers(_Reader(VALUES, fault), "range-bitmap", [1, 5])


def test_rows_past_the_row_count_are_caught():
    reader = _Reader(VALUES)
    reader.row_count = 5  # answers name rows 5..9
    with pytest.raises(WrongAnswer, match=r"names row \d+ of 5"):
        check_index_answers(reader, "range-bitmap", [1, 5])


def test_remain_answers_are_not_compared():
    class Lossy(_Reader):
        def visit_in(self, xs):
            return REMAIN

    check_index_answers(Lossy(VALUES), "range-bitmap", [1, 5])


def test_hash_index_reference_decoding():
    data = (7).to_bytes(4, "big", signed=True) + (-2).to_bytes(4, "big", signed=True)
    check_hash_index(data, [7, -2])
    with pytest.raises(WrongAnswer):
        check_hash_index(data, [7, -3])


def test_dv_checks():
    from paimon_codec.dv.deletion_vector import DeletionVector

    check_dv(DeletionVector.from_array([1, 2, 3, 9]))

    class Lying:
        cardinality = 5

        def run_arrays(self):
            return DeletionVector.from_array([1, 2, 3, 9]).run_arrays()

    with pytest.raises(WrongAnswer):
        check_dv(Lying())
