"""Aggregate functions of the ``aggregation`` merge engine, per key over records sorted by sequence.

Each mirrors Paimon 1.4.2's ``Field*Agg`` fold ``acc = agg(acc, input)`` (``retract(acc, input)`` for
-U/-D records), starting from ``acc = null``:

* ``sum`` / ``product``: null inputs are skipped; a retraction subtracts (``sum``; with a null accumulator
  it yields the negated input) or divides (``product``: Java's integer division, truncating, a division by
  zero fails Paimon's read and is refused; a null accumulator stays null); integers wrap around as Java's
  do, floating-point values are combined in record order (the result is bit-exact);
* ``min`` / ``max`` / ``bool_and`` / ``bool_or``: over non-null inputs; Paimon's ``min`` / ``max`` compare
  numbers, strings, binaries, decimals, dates, times and timestamps only: two non-null values of another
  type (BOOLEAN, ARRAY, MAP, ROW) make its read fail ("Incomparable type"), so ours refuses them;
* ``last_value``: the last record's value (null after a retraction); ``last_non_null_value``: the last
  non-null value (null when a retraction carries a non-null value);
* ``first_value`` / ``first_non_null_value``: the first (non-null) value;
* ``listagg``: non-empty strings joined by the delimiter (``""`` when only empty strings came); with
  ``distinct`` only the input tokens not seen yet are appended;
* ``rbm32``: the union of 32-bit roaring bitmaps, re-serialized as Paimon writes them (the 64-bit
  form is refused: Java's ``Roaring64Bitmap.serialize`` layout is not the portable one pyroaring writes).

Functions without a retraction in Paimon (all but sum, product, last_value, last_non_null_value and the
collection functions of :mod:`.collections`) make the read
fail on a retraction, as Paimon's does, unless ``fields.<f>.ignore-retract`` is set (then retractions
leave the field unchanged).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...errors import UnsupportedTypeError
from . import kernels
from .groups import Groups, take_or_null

__all__ = ["aggregate_field", "check_retraction", "positional_pick", "RETRACTABLE", "POSITIONAL"]

RETRACTABLE = ("sum", "product", "last_value", "last_non_null_value", "collect", "merge_map", "nested_update")
#: functions whose result is one of the key's records' values (:func:`positional_pick` says which)
POSITIONAL = ("last_value", "last_non_null_value", "first_value", "first_non_null_value")


def _valid(col: pa.Array) -> np.ndarray:
    return ~np.asarray(col.is_null().to_numpy(zero_copy_only=False), dtype=bool)


def _fold_numeric(col: pa.Array, rows: np.ndarray, negate: np.ndarray, groups: Groups, op: str) -> pa.Array:
    """Sequential fold of ``col[rows]`` per key (exact for floats: one addition at a time, in order)."""
    t = col.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise UnsupportedTypeError(f"aggregate function '{op}' on a {t} column is not supported")
    values = col.to_numpy(zero_copy_only=False) if col.null_count == 0 else \
        col.fill_null(0).to_numpy(zero_copy_only=False)
    if pa.types.is_integer(t):
        return _fold_integers(values, t, rows, negate, groups, op)
    pos = np.flatnonzero(rows)
    g = groups.gid[pos]
    vals = values[pos]
    if op == "sum" and negate.any():
        neg = negate[pos]
        vals = vals.copy()
        vals[neg] = -vals[neg]
    acc = np.zeros(groups.count, dtype=values.dtype)
    seen = np.zeros(groups.count, dtype=bool)
    if len(pos):
        ufunc = np.add if op == "sum" else np.multiply
        starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
        seen[g[starts]] = True
        # floating point: one operation at a time in record order, like Java's fold
        rank = np.arange(len(pos)) - np.repeat(starts, np.diff(np.r_[starts, len(pos)]))
        by_rank = np.argsort(rank, kind="stable")
        bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max()) + 2))
        first = by_rank[bounds[0]:bounds[1]]
        acc[g[first]] = vals[first]
        with np.errstate(over="ignore", invalid="ignore"):   # inf - inf is NaN, as in Java
            for k in range(1, len(bounds) - 1):
                at = by_rank[bounds[k]:bounds[k + 1]]
                acc[g[at]] = ufunc(acc[g[at]], vals[at])
    return pa.array(acc, type=t, mask=~seen)


def _fold_integers(values: np.ndarray, t: pa.DataType, rows: np.ndarray, negate: np.ndarray, groups: Groups,
                   op: str) -> pa.Array:
    """Integer sum / product per key (:func:`.kernels.fold_integers`): arithmetic modulo 2^bits, as Java's
    wrapping ints, gives Java's result in any grouping of the operations."""
    acc, seen = kernels.fold_integers(groups.first, groups.last, values, rows, negate, op == "product", groups.jit)
    return pa.array(acc, type=t, mask=None if seen.all() else ~seen)


