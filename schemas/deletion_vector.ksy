meta:
  id: deletion_vector
  title: One Paimon deletion vector entry (size | bin | crc32)
  license: Apache-2.0
  endian: be
  imports: [roaring32]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/BitmapDeletionVector.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
  - docs/FORMATS.md section 6
doc: |
  FORMATS.md 6.1 / 6.2: one serialised deletion vector as it sits in a DELETION_VECTORS index
  file. The framing is big-endian; the magic at the start of the bin chooses the 32-bit
  (big-endian magic + Roaring32) or the 64-bit (little-endian magic + little-endian bitmap array)
  flavour.
-fast-head:
  deletion_vector_entry: true
seq:
  - id: size
    -orig-id: size
    type: s4
    -dtype-name: DV_SIZE_DTYPE
    doc: byte length of the bin (magic included, size and crc excluded)
  - id: bin
    type: dv_bin
    size: size
    doc: the deletion vector
  - id: crc
    -orig-id: checksum
    type: s4
    -dtype-name: DV_CRC_DTYPE
    -build: "_rt.crc32_signed(_rt.built(this, 'bin', lambda: DvBin))"
    doc: CRC-32 (java.util.zip.CRC32) of the bin bytes, as a signed int
types:
  dv_bin:
    doc: a deletion-vector bin; the magic chooses its flavour
    seq:
      - id: magic
        -orig-id: MAGIC_NUMBER
        type: u4be
        -dtype-name: DV_MAGIC_DTYPE
        valid:
          any-of: [dv_magic::bitmap32.to_i, dv_magic::bitmap64.to_i]
        doc: 0x5e43f2d0 (1581511376 BE) = 32-bit; 0xd1d33964 (1681511377 LE) = 64-bit
      - id: bitmap
        doc: the positions
        type:
          switch-on: magic
          cases:
            dv_magic::bitmap32.to_i: dv32_bin
            dv_magic::bitmap64.to_i: dv64_bin
  dv32_bin:
    doc: 32-bit deletion vector body
    seq:
      - id: roaring
        size-eos: true
        doc: Roaring32 portable bitmap of deleted positions (bulk)
  dv64_bin:
    doc: 64-bit deletion vector body (Iceberg compatible)
    seq:
      - id: bitmap_count
        type: s8le
        -dtype-name: DV64_BITMAP_COUNT_DTYPE
        doc: number of 32-bit buckets (dense from key 0)
      - id: bitmaps
        type: dv64_bucket
        repeat: expr
        repeat-expr: bitmap_count
        doc: the buckets in key order
  dv64_bucket:
    doc: positions whose high 32 bits equal key
    seq:
      - id: key
        type: s4le
        -dtype-name: DV64_BUCKET_KEY_DTYPE
        doc: high 32 bits
      - id: roaring
        type: roaring32
        doc: low 32 bits as a Roaring32 bitmap (self-delimiting)
enums:
  dv_magic:
    0x5e43f2d0:
      id: bitmap32
      doc: 32-bit deletion vector, the int32 magic 1581511376 written big-endian
    0xd1d33964:
      id: bitmap64
      doc: 64-bit deletion vector, the int32 magic 1681511377 written little-endian (read here as u4be)
  dv_java_magic:
    1581511376:
      id: bitmap32
      doc: BitmapDeletionVector.MAGIC_NUMBER, Paimon's Java int; written big-endian (those 4 bytes read as u4be are dv_magic::bitmap32)
    1681511377:
      id: bitmap64
      doc: Bitmap64DeletionVector.MAGIC_NUMBER, Paimon's Java int; written little-endian (those 4 bytes read as u4be are dv_magic::bitmap64)
