// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.HashIndex || (root.HashIndex = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (HashIndex_, KaitaiStream) {
/**
 * FORMATS.md 7.1: a flat sequence of int32 BE BinaryRow hash codes, no header (an empty file
 * holds no hashes). Parsed in bulk as one numpy array.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/index/HashIndexFile.java|Source}
 * @see docs/FORMATS.md section 7
 */

var HashIndex = (function() {
  function HashIndex(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  HashIndex.prototype._read = function() {
    this._debug.hashes = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.hashes.arr = [];
    this.hashes = [];
    var i = 0;
    while (!this._io.isEof()) {
      this._debug.hashes.arr[this.hashes.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.hashes.push(this._io.readS4be());
      this._debug.hashes.arr[this.hashes.length - 1].end = this._io.pos;
      i++;
    }
    this._debug.hashes.end = this._io.pos;
  }

  /**
   * the key hashes (MurmurHash3 x86_32, seed 42, of the key BinaryRow), in writer order
   */

  return HashIndex;
})();
HashIndex_.HashIndex = HashIndex;
});