def _wrap(value: int, bits: int) -> int:
    """``value`` cut to a ``bits``-wide two's complement integer, as a Java narrowing cast / overflow."""
    half = 1 << (bits - 1)
    return (value + half) % (1 << bits) - half


def _product_with_retractions(col: pa.Array, valid: np.ndarray, retract: np.ndarray, groups: Groups,
                              where: str) -> pa.Array:
    """``product`` of keys holding a retraction, one record at a time as Paimon's ``FieldProductAgg``:
    ``agg`` multiplies, ``retract`` divides (both keep the accumulator when either side is null); the
    other keys take the vectorised fold."""
    t = col.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise UnsupportedTypeError(f"aggregate function 'product' on a {t} column is not supported", path=where)
    out = _fold_numeric(col, valid & ~retract, retract & False, groups, "product").to_pylist()
    values = col.to_numpy(zero_copy_only=False) if col.null_count == 0 else col.fill_null(0).to_numpy(
        zero_copy_only=False)
    bits = t.bit_width
    for g in np.flatnonzero(groups.any(retract)):
        acc = None
        for i in range(groups.first[g], groups.last[g] + 1):
            if not valid[i]:
                continue
            v = values[i]
            if acc is None:
                if not retract[i]:
                    acc = v
                continue
            if pa.types.is_floating(t):
                with np.errstate(all="ignore"):
                    acc = acc / v if retract[i] else acc * v
            elif retract[i]:
                if int(v) == 0:
                    raise UnsupportedTypeError("aggregate function 'product' retracts a zero (a division by zero: "
                                               "Paimon fails this read too)", path=where)
                quotient = abs(int(acc)) // abs(int(v))
                acc = _wrap(quotient if (int(acc) < 0) == (int(v) < 0) else -quotient, bits)
            else:
                acc = _wrap(int(acc) * int(v), bits)
        out[g] = None if acc is None else (float(acc) if pa.types.is_floating(t) else int(acc))
    return pa.array(out, type=t)


def _decimal_sum(col: pa.Array, rows: np.ndarray, negate: np.ndarray, groups: Groups, where: str) -> pa.Array:
    """``sum`` of a DECIMAL(p, s) column per key (retractions subtract), as Paimon's ``DecimalUtils.add``:
    up to 18 digits it adds unscaled longs exactly (a partial sum may grow past p digits): keys where that could
    happen (or a long overflow, or a result beyond p digits) are refused, every other key's sum is exact in any
    order; above 18 digits the records are folded in order (:func:`_wide_decimal_sum`)."""
    import decimal

    t = col.type
    if t.precision > 18:
        return _wide_decimal_sum(col, rows, negate, groups)
    pos = np.flatnonzero(rows)
    values = col.take(pa.array(pos, type=pa.int64()))
    signed = pc.if_else(pa.array(negate[pos]), pc.negate(values), values)
    table = pa.table({"g": pa.array(groups.gid[pos], type=pa.int64()), "v": signed, "a": pc.abs(values)})
    try:
        result = table.group_by("g", use_threads=False).aggregate([("v", "sum"), ("a", "sum")])
    except (pa.ArrowInvalid, OverflowError):
        result = None
    digits = decimal.Decimal(10) ** (t.precision - t.scale)   # |values| below it fit p digits
    bound = digits if t.precision > 18 else decimal.Decimal(2 ** 63) / decimal.Decimal(10) ** t.scale
    if result is None or any(a is not None and a >= bound for a in result.column("a_sum").to_pylist()) or \
            any(v is not None and abs(v) >= digits for v in result.column("v_sum").to_pylist()):
        raise UnsupportedTypeError(f"aggregate function 'sum' over {t} values whose sum may exceed "
                                   f"{t.precision} digits (Paimon does not keep such a sum exactly)", path=where)
    where_row = np.full(groups.count, -1, dtype=np.int64)
    where_row[result.column("g").to_numpy()] = np.arange(result.num_rows)
    return take_or_null(pc.cast(result.column("v_sum"), t), where_row)


