"""Predicates Paimon Java answers wrongly-but-deterministically on ORC data files, refused in one place
(:func:`refuse_orc_pruning`, run once per plan over the formats the plan reads).

CHAR columns (:func:`refuse_padded_char_pruning`): ORC statistics hold the space-padded values.

FLOAT / DOUBLE columns (:func:`refuse_float_stats_pruning`):
Paimon Java prunes those files by ORC statistics that do not describe NaN or the sign of zero, so its answer
can lose matching rows; such reads are refused.

ORC's double statistics keep min / max with ``<`` / ``>``: a NaN written first makes both NaN (every later
comparison is false), a NaN written later is left out, and among zeros the first one's sign wins.  Paimon
stores those as the file's stats and tests predicates on them with ``Double.compare`` (NaN above every
number, -0.0 below 0.0), then ORC's own search arguments test its row groups.  Measured on Java 1.4.2: of
files ``[1.0, NaN, -2.0]`` and ``[NaN, 1.0]``, ``d = NaN`` misses the first file's NaN and ``d <= 1.0`` the
second file's 1.0; ``d = -0.0`` and ``d > -0.0`` lose zeros.  No operator is safe: one that matches NaN
(``>``, ``>=``, ``<>``, ``NOT IN`` ...) loses the NaN rows of a file or row group whose other values fail it,
one that does not (``<``, ``=``, ``IN`` ...) loses every row of a row group whose first value is NaN - and ORC's
own row-group statistics do that inside a file whose manifest statistics are plain numbers (measured: 30000
rows, the second row group ``[NaN, 5.0 x 9999]``, ``d < 6.0`` returns no row from Java).  A file or row group
holding such a value cannot be told from the manifest statistics, so every comparison on such a column (not
``IS [NOT] NULL``) is refused - under
``semantics="paimon"`` only, the promise of Paimon's own answer.  Under ``"spark"`` the answer is Spark SQL's,
which no pruning of ours narrows (stats pruning never uses float bounds; ORC is read whole and filtered).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import UnsupportedTypeError
from ..expressions import leaves
from ..expressions.semantics import SemanticsName

__all__ = ["refuse_orc_pruning", "refuse_float_stats_pruning", "refuse_padded_char_pruning"]


def refuse_float_stats_pruning(pred: Any, row_type: Any, formats: Iterable[str], semantics: SemanticsName) -> None:
    """Refuse ``pred`` when it compares a FLOAT / DOUBLE column, ORC data files are read and the read promises
    Paimon's answer (``semantics="paimon"``)."""
    if pred is None or semantics != "paimon" or "orc" not in set(formats):
        return
    floats = {f.name for f in row_type if f.type.root in ("FLOAT", "DOUBLE")}
    for leaf in pred.leaves():
        if leaf.column in floats and not isinstance(leaf, (leaves.IsNull, leaves.IsNotNull)):
            raise UnsupportedTypeError(
                f"predicate {leaf} on {leaf.column} of ORC data files: Paimon prunes them by ORC float statistics "
                "that leave NaN and the sign of zero out, and may skip matching rows; not reproduced (IS [NOT] "
                "NULL is answered)")


def refuse_padded_char_pruning(pred: Any, row_type: Any, formats: Iterable[str]) -> None:
    """Refuse a predicate whose answer Paimon Java computes wrongly-but-deterministically on ORC CHAR columns.

    Java prunes ORC files and row groups by the ORC statistics, which hold the *padded* values (``"a   "``
    for CHAR(4)), and then returns the trimmed values: ``c = 'a'``, ``c < 'ab'`` or ``c IN ('a')`` can skip
    a file whose rows match (measured on Java 1.4.2: ``c = 'a'`` returns no row of a file of ``'a'`` and
    ``'ab'``).  Row groups are not visible here, so such a leaf (``=``, ``<``, ``<=``, ``BETWEEN``, ``IN``,
    ``LIKE`` without a wildcard; ``<>`` / ``NOT IN`` of a literal ending in a space) on a CHAR column is
    refused; ``>``, ``>=``, prefix ``LIKE``, ``IS [NOT] NULL`` can never lose a row that way and are kept."""
    if pred is None or "orc" not in set(formats):
        return
    chars = {f.name for f in row_type if f.type.root == "CHAR"}
    for leaf in pred.leaves():
        if leaf.column in chars and _may_lose_rows(leaf):
            raise UnsupportedTypeError(
                f"predicate {leaf} on CHAR column {leaf.column} of ORC data files: Paimon prunes them by the "
                "space-padded ORC statistics and may skip matching rows; not reproduced (>, >=, <>, a prefix LIKE "
                "and null tests are answered)")


def _may_lose_rows(leaf: Any) -> bool:
    if isinstance(leaf, (leaves.EqualTo, leaves.LessThan, leaves.LessThanOrEqual, leaves.Between, leaves.In)):
        return True
    if isinstance(leaf, (leaves.NotEqualTo, leaves.NotIn)):
        return any(isinstance(v, str) and v.endswith(" ") for v in leaf.literals)
    if isinstance(leaf, leaves.Like):
        pattern = str(leaf.literals[0]) if leaf.literals else ""
        return "%" not in pattern and "_" not in pattern
    return False


def refuse_orc_pruning(pred: Any, row_type: Any, formats: Iterable[str], semantics: SemanticsName) -> None:
    """Every ORC-pruning refusal of one plan, over the formats of the files it reads (computed once)."""
    if pred is None:
        return
    read_formats = set(formats)
    if "orc" not in read_formats:
        return
    refuse_padded_char_pruning(pred, row_type, read_formats)
    refuse_float_stats_pruning(pred, row_type, read_formats, semantics)
