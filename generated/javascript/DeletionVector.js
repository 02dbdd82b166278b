// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Roaring32'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Roaring32'));
  } else {
    factory(root.DeletionVector || (root.DeletionVector = {}), root.KaitaiStream, root.Roaring32 || (root.Roaring32 = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (DeletionVector_, KaitaiStream, Roaring32_) {
/**
 * FORMATS.md 6.1 / 6.2: one serialised deletion vector as it sits in a DELETION_VECTORS index
 * file. The framing is big-endian; the magic at the start of the bin chooses the 32-bit
 * (big-endian magic + Roaring32) or the 64-bit (little-endian magic + little-endian bitmap array)
 * flavour.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/BitmapDeletionVector.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java|Source}
 * @see docs/FORMATS.md section 6
 */

var DeletionVector = (function() {
  DeletionVector.DvJavaMagic = Object.freeze({
    BITMAP32: 1581511376,
    BITMAP64: 1681511377,

    1581511376: "BITMAP32",
    1681511377: "BITMAP64",
  });

  DeletionVector.DvMagic = Object.freeze({
    BITMAP32: 1581511376,
    BITMAP64: 3520280932,

    1581511376: "BITMAP32",
    3520280932: "BITMAP64",
  });

  function DeletionVector(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  DeletionVector.prototype._read = function() {
    this._debug.size = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.size = this._io.readS4be();
    this._debug.size.end = this._io.pos;
    this._debug.bin = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._raw_bin = this._io.readBytes(this.size);
    var _io__raw_bin = new KaitaiStream(this._raw_bin);
    this.bin = new DvBin(_io__raw_bin, this, this._root);
    this.bin._read();
    this._debug.bin.end = this._io.pos;
    this._debug.crc = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.crc = this._io.readS4be();
    this._debug.crc.end = this._io.pos;
  }

  /**
   * 32-bit deletion vector body
   */

  var Dv32Bin = DeletionVector.Dv32Bin = (function() {
    function Dv32Bin(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Dv32Bin.prototype._read = function() {
      this._debug.roaring = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.roaring = this._io.readBytesFull();
      this._debug.roaring.end = this._io.pos;
    }

    /**
     * Roaring32 portable bitmap of deleted positions (bulk)
     */

    return Dv32Bin;
  })();

  /**
   * 64-bit deletion vector body (Iceberg compatible)
   */

  var Dv64Bin = DeletionVector.Dv64Bin = (function() {
    function Dv64Bin(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Dv64Bin.prototype._read = function() {
      this._debug.bitmapCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmapCount = this._io.readS8le();
      this._debug.bitmapCount.end = this._io.pos;
      this._debug.bitmaps = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.bitmaps.arr = [];
      this.bitmaps = [];
      for (var i = 0; i < this.bitmapCount; i++) {
        this._debug.bitmaps.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_bitmaps = new Dv64Bucket(this._io, this, this._root);
        try {
          _t_bitmaps._read();
        } finally {
          this.bitmaps.push(_t_bitmaps);
        }
        this._debug.bitmaps.arr[i].end = this._io.pos;
      }
      this._debug.bitmaps.end = this._io.pos;
    }

    /**
     * number of 32-bit buckets (dense from key 0)
     */

    /**
     * the buckets in key order
     */

    return Dv64Bin;
  })();

  /**
   * positions whose high 32 bits equal key
   */

  var Dv64Bucket = DeletionVector.Dv64Bucket = (function() {
    function Dv64Bucket(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Dv64Bucket.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = this._io.readS4le();
      this._debug.key.end = this._io.pos;
      this._debug.roaring = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.roaring = new Roaring32_.Roaring32(this._io, null, null);
      this.roaring._read();
      this._debug.roaring.end = this._io.pos;
    }

    /**
     * high 32 bits
     */

    /**
     * low 32 bits as a Roaring32 bitmap (self-delimiting)
     */

    return Dv64Bucket;
  })();

  /**
   * a deletion-vector bin; the magic chooses its flavour
   */

  var DvBin = DeletionVector.DvBin = (function() {
    function DvBin(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DvBin.prototype._read = function() {
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readU4be();
      this._debug.magic.end = this._io.pos;
      if (!( ((this.magic == DeletionVector.DvMagic.BITMAP32) || (this.magic == DeletionVector.DvMagic.BITMAP64)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.magic, this._io, "/types/dv_bin/seq/0");
        this._debug.magic.validationError = _err;
        throw _err;
      }
      this._debug.bitmap = { start: this._io.pos, ioOffset: this._io.byteOffset };
      switch (this.magic) {
      case DeletionVector.DvMagic.BITMAP32:
        this.bitmap = new Dv32Bin(this._io, this, this._root);
        this.bitmap._read();
        break;
      case DeletionVector.DvMagic.BITMAP64:
        this.bitmap = new Dv64Bin(this._io, this, this._root);
        this.bitmap._read();
        break;
      }
      this._debug.bitmap.end = this._io.pos;
    }

    /**
     * 0x5e43f2d0 (1581511376 BE) = 32-bit; 0xd1d33964 (1681511377 LE) = 64-bit
     */

    /**
     * the positions
     */

    return DvBin;
  })();

  /**
   * byte length of the bin (magic included, size and crc excluded)
   */

  /**
   * the deletion vector
   */

  /**
   * CRC-32 (java.util.zip.CRC32) of the bin bytes, as a signed int
   */

  return DeletionVector;
})();
DeletionVector_.DeletionVector = DeletionVector;
});
