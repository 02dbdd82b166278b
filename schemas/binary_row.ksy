meta:
  id: binary_row
  title: Paimon BinaryRow (header, null bits, 8-byte slots, variable part)
  license: Apache-2.0
  endian: le
-export-values: true
-fast-head:
  binary_row_kind: row_kind
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinarySection.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java
  - docs/FORMATS.md section 7.2
doc: |
  FORMATS.md 7.2: a row of `arity` fields. The fixed part is the header word (the row kind in its
  first byte, then the null bits: field i is null when bit i of `null_bits` is set, i.e. bit i + 8 of
  the header words) padded to whole 8-byte words, then one 8-byte slot per field; the variable part
  follows. How a slot holds its field is the `slot` type: a primitive in its low bytes, a string or
  binary of at most 7 bytes inline (`inline_slot`), or a `reference` (offset from the row's first byte
  | length) into the variable part, which holds longer strings / binaries (zero-padded to whole words),
  the 8 bytes of epoch millis of a TIMESTAMP(p > 3) (the reference's low half is then the nanos of the
  millisecond) and the 16 reserved bytes of a DECIMAL(p > 18) (`BigInteger.toByteArray()` of the
  unscaled value, big-endian, at the front). A null field has a zero slot; a null wide TIMESTAMP /
  DECIMAL still reserves its bytes (reference length 0).
params:
  - id: arity
    type: s4
    doc: number of fields (not stored in the row; the serialized form stores it in front)
seq:
  - id: row_kind
    type: u1
    valid:
      any-of: [row_kind::insert.to_i, row_kind::update_before.to_i, row_kind::update_after.to_i, row_kind::delete.to_i]
    doc: RowKind (row_kind enum); 0 for keys, partitions and statistics rows; another byte is not a row Paimon wrote
  - id: null_bits
    size: null_bits_size
    doc: bit i (byte i / 8, bit i % 8) set = field i is null; zero padding to the end of the header words
  - id: slots
    type: u8
    repeat: expr
    repeat-expr: arity
    doc: one 8-byte slot per field, read as the field's slot kind says (the slot type)
  - id: var_part
    size-eos: true
    doc: the variable part, addressed by references relative to the row's first byte
instances:
  null_bits_size:
    value: ((arity + 63 + 8) / 64) * 8 - 1
    doc: bytes of null bits after the row-kind byte (the header is whole 8-byte words)
  fixed_size:
    value: 1 + null_bits_size + 8 * arity
    doc: bytes of the fixed part (header words and slots); references point at or after it
types:
  slot:
    -struct-formats: SLOT_STRUCTS
    doc: one field's 8-byte slot, as its kind reads it
    params:
      - id: kind
        type: u1
        doc: a slot_kind
    seq:
      - id: value
        size: 8
        doc: the field's value in the slot's low bytes (zero above them), or an inline / reference form
        type:
          switch-on: kind
          cases:
            slot_kind::boolean.to_i: u1
            slot_kind::tinyint.to_i: s1
            slot_kind::smallint.to_i: s2
            slot_kind::int.to_i: s4
            slot_kind::bigint.to_i: s8
            slot_kind::float.to_i: f4
            slot_kind::double.to_i: f8
            slot_kind::inline.to_i: inline_slot
            slot_kind::reference.to_i: reference
  inline_slot:
    -export-values: true
    doc: a string / binary of at most 7 bytes kept in its slot
    seq:
      - id: data
        size: 7
        doc: the value's bytes, zero after its length
      - id: marker
        type: u1
        doc: inline_marker::flag | length; the flag clear means the slot is a reference
    instances:
      is_inline:
        value: (marker & inline_marker::flag.to_i) != 0
        doc: the slot holds its value inline
      length:
        value: marker & 0x7f
        doc: bytes of data that are the value
  reference:
    doc: a reference into the variable part (offset << 32 | length as one little-endian long)
    seq:
      - id: length
        type: u4
        doc: byte length of a string / binary / wide decimal; nanos of the millisecond of a wide timestamp
      - id: offset
        type: u4
        doc: position of the bytes, from the row's first byte (its top bit is clear, unlike an inline marker)
  wide_timestamp:
    -struct-formats: WIDE_TIMESTAMP_STRUCT
    doc: the variable-part bytes of a TIMESTAMP(p > 3)
    seq:
      - id: millis
        type: s8
        doc: epoch milliseconds (the nanos of the millisecond are the reference's length half)
enums:
  row_kind:
    0:
      id: insert
      doc: +I (keys, partitions and statistics rows are always insert)
    1:
      id: update_before
      doc: -U
    2:
      id: update_after
      doc: +U
    3:
      id: delete
      doc: -D
  slot_kind:
    0:
      id: boolean
      doc: BOOLEAN, one byte 0 / 1
    1:
      id: tinyint
      doc: TINYINT
    2:
      id: smallint
      doc: SMALLINT
    3:
      id: int
      doc: INT, DATE (days), TIME (millis of the day)
    4:
      id: bigint
      doc: BIGINT, compact DECIMAL (p <= 18, unscaled), compact TIMESTAMP (p <= 3, epoch millis)
    5:
      id: float
      doc: FLOAT
    6:
      id: double
      doc: DOUBLE
    7:
      id: inline
      doc: a CHAR / VARCHAR / BINARY / VARBINARY of at most 7 bytes
    8:
      id: reference
      doc: a longer string / binary, a wide DECIMAL or a wide TIMESTAMP in the variable part
  inline_marker:
    0x80:
      id: flag
      doc: top bit of a slot's last byte - the value is inline, its length in the low 7 bits
  wide_sizes:
    8:
      id: timestamp
      doc: variable-part bytes of a TIMESTAMP(p > 3)
    16:
      id: decimal
      doc: variable-part bytes a DECIMAL(p > 18) reserves
