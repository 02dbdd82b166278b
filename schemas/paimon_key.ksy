meta:
  id: paimon_key
  title: Paimon index key (one value of any indexable column type)
  license: Apache-2.0
  endian: be
doc-ref:
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/KeyFactory.java
  - docs/FORMATS.md section 2.1
doc: |
  The serialised form of one index key as the bitmap, range-bitmap and BSI indexes store it
  (FORMATS.md 2.1 / 4). One parameterised type for every Paimon column type; the parameter is
  the key kind the column type maps to:
  TINYINT -> int8, SMALLINT -> int16, INT/DATE/TIME -> int32, BIGINT/TIMESTAMP(p)/TIMESTAMP_LTZ(p)
  (millis for p <= 3, micros for p > 3)/DECIMAL(p <= 18, unscaled) -> int64, FLOAT -> float32,
  DOUBLE -> float64, BOOLEAN -> bool, CHAR/VARCHAR/STRING -> string.
-dtypes: KEY_DTYPES
-struct-formats: KEY_STRUCTS
-struct-formats-fixed-only: true
-fast-head:
  paimon_key: true
params:
  - id: kind
    type: str
    doc: key kind (int8, int16, int32, int64, float32, float64, bool, string)
    -values-name: KEY_KINDS
seq:
  - id: value
    doc: the key value, big-endian; its layout is chosen by the key kind
    type:
      switch-on: kind
      cases:
        '"int8"': s1
        '"int16"': s2
        '"int32"': s4
        '"int64"': s8
        '"float32"': f4
        '"float64"': f8
        '"bool"': u1
        '"string"': binary_string
types:
  binary_string:
    doc: Paimon BinaryString key - int32 byte length then UTF-8 bytes
    seq:
      - id: len
        type: s4
        -dtype-name: STRING_LENGTH_DTYPE
        doc: number of UTF-8 bytes that follow
      - id: value
        type: str
        size: len
        encoding: UTF-8
        doc: the string (ordering of such keys is unsigned byte-wise on these bytes)
