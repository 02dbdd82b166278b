meta:
  id: serialized_binary_row
  title: Paimon serialized BinaryRow (arity + row), as manifests store rows
  license: Apache-2.0
  endian: be
  imports: [binary_row]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/SerializationUtils.java
  - docs/FORMATS.md section 8
doc: |
  `SerializationUtils.serializeBinaryRow`: the manifest fields `_PARTITION`, `_MIN_KEY` / `_MAX_KEY`
  and the value / key statistics (`_MIN_VALUES`, `_MAX_VALUES`) hold a row as its arity, big-endian,
  then the BinaryRow bytes.
seq:
  - id: head
    type: serialized_head
    doc: the arity
  - id: row
    type: binary_row(head.arity)
    size-eos: true
    doc: the BinaryRow
types:
  serialized_head:
    -struct-formats: SERIALIZED_HEAD_STRUCT
    doc: what precedes the row
    seq:
      - id: arity
        type: s4
        doc: number of fields of the row
