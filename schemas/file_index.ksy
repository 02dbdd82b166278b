meta:
  id: file_index
  title: Paimon file index container (FileIndexFormat, version 1)
  license: Apache-2.0
  file-extension: index
  endian: be
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
  - docs/FORMATS.md section 1
doc: |
  One container per data file, embedded in the manifest or stored as `<data file>.index`
  (FORMATS.md 1). A head lists, per column, each index type with the absolute start and length
  of its payload; the body is the payloads back to back in head order.
-fast-head:
  file_index: true
  file_index_prefix: head_length
seq:
  - id: magic
    contents: [0x00, 0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xae]
    -contents-int: true
    doc: int64 magic 1493475289347502
  - id: version
    -orig-id: version
    type: s4
    valid:
      any-of: [file_index_version::v1.to_i]
    doc: container version, always 1
  - id: head_length
    -orig-id: headLength
    type: s4
    -fast-build: seq-size
    -build: "24 + len(this['redundant']) + sum(6 + len(_rt.mutf8_encode(c['column_name'])) + sum(10 + len(_rt.mutf8_encode(i['index_type'])) for i in c['indexes']) for c in this['columns'])"
    doc: size of everything before the body, magic included; equals the absolute body start
  - id: column_count
    -orig-id: columnSize
    type: s4
    doc: number of columns that follow
  - id: columns
    type: column
    repeat: expr
    repeat-expr: column_count
    doc: the indexed columns, in writer (HashMap) order
  - id: redundant_length
    -orig-id: REDUNDANT_LENGTH
    type: s4
    doc: length of the reserved region, 0 in version 1
  - id: redundant
    size: redundant_length
    doc: reserved bytes (empty in version 1)
types:
  java_utf:
    -construct: "_rt.JavaUtf()"
    -fast-runtime: java_utf
    -plain: mutf8
    doc: DataOutput.writeUTF string - u16 byte length + Java modified UTF-8
    seq:
      - id: len
        type: u2
        doc: byte length of the modified UTF-8 that follows
      - id: value
        size: len
        doc: modified UTF-8 bytes (U+0000 as C0 80, supplementary characters as two 3-byte surrogates)
  column:
    doc: one column and its indexes
    seq:
      - id: column_name
        type: java_utf
        doc: column name (`mapcol[key]` for map sub-columns)
      - id: index_count
        -orig-id: indexSize
        type: s4
        doc: number of index entries for this column
      - id: indexes
        type: index_entry
        repeat: expr
        repeat-expr: index_count
        doc: the index entries of this column
  index_entry:
    doc: one (column, index type) entry of the head
    seq:
      - id: index_type
        type: java_utf
        doc: index type name (bitmap, bloom-filter, range-bitmap, bsi)
      - id: start
        -orig-id: startPosition
        type: s4
        -build: "-1 if this.get('payload') is None else this['_root']['head_length'] + sum(len(i2.get('payload') or b'') for c2 in this['_root']['columns'][:this['_']['_']['_index']] for i2 in c2['indexes']) + sum(len(i2.get('payload') or b'') for i2 in this['_']['indexes'][:this['_']['_index']])"
        doc: absolute offset of the payload in the container, or -1 (EMPTY_INDEX_FLAG)
      - id: length
        -orig-id: length
        type: s4
        -build: "0 if this.get('payload') is None else len(this['payload'])"
        doc: payload length in bytes (0 with start = -1)
    instances:
      payload:
        io: _root._io
        pos: start
        size: length
        if: start >= 0
        doc: the index payload (bitmap / bloom-filter / range-bitmap / bsi bytes); absent for an empty index
enums:
  file_index_version:
    1:
      id: v1
      doc: the only container version