def _wide_decimal_sum(col: pa.Array, rows: np.ndarray, negate: np.ndarray, groups: Groups) -> pa.Array:
    """``sum`` of a DECIMAL(p > 18, s) column per key, one record at a time as Paimon's ``FieldSumAgg``: a
    partial sum beyond p digits is NULL (``Decimal.fromBigDecimal``); a NULL accumulator takes the next input
    (negated for a retraction).  Measured: 9e17 + 9e17 - 9e17 in DECIMAL(20, 2) reads as -9e17."""
    import decimal

    t = col.type
    exact = decimal.Context(prec=200)
    limit = decimal.Decimal(10) ** (t.precision - t.scale)
    values = col.to_pylist()
    out: list[decimal.Decimal | None] = [None] * groups.count
    for i in np.flatnonzero(rows):
        g = int(groups.gid[i])
        v = values[i].copy_negate() if negate[i] else values[i]   # exact: unary minus rounds to 28 digits
        acc = out[g]
        total = v if acc is None else exact.add(acc, v)
        out[g] = None if total.copy_abs() >= limit else total
    return pa.array(out, type=t)


def _decimal_product(col: pa.Array, rows: np.ndarray, groups: Groups) -> pa.Array:
    """``product`` of a DECIMAL(p, s) column per key without retractions, as Paimon's ``FieldProductAgg``:
    each step multiplies exactly and rounds HALF_UP to s digits (``Decimal.fromBigDecimal``); a step whose
    result needs more than p digits gives NULL, and the next non-null input starts the product again
    (measured: 999.99 * 999.99 in DECIMAL(5, 2) reads as NULL, then * 2.00 as 2.00)."""
    import decimal

    t = col.type
    exact = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)
    quantum = decimal.Decimal(1).scaleb(-t.scale)
    limit = decimal.Decimal(10) ** (t.precision - t.scale)
    values = col.to_pylist()
    out: list[decimal.Decimal | None] = [None] * groups.count
    for i in np.flatnonzero(rows):
        g = int(groups.gid[i])
        acc = out[g]
        v = values[i] if acc is None else exact.multiply(acc, values[i]).quantize(quantum, context=exact)
        out[g] = None if v.copy_abs() >= limit else v   # copy_abs: abs() rounds to the context's 28 digits
    return pa.array(out, type=t)


def _hash_aggregate(col: pa.Array, rows: np.ndarray, groups: Groups, func: str, options=None) -> pa.Array:
    pos = np.flatnonzero(rows)
    table = pa.table({"g": pa.array(groups.gid[pos], type=pa.int64()),
                      "v": col.take(pa.array(pos, type=pa.int64()))})
    result = table.group_by("g", use_threads=False).aggregate([("v", func, options)] if options else
                                                              [("v", func)])
    where = np.full(groups.count, -1, dtype=np.int64)
    where[result.column("g").to_numpy()] = np.arange(result.num_rows)
    return take_or_null(result.column(f"v_{func}"), where)


def _integer_min_max(col: pa.Array, rows: np.ndarray, groups: Groups, func: str) -> pa.Array:
    """min / max of an integer column per key over the records where ``rows`` (:func:`.kernels.fold_extreme`)."""
    values = col.to_numpy(zero_copy_only=False) if col.null_count == 0 else \
        col.fill_null(0).to_numpy(zero_copy_only=False)
    acc, seen = kernels.fold_extreme(groups.first, groups.last, values, rows, func == "max", groups.jit)
    return pa.array(acc, type=col.type, mask=None if seen.all() else ~seen)


