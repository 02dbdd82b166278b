"""Aggregates over ARRAY and MAP fields: ``collect``, ``merge_map`` and ``nested_update`` (Paimon 1.4.2).

Each key's records are folded one at a time, as Paimon's ``FieldCollectAgg`` / ``FieldMergeMapAgg`` /
``FieldNestedUpdateAgg`` fold them, over the positions of the elements in the column's flattened
values (the result is cut from those values, so element values are never converted):

* ``collect``: a null side yields the other; otherwise the accumulator's elements then the input's.  With
  ``fields.<f>.distinct`` the two go through a fresh ``HashSet`` (even with a null side), so the result
  is in Java's hash order (:mod:`.java_hash`); elements of ROW / ARRAY / MAP type are compared by value
  instead and kept in order.  A retraction removes, for each retracted element, one equal element (a
  null accumulator stays null);
* ``merge_map``: a null side yields the other, otherwise a fresh ``HashMap`` of the accumulator's entries
  then the input's (a later value replaces an earlier one), in Java's hash order; a retraction drops the
  entries whose key it holds, again through a fresh ``HashMap``;
* ``merge_map_with_keytime`` (MAP<K, ROW<..., ts STRING>>): a fresh ``HashMap`` of the accumulator's
  entries, then per input entry: a null row removes its key, a null time stamp is skipped, otherwise the
  row replaces the key's row unless that has a time stamp not smaller (``String.compareTo``);
* ``nested_update``: the accumulator's non-null rows then the input's, at most ``count-limit`` in all; a
  retraction removes every row equal to a retracted one.  With ``nested-key`` the rows go through a
  ``HashMap`` keyed by the projection of the key fields (a later row replaces an earlier one, a retraction
  removes the keys it holds), ordered by that ``BinaryRow``'s hash (:mod:`paimon_codec.bucket.binary_row`).

Paimon compares BINARY elements (and map keys) by identity, so its results over them depend on object
addresses; those folds are refused by name, as are nested keys of types whose row bytes are not encoded here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import pyarrow as pa

from ...bucket.binary_row import KeyEncoder
from ...errors import UnsupportedTypeError
from .groups import Groups
from .java_hash import JavaHashMap, hash_function, hash_order, value_key

__all__ = ["collection_field", "COLLECTION_FUNCTIONS"]

COLLECTION_FUNCTIONS = ("collect", "merge_map", "nested_update", "merge_map_with_keytime")
_INT_OF = {pa.types.is_date32: pa.int32(), pa.types.is_time32: pa.int32(), pa.types.is_time64: pa.int64(),
           pa.types.is_timestamp: pa.int64()}


def _python_values(values: pa.Array) -> list[Any]:
    """Element values as Python objects; temporal values as their integer ticks (hashes and equality use
    them, and ``datetime`` cannot hold nanoseconds)."""
    for test, int_type in _INT_OF.items():
        if test(values.type):
            return values.view(int_type).to_pylist()
    return values.to_pylist()


def _hashable(value: Any) -> Hashable:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _hashable(v)) for k, v in value.items())
    if isinstance(value, float) and value == 0.0:
        return ("zero", str(value))
    return value


def _binary_or_float(t: pa.DataType) -> bool:
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return True
    if pa.types.is_floating(t):
        return True
    return any(_binary_or_float(t.field(i).type) for i in range(t.num_fields))


_KEY_TYPES = {pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INT", pa.int64(): "BIGINT",
              pa.bool_(): "BOOLEAN", pa.string(): "STRING", pa.date32(): "DATE"}


class _Elements:
    """The flattened elements of an ARRAY / MAP column and how Paimon compares and hashes them."""

    def __init__(self, values: pa.Array, func: str, where: str, *, hashed: bool, compared: bool) -> None:
        t = values.type
        self.values = values
        self.valid = values.is_valid().to_numpy(zero_copy_only=False)
        self.constructed = pa.types.is_struct(t) or pa.types.is_list(t) or pa.types.is_map(t)
        self.keys: list[Hashable] = []
        self.hashes: list[int] = []
        self.row_keys: list[Hashable] = []      # nested_update's nested-key projections
        self.row_hashes: list[int] = []
        if not (hashed or compared):
            return
        if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
            raise UnsupportedTypeError(f"aggregate function '{func}' comparing BINARY elements (Paimon 1.4.2 "
                                       "compares them by object identity)", path=where)
        python = _python_values(values)
        if self.constructed:
            if _binary_or_float(t):   # the generated equaliser's float / binary rules are not reproduced
                raise UnsupportedTypeError(f"aggregate function '{func}' comparing {t} elements", path=where)
            self.keys = [None if v is None else _hashable(v) for v in python]
            return
        key: Callable[[Any], Hashable] = value_key(t)
        self.keys = [None if v is None else key(v) for v in python]
        if hashed:
            java_hash = hash_function(t, f"{where}: aggregate function '{func}'")
            self.hashes = [0 if v is None else java_hash(v) for v in python]

    def project(self, names: list[str], func: str, where: str) -> None:
        """``nested-key``: each row's key fields as Paimon's projection ``BinaryRow`` (its ``hashCode`` orders
        the ``HashMap`` the aggregate builds; equal bytes are equal keys)."""
        t = self.values.type
        missing = [n for n in names if t.get_field_index(n) < 0]
        if missing:
            raise UnsupportedTypeError(f"aggregate function '{func}': nested-key {missing[0]!r} is not a field of "
                                       f"{t} (Paimon fails this read too)", path=where)
        fields = [t.field(n) for n in names]
        kinds = []
        for f in fields:
            if pa.types.is_decimal(f.type) and f.type.precision <= 18:
                kinds.append(f"DECIMAL({f.type.precision}, {f.type.scale})")
            elif f.type in _KEY_TYPES:
                kinds.append(_KEY_TYPES[f.type])
            else:
                raise UnsupportedTypeError(f"aggregate function '{func}' with a nested-key field of type {f.type}",
                                           path=where)
        encoder = KeyEncoder(", ".join(kinds))
        columns = [_python_values(self.values.field(t.get_field_index(n))) for n in names]
        rows = [[c[i] for c in columns] for i in range(len(self.values))]
        self.row_keys = [tuple(r) for r in rows]
        self.row_hashes = [encoder.hash(r) for r in rows]


def _list_positions(col: pa.Array) -> tuple[np.ndarray, Any]:
    """Each record's element range in the column's (unsliced) child values, and that child (a MapArray
    itself for maps: its ``keys`` / ``items``)."""
    offsets = col.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    return offsets, col if pa.types.is_map(col.type) else col.values


def _collect_agg(acc, value, distinct: bool, el: _Elements, where: str):
    if acc is None and value is None:
        return None
    if not distinct and (acc is None or value is None):
        return value if acc is None else acc
    items = (acc or []) + (value or [])
    if not distinct:
        return items
    if el.constructed:             # Paimon's equaliser path: a list, the accumulator taken as distinct
        out = list(acc or [])
        seen = {el.keys[p] for p in out}
        for p in value or []:
            if el.keys[p] not in seen:
                seen.add(el.keys[p])
                out.append(p)
        return out
    first: dict[Hashable, int] = {}
    for p in items:
        first.setdefault(el.keys[p], p)
    kept = list(first.values())
    return [kept[i] for i in hash_order([el.hashes[p] for p in kept], where)]


def _collect_retract(acc, value, el: _Elements):
    if acc is None:
        return None
    if not value:
        return acc
    pending = [el.keys[p] for p in value]
    out = []
    for p in acc:
        k = el.keys[p]
        if k in pending:
            pending.remove(k)
        else:
            out.append(p)
    return out


def _map_agg(acc, value, keys: _Elements, where: str):
    if acc is None or value is None:
        return value if acc is None else acc
    entries: dict[Hashable, list[int]] = {}
    for k, v in acc + value:
        entry = entries.setdefault(keys.keys[k], [k, v])
        entry[1] = v
    kept = list(entries.values())
    return [tuple(kept[i]) for i in hash_order([keys.hashes[e[0]] for e in kept], where)]


def _map_retract(acc, value, keys: _Elements, where: str):
    if acc is None:
        return None
    if not value:
        return acc
    gone = {keys.keys[k] for k, _ in value}
    kept = [e for e in acc if keys.keys[e[0]] not in gone]
    return [kept[i] for i in hash_order([keys.hashes[e[0]] for e in kept], where)]


def _nested_agg(acc, value, limit: int, el: _Elements, where: str):
    if acc is None or value is None:
        return value if acc is None else acc
    if len(acc) >= limit:
        return acc
    rows = [p for p in acc if el.valid[p]]
    rows += [p for p in value if el.valid[p]][:limit - len(acc)]
    if not el.row_keys:
        return rows
    entries: dict[Hashable, list[int]] = {}     # HashMap<BinaryRow, InternalRow>: a later row replaces
    for p in rows:
        entries.setdefault(el.row_keys[p], [p])[0] = p
    firsts = list(dict.fromkeys(el.row_keys[p] for p in rows))
    order = hash_order([el.row_hashes[entries[k][0]] for k in firsts], where)
    return [entries[firsts[i]][0] for i in order]


def _nested_retract(acc, value, el: _Elements, where: str):
    if acc is None or value is None:
        return acc
    rows = [p for p in acc if el.valid[p]]
    if el.row_keys:
        entries: dict[Hashable, int] = {}
        for p in rows:
            entries[el.row_keys[p]] = p
        firsts = list(entries)
        gone = {el.row_keys[p] for p in value if el.valid[p]}
        order = hash_order([el.row_hashes[entries[k]] for k in firsts], where)   # removals keep the table
        return [entries[firsts[i]] for i in order if firsts[i] not in gone]
    for p in value:
        if el.valid[p]:
            rows = [r for r in rows if el.keys[r] != el.keys[p]]
    return rows


class _KeyTime:
    """``merge_map_with_keytime``'s view of a MAP<K, ROW<...>> column: per entry its key (equality, Java
    hash), whether its row is null, and the row's time-stamp string (None: null)."""

    def __init__(self, col: pa.Array, keys: _Elements, ts_field: str | None, where: str) -> None:
        row_type = col.type.item_type
        if not pa.types.is_struct(row_type) or row_type.num_fields < 2:
            raise UnsupportedTypeError(f"aggregate function 'merge_map_with_keytime' on a {col.type} column "
                                       "(Paimon refuses it too)", path=where)
        index = row_type.num_fields - 1 if ts_field is None else row_type.get_field_index(ts_field)
        if index < 0:
            raise UnsupportedTypeError(f"aggregate function 'merge_map_with_keytime': ts-field {ts_field!r} is "
                                       f"not a field of {row_type} (Paimon fails this read too)", path=where)
        if not pa.types.is_string(row_type.field(index).type):
            raise UnsupportedTypeError(f"aggregate function 'merge_map_with_keytime' with a {row_type.field(index).type}"
                                       " time-stamp field (Paimon reads it as a string)", path=where)
        self.keys, self.where = keys, where
        self.row_valid = col.items.is_valid().to_numpy(zero_copy_only=False)
        stamps = col.items.field(index).to_pylist()
        # String.compareTo orders UTF-16 code units: the big-endian UTF-16 bytes order the same way
        self.stamps = [None if t is None else t.encode("utf-16-be", "surrogatepass") for t in stamps]

    def agg(self, acc, value):
        if acc is None or value is None:
            return value if acc is None else acc
        table = JavaHashMap(self.where)
        entries: dict[Hashable, int] = {}
        k = self.keys
        for key_at, _ in acc:
            table.put(k.keys[key_at], k.hashes[key_at])
            entries[k.keys[key_at]] = key_at
        for key_at, _ in value:
            key = k.keys[key_at]
            if not self.row_valid[key_at]:
                table.remove(key, k.hashes[key_at])
                entries.pop(key, None)
                continue
            if self.stamps[key_at] is None:
                continue
            old = entries.get(key)
            if old is None or not self.row_valid[old] or self.stamps[old] is None or \
                    self.stamps[key_at] > self.stamps[old]:
                table.put(key, k.hashes[key_at])
                entries[key] = key_at
        return [(entries[key], entries[key]) for key in table.keys()]


