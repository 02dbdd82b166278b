"""Top-N (``ORDER BY col [DESC] [NULLS FIRST|LAST] LIMIT k``) answered from bit-sliced indexes.

Paimon pushes top-N down to range-bitmap indexes (FORMATS §4.4).  Only the first sort key is used;
``strict`` (exactly one sort key) means the answer must hold exactly ``k`` rows, otherwise rows tied
with the k-th value are all kept (a later sort key might prefer any of them).

* :func:`oneil_top_k` - O'Neil's top-k over the slices of an unsigned bit-sliced index, from the
  most significant slice down, keeping ``G`` (surely in) and ``E`` (still tied).  Strict mode drops
  the *smallest* row positions of ``E`` until exactly ``k`` rows remain (as Paimon does).
* :func:`top_n_rows` - the full answer with null ordering and an optional found set, for any reader
  exposing ``null_rows()`` and ``top_values(k, found_set, strict, descending)`` (range bitmap, BSI).
* :func:`answer_topn_query` - answers a golden/CLI ``top_k`` / ``bottom_k`` query object.
* the ``paimon-codec index topn`` subcommand is :mod:`paimon_codec.cli.index_topn`.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyroaring import BitMap

from ..errors import InvalidPredicateError
from ..positions import positions_from_json
from ..roaring import first_n
from .bit_slices import oneil_top_k
from .result import BitmapResult

__all__ = ["oneil_top_k", "top_n_rows", "answer_topn_query", "found_set_from_json", "TopNReader"]


def found_set_from_json(obj: Any, what: str = "found_set") -> BitMap:
    """A JSON position set restricting top-N candidates: row positions of one file, so 32-bit.

    A set reaching past 2**32 (decoded as a 64-bit bitmap) is refused here: it cannot be combined
    with the index's 32-bit bitmaps (it used to fail deep inside with a TypeError).
    """
    try:
        found = positions_from_json(obj)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPredicateError(f"bad {what}: {exc}") from exc
    if not isinstance(found, BitMap):
        raise InvalidPredicateError(f"bad {what}: positions reach past 2**32",
                                    expected="row positions of one file (below 2**32)")
    return found


class TopNReader(Protocol):
    """What :func:`top_n_rows` needs from an index reader."""

    def null_rows(self) -> BitMap: ...

    def top_values(self, k: int, found_set: BitMap | None, strict: bool, descending: bool) -> BitMap: ...


def top_n_rows(
    reader: TopNReader,
    k: int,
    descending: bool,
    nulls_first: bool,
    strict: bool,
    found_set: BitMap | None = None,
) -> BitMap:
    """Row positions answering ``ORDER BY col (DESC|ASC) NULLS (FIRST|LAST) LIMIT k`` (FORMATS §4.4).

    ``found_set`` restricts the candidates (rows a filter already selected).  Null rows come first
    or last; strict answers hold at most ``k`` rows (the first null positions when nulls are cut).
    """
    if k < 0:
        raise InvalidPredicateError(f"top-N limit must be >= 0, got {k}")
    shortcut = getattr(reader, "top_n_shortcut", None)
    if shortcut is not None:
        early = shortcut()
        if early is not None:
            return early
    nulls = reader.null_rows()
    if found_set is not None:
        nulls = nulls & found_set
    if not nulls_first:
        result = reader.top_values(k, found_set, strict, descending)
        if len(result) < k:
            result = result | (first_n(nulls, k - len(result)) if strict else nulls)
        return result
    if strict and len(nulls) >= k:
        return first_n(nulls, k)
    rest = k - len(nulls)
    if rest <= 0:
        return nulls
    return nulls | reader.top_values(rest, found_set, strict, descending)


def answer_topn_query(reader: TopNReader, query: dict) -> BitmapResult:
    """Answer a ``{"op": "top_k"|"bottom_k", "k", "null_ordering", "strict", "found_set"}`` object.

    ``top_k`` orders descending, ``bottom_k`` ascending; ``null_ordering`` is ``NULLS_FIRST`` or
    ``NULLS_LAST`` (default: NULLS_FIRST for ascending, NULLS_LAST for descending, as Spark does);
    ``found_set`` is null or a position set.  Returns a bitmap result (``.to_dict()`` for output).
    """
    op = query.get("op")
    if op not in ("top_k", "bottom_k"):
        raise InvalidPredicateError(f"not a top-N query: op {op!r}")
    try:
        k = int(query["k"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPredicateError("top-N query needs an integer 'k'") from exc
    descending = op == "top_k"
    ordering = str(query.get("null_ordering") or ("NULLS_LAST" if descending else "NULLS_FIRST")).upper()
    if ordering not in ("NULLS_FIRST", "NULLS_LAST", "FIRST", "LAST"):
        raise InvalidPredicateError(f"null_ordering must be NULLS_FIRST or NULLS_LAST, not {ordering!r}")
    found = query.get("found_set")
    found_bm = None if found is None else found_set_from_json(found)
    rows = top_n_rows(reader, k, descending, ordering.endswith("FIRST"), bool(query.get("strict", True)),
                      found_bm)
    return BitmapResult(rows)
