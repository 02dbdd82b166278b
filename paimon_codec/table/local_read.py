"""Reading a table's rows in this process, without Spark: plan, read, filter exactly."""

from __future__ import annotations

import os
from typing import Any

import pyarrow as pa

from .arrow_filter import filter_table
from .plan import plan_scan
from .read import read_plan_locally
from .table import PaimonTable, register_storage_options

__all__ = ["read_table"]


def read_table(table: PaimonTable | str | os.PathLike, where: Any = None, snapshot_id: int | None = None,
               storage_options: dict[str, str] | None = None, **plan_options: Any) -> pa.Table:
    """Exactly the rows of ``table`` (latest snapshot, or ``snapshot_id``) for which ``where`` holds.

    ``where`` and ``plan_options`` are those of :func:`~paimon_codec.table.plan.plan_scan`; the
    index answers of the plan are supersets, so the predicate is applied to what was read.  With
    ``order_by`` and ``limit`` the rows are sorted and cut as Spark's ``ORDER BY ... LIMIT`` would.
    ``storage_options``: those of the table's object store (see :mod:`paimon_codec.storage`).
    """
    if not isinstance(table, PaimonTable):
        register_storage_options(table, storage_options)
    plan = plan_scan(table if isinstance(table, PaimonTable) else os.fspath(table), where, snapshot_id,
                     **plan_options)
    rows = filter_table(read_plan_locally(plan), plan.predicate, plan.row_type)
    if plan.order_by:
        keys = [(k.column, "descending" if k.descending else "ascending",
                 "at_start" if k.nulls_come_first else "at_end") for k in plan.order_by]
        rows = rows.take(pa.compute.sort_indices(rows, sort_keys=keys))
    if plan.limit is not None:
        rows = rows.slice(0, plan.limit)
    return rows
