"""Predicates on FLOAT / DOUBLE columns of ORC data files: Paimon Java prunes those files by ORC statistics
that do not describe NaN or the sign of zero, so its answer can lose matching rows; such reads are refused.

ORC's double statistics keep min / max with ``<`` / ``>``: a NaN written first makes both NaN (every later
comparison is false), a NaN written later is left out, and among zeros the first one's sign wins.  Paimon
stores those as the file's stats and tests predicates on them with ``Double.compare`` (NaN above every
number, -0.0 below 0.0), then ORC's own search arguments test its row groups.  Measured on Java 1.4.2: of
files ``[1.0, NaN, -2.0]`` and ``[NaN, 1.0]``, ``d = NaN`` misses the first file's NaN and ``d <= 1.0`` the
second file's 1.0; ``d = -0.0`` and ``d > -0.0`` lose zeros.  A file holding such a value cannot be told
from the statistics alone, so every comparison on such a column (not ``IS [NOT] NULL``) is refused - under
``semantics="paimon"`` only, the promise of Paimon's own answer.  Under ``"spark"`` the answer is Spark SQL's,
which no pruning of ours narrows (stats pruning never uses float bounds; ORC is read whole and filtered).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import UnsupportedTypeError
from ..expressions import leaves
from ..expressions.semantics import Semantics


def refuse_float_stats_pruning(pred: Any, row_type: Any, formats: Iterable[str], semantics: Semantics) -> None:
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
