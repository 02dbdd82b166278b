"""Reading a table's rows in this process, without Spark: plan, read, filter exactly."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ..expressions.predicate import WhereLike
from ..expressions.semantics import SemanticsLike, SemanticsName
from ..table.table import PaimonTable, register_storage_options
from .arrow_filter import filter_table
from .read import read_plan_locally

if TYPE_CHECKING:
    from ..planning.plan import OrderByLike

__all__ = ["read_table"]


def read_table(table: PaimonTable | str | os.PathLike[str], where: WhereLike = None, snapshot_id: int | None = None,
               storage_options: dict[str, str] | None = None, *, use_indexes: bool = True,
               order_by: OrderByLike = None, limit: int | None = None, nulls_first: bool | None = None,
               branch: str | None = None, tag: str | None = None, timestamp_ms: int | None = None,
               use_stats: bool = True, semantics: SemanticsLike = "paimon", **plan_options: Any) -> pa.Table:
    """Exactly the rows of ``table`` (latest snapshot, or ``snapshot_id``) for which ``where`` holds.

    ``where``, the keyword arguments and ``plan_options`` (``judge``) are those of
    :func:`~paimon_codec.planning.plan.plan_scan`; the
    index answers of the plan are supersets, so the predicate is applied to what was read.  With
    ``order_by`` and ``limit`` the rows are sorted and cut as Spark's ``ORDER BY ... LIMIT`` would.

    ``semantics`` (a plan option) defaults to ``"paimon"``: a read without Spark returns the rows Paimon's
    own read returns (its ``Predicate.test``: ``-0.0 < 0.0`` on FLOAT / DOUBLE, and so ``-0.0`` sorts before
    ``0.0``); ``semantics="spark"`` returns the rows Spark's filter keeps (``-0.0 = 0.0``).
    ``storage_options``: those of the table's object store (see :mod:`paimon_codec.storage`).
    """
    from ..planning.plan import plan_scan  # here: a Spark worker imports this package to read, never to plan

    if not isinstance(table, PaimonTable):
        register_storage_options(table, storage_options)
    plan = plan_scan(table if isinstance(table, PaimonTable) else os.fspath(table), where, snapshot_id,
                     use_indexes=use_indexes, order_by=order_by, limit=limit, nulls_first=nulls_first, branch=branch,
                     tag=tag, timestamp_ms=timestamp_ms, use_stats=use_stats, semantics=semantics, **plan_options)
    semantics = plan.report.semantics
    rows = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type, semantics)
    if plan.order_by:
        rows = rows.take(_sql_order(rows, plan.order_by, semantics))
    if plan.limit is not None:
        rows = rows.slice(0, plan.limit)
    return rows


def _sql_order(rows: pa.Table, order_by: list[Any], semantics: SemanticsName) -> pa.Array:
    """Row order of Spark's ``ORDER BY``: Arrow sorts NaN next to the NULLs (``at_end``: after every number
    even descending), Spark orders NaN above every number; so a FLOAT / DOUBLE key is preceded by its rank
    (NULL for NULL, 0 for a number, 1 for NaN) sorted the same way (-0.0 and 0.0 are equal in both).  Under
    ``semantics="paimon"`` (``Double.compare``) ``-0.0`` comes before ``0.0``: the key is followed by its
    sign (0 for a negative zero, 1 otherwise) sorted the same way."""
    keys: list[tuple[str, str, str]] = []
    columns: dict[str, Any] = {}
    for i, k in enumerate(order_by):
        order = "descending" if k.descending else "ascending"
        nulls = "at_start" if k.nulls_come_first else "at_end"
        col = rows.column(k.column)
        if pa.types.is_floating(col.type):
            columns[f"rank{i}"] = pa.compute.if_else(pa.compute.is_nan(col), 1, 0)
            keys.append((f"rank{i}", order, nulls))
        columns[f"key{i}"] = col
        keys.append((f"key{i}", order, nulls))
        if semantics == "paimon" and pa.types.is_floating(col.type):
            negative_zero = pa.compute.and_(pa.compute.equal(col, 0.0),
                                            pa.compute.less(pa.compute.divide(1.0, col), 0.0))
            columns[f"sign{i}"] = pa.compute.if_else(negative_zero, 0, 1)
            keys.append((f"sign{i}", order, nulls))
    return pa.compute.sort_indices(pa.table(columns), sort_keys=keys)
