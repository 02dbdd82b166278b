meta:
  id: deletion_vectors
  title: Paimon DELETION_VECTORS index file
  license: Apache-2.0
  endian: be
  imports: [deletion_vector]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
  - docs/FORMATS.md section 6.1
doc: |
  FORMATS.md 6.1: a version byte, then one `size | bin | crc32` entry per data file. Which data
  file an entry belongs to is recorded in the index manifest (offset of the size field, length).
-fast-head:
  deletion_vectors_version: version
seq:
  - id: version
    -orig-id: VERSION_ID_V1
    type: u1
    -dtype-name: DELETION_VECTORS_VERSION_DTYPE
    valid:
      any-of: [deletion_vectors_version::v1.to_i]
    doc: file version, always 1
  - id: entries
    type: deletion_vector
    repeat: eos
    doc: the deletion vectors in write order
enums:
  deletion_vectors_version:
    1:
      id: v1
      doc: the only DELETION_VECTORS index file version
