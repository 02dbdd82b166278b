meta:
  id: blob_file
  title: Paimon BLOB data file (.blob)
  license: Apache-2.0
  file-extension: blob
  endian: le
  imports: [varint]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java
doc: |
  One BLOB column of a data-evolution table, one record per row: the records back to back, then the
  index (one varint per row), then a 5-byte footer (index byte length, version). A record is
  magic | blob bytes | int64 record length (magic + bytes + 12) | CRC-32 of magic, bytes and record length.
  The index holds each row's record length (-1 for a null blob, which has no record) as the first
  value and then differences to the previous row's, ZigZag-mapped and written as base-128 varints
  (low groups first); record offsets are the running sum of the non-null lengths. Everything is
  found from the end of the file.
seq: []
instances:
  footer:
    pos: _io.size - sizeof<blob_footer>
    type: blob_footer
    -construct: skip
    doc: the last 5 bytes of the file
  index:
    pos: _io.size - sizeof<blob_footer> - footer.index_length
    size: footer.index_length
    type: blob_index
    -construct: skip
    doc: the per-row record lengths, delta + ZigZag + varint coded
types:
  blob_footer:
    doc: the fixed-size end of a blob file
    -fast-head:
      blob_footer: true
    seq:
      - id: index_length
        -orig-id: indexLength
        type: s4
        doc: byte length of the index just before the footer
      - id: version
        -orig-id: VERSION
        type: u1
        valid:
          any-of: [blob_file_version::v1.to_i]
        doc: file version, always 1
  blob_index:
    doc: one varint per row of the file, to the end of the (sized) index
    seq:
      - id: entries
        type: varint
        repeat: eos
        doc: ZigZag varint of the row's record length minus the previous row's (the first row - its own)
  blob_record:
    doc: one non-null blob, parsed from exactly its record's bytes (offset and length from the index)
    seq:
      - id: magic
        contents: [0xcf, 0x11, 0x4e, 0x58]
        doc: record magic (int32 1481511375, little-endian)
      - id: data
        size: _io.size - _io.pos - sizeof<blob_record_tail>
        doc: the blob's bytes (all of the record between its magic and its tail)
      - id: tail
        type: blob_record_tail
        doc: the record's length and checksum
  blob_record_tail:
    doc: the fixed-size end of a record
    -fast-head:
      blob_record_tail: true
    seq:
      - id: record_length
        -orig-id: binLength
        type: s8
        doc: byte length of the whole record (magic + data + this tail)
      - id: crc
        -orig-id: crcValue
        type: u4
        -dtype-name: BLOB_RECORD_CRC_DTYPE
        doc: CRC-32 of the magic, the data and the record length (every byte of the record before it)
enums:
  blob_file_version:
    1:
      id: v1
      doc: the only blob file version (Paimon 1.4)
