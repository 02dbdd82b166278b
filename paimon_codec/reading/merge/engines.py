"""The merge engines over records sorted by (key, sequence): which row each key yields.

Paimon (1.4.2) merges the records of a key through ``ReducerMergeFunctionWrapper``: a key with a single
record yields that record untouched (dropped if it is a retraction, -U/-D), a key with several records
yields the merge function's result (dropped when its row kind is a retraction):

* ``deduplicate``: the last record; with ``ignore-delete`` retractions are skipped first;
* ``first-row``: the first record; a retraction among several records is an error unless ``ignore-delete``;
* ``partial-update``: non-null fields of insert records overwrite; a first record that is a retraction
  seeds the row with all its fields; retractions are an error unless ``ignore-delete`` or
  ``partial-update.remove-record-on-delete`` (then a -D seeds the row again and removes it if it is the
  key's last record); a key without any insert record is removed;
* ``aggregation``: each field folded by its aggregate function (:mod:`.aggregates`, :mod:`.collections`
  for ARRAY / MAP fields); the result is an insert even when every record was a retraction, except with
  ``aggregation.remove-record-on-delete``, where a -D restarts the row from its own values and removes
  the key when it is the last record.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ...errors import UnsupportedTypeError
from ...table.merge_spec import MergeSpec
from . import kernels
from .aggregates import POSITIONAL, RETRACTABLE, aggregate_field, check_retraction, positional_pick
from .collections import COLLECTION_FUNCTIONS, collection_field
from .groups import Groups, take_or_null
from .nested_partial import nested_partial_update_field

__all__ = ["merge_sorted", "RETRACT_KINDS", "DELETE_KIND"]

RETRACT_KINDS = (1, 3)   # UPDATE_BEFORE, DELETE
DELETE_KIND = 3


def _deduplicate(retract, groups: Groups, spec: MergeSpec) -> np.ndarray:
    """Per key: the (merge-order) position of the record it yields, -1 for none."""
    if spec.ignore_delete:
        return groups.last_where(~retract)
    winner = groups.last.copy()
    winner[retract[winner]] = -1     # the latest record is a retraction: the key is gone
    return winner


def _first_row(retract, groups: Groups, spec: MergeSpec, path: str) -> np.ndarray:
    if not spec.ignore_delete and groups.any(retract & groups.merged[groups.gid]).any():
        raise UnsupportedTypeError("first-row table holds a DELETE/UPDATE_BEFORE record for a key with several "
                                   "records, which Paimon refuses to merge (set 'ignore-delete')", path=path)
    return groups.first_where(~retract)


def _unsorted(order: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Merge-order ``positions`` (-1: none) as positions in the unsorted table (``order``: merge order)."""
    picked = order[positions]   # -1 picks the last record: masked below
    none = positions < 0
    if none.any():
        picked[none] = -1
    return picked


def _partial_update(table, order, kinds, retract, groups: Groups, spec: MergeSpec, path: str) -> pa.Table:
    """Per field, the key's last non-null insert (or a retraction seeding the row); ``table`` unsorted:
    each column is taken once, at the picked records (``order``: merge order)."""
    if not retract.any():   # inserts only: per field the key's last non-null value, every key kept
        return _take_last_valid(table, order, groups, None, None, None)
    if not spec.ignore_delete and not spec.partial_update_remove_on_delete and \
            (retract & groups.merged[groups.gid]).any():
        raise UnsupportedTypeError("partial-update table holds a delete record for a key with several records, "
                                   "which Paimon refuses to merge (set 'ignore-delete' or "
                                   "'partial-update.remove-record-on-delete')", path=path)
    add = ~retract
    seeds = groups.starts & retract
    removing = (kinds == DELETE_KIND) & spec.partial_update_remove_on_delete & (not spec.ignore_delete)
    seeds |= removing
    keep = groups.any(add) & ~removing[groups.last]
    single = ~groups.merged
    keep[single] = add[groups.first[single]]
    return _take_last_valid(table, order, groups, seeds, add, keep)


