"""The iteration order of Java's ``HashMap`` / ``HashSet`` over Paimon's internal values.

Paimon's ``collect`` (with ``distinct``) and ``merge_map`` aggregates rebuild their result in a fresh
``java.util.HashSet`` / ``HashMap`` at every fold step and write it in that collection's iteration order,
so the order of a merged array (or map) is the order Java's hash table gives the elements.  This module
computes it: each element's ``hashCode()`` as Paimon's internal value class defines it (``Integer``,
``Long``, ``BinaryString`` = :func:`paimon_codec.javahash.murmur_bytes` of the UTF-8 bytes,
``Timestamp``, ``Decimal`` = ``BigDecimal.hashCode``, ...), then the table of a ``HashMap`` created
empty (16 buckets, load factor 0.75, doubling, split buckets keeping their order), iterated bucket by
bucket.  A bucket long enough for Java to turn it into a tree (8 entries in a table of 64 or more) is
refused: a tree bucket's order is not reproduced.
"""

from __future__ import annotations

import decimal
import struct
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pyarrow as pa

from ...errors import UnsupportedTypeError
from ...javahash import bool_hash_code, double_hash_code, float_hash_code, int32, long_hash_code, murmur_bytes

__all__ = ["JavaHashMap", "hash_function", "hash_order", "hashmap_ordered", "value_key"]

_MASK = 0xFFFFFFFF


def _big_decimal_hash(v: decimal.Decimal) -> int:
    """``BigDecimal.hashCode``: 31 * unscaledValue.hashCode() + scale (``BigInteger``'s hash of its
    magnitude's 32-bit words times the sign)."""
    sign, digits, exponent = v.as_tuple()
    assert isinstance(exponent, int)
    unscaled = int("".join(map(str, digits)) or "0")
    words = []
    while unscaled:
        words.append(unscaled & _MASK)
        unscaled >>= 32
    h = 0
    for word in reversed(words):
        h = (31 * h + word) & _MASK
    h = int32(h) * (-1 if sign and words else 1)
    return int32(31 * h + (-exponent))


