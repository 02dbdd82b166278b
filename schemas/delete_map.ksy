meta:
  id: delete_map
  title: Legacy DELETE_MAP index file (proposal, seed 003)
  license: Apache-2.0
  endian: be
doc-ref:
  - docs/FORMATS.md section 6.4 (the DELETE_MAP proposal, never shipped in Paimon)
doc: |
  The proposed (never shipped) variant-2 layout: a map header with the file names padded to
  the longest name, each with the start and size of its bitmap, followed by the bitmaps.
-fast-head:
  delete_map_head: max_name_length
seq:
  - id: entry_count
    type: s4
    doc: number of map entries
  - id: max_name_length
    type: s4
    -build: "max([len(e['name'].encode('utf-8')) for e in this['entries']], default=0)"
    doc: byte length of the longest file name (every name is padded to it)
  - id: entries
    type: delete_map_entry
    repeat: expr
    repeat-expr: entry_count
    doc: the map entries
  - id: bitmaps
    size-eos: true
    doc: the serialised bitmaps (bulk)
types:
  delete_map_entry:
    doc: one data file and where its bitmap is
    -fast-head:
      delete_map_entry_range: [start, size]
    seq:
      - id: name
        type: str
        size: _parent.max_name_length
        pad-right: 0
        encoding: UTF-8
        doc: data file name, zero-padded to max_name_length
      - id: start
        type: s4
        doc: starting position of the serialised bitmap
      - id: size
        type: s4
        doc: size of the serialised bitmap
