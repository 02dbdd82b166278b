"""XXH64 (seed 0) of every value of an Arrow binary column, vectorised with numpy.

The bloom filter hashes strings and binaries with XXH64.  Calling ``xxhash`` once per value costs
a Python round trip per row; here values are grouped by length and each group is hashed as a
``(rows, length)`` byte matrix with uint64 column operations (wrapping multiplies, rotations),
following the XXH64 specification step by step.  Groups too small to amortise numpy's per-call
cost fall back to ``xxhash.xxh64_intdigest``.  The result is checked against ``xxhash`` in tests.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import xxhash

__all__ = ["xxh64_binary_array"]

_P1 = np.uint64(11400714785074694791)
_P2 = np.uint64(14029467366897019727)
_P3 = np.uint64(1609587929392839161)
_P4 = np.uint64(9650029242287828579)
_P5 = np.uint64(2870177450012600261)
_MIN_GROUP = 48  # smaller length groups are hashed value by value
_FEW_LENGTHS = 16  # up to this many distinct lengths: one comparison pass each instead of a sort


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _round(acc: np.ndarray, lane: np.ndarray) -> np.ndarray:
    acc = acc + lane * _P2
    return _rotl(acc, 31) * _P1


def _merge(h: np.ndarray, v: np.ndarray) -> np.ndarray:
    return (h ^ _round(np.zeros_like(v), v)) * _P1 + _P4


def _hash_group(lane, length: int, n: int) -> np.ndarray:
    """XXH64 of ``n`` values of ``length`` bytes; ``lane(w)`` gives their little-endian 8-byte words
    ``w`` (bytes ``8w .. 8w + 7``, zero past the end of the value)."""
    with np.errstate(over="ignore"):
        p = 0  # in bytes
        if length >= 32:
            v = [np.full(n, _P1 + _P2, dtype=np.uint64), np.full(n, _P2, dtype=np.uint64),
                 np.zeros(n, dtype=np.uint64), np.full(n, np.uint64(0) - _P1, dtype=np.uint64)]
            while p + 32 <= length:
                w = p // 8
                for i in range(4):
                    v[i] = _round(v[i], lane(w + i))
                p += 32
            h = _rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)
            for acc in v:
                h = _merge(h, acc)
        else:
            h = np.full(n, _P5, dtype=np.uint64)
        h += np.uint64(length)
        while p + 8 <= length:
            h ^= _round(np.zeros(n, dtype=np.uint64), lane(p // 8))
            h = _rotl(h, 27) * _P1 + _P4
            p += 8
        if p < length:
            last = lane(p // 8)  # p is a multiple of 8 here
            shift = 0
            if p + 4 <= length:
                h ^= (last & np.uint64(0xFFFFFFFF)) * _P1
                h = _rotl(h, 23) * _P2 + _P3
                p += 4
                shift = 32
            while p < length:
                h ^= ((last >> np.uint64(shift)) & np.uint64(0xFF)) * _P5
                h = _rotl(h, 11) * _P1
                p += 1
                shift += 8
        h ^= h >> np.uint64(33)
        h *= _P2
        h ^= h >> np.uint64(29)
        h *= _P3
        h ^= h >> np.uint64(32)
    return h


def _length_groups(lengths: np.ndarray):
    """``(length, row indices)`` for every distinct length (rows ascending within a group)."""
    distinct = np.unique(lengths[: 4096])
    if len(distinct) <= _FEW_LENGTHS:
        seen = 0
        for length in distinct.tolist():
            rows = np.flatnonzero(lengths == length)
            seen += len(rows)
            yield length, rows
        if seen == len(lengths):
            return
        rest = np.flatnonzero(~np.isin(lengths, distinct))
    else:
        rest = np.arange(len(lengths))
    order = rest[np.argsort(lengths[rest], kind="stable")]
    cuts = np.flatnonzero(np.diff(lengths[order])) + 1
    for rows in np.split(order, cuts):
        yield int(lengths[rows[0]]), rows


def xxh64_binary_array(values: pa.Array) -> np.ndarray:
    """XXH64 (seed 0) of each value of a null-free ``binary`` / ``large_binary`` array, as uint64."""
    n = len(values)
    out = np.empty(n, dtype=np.uint64)
    if n == 0:
        return out
    off_type = np.int64 if pa.types.is_large_binary(values.type) else np.int32
    buffers = values.buffers()
    offsets = np.frombuffer(buffers[1], dtype=off_type)[values.offset:values.offset + n + 1].astype(np.int64)
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    # every 8-byte window of the data (padded so that windows at the last values stay in bounds)
    end = int(offsets[-1])
    padded = np.zeros(end + 8, dtype=np.uint8)
    padded[:end] = data[:end]
    words = np.ndarray(shape=(end + 1,), dtype="<u8", buffer=padded, strides=(1,))  # unaligned windows
    small: list[np.ndarray] = []
    for length, rows in _length_groups(lengths):
        if len(rows) < _MIN_GROUP:
            small.append(rows)
            continue
        starts = offsets[rows]
        tail_mask = np.uint64((1 << (8 * (length % 8))) - 1) if length % 8 else None

        def lane(w: int, starts=starts, length=length, tail_mask=tail_mask) -> np.ndarray:
            got = words[starts + 8 * w].astype(np.uint64)
            if tail_mask is not None and 8 * w + 8 > length:
                got &= tail_mask
            return got

        out[rows] = _hash_group(lane, length, len(rows))
    if small:
        rows = np.concatenate(small)
        raw = data.tobytes() if len(rows) * 64 > len(data) else None
        digest = xxhash.xxh64_intdigest
        starts, ends = offsets[rows].tolist(), offsets[rows + 1].tolist()
        if raw is not None:
            out[rows] = [digest(raw[a:b]) for a, b in zip(starts, ends, strict=True)]
        else:
            mv = data.data  # the array's buffer (memoryview(data), typed)
            out[rows] = [digest(mv[a:b]) for a, b in zip(starts, ends, strict=True)]
    return out
