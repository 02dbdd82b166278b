"""The ``_INDEX_META`` of a B-tree / bitmap global-index file (``schemas/sorted_index_file_meta.ksy``):
its smallest and largest key and whether it holds nulls - Java 1.4.2's ``BTreeIndexMeta`` and
pypaimon 2.1's ``SortedIndexFileMeta`` (which adds flags telling an empty key from none)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import CorruptDataError
from ..formats import translate_error
from ..generated.construct import sorted_index_file_meta as _gen

__all__ = ["SortedIndexFileMeta", "read_sorted_meta"]


@dataclass(frozen=True)
class SortedIndexFileMeta:
    first_key: bytes | None
    last_key: bytes | None
    has_nulls: bool

    @property
    def only_nulls(self) -> bool:
        return self.first_key is None and self.last_key is None


def read_sorted_meta(data: bytes, path: str | None = None) -> SortedIndexFileMeta:
    try:
        m = _gen.SortedIndexFileMeta.parse(data)
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, path, "global-index _INDEX_META") from None
    if m.get("has_nulls") not in (0, 1):
        raise CorruptDataError(f"global-index _INDEX_META has_nulls = {m['has_nulls']}", path=path, expected="0 or 1")
    first, last = bytes(m["first_key"]), bytes(m["last_key"])
    flags = m.get("null_key_flags")
    if flags is None:  # Java 1.4.2: a zero length is an absent key
        return SortedIndexFileMeta(first or None, last or None, m["has_nulls"] == 1)
    return SortedIndexFileMeta(None if flags & _gen.NULL_KEY_FLAG_FIRST_KEY_IS_NULL else first,
                               None if flags & _gen.NULL_KEY_FLAG_LAST_KEY_IS_NULL else last, m["has_nulls"] == 1)
