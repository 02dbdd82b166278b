"""The result of asking a file index a question: REMAIN, SKIP or a row bitmap.

The algebra is Paimon's ``FileIndexResult`` algebra (FORMATS.md §9.1) *done soundly*: Java 0.9's
``BitmapIndexResultLazy.or`` treats a non-bitmap right side with the AND rule, which can drop
matching rows; here ``bitmap OR REMAIN = REMAIN`` and ``bitmap OR SKIP = bitmap`` always.

=========  ===========  ===========
a \\ b      a AND b      a OR b
=========  ===========  ===========
REMAIN     b            REMAIN
SKIP       SKIP         b
bitmap     a ∩ b / a /  a ∪ b / REMAIN /
           SKIP          a   (b = bitmap / REMAIN / SKIP)
=========  ===========  ===========

A bitmap result is lazy: it holds either a ``BitMap`` or a zero-argument function producing one,
evaluated (once) only when the positions are needed.
"""

from __future__ import annotations

from collections.abc import Callable

from pyroaring import BitMap

from ..positions import ranges_of
from ..report import JsonForm

__all__ = ["FileIndexResult", "REMAIN", "SKIP", "BitmapResult"]


class FileIndexResult(JsonForm):
    """Base class; use the singletons :data:`REMAIN`, :data:`SKIP` or :class:`BitmapResult`."""

    kind: str = "?"

    def remain(self) -> bool:
        raise NotImplementedError

    def and_(self, other: FileIndexResult) -> FileIndexResult:
        raise NotImplementedError

    def or_(self, other: FileIndexResult) -> FileIndexResult:
        raise NotImplementedError

    def __and__(self, other: FileIndexResult) -> FileIndexResult:
        return self.and_(other)

    def __or__(self, other: FileIndexResult) -> FileIndexResult:
        return self.or_(other)

    def to_dict(self) -> dict:
        return {"kind": self.kind}


class _Remain(FileIndexResult):
    kind = "REMAIN"

    def remain(self) -> bool:
        return True

    def and_(self, other: FileIndexResult) -> FileIndexResult:
        return other

    def or_(self, other: FileIndexResult) -> FileIndexResult:
        return self

    def __repr__(self) -> str:
        return "REMAIN"


class _Skip(FileIndexResult):
    kind = "SKIP"

    def remain(self) -> bool:
        return False

    def and_(self, other: FileIndexResult) -> FileIndexResult:
        return self

    def or_(self, other: FileIndexResult) -> FileIndexResult:
        return other

    def __repr__(self) -> str:
        return "SKIP"


REMAIN: FileIndexResult = _Remain()
SKIP: FileIndexResult = _Skip()


class BitmapResult(FileIndexResult):
    """Selected row positions (lazy). ``remain()`` is true iff at least one row is selected."""

    kind = "BITMAP"

    def __init__(self, bitmap: BitMap | Callable[[], BitMap]) -> None:
        if isinstance(bitmap, BitMap):
            self._bitmap: BitMap | None = bitmap
            self._supplier: Callable[[], BitMap] | None = None
        else:
            self._bitmap, self._supplier = None, bitmap

    @property
    def bitmap(self) -> BitMap:
        if self._bitmap is None:
            assert self._supplier is not None
            bm = self._supplier()
            self._bitmap = bm if isinstance(bm, BitMap) else BitMap(bm)
            self._supplier = None
        return self._bitmap

    def remain(self) -> bool:
        return len(self.bitmap) > 0

    def and_(self, other: FileIndexResult) -> FileIndexResult:
        if isinstance(other, BitmapResult):
            return BitmapResult(lambda: self.bitmap & other.bitmap)
        return self if other.remain() else SKIP

    def or_(self, other: FileIndexResult) -> FileIndexResult:
        if isinstance(other, BitmapResult):
            return BitmapResult(lambda: self.bitmap | other.bitmap)
        return REMAIN if other.remain() else self

    def to_dict(self) -> dict:
        bm = self.bitmap
        return {"kind": "BITMAP", "cardinality": len(bm), "ranges": ranges_of(bm)}

    def __repr__(self) -> str:
        return f"BitmapResult({self.bitmap!r})"
