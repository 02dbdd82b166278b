// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.BinaryRow || (root.BinaryRow = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (BinaryRow_, KaitaiStream) {
/**
 * FORMATS.md 7.2: a row of `arity` fields. The fixed part is the header word (the row kind in its
 * first byte, then the null bits: field i is null when bit i of `null_bits` is set, i.e. bit i + 8 of
 * the header words) padded to whole 8-byte words, then one 8-byte slot per field; the variable part
 * follows. How a slot holds its field is the `slot` type: a primitive in its low bytes, a string or
 * binary of at most 7 bytes inline (`inline_slot`), or a `reference` (offset from the row's first byte
 * | length) into the variable part, which holds longer strings / binaries (zero-padded to whole words),
 * the 8 bytes of epoch millis of a TIMESTAMP(p > 3) (the reference's low half is then the nanos of the
 * millisecond) and the 16 reserved bytes of a DECIMAL(p > 18) (`BigInteger.toByteArray()` of the
 * unscaled value, big-endian, at the front). A null field has a zero slot; a null wide TIMESTAMP /
 * DECIMAL still reserves its bytes (reference length 0).
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinarySection.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java|Source}
 * @see docs/FORMATS.md section 7.2
 */

var BinaryRow = (function() {
  BinaryRow.InlineMarker = Object.freeze({
    FLAG: 128,

    128: "FLAG",
  });

  BinaryRow.RowKind = Object.freeze({
    INSERT: 0,
    UPDATE_BEFORE: 1,
    UPDATE_AFTER: 2,
    DELETE: 3,

    0: "INSERT",
    1: "UPDATE_BEFORE",
    2: "UPDATE_AFTER",
    3: "DELETE",
  });

  BinaryRow.SlotKind = Object.freeze({
    BOOLEAN: 0,
    TINYINT: 1,
    SMALLINT: 2,
    INT: 3,
    BIGINT: 4,
    FLOAT: 5,
    DOUBLE: 6,
    INLINE: 7,
    REFERENCE: 8,

    0: "BOOLEAN",
    1: "TINYINT",
    2: "SMALLINT",
    3: "INT",
    4: "BIGINT",
    5: "FLOAT",
    6: "DOUBLE",
    7: "INLINE",
    8: "REFERENCE",
  });

  BinaryRow.WideSizes = Object.freeze({
    TIMESTAMP: 8,
    DECIMAL: 16,

    8: "TIMESTAMP",
    16: "DECIMAL",
  });

  function BinaryRow(_io, _parent, _root, arity) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this.arity = arity;
    this._debug = {};

  }
  BinaryRow.prototype._read = function() {
    this._debug.rowKind = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.rowKind = this._io.readU1();
    this._debug.rowKind.end = this._io.pos;
    if (!( ((this.rowKind == BinaryRow.RowKind.INSERT) || (this.rowKind == BinaryRow.RowKind.UPDATE_BEFORE) || (this.rowKind == BinaryRow.RowKind.UPDATE_AFTER) || (this.rowKind == BinaryRow.RowKind.DELETE)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.rowKind, this._io, "/seq/0");
      this._debug.rowKind.validationError = _err;
      throw _err;
    }
    this._debug.nullBits = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.nullBits = this._io.readBytes(this.nullBitsSize);
    this._debug.nullBits.end = this._io.pos;
    this._debug.slots = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.slots.arr = [];
    this.slots = [];
    for (var i = 0; i < this.arity; i++) {
      this._debug.slots.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.slots.push(this._io.readU8le());
      this._debug.slots.arr[i].end = this._io.pos;
    }
    this._debug.slots.end = this._io.pos;
    this._debug.varPart = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.varPart = this._io.readBytesFull();
    this._debug.varPart.end = this._io.pos;
  }

  /**
   * a string / binary of at most 7 bytes kept in its slot
   */

  var InlineSlot = BinaryRow.InlineSlot = (function() {
    function InlineSlot(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    InlineSlot.prototype._read = function() {
      this._debug.data = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.data = this._io.readBytes(7);
      this._debug.data.end = this._io.pos;
      this._debug.marker = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.marker = this._io.readU1();
      this._debug.marker.end = this._io.pos;
    }

    /**
     * the slot holds its value inline
     */
    Object.defineProperty(InlineSlot.prototype, 'isInline', {
      get: function() {
        if (this._m_isInline !== undefined)
          return this._m_isInline;
        this._debug._m_isInline = {  };
        this._m_isInline = (this.marker & BinaryRow.InlineMarker.FLAG) != 0;
        return this._m_isInline;
      }
    });

    /**
     * bytes of data that are the value
     */
    Object.defineProperty(InlineSlot.prototype, 'length', {
      get: function() {
        if (this._m_length !== undefined)
          return this._m_length;
        this._debug._m_length = {  };
        this._m_length = this.marker & 127;
        return this._m_length;
      }
    });

    /**
     * the value's bytes, zero after its length
     */

    /**
     * inline_marker::flag | length; the flag clear means the slot is a reference
     */

    return InlineSlot;
  })();

  /**
   * a reference into the variable part (offset << 32 | length as one little-endian long)
   */

  var Reference = BinaryRow.Reference = (function() {
    function Reference(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Reference.prototype._read = function() {
      this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.length = this._io.readU4le();
      this._debug.length.end = this._io.pos;
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = this._io.readU4le();
      this._debug.offset.end = this._io.pos;
    }

    /**
     * byte length of a string / binary / wide decimal; nanos of the millisecond of a wide timestamp
     */

    /**
     * position of the bytes, from the row's first byte (its top bit is clear, unlike an inline marker)
     */

    return Reference;
  })();

  /**
   * one field's 8-byte slot, as its kind reads it
   */

  var Slot = BinaryRow.Slot = (function() {
    function Slot(_io, _parent, _root, kind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.kind = kind;
      this._debug = {};

    }
    Slot.prototype._read = function() {
      this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
      switch (this.kind) {
      case BinaryRow.SlotKind.BIGINT:
        this.value = this._io.readS8le();
        break;
      case BinaryRow.SlotKind.BOOLEAN:
        this.value = this._io.readU1();
        break;
      case BinaryRow.SlotKind.DOUBLE:
        this.value = this._io.readF8le();
        break;
      case BinaryRow.SlotKind.FLOAT:
        this.value = this._io.readF4le();
        break;
      case BinaryRow.SlotKind.INLINE:
        this._raw_value = this._io.readBytes(8);
        var _io__raw_value = new KaitaiStream(this._raw_value);
        this.value = new InlineSlot(_io__raw_value, this, this._root);
        this.value._read();
        break;
      case BinaryRow.SlotKind.INT:
        this.value = this._io.readS4le();
        break;
      case BinaryRow.SlotKind.REFERENCE:
        this._raw_value = this._io.readBytes(8);
        var _io__raw_value = new KaitaiStream(this._raw_value);
        this.value = new Reference(_io__raw_value, this, this._root);
        this.value._read();
        break;
      case BinaryRow.SlotKind.SMALLINT:
        this.value = this._io.readS2le();
        break;
      case BinaryRow.SlotKind.TINYINT:
        this.value = this._io.readS1();
        break;
      default:
        this.value = this._io.readBytes(8);
        break;
      }
      this._debug.value.end = this._io.pos;
    }

    /**
     * the field's value in the slot's low bytes (zero above them), or an inline / reference form
     */

    /**
     * a slot_kind
     */

    return Slot;
  })();

  /**
   * the variable-part bytes of a TIMESTAMP(p > 3)
   */

  var WideTimestamp = BinaryRow.WideTimestamp = (function() {
    function WideTimestamp(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    WideTimestamp.prototype._read = function() {
      this._debug.millis = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.millis = this._io.readS8le();
      this._debug.millis.end = this._io.pos;
    }

    /**
     * epoch milliseconds (the nanos of the millisecond are the reference's length half)
     */

    return WideTimestamp;
  })();

  /**
   * bytes of the fixed part (header words and slots); references point at or after it
   */
  Object.defineProperty(BinaryRow.prototype, 'fixedSize', {
    get: function() {
      if (this._m_fixedSize !== undefined)
        return this._m_fixedSize;
      this._debug._m_fixedSize = {  };
      this._m_fixedSize = (1 + this.nullBitsSize) + 8 * this.arity;
      return this._m_fixedSize;
    }
  });

  /**
   * bytes of null bits after the row-kind byte (the header is whole 8-byte words)
   */
  Object.defineProperty(BinaryRow.prototype, 'nullBitsSize', {
    get: function() {
      if (this._m_nullBitsSize !== undefined)
        return this._m_nullBitsSize;
      this._debug._m_nullBitsSize = {  };
      this._m_nullBitsSize = Math.floor(((this.arity + 63) + 8) / 64) * 8 - 1;
      return this._m_nullBitsSize;
    }
  });

  /**
   * RowKind (row_kind enum); 0 for keys, partitions and statistics rows; another byte is not a row Paimon wrote
   */

  /**
   * bit i (byte i / 8, bit i % 8) set = field i is null; zero padding to the end of the header words
   */

  /**
   * one 8-byte slot per field, read as the field's slot kind says (the slot type)
   */

  /**
   * the variable part, addressed by references relative to the row's first byte
   */

  /**
   * number of fields (not stored in the row; the serialized form stores it in front)
   */

  return BinaryRow;
})();
BinaryRow_.BinaryRow = BinaryRow;
});
