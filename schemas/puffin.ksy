meta:
  id: puffin
  title: Apache Iceberg Puffin file framing (deletion-vector-v1 blobs)
  license: Apache-2.0
  file-extension: puffin
  endian: le
doc-ref:
  - https://iceberg.apache.org/puffin-spec/
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java
doc: |
  Iceberg's puffin-spec: "PFA1" | blob ... | footer, the footer being
  "PFA1" | FooterPayload (UTF-8 JSON FileMetadata) | int32 payload size | 4 flag bytes | "PFA1".
  The footer is found from the end of the file: the fixed 12-byte tail gives the payload size.
  Blobs are located by the JSON (absolute offset and length); a deletion-vector-v1 blob is a Paimon
  64-bit deletion vector entry (schemas/deletion_vector.ksy).
seq:
  - id: magic
    contents: PFA1
    doc: leading file magic
instances:
  footer_tail:
    pos: _io.size - sizeof<puffin_footer_tail>
    type: puffin_footer_tail
    -construct: skip
    doc: the fixed-size end of the file (payload size, flags, trailing magic)
  footer:
    pos: _io.size - sizeof<puffin_footer_tail> - footer_tail.payload_size - magic.size
    type: puffin_footer(footer_tail.payload_size)
    -construct: skip
    doc: the footer (magic + JSON payload) just before the tail
types:
  puffin_footer_tail:
    doc: the last 12 bytes of a Puffin file
    -fast-head:
      puffin_footer_tail: true
    seq:
      - id: payload_size
        type: s4
        doc: byte length of the footer payload (JSON)
      - id: flags
        type: u4
        -at-name: PUFFIN_FOOTER_FLAGS_AT
        doc: footer flags; bit 0 of the first byte = payload compressed (LZ4)
      - id: magic
        contents: PFA1
        doc: trailing file magic
  puffin_footer:
    doc: footer magic and the UTF-8 JSON FileMetadata payload
    -fast-head:
      puffin_footer_magic: magic
    params:
      - id: payload_size
        type: s4
        doc: byte length of the payload (from the tail)
    seq:
      - id: magic
        contents: PFA1
        doc: footer magic
      - id: payload
        size: payload_size
        doc: FileMetadata JSON ({"blobs":[...], "properties":{...}}), UTF-8
enums:
  puffin_footer_flags:
    1:
      id: payload_compressed
      doc: FooterPayloadCompressed (byte 0, bit 0) - LZ4-compressed JSON, refused by this reader
