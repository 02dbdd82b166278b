"""Merge-on-read of primary-key tables: a bucket's sorted runs merged by key, as Paimon's batch read does.

* :mod:`.spec` - which merge a table asks for (merge engine, sequence fields, aggregate functions), with a
  one-line refusal for anything this reader does not reproduce exactly;
* :mod:`.plan` - which files of a snapshot a batch read merges, grouped per (partition, bucket) into
  :class:`~paimon_codec.table.tasks.GroupTask`;
* :mod:`.read` - reading a group's files with their system columns and merging them (vectorised);
* :mod:`.engines` / :mod:`.aggregates` - the merge engines and aggregate functions;
* :mod:`.declarations` - the merge options declared supported to the read-options check.

(Submodules are imported where needed: :mod:`paimon_codec.table.plan` imports this package while it
is itself being imported.)
"""
