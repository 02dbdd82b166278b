// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Roaring32'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Roaring32'));
  } else {
    factory(root.Roaring64 || (root.Roaring64 = {}), root.KaitaiStream, root.Roaring32 || (root.Roaring32 = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (Roaring64_, KaitaiStream, Roaring32_) {
/**
 * u64 bucket count, then per bucket a u32 high-32-bit key and a portable Roaring32 bitmap of
 * the low 32 bits (each bitmap is self-delimiting).
 * @see {@link https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md#extension-for-64-bit-implementations|Source}
 */

var Roaring64 = (function() {
  function Roaring64(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  Roaring64.prototype._read = function() {
    this._debug.bucketCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.bucketCount = this._io.readU8le();
    this._debug.bucketCount.end = this._io.pos;
    this._debug.buckets = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.buckets.arr = [];
    this.buckets = [];
    for (var i = 0; i < this.bucketCount; i++) {
      this._debug.buckets.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_buckets = new Bucket(this._io, this, this._root);
      try {
        _t_buckets._read();
      } finally {
        this.buckets.push(_t_buckets);
      }
      this._debug.buckets.arr[i].end = this._io.pos;
    }
    this._debug.buckets.end = this._io.pos;
  }

  /**
   * one 32-bit bucket
   */

  var Bucket = Roaring64.Bucket = (function() {
    function Bucket(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Bucket.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = this._io.readU4le();
      this._debug.key.end = this._io.pos;
      this._debug.bitmap = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmap = new Roaring32_.Roaring32(this._io, null, null);
      this.bitmap._read();
      this._debug.bitmap.end = this._io.pos;
    }

    /**
     * high 32 bits of every value in this bucket
     */

    /**
     * low 32 bits as a Roaring32 bitmap
     */

    return Bucket;
  })();

  /**
   * number of buckets that follow
   */

  /**
   * buckets in ascending key order
   */

  return Roaring64;
})();
Roaring64_.Roaring64 = Roaring64;
});