def _take_last_valid(table, order, groups: Groups, seeds, add, keep) -> pa.Table:
    """Each column taken once at, per kept key, its last record that is a seed (``seeds``) or an insert
    (``add``) holding a value (None: no seeds, every record an insert, every key kept).  A key's only record,
    handed on untouched when the merge function does not see it, needs no case of its own: kept, it is an
    insert, and its value is picked when not null and null otherwise."""
    columns = []
    without_nulls = None  # the picked records of a column without nulls (the key's): the same for all such columns
    for name in table.column_names:
        col = table.column(name)
        if col.null_count == 0 and without_nulls is not None:
            columns.append(take_or_null(col, without_nulls))
            continue
        if seeds is None:   # inserts only: a compiled loop (at scale) reads each key's records from its last one
            picked = (order[groups.last] if col.null_count == 0 else
                      kernels.last_valid(groups.first, groups.last, order, _valid(col), groups.jit))
        else:
            mask = seeds | (add if col.null_count == 0 else add & _valid(col)[order])
            source = groups.last_where(mask)
            picked = _unsorted(order, source[keep])
        if col.null_count == 0:
            without_nulls = picked
        columns.append(take_or_null(col, picked))
    return pa.Table.from_arrays(columns, names=table.column_names)


def _remove_on_delete(table, kinds, retract, groups: Groups, spec: MergeSpec, path: str):
    """``aggregation.remove-record-on-delete``: a key's last -D replaces its row with the -D's own values
    (Paimon's ``initRow``; a null in a NOT NULL field fails its read) and the key is removed when that
    -D is its last record.  The records before it only matter for the errors they raise (a retraction of
    a function without one), so they are cut; the -D stays as the key's *seed*: the accumulator it sets.

    Returns the cut table, kinds, retractions, seeds, groups, the kept keys and, per key, whether an
    insert came before its seed (Paimon's first_value / first_non_null_value stay initialized)."""
    n = len(kinds)
    in_merge = groups.merged[groups.gid]
    last_delete = groups.last_where((kinds == DELETE_KIND) & in_merge)
    at = last_delete[groups.gid]
    cut = np.arange(n) < at
    seeds = np.arange(n) == at
    for name, func in spec.aggregates.items():
        if func not in RETRACTABLE and (retract & cut & (kinds != DELETE_KIND)).any():   # an earlier -D re-seeds
            raise UnsupportedTypeError(f"aggregate function '{func}' does not support retraction (a -U/-D record "
                                       "reached it; Paimon fails this read too)", path=f"{path}: field {name}")
    for name in spec.not_null:
        if seeds.any() and table.column(name).filter(pa.array(seeds)).null_count:
            raise UnsupportedTypeError(f"a DELETE record with a null in NOT NULL field {name} replaces a row "
                                       "(aggregation.remove-record-on-delete: Paimon fails this read too)", path=path)
    keep = ~((last_delete >= 0) & (last_delete == groups.last))
    before = {name: groups.any(cut & ~retract & (True if func == "first_value" else _valid(table.column(name))))
              for name, func in spec.aggregates.items() if func in ("first_value", "first_non_null_value")}
    rest = ~cut
    cut_groups = Groups((groups.starts | seeds)[rest], groups.merged)
    return (table.filter(pa.array(rest)), kinds[rest], (retract & ~seeds)[rest], seeds[rest], cut_groups, keep,
            before)


def _valid(col) -> np.ndarray:
    return ~np.asarray(col.is_null().to_numpy(zero_copy_only=False), dtype=bool)


def _seeded_first(col, func: str, retract, seeds, groups: Groups, initialized: np.ndarray) -> pa.Array:
    """first_value / first_non_null_value of keys that may hold a seed: Paimon's aggregator keeps its
    ``initialized`` flag across the -D (it is reset per key only), so a seed is the result when an insert
    (a non-null one) came before it, and otherwise the first (non-null) insert after it, else the seed."""
    adds = ~retract & ~seeds
    if func == "first_non_null_value":
        adds &= _valid(col)
    picked = groups.first_where((seeds & initialized[groups.gid]) | adds)
    seed_at = groups.first_where(seeds)
    picked = np.where(picked < 0, seed_at, picked)
    return take_or_null(col, picked)


