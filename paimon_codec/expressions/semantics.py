"""Which engine's comparison a predicate on FLOAT / DOUBLE columns follows: Paimon's or Spark SQL's.

The two engines agree on every type but floats, and there only on ``±0.0``:

============================  ====================================  =========================
question                      ``"paimon"`` (``Double.compare``)     ``"spark"`` (Spark SQL)
============================  ====================================  =========================
``-0.0 = 0.0``                false (``-0.0 < 0.0``)                true
``NaN = NaN``                 true                                  true
NaN against any other value   greater                               greater
============================  ====================================  =========================

``"paimon"`` is what Paimon's own read returns: its ``LeafFunction``s test a row with ``compareTo``
(``Float.compare`` / ``Double.compare``), and its file indexes key floats by their bits, so their answers
agree with it.  ``"spark"`` is what Spark's filter returns (Spark SQL's NaN semantics, and ``0.0 = -0.0``).
Neither is implicit: the index layer (:mod:`paimon_codec.fileindex`) answers exactly as Paimon's Java
readers do; the table layer (plan, read, Spark scan) takes a ``semantics`` argument and names it in its
plan report.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from ..errors import InvalidPredicateError
from ..modes import Semantics, SemanticsLike

__all__ = ["SEMANTICS", "Semantics", "SemanticsLike", "SemanticsName", "check_semantics", "float_order_key"]

#: the plain string a plan report names (the public API takes :class:`Semantics` or that string)
SemanticsName = Literal["paimon", "spark"]
#: every accepted value, the first the default of reads without Spark
SEMANTICS: tuple[SemanticsName, ...] = ("paimon", "spark")


def check_semantics(value: Any) -> SemanticsName:
    """The name of ``value`` (a :class:`Semantics` or its name), else an :class:`InvalidPredicateError`
    naming the choices."""
    name = value.value if isinstance(value, Semantics) else value
    if not isinstance(name, str) or name not in SEMANTICS:
        raise InvalidPredicateError(f"unknown comparison semantics {value!r}", expected=" or ".join(map(repr, SEMANTICS)))
    return name


def float_order_key(x: Any, semantics: SemanticsName) -> Any:
    """``x`` as a key Python compares as ``semantics`` compares floats (other values are returned as is).

    NaN is above every number and equal to itself in both; ``-0.0`` sorts below ``0.0`` under ``"paimon"``
    and equals it under ``"spark"``.
    """
    if not isinstance(x, float):
        return x
    if x != x:
        return (1, 0.0, 0)
    if semantics == "paimon" and x == 0.0:
        return (0, 0.0, int(math.copysign(1, x)))
    return (0, x + 0.0, 0)
