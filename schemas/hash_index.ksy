meta:
  id: hash_index
  title: Paimon dynamic-bucket hash index file (index type HASH)
  license: Apache-2.0
  endian: be
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/index/HashIndexFile.java
  - docs/FORMATS.md section 7
doc: |
  FORMATS.md 7.1: a flat sequence of int32 BE BinaryRow hash codes, no header (an empty file
  holds no hashes). Parsed in bulk as one numpy array.
seq:
  - id: hashes
    type: s4
    repeat: eos
    -dtype-name: HASH_DTYPE
    doc: the key hashes (MurmurHash3 x86_32, seed 42, of the key BinaryRow), in writer order
