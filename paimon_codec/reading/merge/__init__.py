"""Merge-on-read of primary-key tables: a bucket's sorted runs merged by key, as Paimon's batch read does.

* :mod:`.read` - reading a group's files with their system columns and merging them (vectorised);
* :mod:`.engines` / :mod:`.aggregates` / :mod:`.collections` / :mod:`.nested_partial` - the merge engines
  and aggregate functions; :mod:`.groups` the key groups they merge; :mod:`.java_hash` Java's hash codes.

Which merge a table asks for is the table's metadata (:mod:`paimon_codec.table.merge_spec`); which files a
read merges is planned by :mod:`paimon_codec.planning.merge_plan`, whose group tasks name
:func:`.read.read_merge_group` as their reader; the merge options this read implements are listed in
:mod:`paimon_codec.planning.merge_options`.
"""
