meta:
  id: bsi
  title: Paimon BSI file index payload (deprecated, superseded by range-bitmap)
  license: Apache-2.0
  endian: be
  imports: [roaring32]
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bsi/BitSliceIndexBitmapFileIndex.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BitSliceIndexRoaringBitmap.java
  - docs/FORMATS.md section 5
doc: |
  FORMATS.md 5: values split by sign into a positive and a negative bit-sliced index (negative
  values stored as their absolute value). Roaring bitmaps are self-delimiting, no lengths stored.
-fast-head:
  bsi_head: has_positive
  bsi_has_negative: [has_negative, has_negative]
seq:
  - id: version
    -orig-id: VERSION_1
    type: u1
    -dtype-name: BSI_VERSION_DTYPE
    -at-name: BSI_VERSION_AT
    valid:
      any-of: [bsi_version::v1.to_i]
    doc: format version, 1
  - id: row_count
    -orig-id: rowNumber
    type: s4
    doc: rows written, nulls included
  - id: has_positive
    -orig-id: hasPositive
    type: u1
    doc: 1 if a positive BSI follows
  - id: positive
    type: bsi_part
    if: has_positive != 0
    doc: BSI of the non-negative values
  - id: has_negative
    -orig-id: hasNegative
    type: u1
    doc: 1 if a negative BSI follows
  - id: negative
    type: bsi_part
    if: has_negative != 0
    doc: BSI of the absolute values of the negative values
types:
  bsi_part:
    doc: one bit-sliced index
    -fast-head:
      bsi_part_head: max
      bsi_part_slice_count: [slice_count, slice_count]
    seq:
      - id: version
        -orig-id: VERSION_1
        type: u1
        doc: BSI version, 1 (newer versions refused by the reader)
      - id: min
        -orig-id: min
        type: s8
        doc: minimum stored value (always 0 in practice)
      - id: max
        -orig-id: max
        type: s8
        doc: maximum stored value
      - id: ebm
        type: roaring32
        doc: existence bitmap (rows with a value on this side)
      - id: slice_count
        -orig-id: slices.length
        type: s4
        doc: number of slices (64 - nlz(max - min))
      - id: slices
        type: roaring32
        repeat: expr
        repeat-expr: slice_count
        doc: slice i holds the rows whose value has bit i set
enums:
  bsi_version:
    1:
      id: v1
      doc: the only BSI payload version
  bsi_part_version:
    1:
      id: v1
      doc: the only version of one bit-sliced index
