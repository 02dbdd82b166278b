meta:
  id: btree_global_index
  title: Paimon B-tree global index file (sorted-string table of key -> row ids, footer magic 0x50425449)
  license: Apache-2.0
  file-extension: index
  endian: le
  imports: [varint]
doc-ref:
  - docs/FORMATS.md section 14
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeFileFooter.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexWriter.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/BlockWriter.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/SstFileWriter.java
doc: |
  One file per (indexed column, row-id range) of a data-evolution table, written by Paimon Java's and
  pypaimon's B-tree global-index writers (``index/btree-global-index-<uuid>.index``). Front to back:
  data blocks, each a stored block (block bytes + 5-byte trailer: compression, CRC32); the null
  bitmap (portable Roaring64 of the rows whose key is null, then its CRC32); an optional bloom filter
  over the keys; the index block (a stored block whose entries map the last key of each data block to
  that block's handle); the 52-byte footer. Once decompressed, a block is its entries (varint key
  length, key, varint value length, value) then either a fixed record size (aligned block) or one
  u4 start offset per entry and their count (unaligned block), then the aligned-type byte. A data
  entry's key is the serialised column value (btree_global_index_key), its value the row ids holding
  it, relative to the file's row-id range start.
instances:
  footer:
    pos: _io.size - sizeof<btree_footer>
    type: btree_footer
    -construct: skip
    doc: the fixed-size footer at the end of the file
  index_block:
    pos: footer.index_block_offset
    type: stored_block(footer.index_block_size)
    -construct: skip
    doc: the index block (possibly compressed) and its trailer
  null_bitmap:
    pos: footer.null_bitmap_offset
    type: null_bitmap(footer.null_bitmap_size)
    if: footer.null_bitmap_size != 0
    -construct: skip
    doc: the null bitmap and its CRC32, when some key is null
types:
  btree_footer:
    doc: BTreeFileFooter - handles of the bloom filter, index block and null bitmap (all zero when absent)
    -fast-head:
      btree_footer: true
    seq:
      - id: bloom_filter_offset
        -orig-id: bloomFilterHandle.offset()
        type: u8
        doc: file offset of the bloom filter (0 with size 0 and expected entries 0 = none)
      - id: bloom_filter_size
        -orig-id: bloomFilterHandle.size()
        type: u4
        doc: byte size of the bloom filter
      - id: bloom_filter_expected_entries
        -orig-id: bloomFilterHandle.expectedEntries()
        type: u8
        doc: number of keys the bloom filter was sized for
      - id: index_block_offset
        -orig-id: indexBlockHandle.offset()
        type: u8
        doc: file offset of the index block
      - id: index_block_size
        -orig-id: indexBlockHandle.size()
        type: u4
        doc: byte size of the index block, without its 5-byte trailer
      - id: null_bitmap_offset
        -orig-id: nullBitmapHandle.offset()
        type: u8
        doc: file offset of the null bitmap (0 with size 0 = no null key)
      - id: null_bitmap_size
        -orig-id: nullBitmapHandle.size()
        type: u4
        doc: byte size of the serialised null bitmap, without its CRC32
      - id: version
        -orig-id: version
        type: u4
        valid:
          any-of: [btree_footer_version::v1.to_i]
        doc: footer version, 1
      - id: magic
        contents: [0x49, 0x54, 0x42, 0x50]
        doc: int32 0x50425449 ("PBTI") little-endian
  block_trailer:
    doc: BlockTrailer - how a stored block is compressed and its checksum
    -fast-head:
      block_trailer: true
    seq:
      - id: compression
        -orig-id: compressionType
        type: u1
        enum: block_compression
        doc: block compression (0 none, 1 zstd, 2 lz4, 3 lzo)
      - id: crc32
        -orig-id: crc32c
        type: u4
        -at-name: BLOCK_TRAILER_CRC32_AT
        doc: CRC32 (java.util.zip.CRC32) of the stored block bytes followed by the compression byte
  stored_block:
    doc: one block as stored in the file - its (compressed) bytes then the trailer
    params:
      - id: size
        type: u4
        doc: byte size of the stored block bytes (the block handle's size)
    seq:
      - id: data
        size: size
        doc: the block bytes; when compressed, a varint uncompressed length then the codec's output
      - id: trailer
        type: block_trailer
        doc: compression and CRC32 of ``data``
  compressed_block:
    doc: the bytes of a compressed stored block (compression != none)
    seq:
      - id: uncompressed_size
        type: varint
        doc: byte size of the block once decompressed
      - id: payload
        size-eos: true
        doc: the compressor's output (a zstd frame; lz4 / lzo add an 8-byte length header)
  block_tail:
    doc: the last 5 bytes of a decompressed block
    -fast-head:
      block_tail: true
    seq:
      - id: record_size_or_count
        -orig-id: alignedSize
        type: u4
        doc: aligned block - the size of every entry; unaligned block - the number of entries
      - id: aligned_type
        -orig-id: aligned
        type: u1
        enum: block_aligned_type
        doc: 0 aligned (entries of one size), 1 unaligned (an offset table precedes this tail)
  entry_offset:
    doc: one slot of an unaligned block's offset table
    -dtypes: ENTRY_OFFSET_DTYPE
    seq:
      - id: offset
        -orig-id: positions
        type: u4
        doc: start of the entry within the block
  entry:
    doc: one key-value entry of a block
    -fast-head:
      entry: true
    seq:
      - id: key_length
        type: varint
        -build: "{'value': len(this['key'])}"
        doc: byte length of the key
      - id: key
        size: key_length.value
        doc: the key bytes (data block - a serialised column value; index block - a data block's last key)
      - id: value_length
        type: varint
        -build: "{'value': len(this['value'])}"
        doc: byte length of the value
      - id: value
        size: value_length.value
        doc: the value bytes (data block - row_ids; index block - block_handle)
  block_handle:
    doc: the value of an index-block entry - where a data block is stored
    -fast-head:
      block_handle: true
    seq:
      - id: offset
        type: varint
        doc: file offset of the stored block (varint long)
      - id: size
        type: varint
        doc: byte size of the stored block bytes, without the trailer
  row_ids:
    doc: the value of a data-block entry - the rows holding the key
    seq:
      - id: count
        type: varint
        -build: "{'value': len(this['row_ids'])}"
        doc: number of row ids that follow (at least 1)
      - id: row_ids
        type: varint
        repeat: expr
        repeat-expr: count.value
        doc: row ids relative to the row-id range start, ascending (varint longs)
  null_bitmap:
    doc: the rows whose key is null, with a checksum
    params:
      - id: size
        type: u4
        doc: byte size of the serialised bitmap (the footer's null_bitmap_size)
    seq:
      - id: bitmap
        size: size
        doc: portable Roaring64 serialisation (roaring64.ksy) of the relative row ids
      - id: crc32
        -orig-id: crc32.getValue()
        type: u4
        -dtype-name: NULL_BITMAP_CRC32_DTYPE
        doc: CRC32 (java.util.zip.CRC32) of ``bitmap``
enums:
  btree_footer_version:
    1:
      id: v1
      doc: the only footer version
  block_compression:
    0: none
    1: zstd
    2: lz4
    3: lzo
  block_aligned_type:
    0: aligned
    1: unaligned
