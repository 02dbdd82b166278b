meta:
  id: bloom_filter
  title: Paimon bloom-filter file index payload (BloomFilter64)
  endian: be
doc: |
  FORMATS.md 3: int32 number of hash functions followed by the bit set (bit i in byte i >> 3,
  mask 1 << (i & 7)); num_bits = 8 * len(bit_set). No version byte, no item count.
seq:
  - id: num_hash_functions
    type: s4
    doc: k, the number of probes per value
  - id: bit_set
    size-eos: true
    doc: the bit set bytes (bulk; probed by the semantic layer)
