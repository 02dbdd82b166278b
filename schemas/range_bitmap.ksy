meta:
  id: range_bitmap
  title: Paimon range-bitmap file index payload (since 1.3.0)
  license: Apache-2.0
  endian: be
  imports: [paimon_key]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/RangeBitmap.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/FixedLengthChunk.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/VariableLengthChunk.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java
  - docs/FORMATS.md section 4
doc: |
  FORMATS.md 4: a header, a chunked sorted dictionary (key -> dense code) and a bit-sliced index
  (BSI) of the code of every row. Keys use the same encoding as the bitmap index (DECIMAL as the
  unscaled int64, timestamps as millis/micros, FLOAT/DOUBLE as raw IEEE bits).
-fast-head:
  range_bitmap_prefix: header_length
params:
  - id: key_kind
    type: str
    doc: key kind of the indexed column (see paimon_key)
seq:
  - id: header_length
    -orig-id: headerLength
    type: s4
    doc: byte length of the header that follows
  - id: header
    type: range_bitmap_header(key_kind)
    size: header_length
    doc: version, counts, min/max key and the dictionary length
  - id: dictionary
    type: dictionary(key_kind)
    size: header.dictionary_length
    doc: the chunked dictionary
  - id: bsi
    type: bit_sliced_index
    size-eos: true
    doc: the bit-sliced index of row codes
