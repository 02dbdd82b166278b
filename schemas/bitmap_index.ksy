meta:
  id: bitmap_index
  title: Paimon bitmap file index payload, V1 and V2
  license: Apache-2.0
  endian: be
  imports: [paimon_key]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMetaV2.java
  - docs/FORMATS.md section 2
doc: |
  FORMATS.md 2.3 / 2.4. The version byte switches between the legacy V1 layout (unsorted
  dictionary of key -> offset, no lengths) and V2 (sorted entries packed into index blocks that
  are positioned by a block directory and loadable one at a time). Offsets of bitmaps are
  relative to the bitmap body; a negative offset -1 - p encodes the singleton bitmap {p}.
-fast-head:
  bitmap_index_head: null_bitmap_length
params:
  - id: key_kind
    type: str
    doc: key kind of the indexed column (see paimon_key)
seq:
  - id: version
    -orig-id: version
    type: u1
    valid:
      any-of: [bitmap_index_version::v1.to_i, bitmap_index_version::v2.to_i]
    doc: 1 = V1 (legacy), 2 = V2 (default since Paimon 1.1.0)
  - id: row_count
    -orig-id: rowCount
    type: s4
    doc: number of rows indexed, nulls included
  - id: non_null_bitmap_number
    -orig-id: nonNullBitmapNumber
    type: s4
    -build: "len(this['entries']) if this['version'] == BITMAP_INDEX_VERSION_V1 else sum(len(b['entries']) for b in this['index_blocks']['blocks'])"
    doc: number of distinct non-null keys (singletons included)
  - id: has_null_value
    -orig-id: hasNullValue
    type: u1
    doc: 1 if at least one row is null
  - id: null_value_offset
    -orig-id: nullValueOffset
    type: s4
    if: has_null_value != 0
    doc: body offset of the null bitmap, or -1 - position for a single null
  - id: null_bitmap_length
    -orig-id: nullBitmapLength
    type: s4
    if: version == bitmap_index_version::v2.to_i and has_null_value != 0
    doc: V2 only - serialised size of the null bitmap (even when it is a singleton)
  - id: entries
    type: v1_entry(key_kind)
    repeat: expr
    repeat-expr: non_null_bitmap_number
    if: version == bitmap_index_version::v1.to_i
    doc: V1 dictionary, in Java HashMap order (not sorted)
  - id: v2_head
    type: bitmap_index_v2_head(key_kind)
    if: version == bitmap_index_version::v2.to_i
    doc: V2 block directory (first key and offset of each index block)
  - id: index_blocks
    type: index_blocks(key_kind)
    size: v2_head.bitmap_body_offset
    if: version == bitmap_index_version::v2.to_i
    doc: V2 index blocks back to back (each also reachable through its head's `block` instance)
  - id: body
    size-eos: true
    doc: the serialised Roaring32 bitmaps (null bitmap first when present), bulk bytes
types:
  v1_entry:
    doc: one V1 dictionary entry
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: key
        type: paimon_key(key_kind)
        doc: the key
      - id: offset
        -orig-id: offset
        type: s4
        doc: body offset of its bitmap, or -1 - position for a singleton
  bitmap_index_v2_head:
    doc: V2 block directory
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: index_block_count
        -orig-id: bitmapBlockNumber
        type: s4
        doc: number of index blocks
      - id: block_heads
        type: block_head(key_kind)
        repeat: expr
        repeat-expr: index_block_count
        doc: one head per index block, in key order
      - id: bitmap_body_offset
        -orig-id: bitmapBodyOffset
        type: s4
        doc: total size of the index blocks (the body starts this far after this field)
  block_head:
    doc: first key and position of one index block
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: key
        type: paimon_key(key_kind)
        doc: first key of the block
      - id: block_offset
        -orig-id: offset
        type: s4
        -build: "_rt.cached_offsets(this['_root'], 'index_blocks', this['_root']['index_blocks']['blocks'], lambda: _rt.WithParams(IndexBlock, key_kind=lambda t: t['_root']['_']['key_kind']))[this['_index']]"
        doc: offset of the block from the start of the index blocks
    instances:
      block:
        io: _parent._parent.index_blocks._io
        pos: block_offset
        type: index_block(key_kind)
        -construct: skip
        doc: the index block itself, parsed on demand
  index_blocks:
    doc: the V2 index blocks area
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: blocks
        type: index_block(key_kind)
        repeat: eos
        doc: index blocks in key order
  index_block:
    doc: one V2 index block
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: entry_count
        -orig-id: entryNum
        type: s4
        doc: number of entries in this block
      - id: entries
        type: v2_entry(key_kind)
        repeat: expr
        repeat-expr: entry_count
        doc: entries sorted by key
  v2_entry:
    doc: one V2 entry
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: key
        type: paimon_key(key_kind)
        doc: the key
      - id: offset
        -orig-id: offset
        type: s4
        doc: body offset of its bitmap, or -1 - position for a singleton
      - id: length
        -orig-id: length
        type: s4
        doc: serialised bitmap length, -1 for a singleton
enums:
  bitmap_index_version:
    1:
      id: v1
      doc: legacy V1 layout (unsorted dictionary, no lengths)
    2:
      id: v2
      doc: V2 layout (sorted index blocks, default since Paimon 1.1.0)
