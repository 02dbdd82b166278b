meta:
  id: bloom_filter
  title: Paimon bloom-filter file index payload (BloomFilter64)
  license: Apache-2.0
  endian: be
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/BloomFilterFileIndex.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BloomFilter64.java
  - docs/FORMATS.md section 3
doc: |
  FORMATS.md 3: int32 number of hash functions followed by the bit set (bit i in byte i >> 3,
  mask 1 << (i & 7)); num_bits = 8 * len(bit_set). No version byte, no item count.
-fast-head:
  bloom_filter_head: num_hash_functions
seq:
  - id: num_hash_functions
    -orig-id: numHashFunctions
    type: s4
    doc: k, the number of probes per value
  - id: bit_set
    size-eos: true
    doc: the bit set bytes (bulk; probed by the semantic layer)
