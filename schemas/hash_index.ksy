meta:
  id: hash_index
  title: Paimon dynamic-bucket hash index file (index type HASH)
  endian: be
doc: |
  FORMATS.md 7.1: a flat sequence of int32 BE BinaryRow hash codes, no header (an empty file
  holds no hashes). Parsed in bulk as one numpy array.
seq:
  - id: hashes
    type: s4
    repeat: eos
    -dtype-name: HASH_DTYPE
    doc: the key hashes (MurmurHash3 x86_32, seed 42, of the key BinaryRow), in writer order
