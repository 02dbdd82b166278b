"""FLOAT / DOUBLE leaves made safe for indexes keyed by IEEE bits.

Every file index keys a float by its bits (bitmap and bloom filter: ``Float.equals`` / canonical
NaN; range bitmap: ``Float.compare`` order), so ``-0.0`` and ``0.0`` are two different keys.  The
engines that filter the rows afterwards disagree about them:

==========================  =======================  ===================================
question                    Paimon (``Double.compare``)  Spark SQL
==========================  =======================  ===================================
``-0.0 = 0.0``              false                    true
``NaN = NaN``               true                     true
NaN against other values    greater than all         greater than all
==========================  =======================  ===================================

(and plain IEEE comparison, as Arrow compute does, has ``NaN <> NaN`` true).  An index answer must
keep every row that *any* of them selects, so before a leaf reaches a reader this module widens it:

* ``= z`` / ``IN (.., z, ..)`` with ``z`` a zero asks for both zeros;
* ``<= -0.0`` becomes ``<= 0.0`` and ``>= 0.0`` becomes ``>= -0.0`` (so do BETWEEN's bounds);
* ``<> NaN`` keeps every row and ``NOT IN`` ignores its NaN literals (IEEE keeps NaN rows there);
* ``<>`` / ``NOT IN`` a zero, ``<`` / ``>`` anything: the bit-keyed answer already holds the other
  engines' rows (it keeps the other zero; NaN sorts last in every engine that orders it).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["FLOAT_ROOTS", "widen_float_leaf"]

FLOAT_ROOTS = frozenset(("FLOAT", "DOUBLE"))

#: what :func:`widen_float_leaf` returns when the leaf cannot exclude any row
KEEP_ALL = None


def _is_zero(v: Any) -> bool:
    return isinstance(v, float) and v == 0.0


def _is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _both_zeros(values: list) -> list:
    out = list(values)
    if any(_is_zero(v) for v in out):
        out.extend(z for z in (0.0, -0.0) if not any(_is_zero(v) and math.copysign(1, v) == math.copysign(1, z)
                                                      for v in out))
    return out


def widen_float_leaf(op: str, literals: tuple) -> tuple[str, tuple] | None:
    """``(op, literals)`` to ask a float-keyed index instead, or ``None`` when every row must stay."""
    if op == "eq" and _is_zero(literals[0]):
        return "in", (0.0, -0.0)
    if op == "in":
        return op, tuple(_both_zeros(list(literals)))
    if op == "neq" and _is_nan(literals[0]):
        return KEEP_ALL
    if op == "not_in":
        kept = tuple(v for v in literals if not _is_nan(v))
        return (op, kept) if kept else KEEP_ALL
    if op == "lte" and _is_zero(literals[0]):
        return op, (0.0,)
    if op == "gte" and _is_zero(literals[0]):
        return op, (-0.0,)
    if op == "between":
        low, high = literals
        return op, (-0.0 if _is_zero(low) else low, 0.0 if _is_zero(high) else high)
    return op, literals
