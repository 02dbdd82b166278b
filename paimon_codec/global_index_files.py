"""Recognising Paimon's *global*-index files (``index/<type>-global-index-<uuid>.index``).

Global indexes (data-evolution tables, ``_GLOBAL_INDEX`` entries of the index manifest) are not
file indexes: the B-tree files (a sorted-string table with a 52-byte footer ending in magic
``0x50425449`` little-endian, as Java 1.4.2 and pypaimon write them, ``schemas/btree_global_index.ksy``)
and pypaimon's own bitmap layout (footer ending in ``BGIX``, ``schemas/bitmap_global_index.ksy``) are
decoded by :mod:`paimon_codec.globalindex`.  Java 1.4.2's bitmap global index is a bare bitmap
file-index payload (``BitmapFileIndex`` through ``FileIndexWriterWrapper``), which the ``bitmap``
format decodes given the column's key kind.

:func:`recognise` tells ``inspect`` what such a file is, so it can decode it or refuse it by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .generated.construct.btree_global_index import BTREE_FOOTER_SIZE
from .generated.construct.constants import BITMAP_FOOTER_MAGIC as _PYPAIMON_BITMAP_MAGIC_BE  # "BGIX"
from .generated.construct.constants import BTREE_FOOTER_MAGIC as _BTREE_FOOTER_MAGIC_LE  # BTreeFileFooter

__all__ = ["GlobalIndexFile", "recognise"]

_NAME = re.compile(r"^(?P<type>[A-Za-z0-9_]+)-global-index-[0-9A-Za-z-]+\.index$")


@dataclass(frozen=True)
class GlobalIndexFile:
    """What a global-index file is: its index type and the format decoding it (``None``: none does)."""

    index_type: str
    layout: str
    format: str | None = None
    #: ``"btree"`` / ``"bitmap"``: decoded by :func:`paimon_codec.globalindex.describe.describe_global_index`
    global_layout: str | None = None

    def refusal(self) -> str:
        return (f"a Paimon {self.index_type} global-index file ({self.layout}); this global-index layout is not "
                "supported by inspect (no schema describes it)")


def recognise(file_name: str, data: bytes) -> GlobalIndexFile | None:
    """The global-index file ``data`` is (by footer magic, then by file name), else ``None``."""
    named = _NAME.match(file_name)
    if len(data) >= BTREE_FOOTER_SIZE and data[-len(_BTREE_FOOTER_MAGIC_LE):] == _BTREE_FOOTER_MAGIC_LE:
        return GlobalIndexFile("btree", "B-tree SST file with footer magic 0x50425449", global_layout="btree")
    if data[-len(_PYPAIMON_BITMAP_MAGIC_BE):] == _PYPAIMON_BITMAP_MAGIC_BE:
        return GlobalIndexFile("bitmap", "pypaimon bitmap layout with footer magic BGIX", global_layout="bitmap")
    if named is None:
        return None
    kind = named.group("type").lower()
    if kind == "bitmap" and data[:1] in (b"\x01", b"\x02"):
        return GlobalIndexFile("bitmap", "a bitmap file-index payload, as Java writes it", "bitmap")
    return GlobalIndexFile(kind, "unknown layout")
