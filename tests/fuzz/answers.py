"""What an accepted input must answer: relations between a reader's answers that hold for every index a
writer can produce, checked on every fuzz input the reader accepts.

A reader that decodes mutated bytes into garbage (rows past the row count, an ``IN`` that is not the union of
its equalities, ``x < a`` overlapping ``x >= a``) passes "raised only our errors" but fails these.  Each
relation is one the goldens satisfy (``test_relations_hold_on_every_seed``), so a failure on a mutated input is
the reader's, never the relation's.  Byte-level targets are checked against a reference decoding instead
(:func:`check_hash_index`, :func:`check_dv`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pyroaring import BitMap, BitMap64

EXACT = ("bitmap", "range-bitmap", "bsi")


class WrongAnswer(AssertionError):
    """An accepted input answered inconsistently: a finding, like a foreign exception."""


def _rows(result: Any) -> Any:
    """The answer's rows as the reader's own roaring bitmap (compared container by container: an answer of
    2**31 rows costs its containers, never a copy per row), or None for REMAIN / SKIP."""
    return getattr(result, "bitmap", None)


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise WrongAnswer(what)


def check_index_answers(reader: Any, index_type: str, lits: list) -> None:
    """The relations between one reader's answers (see the module doc)."""
    if index_type == "bloom-filter":
        if len(lits) >= 2:
            eqs = [reader.visit_equal(v).remain() for v in lits[:2]]
            _expect(reader.visit_in(lits[:2]).remain() == any(eqs), "bloom IN is not the OR of its equalities")
        return
    if index_type not in EXACT:
        return
    rows = reader.row_count
    everything = BitMap(range(rows)) if rows < 1 << 32 else BitMap64(range(rows))
    null, not_null = _rows(reader.visit_is_null()), _rows(reader.visit_is_not_null())
    answers = {"is null": null, "is not null": not_null}
    for what, bm in answers.items():  # first: a row past the end is the plainest garbage
        if bm is not None and len(bm):
            _expect(bm.max() < rows, f"{what} names row {bm.max()} of {rows}")
    if null is not None and not_null is not None:
        _expect(not (null & not_null), "IS NULL and IS NOT NULL share rows")
        if everything is not None:
            _expect((null | not_null) == everything, "IS NULL and IS NOT NULL do not cover the rows")
    eqs = []
    for lit in lits[:2]:
        eq = _rows(reader.visit_equal(lit))
        answers[f"= {lit!r}"] = eq
        eqs.append(eq)
        # a bitmap index stores each key's rows and the null rows as separate bitmaps that only the writer keeps
        # apart (Java never checks either; proving it would read the null bitmap on every equality), so a
        # corrupt file's overlap is answered as its bytes say; the other indexes derive = from one structure
        if eq is not None and not_null is not None and index_type != "bitmap":
            _expect(eq <= not_null, f"= {lit!r} holds a null row")
        ne = _rows(reader.visit_not_equal(lit))
        if eq is not None and ne is not None:
            _expect(not (eq & ne), f"= {lit!r} and <> {lit!r} share rows")
            # Java's bitmap index flips the equality (nulls included); range bitmap and BSI keep nulls out
            cover = everything if index_type == "bitmap" else not_null
            if cover is not None:
                _expect((eq | ne) == cover, f"= {lit!r} and <> {lit!r} do not cover the rows they should")
    if len(eqs) == 2 and None not in eqs:
        inn = _rows(reader.visit_in(lits[:2]))
        if inn is not None:
            _expect(inn == (eqs[0] | eqs[1]), "IN is not the union of its equalities")
    if index_type in ("range-bitmap", "bsi") and lits:
        lo, hi = min(lits), max(lits)
        lt, gte = _rows(reader.visit_lt(lo)), _rows(reader.visit_gte(lo))
        if lt is not None and gte is not None:
            _expect(not (lt & gte), "x < a and x >= a share rows")
            if not_null is not None:
                _expect((lt | gte) == not_null, "x < a and x >= a do not cover the non-null rows")
        between = _rows(reader.visit_between(lo, hi))
        lte_hi = _rows(reader.visit_lte(hi))
        if between is not None and gte is not None and lte_hi is not None:
            _expect(between == (gte & lte_hi), "BETWEEN a AND b is not x >= a AND x <= b")
        answers["< a"], answers[">= a"] = lt, gte
        for what, bm in (("< a", lt), (">= a", gte), ("<= b", lte_hi), ("BETWEEN", between)):
            if bm is not None and not_null is not None:
                _expect(bm <= not_null, f"{what} holds a null row")
    for what, bm in answers.items():
        if bm is not None and len(bm):
            _expect(bm.max() < rows, f"{what} names row {bm.max()} of {rows}")


def check_hash_index(data: bytes, hashes: Any) -> None:
    """A hash index file is big-endian int32s (FORMATS §8): the reader's hashes are exactly those."""
    _expect(len(data) % 4 == 0, "a hash index of a partial int was accepted")
    ref = np.frombuffer(data, dtype=">i4").astype(np.int64)
    got = np.asarray(list(hashes) if not isinstance(hashes, np.ndarray) else hashes, dtype=np.int64)
    _expect(np.array_equal(got, ref), "hash index values differ from a plain big-endian decoding")


_CHUNK = 1 << 20  # runs checked a million at a time: the harness's allocation bound covers the reader, not us


def check_dv(dv: Any) -> None:
    """A deletion vector's positions: ascending, disjoint runs, as many positions as its cardinality."""
    runs = dv.run_arrays()
    total, previous_last = 0, -2
    for at in range(0, len(runs.starts), _CHUNK):
        starts = runs.starts[at:at + _CHUNK].astype(np.int64)
        lasts = runs.lasts[at:at + _CHUNK].astype(np.int64)
        _expect(bool((lasts >= starts).all()), "a run ends before it starts")
        _expect(int(starts[0]) > previous_last + 1, "runs overlap, touch or are out of order")
        _expect(bool((starts[1:] > lasts[:-1] + 1).all()), "runs overlap, touch or are out of order")
        total += int((lasts - starts).sum()) + len(starts)
        previous_last = int(lasts[-1])
    _expect(total == dv.cardinality, "cardinality differs from the positions")