def _aggregation(table, order, kinds, retract, groups: Groups, spec: MergeSpec, path: str) -> pa.Table:
    """Each field folded by its function.  ``table`` is unsorted (``order``: merge order): a field whose
    result is one record's value (:data:`.aggregates.POSITIONAL`, the key fields) is taken once, at the picked
    records; the others are taken in merge order first."""
    any_retract = bool(retract.any())
    keep = ~(~groups.merged & retract[groups.first]) if any_retract else np.ones(groups.count, dtype=bool)
    seeds = np.zeros(len(kinds), dtype=bool)
    initialized: dict[str, np.ndarray] = {}
    if spec.remove_record_on_delete and groups.merged.any():
        table, order = table.take(pa.array(order, type=pa.int64())), np.arange(len(order))
        table, kinds, retract, seeds, groups, kept, initialized = _remove_on_delete(table, kinds, retract, groups,
                                                                                     spec, path)
        order = np.arange(table.num_rows)
        keep &= kept
    # retractions of keys the merge function sees (a key's only record is handed on or dropped whole)
    retract = retract & groups.merged[groups.gid] if any_retract else retract
    kept_all = bool(keep.all())
    columns = []
    for name in table.column_names:
        col = table.column(name)
        if name in spec.primary_keys:
            columns.append(col.take(pa.array(order[groups.first[keep]], type=pa.int64())))
            continue
        func = spec.aggregates[name]
        where = f"{path}: field {name}"
        if func == "last_non_null_value" and not any_retract and name not in initialized:
            # inserts only: each key's last non-null value (a compiled loop at scale), every key kept
            columns.append(take_or_null(col, kernels.last_valid(groups.first, groups.last, order, _valid(col),
                                                                groups.jit)))
            continue
        if func in POSITIONAL and name not in initialized:
            check_retraction(func, retract, name in spec.ignore_retract, where)
            picked = positional_pick(func, _valid(col)[order], retract, groups, name in spec.ignore_retract)
            columns.append(take_or_null(col, _unsorted(order, picked[keep])))
            continue
        col = col.take(pa.array(order, type=pa.int64()))
        col = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
        if func in COLLECTION_FUNCTIONS:
            merged = collection_field(col, func, retract, seeds, groups, name in spec.ignore_retract,
                                      spec.collection_options.get(name, {}), where)
        elif func == "nested_partial_update":
            check_retraction(func, retract, name in spec.ignore_retract, where)
            merged = nested_partial_update_field(col, groups, ~retract,
                                                 spec.collection_options.get(name, {}).get("nested_key"), where)
        elif name in initialized:
            merged = _seeded_first(col, func, retract, seeds, groups, initialized[name])
        else:   # a seed is an insert into an empty accumulator: these functions' agg(null, v) is v
            merged = aggregate_field(col, func, retract, groups, name in spec.ignore_retract,
                                     spec.listagg_delimiters.get(name, ","), where,
                                     bool(spec.collection_options.get(name, {}).get("distinct")))
        columns.append(merged if kept_all else merged.filter(pa.array(keep)))
    return pa.Table.from_arrays(columns, names=table.column_names)


def merge_sorted(table: pa.Table, order: np.ndarray, kinds: np.ndarray, starts: np.ndarray, spec: MergeSpec,
                 path: str = "", merged: np.ndarray | None = None) -> pa.Table:
    """Merge the records of ``table`` into one row per surviving key.

    ``order``: the records' positions in merge order (by key, then sequence); ``kinds`` / ``starts``: the
    row kind of each record in that order and whether it begins a new key; ``merged``: per key, whether
    the merge function sees it (default: keys of several records, see :class:`.groups.Groups`).
    """
    groups = Groups(starts, merged)
    order = np.asarray(order, dtype=np.int64)  # Arrow's sort indices are unsigned; -1 marks "none" below
    retract = np.isin(kinds, RETRACT_KINDS)
    if spec.engine in ("deduplicate", "first-row"):  # one whole record per key: take just those rows
        picked = (_deduplicate(retract, groups, spec) if spec.engine == "deduplicate"
                  else _first_row(retract, groups, spec, path))
        return table.take(pa.array(order[picked[picked >= 0]], type=pa.int64()))
    if spec.engine == "partial-update":
        return _partial_update(table, order, kinds, retract, groups, spec, path)
    if spec.engine == "aggregation":
        return _aggregation(table, order, kinds, retract, groups, spec, path)
    raise UnsupportedTypeError(f"primary-key merge read: merge-engine '{spec.engine}' is not supported", path=path)
