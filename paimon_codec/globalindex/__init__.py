"""Paimon *global* indexes of data-evolution tables: B-tree (Java 1.4.2, pypaimon 2.1) and pypaimon's
bitmap layout (``index/<type>-global-index-<uuid>.index``, ``_GLOBAL_INDEX`` entries of the index
manifest).

Layouts: ``schemas/btree_global_index.ksy``, ``bitmap_global_index.ksy``, ``btree_global_index_key.ksy``,
``sorted_index_file_meta.ksy``, ``varint.ksy``.  :mod:`.keys` maps column types to key kinds and orders
keys as Java does; :mod:`.blocks` reads stored blocks (CRC32, decompression); :mod:`.btree` and
:mod:`.bitmap` answer lookups from one file, lazily, as row ids relative to the file's row-id range;
:mod:`.table_lookup` turns a table's index entries and a predicate into absolute row ids.
"""
