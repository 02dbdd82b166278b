"""Top-N pushdown (``plan_scan(order_by=, limit=)``) at the table level.

* :mod:`.push` - without a predicate: every file's index probed for its top-``limit`` candidate rows;
* :mod:`.file` - with a predicate: one file's top-N answered through the index the judge already opened;
* :mod:`.exact` - which predicates an index answers exactly (a top-N needs an exact selection).

What one index answers - a file's top rows by a range-bitmap index, the bound a key stream can still
reach - is the index layer's: :mod:`paimon_codec.fileindex.topn` and :mod:`paimon_codec.fileindex.topn_bound`.
"""
