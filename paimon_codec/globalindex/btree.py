"""One B-tree global-index file (``schemas/btree_global_index.ksy``): lookups answered lazily - the
footer, then the index block, then only the data blocks a key range touches.

Answers are ``BitMap64`` of row ids *relative to the file's row-id range* (what the file stores), the
same sets Java's ``BTreeIndexReader`` returns: equality / IN by binary search, ranges by a walk from
the lower bound, ``IS NULL`` from the null bitmap (CRC32-checked), ``IS NOT NULL`` as every key's rows.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

from pyroaring import BitMap64

from ..checksum import check_crc32
from ..errors import CorruptDataError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import btree_global_index as _gen
from .blocks import Block, read_footer, read_stored_block
from .keys import GlobalKeyCodec

__all__ = ["BTreeGlobalIndexReader", "row_ids_of"]

FOOTER_SIZE = _gen.BTREE_FOOTER_SIZE


def row_ids_of(value: bytes | memoryview, path: str | None = None) -> list[int]:
    """The row ids of a data entry's value (generated ``row_ids``)."""
    try:
        parsed = _gen.RowIds.parse(bytes(value))
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, path, "B-tree row ids") from None
    if parsed["count"]["value"] <= 0:
        raise CorruptDataError(f"B-tree entry with {parsed['count']['value']} row ids", path=path,
                               expected="at least 1")
    return [r["value"] for r in parsed["row_ids"]]