def _total_order_key(bits: np.ndarray) -> np.ndarray:
    """Signed integers ordered as Java's ``Double.compare`` / ``Float.compare`` order the floats whose bits
    they are (-0.0 < 0.0, NaN above +inf); the map is its own inverse."""
    return np.where(bits < 0, bits ^ np.iinfo(bits.dtype).max, bits)


def _float_min_max(col: pa.Array, rows: np.ndarray, groups: Groups, func: str) -> pa.Array:
    """min/max by Java's total order of floating-point values (Arrow's treats -0.0 = 0.0, skips NaN)."""
    wide = col.type == pa.float64()
    itype = np.int64 if wide else np.int32
    values = col.fill_null(0).to_numpy(zero_copy_only=False)
    values = np.where(np.isnan(values), np.array(np.nan, dtype=values.dtype), values)  # canonical NaN
    keys = _total_order_key(values.view(itype))
    best, seen = kernels.fold_extreme(groups.first, groups.last, keys, rows, func == "max", groups.jit)
    bits = _total_order_key(best.astype(itype))
    return pa.array(bits.view(values.dtype), type=col.type, mask=None if seen.all() else ~seen)


def _comparable(t: pa.DataType) -> bool:
    """Types Paimon's ``InternalRowUtils.compare`` orders (what its min / max aggregates need)."""
    return (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t) or pa.types.is_string(t)
            or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t)
            or pa.types.is_fixed_size_binary(t) or pa.types.is_temporal(t))


def _incomparable_min_max(col: pa.Array, rows: np.ndarray, groups: Groups, func: str, where: str) -> pa.Array:
    """min / max of a type Paimon cannot compare: a key's only non-null value, or the refusal Paimon's read
    fails with when two meet."""
    pos = np.flatnonzero(rows)
    counts = np.bincount(groups.gid[pos], minlength=groups.count)
    if (counts > 1).any():
        raise UnsupportedTypeError(f"aggregate function '{func}' on a {col.type} column met two non-null values "
                                   "of one key (Paimon fails this read too: incomparable type)", path=where)
    return take_or_null(col, groups.first_where(rows))


def _listagg(col: pa.Array, adds: np.ndarray, valid: np.ndarray, groups: Groups, delimiter: str) -> pa.Array:
    nonempty = valid & (np.asarray(pc.binary_length(col.fill_null("")).to_numpy(zero_copy_only=False)) > 0)
    joined = _hash_aggregate(col, adds & nonempty, groups, "list")
    joined = pc.binary_join(joined, delimiter)
    empty_only = groups.any(adds & valid) & ~groups.any(adds & nonempty)
    return pc.if_else(pa.array(empty_only), pa.scalar("", col.type), joined.cast(col.type))


def _roaring_or(col: pa.Array, rows: np.ndarray, groups: Groups, where: str) -> pa.Array:
    """``rbm32`` (roaring bitmap): a null side yields the other side's bytes untouched, two bitmaps are OR-ed and
    written as Paimon's ``RoaringBitmap32.serialize`` writes them (after ``runOptimize``)."""
    from ...roaring import deserialize_exact, serialize_optimized

    if not (pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type)):
        raise UnsupportedTypeError(f"aggregate function 'rbm32' on a {col.type} column (Paimon refuses "
                                   "it too)", path=where)
    values = col.to_pylist()
    out: list[bytes | None] = []
    for g in range(groups.count):
        acc: bytes | None = None
        for i in range(groups.first[g], groups.last[g] + 1):
            if not rows[i]:
                continue
            if acc is None:
                acc = values[i]
            else:
                acc = serialize_optimized(deserialize_exact(acc, path=where)[0] | deserialize_exact(values[i],
                                                                                                   path=where)[0])
        out.append(acc)
    return pa.array(out, type=col.type)


