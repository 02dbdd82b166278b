"""The global-index files of a table snapshot (``_GLOBAL_INDEX`` entries of its index manifest) and a
reader per file: which layout a file has, its row-id range, column and key range."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import CorruptDataError, UnsupportedTypeError
from ..fileio import ByteSource
from ..generated.construct import bitmap_global_index as _bitmap
from ..generated.construct import btree_global_index as _btree
from ..types import DataType
from .bitmap import BitmapGlobalIndexReader
from .btree import BTreeGlobalIndexReader
from .java_bitmap import JavaBitmapGlobalIndexReader, is_java_bitmap_payload
from .keys import global_key_codec
from .meta import SortedIndexFileMeta, read_sorted_meta

__all__ = ["GlobalIndexFile", "global_index_files", "open_reader", "layout_of"]

#: column types whose keys in pypaimon's bitmap layout are tested against pypaimon 2.1 (test_global_index_lookup);
#: the B-tree's further types follow Java's KeySerializer and are tested against Java (test_global_index_types)
_PYPAIMON_BITMAP_ROOTS = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "BOOLEAN", "CHAR", "VARCHAR"})


@dataclass(frozen=True)
class GlobalIndexFile:
    """One live global-index file: ``row_start..row_end`` (inclusive) are the absolute row ids it covers."""

    index_type: str
    path: str
    file_name: str
    file_size: int
    row_start: int
    row_end: int
    field_id: int
    meta: SortedIndexFileMeta | None
    #: further indexed columns (a multi-column index: not used for lookups here)
    extra_field_ids: tuple[int, ...] = ()


def global_index_files(table: Any, snapshot: Any) -> list[GlobalIndexFile]:
    """``table``: a :class:`paimon_codec.table.table.PaimonTable`."""
    out = []
    for f in table.index_files(snapshot):
        m = f.entry.index_file
        g = m.global_index
        if g is None:
            continue
        if g.row_range_end < g.row_range_start:
            raise CorruptDataError(f"global index {m.file_name} covers row ids {g.row_range_start}..{g.row_range_end}",
                                   path=f.path, expected="a range start <= its end")
        meta = None if g.index_meta is None else read_sorted_meta(bytes(g.index_meta), f.path) \
            if m.index_type.lower() in ("btree", "bitmap") else None
        out.append(GlobalIndexFile(m.index_type.lower(), f.path, m.file_name, m.file_size, g.row_range_start,
                                   g.row_range_end, g.index_field_id, meta, tuple(g.extra_field_ids or ())))
    return out


def layout_of(tail: bytes) -> str | None:
    """``"btree"`` / ``"bitmap"`` (pypaimon's BGIX layout) by the footer magic at the end of a file."""
    if tail.endswith(_btree.BTREE_FOOTER_MAGIC):
        return "btree"
    if tail.endswith(_bitmap.BITMAP_FOOTER_MAGIC):
        return "bitmap"
    return None


def open_reader(f: GlobalIndexFile, data_type: DataType, source: ByteSource | None = None
                ) -> BTreeGlobalIndexReader | BitmapGlobalIndexReader | JavaBitmapGlobalIndexReader:
    """A lazy reader of one file: the B-tree and pypaimon's bitmap layouts by their footer magic, Java
    1.4.2's bitmap global index (a bitmap file-index payload) by its version byte; refuses
    (UnsupportedTypeError) anything else."""
    src = source if source is not None else ByteSource(f.path, path=f.path)
    layout = layout_of(src.read(len(src) - 4, 4, "footer magic")) if len(src) >= 4 else None
    if layout is None and f.index_type == "bitmap" and len(src) and is_java_bitmap_payload(src.read(0, 1)):
        return JavaBitmapGlobalIndexReader(src, data_type, f.row_end - f.row_start + 1)
    if layout is None or layout != f.index_type:
        raise UnsupportedTypeError(f"{f.index_type} global index {f.file_name} in a layout without lookups here",
                                   path=f.path)
    codec = global_key_codec(data_type)
    if layout == "btree":
        return BTreeGlobalIndexReader(src, codec)
    if codec.data_type.root not in _PYPAIMON_BITMAP_ROOTS:
        raise UnsupportedTypeError(f"lookups in pypaimon's bitmap global index on {codec.data_type} columns are not "
                                   "supported (its keys are checked against pypaimon for integers, BOOLEAN and "
                                   "strings only)", path=f.path)
    return BitmapGlobalIndexReader(src, codec)
