// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.BloomFilter || (root.BloomFilter = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (BloomFilter_, KaitaiStream) {
/**
 * FORMATS.md 3: int32 number of hash functions followed by the bit set (bit i in byte i >> 3,
 * mask 1 << (i & 7)); num_bits = 8 * len(bit_set). No version byte, no item count.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/BloomFilterFileIndex.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BloomFilter64.java|Source}
 * @see docs/FORMATS.md section 3
 */

var BloomFilter = (function() {
  function BloomFilter(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  BloomFilter.prototype._read = function() {
    this._debug.numHashFunctions = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.numHashFunctions = this._io.readS4be();
    this._debug.numHashFunctions.end = this._io.pos;
    this._debug.bitSet = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.bitSet = this._io.readBytesFull();
    this._debug.bitSet.end = this._io.pos;
  }

  /**
   * k, the number of probes per value
   */

  /**
   * the bit set bytes (bulk; probed by the semantic layer)
   */

  return BloomFilter;
})();
BloomFilter_.BloomFilter = BloomFilter;
});
