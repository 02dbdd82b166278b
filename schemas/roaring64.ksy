meta:
  id: roaring64
  title: Roaring64 portable serialisation (64-bit extension of RoaringFormatSpec)
  license: Apache-2.0
  endian: le
  imports: [roaring32]
doc-ref:
  - https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md#extension-for-64-bit-implementations
doc: |
  u64 bucket count, then per bucket a u32 high-32-bit key and a portable Roaring32 bitmap of
  the low 32 bits (each bitmap is self-delimiting).
seq:
  - id: bucket_count
    type: u8
    -dtype-name: BUCKET_COUNT_DTYPE
    doc: number of buckets that follow
  - id: buckets
    type: bucket
    repeat: expr
    repeat-expr: bucket_count
    doc: buckets in ascending key order
types:
  bucket:
    doc: one 32-bit bucket
    seq:
      - id: key
        type: u4
        -dtype-name: BUCKET_KEY_DTYPE
        doc: high 32 bits of every value in this bucket
      - id: bitmap
        type: roaring32
        doc: low 32 bits as a Roaring32 bitmap