types:
  range_bitmap_header:
    doc: range-bitmap header
    -fast-head:
      range_bitmap_header_counts: [version, cardinality]
      range_bitmap_header_dictionary_length: [dictionary_length, dictionary_length]
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: version
        -orig-id: version
        type: u1
        -dtype-name: RANGE_BITMAP_VERSION_DTYPE
        -at-name: RANGE_BITMAP_VERSION_AT
        valid:
          any-of: [range_bitmap_version::v1.to_i]
        doc: format version, 1
      - id: row_count
        -orig-id: rid
        type: s4
        doc: rows written, nulls included
      - id: cardinality
        -orig-id: cardinality
        type: s4
        doc: number of distinct non-null keys
      - id: min
        type: paimon_key(key_kind)
        if: cardinality > 0
        doc: smallest key
      - id: max
        type: paimon_key(key_kind)
        if: cardinality > 0
        doc: largest key
      - id: dictionary_length
        -orig-id: dictionaryLength
        type: s4
        doc: byte length of the dictionary
  dictionary:
    doc: chunked dictionary; codes are 0..cardinality-1 in ascending key order
    -fast-head:
      dictionary_prefix: dict_header_length
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: dict_header_length
        -orig-id: headerLength
        type: s4
        doc: byte length of the dictionary header (13)
      - id: dict_header
        type: dictionary_header
        size: dict_header_length
        doc: dictionary header
      - id: offsets
        type: s4
        repeat: expr
        repeat-expr: dict_header.chunk_count
        doc: start of each chunk header inside the chunks area
      - id: chunks
        type: chunks(key_kind)
        size: dict_header.chunks_length
        doc: chunk headers back to back
      - id: keys
        size-eos: true
        doc: the per-chunk key regions back to back (bulk; decoded by the semantic layer)
  dictionary_header:
    doc: dictionary header
    -fast-head:
      dictionary_header: true
    seq:
      - id: version
        -orig-id: version
        type: u1
        -dtype-name: DICTIONARY_VERSION_DTYPE
        -at-name: DICTIONARY_VERSION_AT
        valid:
          any-of: [dictionary_version::v1.to_i]
        doc: dictionary version, 1
      - id: chunk_count
        -orig-id: size
        type: s4
        doc: number of chunks
      - id: offsets_length
        -orig-id: offsetsLength
        type: s4
        -build: "4 * this['chunk_count']"
        doc: byte length of the chunk offsets (4 per chunk)
      - id: chunks_length
        -orig-id: chunksLength
        type: s4
        doc: byte length of the chunk headers area
  chunks:
    doc: the chunk headers area
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: chunks
        type: chunk(key_kind)
        repeat: eos
        doc: chunk headers in key order
  chunk:
    doc: one chunk header (fixed-length keys, or variable-length keys for strings)
    -fast-head:
      chunk: true
    -dtypes: CHUNK_DTYPES
    params:
      - id: key_kind
        type: str
        doc: key kind
    seq:
      - id: version
        -orig-id: version
        type: u1
        doc: chunk version, 1
      - id: key
        type: paimon_key(key_kind)
        doc: first key of the chunk
      - id: code
        -orig-id: code
        type: s4
        doc: code of the first key; the chunk's other keys have the following codes
      - id: keys_offset
        -orig-id: offset
        type: s4
        doc: offset of this chunk's key region from the start of the dictionary keys
      - id: size
        -orig-id: size
        type: s4
        doc: number of additional keys stored in the key region
      - id: offsets_length
        -orig-id: offsetsLength
        type: s4
        if: key_kind == "string"
        doc: variable-length chunk - byte length of the key offsets (4 per key)
      - id: keys_length
        -orig-id: keysLength
        type: s4
        doc: byte length of the serialised keys
      - id: fixed_length
        -orig-id: fixedLength
        type: s4
        if: key_kind != "string"
        doc: fixed-length chunk - byte length of one key
  variable_chunk_keys:
    doc: |
      the key region of one variable-length (string) chunk, at the chunk's keys_offset in the dictionary's
      keys: its keys' offsets, then the keys (VariableLengthChunk). The dictionary keeps the regions as bulk
      bytes (a region's length is in its chunk header, not in front of it); the semantic layer reads one
      region at a time with this type.
    params:
      - id: key_count
        type: s4
        doc: the chunk's size (its keys after the first, which is in the header)
    seq:
      - id: key_offsets
        type: s4
        repeat: expr
        repeat-expr: key_count
        doc: start of each key inside keys (the chunk's offsets_length is 4 per key)
      - id: keys
        size-eos: true
        doc: the keys in their paimon_key string form, back to back (the chunk's keys_length bytes)
  bit_sliced_index:
    doc: bit-sliced index of the row codes
    -fast-head:
      bit_sliced_index_head: bsi_header
      bit_sliced_index_prefix: bsi_header_length
    seq:
      - id: bsi_header_length
        -orig-id: headerLength
        type: s4
        doc: byte length of the BSI header
      - id: bsi_header
        type: bsi_header
        size: bsi_header_length
        doc: BSI header
      - id: ebm
        size: bsi_header.ebm_length
        doc: existence bitmap (Roaring32 of non-null rows, bulk)
      - id: slices
        size-eos: true
        doc: the slice bitmaps back to back (Roaring32 each, bulk; located by slice_refs)
  bsi_header:
    doc: BSI header
    -fast-head:
      bsi_header_fixed: indexes_length
    seq:
      - id: version
        -orig-id: version
        type: u1
        -dtype-name: BSI_HEADER_VERSION_DTYPE
        -at-name: BSI_HEADER_VERSION_AT
        valid:
          any-of: [bit_slice_index_version::v1.to_i]
        doc: BSI version, 1
      - id: slice_count
        -orig-id: slices.length
        type: u1
        doc: number of slices (ONE byte; 64 when the cardinality is 0)
      - id: ebm_length
        -orig-id: ebmLength
        type: s4
        doc: byte length of the existence bitmap
      - id: indexes_length
        -orig-id: indexesLength
        type: s4
        -build: "8 * len(this['slice_refs'])"
        doc: byte length of the slice directory (8 per slice)
      - id: slice_refs
        type: slice_ref
        repeat: expr
        repeat-expr: slice_count
        doc: where each slice bitmap is
  slice_ref:
    doc: position of one slice bitmap
    seq:
      - id: offset
        -orig-id: offset
        type: s4
        doc: offset from the end of the existence bitmap
      - id: length
        -orig-id: length
        type: s4
        doc: byte length of the slice bitmap
enums:
  range_bitmap_version:
    1:
      id: v1
      doc: the only range-bitmap payload version
  dictionary_version:
    1:
      id: v1
      doc: the only chunked-dictionary version
  chunk_version:
    1:
      id: v1
      doc: the only chunk version
  bit_slice_index_version:
    1:
      id: v1
      doc: the only bit-sliced index version
