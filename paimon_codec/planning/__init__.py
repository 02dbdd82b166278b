"""Planning a batch scan of a Paimon table: which data files, and which rows of them, a read must touch.

>>> from paimon_codec.planning import plan_scan
>>> plan = plan_scan("warehouse/db.db/orders", where="amount > 100", order_by="amount DESC", limit=10)
>>> plan.report.summary()           # files pruned by partition, stats, file index, deletion vector, top-N

A plan is made of :class:`~paimon_codec.planning.tasks.FileTask` / :class:`~paimon_codec.planning.tasks.GroupTask`;
:mod:`paimon_codec.reading` reads them.
"""

from .plan import OrderByItem, OrderByLike, ScanPlan, SortKey, as_predicate, parse_order_by, plan_scan
from .tasks import FileTask, GroupTask, PlanReport

__all__ = ["plan_scan", "ScanPlan", "SortKey", "OrderByLike", "OrderByItem", "as_predicate", "parse_order_by", "FileTask", "GroupTask",
           "PlanReport"]
