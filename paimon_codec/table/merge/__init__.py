"""Merge-on-read of primary-key tables: a bucket's sorted runs merged by key, as Paimon's batch read does.

* :mod:`.spec` - which merge a table asks for (merge engine, sequence fields, aggregate functions), with a
  one-line refusal for anything this reader does not reproduce exactly;
* :mod:`.plan` - which files of a snapshot a batch read merges, grouped per (partition, bucket) into
  :class:`~paimon_codec.table.plan.GroupTask`;
* :mod:`.read` - reading a group's files with their system columns and merging them (vectorised);
* :mod:`.engines` / :mod:`.aggregates` - the merge engines and aggregate functions.
"""

from .plan import plan_merge_groups
from .spec import MergeSpec, merge_spec

__all__ = ["MergeSpec", "merge_spec", "plan_merge_groups"]
