"""The ``nested_partial_update`` aggregate over ARRAY<ROW<...>> fields (Paimon 1.4.2's
``FieldNestedPartialUpdateAgg``).

A null side yields the other side untouched; otherwise the non-null rows of the accumulator, then of the
input, are grouped by their ``nested-key`` fields in a fresh ``HashMap`` keyed by the projected
``BinaryRow`` (``computeIfAbsent``: a new key goes to the head of its bucket), each key's row built field by field
from the last non-null value (a partial update), and the rows written in the map's order.  Rows are
handled as tuples of element positions, one per field (``None``: null), so no value is converted; a
retraction fails Paimon's read (the function has none), which :mod:`.aggregates` refuses.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pyarrow as pa

from ...bucket.binary_row import KeyEncoder
from ...errors import UnsupportedTypeError
from .groups import Groups
from .java_hash import JavaHashMap

__all__ = ["nested_partial_update_field"]

_KEY_TYPES = {pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INT", pa.int64(): "BIGINT",
              pa.bool_(): "BOOLEAN", pa.string(): "STRING", pa.date32(): "DATE"}


def _key_encoder(row_type: pa.StructType, names: list[str], where: str) -> tuple[list[int], KeyEncoder]:
    indexes, kinds = [], []
    for name in names:
        i = row_type.get_field_index(name)
        if i < 0:
            raise UnsupportedTypeError(f"aggregate function 'nested_partial_update': nested-key {name!r} is not a "
                                       f"field of {row_type} (Paimon fails this read too)", path=where)
        t = row_type.field(i).type
        if pa.types.is_decimal(t) and t.precision <= 18:
            kinds.append(f"DECIMAL({t.precision}, {t.scale})")
        elif t in _KEY_TYPES:
            kinds.append(_KEY_TYPES[t])
        else:
            raise UnsupportedTypeError(f"aggregate function 'nested_partial_update' with a nested-key field of "
                                       f"type {t}", path=where)
        indexes.append(i)
    return indexes, KeyEncoder(", ".join(kinds))


def nested_partial_update_field(col: pa.Array, groups: Groups, rows: np.ndarray, nested_key: list[str] | None,
                                where: str) -> pa.Array:
    """One value per key of ``groups``, folded over the records where ``rows`` (non-retractions)."""
    t = col.type
    if not (pa.types.is_list(t) and pa.types.is_struct(t.value_type)):
        raise UnsupportedTypeError(f"aggregate function 'nested_partial_update' on a {t} column (Paimon refuses "
                                   "it too)", path=where)
    if not nested_key or nested_key == [""]:
        raise UnsupportedTypeError("aggregate function 'nested_partial_update' without 'nested-key' (Paimon fails "
                                   "this read too)", path=where)
    row_type = t.value_type
    flat = col.values
    n_fields = row_type.num_fields
    children = [flat.field(i) for i in range(n_fields)]
    child_valid = [c.is_valid().to_numpy(zero_copy_only=False) for c in children]
    element_valid = flat.is_valid().to_numpy(zero_copy_only=False)
    offsets = col.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    valid = col.is_valid().to_numpy(zero_copy_only=False)
    key_fields, encoder = _key_encoder(row_type, nested_key, where)
    key_values = [children[i].to_pylist() for i in key_fields]

    def record(i: int) -> list[Any] | None:   # raw elements: a row tuple, or None for a null element
        if not valid[i]:
            return None
        return [(p,) * n_fields if element_valid[p] else None for p in range(offsets[i], offsets[i + 1])]

    def present(row: tuple, f: int) -> bool:
        return row[f] is not None and bool(child_valid[f][row[f]])

    def agg(acc: list[Any], value: list[Any]) -> list[Any]:
        table = JavaHashMap(f"{where}: aggregate function 'nested_partial_update'")
        merged: dict[Hashable, list[int | None]] = {}
        for row in [r for r in acc + value if r is not None]:
            key_row = [key_values[k][row[f]] if present(row, f) else None for k, f in enumerate(key_fields)]
            key = tuple(key_row)
            if key not in merged:
                merged[key] = [None] * n_fields
                table.compute_if_absent(key, encoder.hash(key_row))
            target = merged[key]
            for f in range(n_fields):
                if present(row, f):
                    target[f] = row[f]
        return [tuple(merged[k]) for k in table.keys()]

    results: list[list[Any] | None] = []
    for g in range(groups.count):
        acc: list[Any] | None = None
        for i in range(groups.first[g], groups.last[g] + 1):
            if not rows[i]:
                continue
            value = record(i)
            if acc is None:
                acc = value
            elif value is not None:
                acc = agg(acc, value)
        results.append(acc)
    return _build(t, results, children)


def _build(t: pa.DataType, results: list[list[Any] | None], children: list[pa.Array]) -> pa.Array:
    elements = [e for r in results if r for e in r]
    lengths = np.array([0 if r is None else len(r) for r in results], dtype=np.int64)
    offsets = pa.array(np.r_[0, np.cumsum(lengths)].astype(np.int32))
    columns = [child.take(pa.array([None if e is None else e[f] for e in elements], type=pa.int64()))
               for f, child in enumerate(children)]
    struct = pa.StructArray.from_arrays(columns, fields=list(t.value_type),
                                        mask=pa.array([e is None for e in elements], type=pa.bool_()))
    return pa.ListArray.from_arrays(offsets, struct, mask=pa.array([r is None for r in results])).cast(t)
