"""Planning a batch scan of a Paimon table: which data files, and which rows of them, a read must touch.

>>> from paimon_codec.planning import plan_scan
>>> plan = plan_scan("warehouse/db.db/orders", where="amount > 100", order_by="amount DESC", limit=10)
>>> plan.report.summary()           # files pruned by partition, stats, file index, deletion vector, top-N

A plan is made of :class:`~paimon_codec.planning.tasks.FileTask` / :class:`~paimon_codec.planning.tasks.GroupTask`;
:mod:`paimon_codec.reading` reads them.

Names from :mod:`.plan` are bound on first use (PEP 562 ``__getattr__``; type checkers read the
``TYPE_CHECKING`` import): a Spark worker unpickling a ``FileTask`` imports this package and reads, it never plans.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_exports import lazy_getattr
from .tasks import FileTask, GroupTask, PlanReport

if TYPE_CHECKING:
    from .plan import OrderByItem, OrderByLike, ScanPlan, SortKey, as_predicate, parse_order_by, plan_scan

__all__ = ["plan_scan", "ScanPlan", "SortKey", "OrderByLike", "OrderByItem", "as_predicate", "parse_order_by", "FileTask", "GroupTask",
           "PlanReport"]

__getattr__ = lazy_getattr(__name__, globals(), dict.fromkeys(
    ["plan_scan", "ScanPlan", "SortKey", "OrderByLike", "OrderByItem", "as_predicate", "parse_order_by"], "plan"))

