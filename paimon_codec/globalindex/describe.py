"""What a global-index file holds, with every checksum verified: the structure ``inspect`` prints and the
table audit's decode of ``_GLOBAL_INDEX`` files.

Decoding walks the whole file through the readers of :mod:`.btree` / :mod:`.bitmap`: every stored block's
CRC32 and every entry, the null bitmap's CRC32 (B-tree), keys strictly ascending in Java's order
(B-tree) or by their bytes (bitmap dictionary), and - given the column's key codec - every key decoded.
Any damage raises the ``paimon_codec.errors`` exception naming the file and offset.
"""

from __future__ import annotations

from typing import Any

from ..errors import CorruptDataError, PaimonCodecError
from ..fileio import ByteSource
from ..formats import plain
from .bitmap import BitmapGlobalIndexReader
from .btree import BTreeGlobalIndexReader, row_ids_of
from .keys import GlobalKeyCodec

__all__ = ["describe_btree", "describe_bitmap", "describe_global_index"]



class _BytesKeys:
    """Keys as bytes when the column type is unknown (ordering checked on the bytes only for bitmaps)."""

    kind = "bytes"

    @staticmethod
    def raw_order(raw: Any) -> bytes:
        return bytes(raw)


def _key(codec: GlobalKeyCodec | None, raw: Any, hex_prefix: int) -> Any:
    if codec is None:
        return plain(bytes(raw), hex_prefix=hex_prefix)
    value = codec.decode(raw)
    return list(value) if isinstance(value, tuple) else value


def describe_btree(src: ByteSource, codec: GlobalKeyCodec | None, *, hex_prefix: int = 32) -> dict:
    keys: Any = codec if codec is not None else _BytesKeys()  # only raw_order is asked of it here
    reader = BTreeGlobalIndexReader(src, keys)
    index = reader.index_block()
    blocks, keys, rows, prev = [], 0, 0, None
    for i in range(len(index)):
        block = reader.data_block(i)
        last_in_index = index.entry(i)[0]
        first = last = None
        for key, value in block.entries():
            order = codec.raw_order(key) if codec is not None else None
            if codec is not None and prev is not None and order <= prev:
                raise CorruptDataError(f"B-tree data block {i}: keys not strictly ascending", path=src.path)
            prev = order
            ids = row_ids_of(value, src.path)
            if ids != sorted(ids):
                raise CorruptDataError(f"B-tree data block {i}: row ids of a key not ascending", path=src.path)
            keys += 1
            rows += len(ids)
            first = key if first is None else first
            last = key
        if last is None or bytes(last) != bytes(last_in_index):
            raise CorruptDataError(f"B-tree index entry {i} names a last key its data block does not end with",
                                   path=src.path)
        blocks.append({"entries": len(block), "first_key": _key(codec, first, hex_prefix),
                       "last_key": _key(codec, last, hex_prefix)})
    nulls = reader.null_rows()
    return {"layout": "btree", "key_kind": None if codec is None else codec.kind,
            "footer": {k: v for k, v in reader.footer.items() if not k.startswith("_")},
            "data_blocks": blocks, "keys": keys, "row_ids": rows, "null_rows": len(nulls),
            "verified": "CRC32 of every block and of the null bitmap; keys ascending; entries decoded"}


def describe_bitmap(src: ByteSource, codec: GlobalKeyCodec | None, *, hex_prefix: int = 32) -> dict:
    keys: Any = codec if codec is not None else _BytesKeys()  # only raw_order is asked of it here
    reader = BitmapGlobalIndexReader(src, keys)
    refs = reader.dictionary_refs()
    blocks, keys, rows, prev = [], 0, 0, None
    for i, ref in enumerate(refs):
        entries = reader.dictionary(i)
        if not entries or bytes(entries[0]["key"]) != bytes(ref["first_key"]):
            raise CorruptDataError(f"bitmap dictionary block {i} does not start with its index key", path=src.path)
        for e in entries:
            key = bytes(e["key"])
            if prev is not None and key <= prev:
                raise CorruptDataError(f"bitmap dictionary block {i}: keys not ascending", path=src.path)
            prev = key
            if codec is not None:
                codec.decode(key)
            keys += 1
            rows += len(reader.bitmap(e["bitmap_offset"]["value"], e["bitmap_length"]["value"], "bitmap of a key"))
        blocks.append({"entries": len(entries), "first_key": _key(codec, ref["first_key"], hex_prefix)})
    nulls, non_null = reader.null_rows(), reader.not_null_rows()
    if keys != reader.footer["value_count"]:
        raise CorruptDataError(f"bitmap global index: {keys} keys, footer says {reader.footer['value_count']}",
                               path=src.path)
    if nulls & non_null:
        raise CorruptDataError("bitmap global index: a row both null and not null", path=src.path)
    return {"layout": "bitmap (pypaimon, BGIX)", "key_kind": None if codec is None else codec.kind,
            "footer": {k: v for k, v in reader.footer.items() if not k.startswith("_")},
            "dictionary_blocks": blocks, "keys": keys, "row_ids": rows, "null_rows": len(nulls),
            "non_null_rows": len(non_null),
            "verified": "CRC32 of the index and dictionary blocks; keys ascending; every bitmap decoded"}


def describe_global_index(src: ByteSource, layout: str, codec: GlobalKeyCodec | None, *,
                          hex_prefix: int = 32) -> dict:
    """``layout``: ``"btree"`` or ``"bitmap"`` (:func:`.table_files.layout_of`)."""
    try:
        if layout == "btree":
            out = describe_btree(src, codec, hex_prefix=hex_prefix)
        else:
            out = describe_bitmap(src, codec, hex_prefix=hex_prefix)
    except PaimonCodecError as e:
        raise e.with_path(src.path) from None
    out["footer"] = plain(out["footer"], hex_prefix=hex_prefix)
    return out