class BTreeGlobalIndexReader:
    def __init__(self, source: ByteSource, codec: GlobalKeyCodec) -> None:
        self.src, self.codec, self.path = source, codec, source.path
        self.footer, at = read_footer(source, FOOTER_SIZE, _gen.fast_parse_btree_footer, "B-tree global index")
        f = self.footer
        if f["index_block_offset"] + f["index_block_size"] + _gen.BLOCK_TRAILER_SIZE > at:
            raise CorruptDataError("B-tree footer's index block runs into the footer", path=self.path,
                                   offset=source.base + at)
        self._index: Block | None = None
        self._index_keys: list[Any] | None = None
        self._blocks: dict[int, Block] = {}

    # ------------------------------------------------------------------ structure
    def index_block(self) -> Block:
        if self._index is None:
            f = self.footer
            data = read_stored_block(self.src, f["index_block_offset"], f["index_block_size"], "B-tree index block")
            self._index = Block(data, "B-tree index block", self.path)
        return self._index

    def _index_orders(self) -> list[Any]:
        if self._index_keys is None:
            index = self.index_block()
            self._index_keys = [self.codec.raw_order(index.entry(i)[0]) for i in range(len(index))]
        return self._index_keys

    def data_block(self, i: int) -> Block:
        """Data block ``i`` (in index order)."""
        if i not in self._blocks:
            _, value = self.index_block().entry(i)
            try:
                handle, _ = _gen.fast_parse_block_handle(value)
            except Exception as e:  # noqa: BLE001
                raise translate_error(e, self.path, "B-tree block handle") from None
            offset, size = handle["offset"]["value"], handle["size"]["value"]
            data = read_stored_block(self.src, offset, size, f"B-tree data block {i}")
            self._blocks[i] = Block(data, f"B-tree data block {i}", self.path)
        return self._blocks[i]

    def entries_from(self, lower: Any | None) -> Iterator[tuple[Any, memoryview]]:
        """``(order key, row-ids value)`` of every entry whose key is >= ``lower`` (an order key; ``None``:
        from the first), ascending."""
        orders = self._index_orders()
        first_block = 0 if lower is None else bisect.bisect_left(orders, lower)
        for b in range(first_block, len(orders)):
            block = self.data_block(b)
            start = 0
            if lower is not None and b == first_block:
                lo, hi = 0, len(block)
                while lo < hi:  # first entry with key >= lower
                    mid = (lo + hi) // 2
                    if self.codec.raw_order(block.entry(mid)[0]) < lower:
                        lo = mid + 1
                    else:
                        hi = mid
                start = lo
            for key, value in block.entries(start):
                yield self.codec.raw_order(key), value

    def null_rows(self) -> BitMap64:
        f = self.footer
        if f["null_bitmap_offset"] == 0 and f["null_bitmap_size"] == 0:
            return BitMap64()
        size = f["null_bitmap_size"]
        raw = self.src.read(f["null_bitmap_offset"], size + _gen.NULL_BITMAP_CRC32_DTYPE.itemsize, "B-tree null bitmap")
        try:
            parsed = _gen.NullBitmap.parse(raw, size=size)
        except Exception as e:  # noqa: BLE001
            raise translate_error(e, self.path, "B-tree null bitmap") from None
        check_crc32(parsed["bitmap"], parsed["crc32"], "B-tree null bitmap", path=self.path,
                    offset=self.src.base + f["null_bitmap_offset"])
        try:
            return BitMap64.deserialize(bytes(parsed["bitmap"]))
        except ValueError as e:
            raise CorruptDataError(f"B-tree null bitmap: {e}", path=self.path,
                                   offset=self.src.base + f["null_bitmap_offset"]) from None

    # ------------------------------------------------------------------ lookups
    def equal(self, literal: Any) -> BitMap64:
        target = self.codec.order(literal)
        for order, value in self.entries_from(target):
            return BitMap64(row_ids_of(value, self.path)) if order == target else BitMap64()
        return BitMap64()

    def _first_at_or_after(self, block: Block, bound: Any, after: bool) -> int:
        """Index of the first entry of ``block`` whose key is >= ``bound`` (> with ``after``)."""
        lo, hi = 0, len(block)
        while lo < hi:
            mid = (lo + hi) // 2
            key = self.codec.raw_order(block.entry(mid)[0])
            if key < bound or (after and key == bound):
                lo = mid + 1
            else:
                hi = mid
        return lo

    def range(self, lower: Any | None, lower_inclusive: bool, upper: Any | None, upper_inclusive: bool) -> BitMap64:
        """Rows whose key lies between the literals (``None``: unbounded on that side).  Only the blocks
        holding a bound are searched key by key; the row ids of the entries between are decoded in bulk."""
        lo = None if lower is None else self.codec.order(lower)
        hi = None if upper is None else self.codec.order(upper)
        orders = self._index_orders()  # the last key of each data block
        if lo is None:
            first = 0
        else:
            first = (bisect.bisect_left if lower_inclusive else bisect.bisect_right)(orders, lo)
        parts = []
        for b in range(first, len(orders)):
            block = self.data_block(b)
            start = 0 if lo is None or b != first else self._first_at_or_after(block, lo, not lower_inclusive)
            last = orders[b]
            if hi is None or last < hi or (upper_inclusive and last == hi):
                parts.append(block.row_ids(start))  # the whole rest of the block qualifies
                continue
            stop = self._first_at_or_after(block, hi, upper_inclusive)
            if stop > start:
                parts.append(block.row_ids(start, stop))
            break
        out = BitMap64()
        for ids in parts:
            out.update(ids)
        return out

    def range_share(self, lower: Any | None, lower_inclusive: bool, upper: Any | None,
                    upper_inclusive: bool) -> float:
        """An estimate of the share of keys a range selects, for deciding whether a walk pays: the data
        blocks between the bounds count whole, the (at most two) blocks holding a bound by the share of
        their entries inside it (binary search; the walk reuses those blocks)."""
        orders = self._index_orders()
        if not orders:
            return 0.0
        lo = None if lower is None else self.codec.order(lower)
        hi = None if upper is None else self.codec.order(upper)
        first = 0 if lo is None else (bisect.bisect_left if lower_inclusive else bisect.bisect_right)(orders, lo)
        last = len(orders) - 1 if hi is None else min(len(orders) - 1, bisect.bisect_left(orders, hi))
        if first > last:
            return 0.0
        blocks = 0.0
        for b in sorted({first, last}):
            block = self.data_block(b)
            start = self._first_at_or_after(block, lo, not lower_inclusive) if b == first and lo is not None else 0
            stop = self._first_at_or_after(block, hi, upper_inclusive) if b == last and hi is not None else len(block)
            blocks += max(0, stop - start) / max(len(block), 1)
        return (blocks + max(0, last - first - 1)) / len(orders)

    def not_null_rows(self) -> BitMap64:
        return self.range(None, True, None, True)

    def not_equal(self, literal: Any) -> BitMap64:
        return self.not_null_rows() - self.equal(literal)