def _timestamp_hash(v: int, unit: str) -> int:
    """``Timestamp.hashCode``: (int) millis ^ (int) (millis >> 32), times 31, plus the nanos of the milli."""
    ticks = v
    per_milli = {"s": None, "ms": 1, "us": 1000, "ns": 1_000_000}[unit]
    if per_milli is None:
        millis, nanos = ticks * 1000, 0
    else:
        millis, rest = divmod(ticks, per_milli)
        nanos = rest * (1_000_000 // per_milli)
    return int32(31 * (int32(millis) ^ int32(millis >> 32)) + nanos)


def hash_function(t: pa.DataType, what: str) -> Callable[[Any], int]:
    """``hashCode()`` of the Java object Paimon holds for a value of Arrow type ``t`` (the value as
    :func:`value_key` gives it); refused for types whose Java hash is identity-based or not reproduced."""
    if pa.types.is_boolean(t):
        return bool_hash_code
    if pa.types.is_int8(t) or pa.types.is_int16(t) or pa.types.is_int32(t) or pa.types.is_date32(t) \
            or (pa.types.is_time32(t) and t.unit == "ms"):
        return int32
    if pa.types.is_int64(t):
        return long_hash_code
    if pa.types.is_float32(t):
        return float_hash_code
    if pa.types.is_float64(t):
        return double_hash_code
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return lambda v: murmur_bytes(v.encode("utf-8"))
    if pa.types.is_decimal(t):
        return _big_decimal_hash
    if pa.types.is_timestamp(t):
        unit = t.unit
        return lambda v: _timestamp_hash(v, unit)
    raise UnsupportedTypeError(f"{what}: Java's hash order of {t} values is not reproduced")


def value_key(t: pa.DataType) -> Callable[[Any], Hashable]:
    """A Python key equal exactly when Paimon's Java objects are ``equals``: floats by their bits (Java's
    ``Float.equals``: -0.0 differs from 0.0, NaN equals NaN), decimals by value and scale, timestamps by
    their integer ticks (converted before hashing)."""
    if pa.types.is_float32(t):
        return lambda v: ("f", float_hash_code(v))
    if pa.types.is_float64(t):
        return lambda v: ("d", struct.pack("<d", float("nan") if v != v else v))
    if pa.types.is_decimal(t):
        return lambda v: (str(v),)
    return lambda v: v


class JavaHashMap:
    """The bucket layout of a ``java.util.HashMap`` created empty: ``put`` appends a new key to its bucket
    (``computeIfAbsent`` prepends it); an existing key keeps its place, ``remove`` unlinks it (the table
    never shrinks); a table past 3/4 full doubles, splitting each bucket in order; a bucket reaching 9 keys
    (8 for ``computeIfAbsent``) doubles a table below 64 buckets and is refused above (Java turns it into a
    tree, whose order is not reproduced)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.capacity, self.threshold, self.size = 16, 12, 0
        self.buckets: list[list[tuple[Hashable, int]]] = [[] for _ in range(16)]

    def _resize(self) -> None:
        self.capacity, self.threshold = self.capacity * 2, self.threshold * 2
        old, self.buckets = self.buckets, [[] for _ in range(self.capacity)]
        for entries in old:
            for key, h in entries:
                self.buckets[h & (self.capacity - 1)].append((key, h))

    def put(self, key: Hashable, java_hash: int) -> None:
        h = (java_hash ^ ((java_hash & _MASK) >> 16)) & _MASK
        bucket = self.buckets[h & (self.capacity - 1)]
        if any(k == key for k, _ in bucket):
            return
        bucket.append((key, h))
        if len(bucket) > 8:
            if self.capacity >= 64:
                raise UnsupportedTypeError(f"{self.what}: more than 8 values share one bucket of Java's hash "
                                           "table (its tree order is not reproduced)")
            self._resize()
        self.size += 1
        if self.size > self.threshold:
            self._resize()

    def compute_if_absent(self, key: Hashable, java_hash: int) -> None:
        """``HashMap.computeIfAbsent``: unlike ``put`` it doubles a table past 3/4 full *before* looking,
        and links a new key at the *head* of its bucket."""
        if self.size > self.threshold:
            self._resize()
        h = (java_hash ^ ((java_hash & _MASK) >> 16)) & _MASK
        bucket = self.buckets[h & (self.capacity - 1)]
        if any(k == key for k, _ in bucket):
            return
        bucket.insert(0, (key, h))
        self.size += 1
        if len(bucket) >= 8:
            if self.capacity >= 64:
                raise UnsupportedTypeError(f"{self.what}: more than 8 values share one bucket of Java's hash "
                                           "table (its tree order is not reproduced)")
            self._resize()

    def remove(self, key: Hashable, java_hash: int) -> None:
        h = (java_hash ^ ((java_hash & _MASK) >> 16)) & _MASK
        bucket = self.buckets[h & (self.capacity - 1)]
        for i, (k, _) in enumerate(bucket):
            if k == key:
                del bucket[i]
                self.size -= 1
                return

    def keys(self) -> list[Hashable]:
        """The keys in iteration order."""
        return [k for bucket in self.buckets for k, _ in bucket]


def hash_order(hashes: Sequence[int], what: str) -> list[int]:
    """Positions of ``hashes`` (one entry per distinct key, in insertion order) in the iteration order of a
    ``HashMap`` they were put into one by one, starting empty."""
    table = JavaHashMap(what)
    for i, h in enumerate(hashes):
        table.put(i, h)
    return [k for k in table.keys() if isinstance(k, int)]     # every key is a position


def hashmap_ordered(col: pa.Array, what: str) -> pa.Array:
    """Each map of ``col`` with its entries in the order of a ``HashMap`` they were put into in order:
    what Paimon's Avro reader hands on for maps other than MAP<STRING, STRING> (it collects the entries in a
    ``HashMap``), so the order the merge functions see."""
    if col.null_count == len(col) or len(col.keys) == 0:
        return col
    key_type = col.type.key_type
    java_hash = hash_function(key_type, what)
    keys = col.keys
    for test, int_type in ((pa.types.is_date32, pa.int32()), (pa.types.is_timestamp, pa.int64())):
        if test(key_type):
            keys = keys.view(int_type)
    hashes = [java_hash(k) for k in keys.to_pylist()]
    offsets = col.offsets.to_numpy(zero_copy_only=False)
    picked: list[int] = []
    for i in range(len(col)):
        start, end = int(offsets[i]), int(offsets[i + 1])
        picked.extend(start + j for j in hash_order(hashes[start:end], what))
    take = pa.array(picked, type=pa.int64())
    new_offsets = pa.array(offsets - offsets[0], type=pa.int32())
    out = pa.MapArray.from_arrays(new_offsets, col.keys.take(take), col.items.take(take), mask=col.is_null())
    return out.cast(col.type)
