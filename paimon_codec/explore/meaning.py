"""What a file's bytes *mean*, for the explorer's side panel: a bitmap index's keys with their rows, a bloom
filter's parameters and fill, a range bitmap's key range, a deletion vector's deleted positions, a hash index's
hashes.  Each view is computed by the library's own readers (the same code a scan uses), never by the page, so
what the explorer shows is what a query would see.

Views are bounded (:data:`MAX_ITEMS` keys / vectors, :data:`MAX_RANGES` row ranges each): a page for a
million-key index stays small, and says how much it left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..fileio import ByteSource
from ..positions import ranges_of

__all__ = ["MAX_ITEMS", "MAX_RANGES", "meaning_of"]

#: keys / vectors / buckets listed per file
MAX_ITEMS = 200
#: row ranges listed per key or vector
MAX_RANGES = 16


def _rows(bitmap: Any) -> dict[str, Any]:
    """A row set as its count and its first :data:`MAX_RANGES` ranges ``[start, end)``."""
    ranges = ranges_of(bitmap)
    return {"rows": len(bitmap), "ranges": ranges[:MAX_RANGES], "more_ranges": max(0, len(ranges) - MAX_RANGES)}


def _bitmap(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..fileindex.bitmap import BitmapIndexReader

    reader = BitmapIndexReader(ByteSource(data, path=path), data_type or _type_of_kind(key_kind))
    described = reader.describe()
    if described["version"] == 1:
        keys = [k for k, _ in described["entries_in_file_order"]]
    else:
        keys = [e[0] for block in described["index_blocks"] for e in block["entries"]]
    items = [{"key": _json_value(k), **_rows(reader.lookup(k))} for k in keys[:MAX_ITEMS]]
    nulls = reader.null_bitmap()
    return {"kind": "bitmap index", "version": described["version"], "row_count": reader.row_count,
            "distinct_keys": len(keys), "null_rows": _rows(nulls), "keys": items,
            "more_keys": max(0, len(keys) - MAX_ITEMS)}


def _bloom(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    import numpy as np

    from ..fileindex.bloom import BloomFilterReader

    reader = BloomFilterReader(ByteSource(data, path=path), data_type or "BIGINT")
    bits = np.frombuffer(data, dtype=np.uint8)[len(data) - reader.num_bits // 8:]
    set_bits = int(np.unpackbits(bits).sum())
    m, k = reader.num_bits, reader.num_hash_functions
    fill = set_bits / m if m else 0.0
    # the usual estimate of the distinct items a filter holds, from its fill: n = -m/k * ln(1 - fill)
    items = None if not m or not k or fill >= 1.0 else round(-m / k * math.log1p(-fill))
    fpp = fill ** k if m else None
    return {"kind": "bloom filter", "num_hash_functions": k, "num_bits": m, "bits_set": set_bits,
            "fill": round(fill, 6), "estimated_items": items, "false_positive_probability": fpp}


def _range_bitmap(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..fileindex.range_bitmap import RangeBitmapReader

    reader = RangeBitmapReader(ByteSource(data, path=path), data_type or _type_of_kind(key_kind))
    d = reader.describe(row_codes=False)
    return {"kind": "range bitmap", "row_count": d["row_count"], "cardinality": d["cardinality"],
            "min": _json_value(d["min"]), "max": _json_value(d["max"]), "slices": d["bsi"]["slices"],
            "chunks": d.get("dictionary", {}).get("chunks", 0)}


def _dv_file(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..dv.index_file import read_dv_index

    f = read_dv_index(data, path=path)
    vectors = [{"offset": e.offset, "length": e.length, "bits": e.kind, "crc32": f"{e.crc:08x}",
                **_rows(e.dv.to_bitmap())} for e in f.entries[:MAX_ITEMS]]
    return {"kind": "deletion vectors", "version": f.version, "vectors": vectors,
            "more_vectors": max(0, len(f.entries) - MAX_ITEMS),
            "deleted_rows": sum(e.cardinality for e in f.entries)}


def _dv_entry(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..dv.index_file import read_entry

    e = read_entry(data, path=path)
    return {"kind": "deletion vector", "bits": e.kind, "crc32": f"{e.crc:08x}", **_rows(e.dv.to_bitmap())}


def _bsi(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..fileindex.bsi import BsiReader

    reader = BsiReader(ByteSource(data, path=path), data_type or _type_of_kind(key_kind))
    parts = {}
    for name in ("positive", "negative"):
        part = getattr(reader, name)
        if hasattr(part, "min"):
            parts[name] = {"min": part.min, "max": part.max, "slices": part.slice_count, **_rows(part.ebm)}
    return {"kind": "bit-sliced index", "row_count": reader.row_count, "parts": parts}


def _hash_index(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..bucket.hash_index import read_hash_index

    hashes = read_hash_index(data, path=path)
    return {"kind": "hash index", "keys": int(len(hashes)), "distinct_hashes": int(len(set(hashes.tolist()))),
            "first_hashes": hashes[:MAX_ITEMS].tolist()}


def _container(data: bytes, path: str, key_kind: str | None, data_type: str | None) -> dict[str, Any]:
    from ..fileindex import FileIndexContainerReader

    reader = FileIndexContainerReader(ByteSource(data, path=path), path=path)
    return {"kind": "file-index container", **reader.to_dict()}


def _type_of_kind(key_kind: str | None) -> str:
    """A Paimon type for a bare key kind (a payload opened without its column's type)."""
    by_kind = {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INT", "int64": "BIGINT", "float32": "FLOAT",
               "float64": "DOUBLE", "bool": "BOOLEAN", "string": "STRING"}
    return by_kind.get(key_kind or "", "BIGINT")


def _json_value(v: Any) -> Any:
    """An index key as the page shows it: string keys' bytes as text (the server's JSON encoder makes every
    other value JSON-safe, non-finite floats included)."""
    return v.decode("utf-8", "replace") if isinstance(v, (bytes, bytearray)) else v


_VIEWS: dict[str, Callable[[bytes, str, str | None, str | None], dict[str, Any]]] = {
    "bitmap": _bitmap, "bloom-filter": _bloom, "range-bitmap": _range_bitmap, "deletion-vectors": _dv_file,
    "deletion-vector": _dv_entry, "bsi": _bsi,
    "hash-index": _hash_index, "file-index": _container,
}


def meaning_of(fmt: str, data: bytes, path: str, *, key_kind: str | None = None,
               data_type: str | None = None) -> dict[str, Any] | None:
    """The meaning view of a file in format ``fmt`` (None: the format has no view beyond its structure)."""
    view = _VIEWS.get(fmt)
    return None if view is None else view(data, path, key_kind, data_type)
