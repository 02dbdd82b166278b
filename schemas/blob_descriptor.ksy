meta:
  id: blob_descriptor
  title: Paimon serialized BlobDescriptor (version 2)
  license: Apache-2.0
  endian: le
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BlobDescriptor.java
doc: |
  Where one blob's bytes are: a file URI, an offset and a length. Paimon's engines hand a BLOB value out
  in this form under the table option blob-as-descriptor; the writer of 1.4 uses version 2, which
  carries the "BLOBDESC" magic after the version byte.
seq:
  - id: version
    -orig-id: version
    type: u1
    valid:
      any-of: [blob_descriptor_version::v2.to_i]
    doc: descriptor version (2 in Paimon 1.4)
  - id: magic
    contents: [0x43, 0x53, 0x45, 0x44, 0x42, 0x4f, 0x4c, 0x42]
    doc: int64 0x424C4F4244455343 ("BLOBDESC") little-endian
  - id: uri_length
    -orig-id: uriLength
    type: s4
    doc: byte length of the URI
  - id: uri
    type: str
    size: uri_length
    encoding: UTF-8
    doc: the file holding the blob
  - id: offset
    -orig-id: offset
    type: s8
    doc: position of the blob's first byte in the file
  - id: length
    -orig-id: length
    type: s8
    doc: byte length of the blob
enums:
  blob_descriptor_version:
    2:
      id: v2
      doc: the version Paimon 1.4 writes (version 1 had no magic)
