meta:
  id: btree_global_index_key
  title: Paimon global-index key (one serialised column value of a B-tree or bitmap global index)
  license: Apache-2.0
  endian: le
  imports: [varint]
doc-ref:
  - docs/FORMATS.md section 14
  - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/KeySerializer.java
doc: |
  How ``KeySerializer`` writes a key (little-endian, unlike the file-index keys of paimon_key.ksy);
  the key is the whole byte string of an entry, so strings carry no length. The parameter is the
  key kind the column type maps to: TINYINT int8, SMALLINT int16, INT/DATE/TIME int32,
  BIGINT/DECIMAL(p <= 18, unscaled)/TIMESTAMP(p <= 3, epoch millis) int64, FLOAT float32,
  DOUBLE double64, BOOLEAN bool, CHAR/VARCHAR string, TIMESTAMP(p > 3) timestamp_nanos.
-fast-head:
  btree_global_index_key: true
params:
  - id: kind
    type: str
    doc: key kind (int8, int16, int32, int64, float32, float64, bool, string, timestamp_nanos)
    -values-name: GLOBAL_KEY_KINDS
seq:
  - id: value
    doc: the key value; its layout is chosen by the key kind
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
        '"string"': utf8_key
        '"timestamp_nanos"': timestamp_nanos
types:
  utf8_key:
    doc: a BinaryString key - its UTF-8 bytes, the whole key
    seq:
      - id: value
        type: str
        size-eos: true
        encoding: UTF-8
        doc: the string (ordered unsigned byte-wise)
  timestamp_nanos:
    doc: a timestamp of precision > 3 - epoch millis then the nanos within the milli
    seq:
      - id: millisecond
        -orig-id: getMillisecond()
        type: s8
        doc: epoch milliseconds
      - id: nano_of_millisecond
        type: varint
        doc: nanoseconds within the millisecond (0..999999)
