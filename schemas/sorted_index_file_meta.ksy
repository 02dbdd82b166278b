meta:
  id: sorted_index_file_meta
  title: Paimon sorted global-index file meta (the _INDEX_META of a B-tree or bitmap _GLOBAL_INDEX entry)
  license: Apache-2.0
  endian: le
doc-ref:
  - docs/FORMATS.md section 14
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexMeta.java
  - https://pypi.org/project/pypaimon/2.1.0/
doc: |
  Carried in the index manifest (``_GLOBAL_INDEX._INDEX_META``) of every B-tree and (pypaimon) bitmap
  global-index file: the smallest and largest serialised key and whether a key is null. Java 1.4.2
  (``BTreeIndexMeta``) writes a length of 0 for an absent key and stops after ``has_nulls``;
  ``SortedIndexFileMeta`` (pypaimon 2.1, later Java) appends a format version and flags saying which
  keys are absent, so that an empty key is told from no key.
seq:
  - id: first_key_length
    -orig-id: firstKey.length
    type: s4
    doc: byte length of the first key (0 - no key, unless the flags say otherwise)
  - id: first_key
    size: first_key_length
    doc: the smallest serialised key of the file (btree_global_index_key)
  - id: last_key_length
    -orig-id: lastKey.length
    type: s4
    doc: byte length of the last key
  - id: last_key
    size: last_key_length
    doc: the largest serialised key of the file
  - id: has_nulls
    -orig-id: hasNulls
    type: u1
    doc: 1 when some row of the file has a null key
  - id: format_version
    -orig-id: FORMAT_VERSION_WITH_NULL_FLAGS
    type: u1
    if: not _io.eof
    valid:
      any-of: [sorted_index_file_meta_version::with_null_flags.to_i]
    doc: absent in Java 1.4.2's BTreeIndexMeta; 1 - null-key flags follow
  - id: null_key_flags
    -orig-id: nullKeyFlags
    type: u1
    if: not _io.eof
    doc: bit 0 - the first key is absent, bit 1 - the last key is absent
enums:
  sorted_index_file_meta_version:
    1:
      id: with_null_flags
      doc: null-key flags follow
  null_key_flag:
    1:
      id: first_key_is_null
      doc: FIRST_KEY_IS_NULL
    2:
      id: last_key_is_null
      doc: LAST_KEY_IS_NULL