def collection_field(col: pa.Array, func: str, retract: np.ndarray, seeds: np.ndarray, groups: Groups,
                     ignore_retract: bool, options: dict[str, Any], where: str) -> pa.Array:
    """One value per key of ``groups``: ``func`` folded over the key's records in order (``retract``:
    -U/-D records, ``seeds``: records that replace the accumulator, see :func:`.engines.merge_sorted`)."""
    t = col.type
    is_map = pa.types.is_map(t)
    needs = {"collect": pa.types.is_list, "merge_map": pa.types.is_map, "merge_map_with_keytime": pa.types.is_map,
             "nested_update": lambda x: pa.types.is_list(x) and pa.types.is_struct(x.value_type)}[func]
    if not needs(t):
        raise UnsupportedTypeError(f"aggregate function '{func}' on a {t} column (Paimon refuses it too)", path=where)
    distinct = bool(options.get("distinct"))
    live_retract = bool(retract.any()) and not ignore_retract
    offsets, flat = _list_positions(col)
    any_merged = bool(groups.merged.any())
    element_type = flat.keys.type if is_map else flat.type
    constructed = pa.types.is_struct(element_type) or pa.types.is_list(element_type) or pa.types.is_map(element_type)
    if live_retract and func == "collect" and not distinct and constructed:
        raise UnsupportedTypeError(f"aggregate function 'collect' retracting {element_type} elements (Paimon "
                                   "compares them with Object.equals)", path=where)
    hashed = any_merged and (is_map or (func == "collect" and distinct and not constructed))
    compared = any_merged and (hashed or live_retract or (func == "collect" and distinct))
    keys = _Elements(flat.keys if is_map else flat, func, where, hashed=hashed, compared=compared)
    nested_key = options.get("nested_key") if func == "nested_update" else None
    if nested_key and any_merged:
        keys.project(nested_key, func, where)
    valid = col.is_valid().to_numpy(zero_copy_only=False)
    limit = int(options.get("count_limit", 2 ** 31 - 1))
    keytime = (_KeyTime(col, keys, options.get("ts_field"), where)
               if func == "merge_map_with_keytime" and any_merged else None)

    def record(i: int):
        if not valid[i]:
            return None
        if is_map:
            return [(p, p) for p in range(offsets[i], offsets[i + 1])]
        return list(range(offsets[i], offsets[i + 1]))

    results: list[Any] = []
    for g in range(groups.count):
        first, last = groups.first[g], groups.last[g]
        if not groups.merged[g]:
            results.append(record(first))
            continue
        acc = None
        for i in range(first, last + 1):
            value = record(i)
            if seeds[i]:
                acc = value
            elif retract[i]:
                if ignore_retract:
                    continue
                if func == "collect":
                    acc = _collect_retract(acc, value, keys)
                elif is_map:
                    acc = _map_retract(acc, value, keys, where)
                else:
                    acc = _nested_retract(acc, value, keys, where)
            elif keytime is not None:
                acc = keytime.agg(acc, value)
            elif func == "collect":
                acc = _collect_agg(acc, value, distinct, keys, where)
            elif is_map:
                acc = _map_agg(acc, value, keys, where)
            else:
                acc = _nested_agg(acc, value, limit, keys, where)
        results.append(acc)
    return _build(t, results, flat, flat.items if is_map else None)


def _build(t: pa.DataType, results: list[Any], flat: pa.Array, items: pa.Array | None) -> pa.Array:
    lengths = np.array([0 if r is None else len(r) for r in results], dtype=np.int64)
    offsets = pa.array(np.r_[0, np.cumsum(lengths)].astype(np.int32))
    mask = pa.array([r is None for r in results])
    if items is None:
        picked = pa.array([p for r in results if r for p in r], type=pa.int64())
        out = pa.ListArray.from_arrays(offsets, flat.take(picked), mask=mask)
        return out.cast(t)
    key_pos = pa.array([k for r in results if r for k, _ in r], type=pa.int64())
    item_pos = pa.array([v for r in results if r for _, v in r], type=pa.int64())
    out = pa.MapArray.from_arrays(offsets, flat.keys.take(key_pos), items.take(item_pos), mask=mask)
    return out.cast(t)
