"""A data file's file index speaks the schema the file was written under.

A file index is keyed by the column *name* at write time and its keys are of the column *type* at
write time (``DataFileMeta.schema_id`` -> ``schema/schema-N``).  After ``ALTER TABLE`` a predicate on
the current schema must be translated before it meets an older file's index:

* columns are matched by field id, so a renamed column finds its index under the old name;
* a column the file does not hold (added later, or dropped and re-added under the same name: a new
  field id) has no index in that file - even when the file indexes a column of that name;
* a column whose type changed since (``INT`` -> ``BIGINT``, precision, ...) is not asked at all:
  the index's keys are of the old type, so such a leaf answers REMAIN (never decoded as the new type).

Leaves that cannot be asked become an empty ``And`` (REMAIN), which keeps the answer a superset.
"""

from __future__ import annotations

from typing import Any

from ..expressions.predicate import And, Leaf, Or
from ..types import DataType, RowType

__all__ = ["FileIndexView", "file_index_view"]

_REMAIN = And(())


def same_key_type(a: DataType, b: DataType) -> bool:
    """Index keys of ``a`` and ``b`` are the same values (nullability aside)."""
    return (a.root, a.precision, a.scale, a.length, a.children, a.field_names) == \
        (b.root, b.precision, b.scale, b.length, b.children, b.field_names)


class FileIndexView:
    """How the current schema's columns map onto one file schema's indexed columns."""

    def __init__(self, current: RowType, written: RowType) -> None:
        self.current = current
        self.written = written
        by_id = {f.id: f for f in written.fields if f.id is not None}
        self._names: dict[str, str | None] = {}
        for f in current.fields:
            old = by_id.get(f.id) if f.id is not None else None
            if old is None and f.id is None:  # schemas without field ids: names are all there is
                old = next((w for w in written.fields if w.name == f.name), None)
            self._names[f.name] = old.name if old is not None and same_key_type(f.type, old.type) else None

    @property
    def identical(self) -> bool:
        return all(old == new for new, old in self._names.items()) and len(self.current.fields) == len(
            self.written.fields)

    def file_column(self, column: str | None) -> str | None:
        """The file's name for a current column whose index may be asked, else ``None``."""
        return None if column is None else self._names.get(column)

    def translate(self, pred: Any) -> Any:
        """``pred`` (bound to the current schema) in the file's column names; unaskable leaves -> REMAIN."""
        if isinstance(pred, Leaf):
            name = self.file_column(pred.column)
            if name is None:
                return _REMAIN
            return pred.with_column(name)
        if isinstance(pred, (And, Or)):
            return type(pred)(tuple(self.translate(c) for c in pred.children))
        return pred


def file_index_view(current: RowType, written: RowType) -> FileIndexView | None:
    """The view for an older file schema, or ``None`` when the file's schema is the current one."""
    view = FileIndexView(current, written)
    return None if view.identical else view
