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
 * Seven value bits per byte (varint_group), least significant group first; the high bit of a byte
 * says another byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
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
   * what one unit of a group is worth in units of the group before it (2 ** bits)
   */
  Object.defineProperty(Varint.prototype, 'groupWeight', {
    get: function() {
      if (this._m_groupWeight !== undefined)
        return this._m_groupWeight;
      this._debug._m_groupWeight = {  };
      this._m_groupWeight = (1 << Varint.VarintGroup.BITS);
      return this._m_groupWeight;
    }
  });

  /**
   * the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
   * 64-bit products of the groups' payloads and powers of group_weight, not shifts and ors: the Java
   * and JavaScript targets do bit operations in 32 bits (Java then holds a value of 2**63 and above as
   * a negative long; JavaScript as the nearest double)
   */
  Object.defineProperty(Varint.prototype, 'value', {
    get: function() {
      if (this._m_value !== undefined)
        return this._m_value;
      this._debug._m_value = {  };
      this._m_value = ((((((((((this.groups[0] & Varint.VarintGroup.PAYLOAD) + (this.groups.length > 1 ? (this.groups[1] & Varint.VarintGroup.PAYLOAD) * this.groupWeight : 0)) + (this.groups.length > 2 ? ((this.groups[2] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 3 ? (((this.groups[3] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 4 ? ((((this.groups[4] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 5 ? (((((this.groups[5] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 6 ? ((((((this.groups[6] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 7 ? (((((((this.groups[7] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 8 ? ((((((((this.groups[8] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0)) + (this.groups.length > 9 ? (((((((((this.groups[9] & Varint.VarintGroup.PAYLOAD) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight) * this.groupWeight : 0));
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
