"""The legacy ``DELETE_MAP`` layout from the deletion-vector proposal (seed 003, never shipped).

``int32 entry count | int32 max name length | entries | bitmaps`` (big-endian), each entry being the
data file name (UTF-8, zero-padded to the max length), ``int32 start`` (absolute file offset of its
bitmap) and ``int32 size``.  Each bitmap is a 32-bit deletion-vector bin (``int32 BE magic`` +
Roaring32); the reader also accepts a bare Roaring32 bitmap (no magic).  The header is framed by the
generated ``delete_map`` codec (``schemas/delete_map.ksy``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import BinaryIO

import numpy as np
from construct import ConstructError

from ..errors import CorruptDataError, TruncatedDataError
from ..fileio import ByteSource, atomic_write_bytes
from ..generated.construct import delete_map as _codec
from ..generated.construct.delete_map import DeleteMap
from ..generated.construct.deletion_vector import DV_MAGIC_BITMAP32, DV_MAGIC_DTYPE
from ..roaring import deserialize_exact
from .deletion_vector import DeletionVector

__all__ = ["encode_delete_map", "write_delete_map", "read_delete_map", "delete_map_ranges"]

_MAGIC_32_BYTES = np.array(DV_MAGIC_BITMAP32, DV_MAGIC_DTYPE).tobytes()


def encode_delete_map(dvs: Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]]
                      ) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """File bytes and ``{name: (start, size)}`` for 32-bit vectors keyed by data file name."""
    items = list(dvs.items() if isinstance(dvs, Mapping) else dvs)
    names = [n.encode("utf-8") for n, _ in items]
    if any(b"\x00" in n for n in names):
        raise CorruptDataError("a data file name containing NUL cannot be zero-padded unambiguously")
    if len(set(names)) != len(names):
        raise CorruptDataError("duplicate data file name in a delete map")
    width = max((len(n) for n in names), default=0)
    header_size = _codec.DELETE_MAP_HEAD_SIZE + len(items) * (width + _codec.DELETE_MAP_ENTRY_RANGE_SIZE)
    bins = []
    for _, dv in items:
        if dv.bitmap64:
            raise CorruptDataError("the delete-map layout holds 32-bit deletion vectors only")
        bins.append(dv.serialize())
    entries, pos, ranges = [], header_size, {}
    for (name, _), data in zip(items, bins, strict=True):
        entries.append({"name": name, "start": pos, "size": len(data)})
        ranges[name] = (pos, len(data))
        pos += len(data)
    head = DeleteMap.build({"entry_count": len(entries), "max_name_length": width, "entries": entries,
                            "bitmaps": b"".join(bins)})
    return head, ranges


def write_delete_map(path: str | os.PathLike,
                     dvs: Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]]
                     ) -> dict[str, tuple[int, int]]:
    """Write a delete-map file atomically; returns ``{name: (start, size)}``."""
    data, ranges = encode_delete_map(dvs)
    atomic_write_bytes(path, data)
    return ranges


def delete_map_ranges(data: bytes | ByteSource | BinaryIO | str | os.PathLike, *,
                      path: str | None = None) -> dict[str, tuple[int, int]]:
    """The header only: ``{name: (start, size)}`` (reads just the header bytes)."""
    with ByteSource.opened(data, path) as src:
        return _ranges(src)


def _ranges(src: ByteSource) -> dict[str, tuple[int, int]]:
    at = _codec.DELETE_MAP_HEAD_SIZE
    head = src.read(0, at, "delete-map header")
    fields, _ = _codec.fast_parse_delete_map_head(head)
    count, width = fields["entry_count"], fields["max_name_length"]
    if count < 0 or width < 0:
        raise CorruptDataError(f"negative delete-map count {count} or name length {width}", path=src.path,
                               offset=0, expected="non-negative ints")
    entry_size = width + _codec.DELETE_MAP_ENTRY_RANGE_SIZE
    entry_bytes = count * entry_size
    if entry_bytes > len(src) - at:
        raise TruncatedDataError(f"delete map claims {count} entries of {entry_size} bytes", path=src.path,
                                 offset=at, expected=f"at most {len(src) - at} header bytes")
    raw = head + src.read(at, entry_bytes, "delete-map entries")
    try:
        parsed = DeleteMap.parse(raw)
    except (ConstructError, UnicodeDecodeError, ValueError) as exc:
        raise CorruptDataError(f"invalid delete-map header: {exc}", path=src.path, offset=0,
                               expected="an entry count, then per entry a UTF-8 name, start and size") from None
    out: dict[str, tuple[int, int]] = {}
    for i, e in enumerate(parsed["entries"]):
        start, size = int(e["start"]), int(e["size"])
        if start < at + entry_bytes or size < 0 or start + size > len(src):
            raise CorruptDataError(f"delete-map entry {e['name']!r} points outside the bitmap area",
                                   path=src.path, offset=at + i * entry_size + width,
                                   expected=f"start >= {at + entry_bytes}, end <= {len(src)}")
        out[str(e["name"])] = (start, size)
    return out


def read_delete_map(data: bytes | ByteSource | BinaryIO | str | os.PathLike, *,
                    path: str | None = None) -> dict[str, DeletionVector]:
    """Every ``{data file name: DeletionVector}`` of a delete-map file."""
    with ByteSource.opened(data, path) as src:
        return _read_all(src)


def _read_all(src: ByteSource) -> dict[str, DeletionVector]:
    out = {}
    for name, (start, size) in _ranges(src).items():
        blob = src.read(start, size, f"bitmap of {name}")
        if blob[:len(_MAGIC_32_BYTES)] == _MAGIC_32_BYTES:
            out[name] = DeletionVector.deserialize(blob, path=src.path, base=src.base + start)
            continue
        bm, used = deserialize_exact(blob, path=src.path, base=src.base + start)
        if used != size:
            raise CorruptDataError(f"bitmap of {name!r} is {used} bytes, its entry says {size}", path=src.path,
                                   offset=src.base + start, expected=f"{size} bytes")
        out[name] = DeletionVector.from_bitmap(bm, bitmap64=False)
    return out
