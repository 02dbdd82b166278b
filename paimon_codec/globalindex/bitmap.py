"""One bitmap global-index file in pypaimon 2.1's layout (``schemas/bitmap_global_index.ksy``, footer
magic ``BGIX``): lookups answered lazily - the footer, the index block, then the dictionary blocks and
bitmaps a lookup needs.

Dictionary keys are ordered by their serialised bytes (not the column's order), so equality finds its
block by bytes; ranges walk the whole dictionary and compare decoded keys in Java's order.  Answers are
``BitMap64`` of row ids relative to the file's row-id range.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

from pyroaring import BitMap64

from ..errors import CorruptDataError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import bitmap_global_index as _gen
from .blocks import read_footer, read_stored_block
from .keys import GlobalKeyCodec

__all__ = ["BitmapGlobalIndexReader"]

FOOTER_SIZE = _gen.BITMAP_GLOBAL_FOOTER_SIZE


class BitmapGlobalIndexReader:
    def __init__(self, source: ByteSource, codec: GlobalKeyCodec) -> None:
        self.src, self.codec, self.path = source, codec, source.path
        self.footer, at = read_footer(source, FOOTER_SIZE, _gen.fast_parse_bitmap_global_footer,
                                      "bitmap global index")
        if self.footer["value_count"] < 0:
            raise CorruptDataError(f"bitmap global index with {self.footer['value_count']} values", path=self.path,
                                   offset=source.base + at, expected="a count >= 0")
        self._refs: list[Any] | None = None
        self._dictionaries: dict[int, list[Any]] = {}

    def _parse(self, codec: Any, data: bytes, what: str) -> Any:
        try:
            return codec.parse(data)
        except Exception as e:  # noqa: BLE001
            raise translate_error(e, self.path, what) from None

    def bitmap(self, offset: int, length: int, what: str) -> BitMap64:
        raw = self.src.read(offset, length, what)
        try:
            return BitMap64.deserialize(raw)
        except ValueError as e:
            raise CorruptDataError(f"{what}: {e}", path=self.path, offset=self.src.base + offset) from None

    def null_rows(self) -> BitMap64:
        f = self.footer
        return self.bitmap(f["null_rows_offset"], f["null_rows_length"], "bitmap null rows")

    def not_null_rows(self) -> BitMap64:
        f = self.footer
        return self.bitmap(f["non_null_rows_offset"], f["non_null_rows_length"], "bitmap non-null rows")

    def dictionary_refs(self) -> list[Any]:
        """The index block's dictionary-block references, by first key bytes."""
        if self._refs is None:
            f = self.footer
            data = read_stored_block(self.src, f["index_block_offset"], f["index_block_length"], "bitmap index block")
            refs = list(self._parse(_gen.IndexBlock, data, "bitmap index block")["blocks"])
            self._refs = sorted(refs, key=lambda r: bytes(r["first_key"]))
        return self._refs

    def dictionary(self, i: int) -> list[Any]:
        if i not in self._dictionaries:
            ref = self.dictionary_refs()[i]
            what = f"bitmap dictionary block {i}"
            data = read_stored_block(self.src, ref["offset"]["value"], ref["length"]["value"], what)
            self._dictionaries[i] = list(self._parse(_gen.DictionaryBlock, data, what)["entries"])
        return self._dictionaries[i]

    def entries(self) -> Iterator[tuple[bytes, Any]]:
        """``(key bytes, dictionary entry)`` of every distinct key, by key bytes."""
        for i in range(len(self.dictionary_refs())):
            for e in self.dictionary(i):
                yield bytes(e["key"]), e

    def _rows(self, entry: Any) -> BitMap64:
        return self.bitmap(entry["bitmap_offset"]["value"], entry["bitmap_length"]["value"], "bitmap of a key")

    def equal(self, literal: Any) -> BitMap64:
        key = self.codec.encode(literal)
        refs = self.dictionary_refs()
        i = bisect.bisect_right([bytes(r["first_key"]) for r in refs], key) - 1
        if i < 0:
            return BitMap64()
        for e in self.dictionary(i):
            if bytes(e["key"]) == key:
                return self._rows(e)
        return BitMap64()

    def range(self, lower: Any | None, lower_inclusive: bool, upper: Any | None, upper_inclusive: bool) -> BitMap64:
        lo = None if lower is None else self.codec.order(lower)
        hi = None if upper is None else self.codec.order(upper)
        out = BitMap64()
        for key, e in self.entries():
            k = self.codec.raw_order(key)
            if lo is not None and (k < lo or (k == lo and not lower_inclusive)):
                continue
            if hi is not None and (k > hi or (k == hi and not upper_inclusive)):
                continue
            out |= self._rows(e)
        return out

    def not_equal(self, literal: Any) -> BitMap64:
        return self.not_null_rows() - self.equal(literal)
