"""The answers of many range-bitmap comparisons (one per file of a scan) computed in one go.

A planner reads the bytes of each file's comparison in threads (:meth:`.reader.CodeRangeResult.load`) and hands
the answers here: each is exactly what its file's :meth:`.reader.RangeBitmapReader.code_range_rows` gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .reader import CodeRangeResult

__all__ = ["code_ranges_rows"]


def code_ranges_rows(results: Sequence[CodeRangeResult]) -> list[BaseException | None]:
    """Compute every answer of ``results`` not yet computed; returns each one's error (a corrupt slice
    found by the walk, say) or ``None``, in order.  A failed answer stays uncomputed."""
    errors: list[BaseException | None] = []
    for r in results:
        if r.computed:
            errors.append(None)
            continue
        try:
            r.settle(r.reader.code_range_rows(r.a, r.b))
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller, who raises it in file order
            errors.append(exc)
        else:
            errors.append(None)
    return errors
