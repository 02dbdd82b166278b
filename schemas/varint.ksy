meta:
  id: varint
  title: Unsigned variable-length integer (little-endian base-128, Paimon VarLengthIntUtils)
  license: Apache-2.0
  -construct-embedded: "_rt.VarUInt(VARINT_GROUP_PAYLOAD, VARINT_GROUP_CONTINUATION, VARINT_GROUP_BITS)"
  -fast-runtime: varint
  -min-size: 1
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/VarLengthIntUtils.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/memory/MemorySliceInput.java
doc: |
  Seven value bits per byte (varint_group), least significant group first; the high bit of a byte
  says another byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
  lengths, counts, offsets and row ids this way. Embedded in other formats the Construct codecs
  use the runtime's ``VarUInt`` (Construct's ``VarInt``, the same encoding) and the generated fast
  paths its ``fast_parse_varint`` / ``fast_build_varint``.
seq:
  - id: groups
    type: u1
    repeat: until
    repeat-until: (_ & varint_group::continuation.to_i) == 0
    doc: the 7-bit groups, least significant first; the last has its high bit clear
instances:
  group_weight:
    value: (1 << varint_group::bits.to_i).as<u8>
    doc: what one unit of a group is worth in units of the group before it (2 ** bits)
  value:
    value: '((groups[0] & varint_group::payload.to_i).as<u8> + (groups.size > 1 ? (groups[1] & varint_group::payload.to_i).as<u8> * group_weight : 0) + (groups.size > 2 ? (groups[2] & varint_group::payload.to_i).as<u8> * group_weight * group_weight : 0) + (groups.size > 3 ? (groups[3] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight : 0) + (groups.size > 4 ? (groups[4] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight : 0) + (groups.size > 5 ? (groups[5] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight * group_weight : 0) + (groups.size > 6 ? (groups[6] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight : 0) + (groups.size > 7 ? (groups[7] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight : 0) + (groups.size > 8 ? (groups[8] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight : 0) + (groups.size > 9 ? (groups[9] & varint_group::payload.to_i).as<u8> * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight * group_weight : 0)).as<u8>'
    doc: |
      the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
      64-bit products of the groups' payloads and powers of group_weight, not shifts and ors: the Java
      and JavaScript targets do bit operations in 32 bits (Java then holds a value of 2**63 and above as
      a negative long; JavaScript as the nearest double)
enums:
  varint_group:
    0x80:
      id: continuation
      doc: the high bit of a group - another group follows
    0x7f:
      id: payload
      doc: the seven value bits of a group
    7:
      id: bits
      doc: value bits per group (the value instance's multipliers are powers of 2**bits)
