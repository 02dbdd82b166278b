// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.Varint || (root.Varint = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (Varint_, KaitaiStream) {
/**
 * Seven value bits per byte, least significant group first; the high bit of a byte says another
 * byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
 * lengths, counts, offsets and row ids this way. Embedded in other formats the Construct codecs
 * use the runtime's ``VarUInt`` (Construct's ``VarInt``, the same encoding) and the generated fast
 * paths its ``fast_parse_varint`` / ``fast_build_varint``.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/VarLengthIntUtils.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/memory/MemorySliceInput.java|Source}
 */

var Varint = (function() {
  Varint.VarintGroup = Object.freeze({
    BITS: 7,
    PAYLOAD: 127,
    CONTINUATION: 128,

    7: "BITS",
    127: "PAYLOAD",
    128: "CONTINUATION",
  });

  function Varint(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  Varint.prototype._read = function() {
    this._debug.groups = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.groups.arr = [];
    this.groups = [];
    var i = 0;
    do {
      this._debug.groups.arr[this.groups.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _ = this._io.readU1();
      this.groups.push(_);
      this._debug.groups.arr[this.groups.length - 1].end = this._io.pos;
      i++;
    } while (!((_ & Varint.VarintGroup.CONTINUATION) == 0));
    this._debug.groups.end = this._io.pos;
  }

  /**
   * the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
   * 64-bit products, not shifts and ors: the Java and JavaScript targets do bit operations in 32 bits
   * (Java then holds a value of 2**63 and above as a negative long; JavaScript as the nearest double)
   */
  Object.defineProperty(Varint.prototype, 'value', {
    get: function() {
      if (this._m_value !== undefined)
        return this._m_value;
      this._debug._m_value = {  };
      this._m_value = ((((((((((this.groups[0] & 127) + (this.groups.length > 1 ? (this.groups[1] & 127) * 128 : 0)) + (this.groups.length > 2 ? (this.groups[2] & 127) * 16384 : 0)) + (this.groups.length > 3 ? (this.groups[3] & 127) * 2097152 : 0)) + (this.groups.length > 4 ? (this.groups[4] & 127) * 268435456 : 0)) + (this.groups.length > 5 ? (this.groups[5] & 127) * 34359738368 : 0)) + (this.groups.length > 6 ? (this.groups[6] & 127) * 4398046511104 : 0)) + (this.groups.length > 7 ? (this.groups[7] & 127) * 562949953421312 : 0)) + (this.groups.length > 8 ? (this.groups[8] & 127) * 72057594037927936 : 0)) + (this.groups.length > 9 ? (this.groups[9] & 127) * 9223372036854775808 : 0));
      return this._m_value;
    }
  });

  /**
   * the 7-bit groups, least significant first; the last has its high bit clear
   */

  return Varint;
})();
Varint_.Varint = Varint;
});