def _listagg_distinct(col: pa.Array, rows: np.ndarray, groups: Groups, delimiter: str) -> pa.Array:
    """``listagg`` with ``fields.<f>.distinct``: the accumulator kept as it is, then each token of the input
    (split on the whole delimiter, empty tokens kept and skipped) not yet among the accumulator's tokens
    or the ones appended, each after the delimiter; an empty side yields the other."""
    values = col.to_pylist()
    out: list[str | None] = []
    for g in range(groups.count):
        acc: str | None = None
        for i in range(groups.first[g], groups.last[g] + 1):
            if not rows[i]:
                continue
            value = values[i]
            if acc is None or acc == "":
                acc = value if acc is None or value != "" else acc
                continue
            if value == "":
                continue
            seen = set(acc.split(delimiter))
            added = []
            for token in value.split(delimiter):
                if token and token not in seen:
                    seen.add(token)
                    added.append(token)
            acc = delimiter.join([acc, *added])
        out.append(acc)
    return pa.array(out, type=col.type)


def check_retraction(func: str, retract: np.ndarray, ignore_retract: bool, where: str) -> None:
    """Paimon's read fails when a retraction reaches a function without one (and no ignore-retract)."""
    if retract.any() and not ignore_retract and func not in RETRACTABLE:
        raise UnsupportedTypeError(f"aggregate function '{func}' does not support retraction (a -U/-D record "
                                   f"reached it; Paimon fails this read too)", path=where,
                                   expected="'fields.<field>.ignore-retract'='true' or a retractable function")


def positional_pick(func: str, valid: np.ndarray, retract: np.ndarray, groups: Groups,
                    ignore_retract: bool) -> np.ndarray:
    """Per key, the position of the record whose value a :data:`POSITIONAL` function yields (-1: null);
    ``valid``: the records whose value is not null (the caller has checked retractions:
    :func:`check_retraction`)."""
    adds = ~retract
    if func == "last_value":
        if ignore_retract:
            return groups.last_where(adds)
        last = groups.last.copy()
        last[retract[last]] = -1
        return last
    if func == "last_non_null_value":
        last = groups.last_where(valid & adds if ignore_retract else valid)
        if not ignore_retract and retract.any():
            last[(last >= 0) & retract[np.maximum(last, 0)]] = -1
        return last
    if func == "first_value":
        return groups.first_where(adds)
    if func == "first_non_null_value":
        return groups.first_where(adds & valid)
    raise ValueError(f"{func} is not a positional aggregate function")


def aggregate_field(col: pa.Array, func: str, retract: np.ndarray, groups: Groups, ignore_retract: bool,
                    delimiter: str, where: str, distinct: bool = False) -> pa.Array:
    """One value per key of ``groups``: ``func`` folded over the key's records (``retract``: -U/-D)."""
    check_retraction(func, retract, ignore_retract, where)
    adds = ~retract
    valid = _valid(col)
    if func == "sum":
        rows = valid if not ignore_retract else valid & adds
        if pa.types.is_decimal(col.type):
            return _decimal_sum(col, rows, retract & ~np.bool_(ignore_retract), groups, where)
        return _fold_numeric(col, rows, retract & ~np.bool_(ignore_retract), groups, "sum")
    if func == "product":
        if pa.types.is_decimal(col.type) and (ignore_retract or not retract.any()):
            return _decimal_product(col, valid & adds, groups)
        if ignore_retract or not retract.any():
            return _fold_numeric(col, valid & adds, retract & False, groups, "product")
        return _product_with_retractions(col, valid, retract, groups, where)
    if func in ("min", "max"):
        if not _comparable(col.type):
            return _incomparable_min_max(col, valid & adds, groups, func, where)
        if pa.types.is_floating(col.type):
            return _float_min_max(col, valid & adds, groups, func)
        if pa.types.is_integer(col.type):
            return _integer_min_max(col, valid & adds, groups, func)
        return _hash_aggregate(col, valid & adds, groups, func)
    if func in ("bool_and", "bool_or"):
        return _hash_aggregate(col, valid & adds, groups, "all" if func == "bool_and" else "any",
                               pc.ScalarAggregateOptions(skip_nulls=True, min_count=1))
    if func in POSITIONAL:
        return take_or_null(col, positional_pick(func, valid, retract, groups, ignore_retract))
    if func == "listagg":
        if distinct:
            return _listagg_distinct(col, valid & adds, groups, delimiter)
        return _listagg(col, adds, valid, groups, delimiter)
    if func == "rbm32":
        return _roaring_or(col, valid & adds, groups, where)
    raise UnsupportedTypeError(f"primary-key merge read: aggregate function '{func}' is not supported", path=where)
