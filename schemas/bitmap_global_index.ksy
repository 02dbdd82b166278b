meta:
  id: bitmap_global_index
  title: pypaimon bitmap global index file (dictionary of key -> Roaring64 row ids, footer magic "BGIX")
  license: Apache-2.0
  file-extension: index
  endian: be
  imports: [varint]
doc-ref:
  - docs/FORMATS.md section 14
  - https://pypi.org/project/pypaimon/2.1.0/
doc: |
  The bitmap global index as pypaimon 2.1 writes it (``pypaimon/globalindex/bitmap``; Paimon Java
  adopts the layout after 1.4 - Java 1.4.2's own bitmap global index is a bare bitmap file-index
  payload, bitmap_index.ksy). Front to back: the null-rows bitmap, the non-null-rows bitmap, per
  distinct key its rows bitmap (portable Roaring64), the dictionary blocks (stored blocks as in
  btree_global_index: bytes then a 5-byte compression + CRC32 trailer) mapping keys - ordered by
  their serialised bytes - to their bitmap, the index block mapping each dictionary block's first key
  to it, and the 48-byte big-endian footer. Row ids are relative to the file's row-id range start.
instances:
  footer:
    pos: _io.size - sizeof<bitmap_footer>
    type: bitmap_footer
    -construct: skip
    doc: the fixed-size footer at the end of the file
types:
  bitmap_footer:
    doc: where the null / non-null bitmaps and the index block are, and how many distinct keys there are
    -fast-head:
      bitmap_global_footer: true
    seq:
      - id: null_rows_offset
        type: s8
        doc: file offset of the null-rows bitmap
      - id: null_rows_length
        type: s4
        doc: byte size of the null-rows bitmap
      - id: non_null_rows_offset
        type: s8
        doc: file offset of the non-null-rows bitmap
      - id: non_null_rows_length
        type: s4
        doc: byte size of the non-null-rows bitmap
      - id: index_block_offset
        type: s8
        doc: file offset of the index block
      - id: index_block_length
        type: s4
        doc: byte size of the index block, without its 5-byte trailer
      - id: value_count
        type: s4
        doc: number of distinct non-null keys
      - id: version
        type: s4
        valid:
          any-of: [bitmap_global_index_version::v1.to_i]
        doc: file version, 1
      - id: magic
        contents: BGIX
        doc: int32 0x42474958 ("BGIX")
  index_block:
    doc: the decompressed index block - one reference per dictionary block
    seq:
      - id: block_count
        type: varint
        -build: "{'value': len(this['blocks'])}"
        doc: number of dictionary blocks
      - id: blocks
        type: dictionary_block_ref
        repeat: expr
        repeat-expr: block_count.value
        doc: the dictionary blocks, by first key
  dictionary_block_ref:
    doc: where one dictionary block is stored and its first key
    seq:
      - id: first_key_length
        type: varint
        -build: "{'value': len(this['first_key'])}"
        doc: byte length of the first key
      - id: first_key
        size: first_key_length.value
        doc: the block's first serialised key
      - id: offset
        type: varint
        doc: file offset of the stored dictionary block (varint long)
      - id: length
        type: varint
        doc: byte size of the stored block bytes, without the trailer
  dictionary_block:
    doc: a decompressed dictionary block - keys ascending by their serialised bytes
    seq:
      - id: entry_count
        type: varint
        -build: "{'value': len(this['entries'])}"
        doc: number of entries
      - id: entries
        type: dictionary_entry
        repeat: expr
        repeat-expr: entry_count.value
        doc: one entry per distinct key
  dictionary_entry:
    doc: one key and where its rows bitmap is
    seq:
      - id: key_length
        type: varint
        -build: "{'value': len(this['key'])}"
        doc: byte length of the key
      - id: key
        size: key_length.value
        doc: the serialised key (btree_global_index_key)
      - id: bitmap_offset
        type: varint
        doc: file offset of the key's rows bitmap (varint long)
      - id: bitmap_length
        type: varint
        doc: byte size of the bitmap (portable Roaring64, no trailer)
enums:
  bitmap_global_index_version:
    1:
      id: v1
      doc: the only file version
