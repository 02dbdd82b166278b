// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Roaring32'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Roaring32'));
  } else {
    factory(root.Bsi || (root.Bsi = {}), root.KaitaiStream, root.Roaring32 || (root.Roaring32 = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (Bsi_, KaitaiStream, Roaring32_) {
/**
 * FORMATS.md 5: values split by sign into a positive and a negative bit-sliced index (negative
 * values stored as their absolute value). Roaring bitmaps are self-delimiting, no lengths stored.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bsi/BitSliceIndexBitmapFileIndex.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BitSliceIndexRoaringBitmap.java|Source}
 * @see docs/FORMATS.md section 5
 */

var Bsi = (function() {
  Bsi.BsiPartVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  Bsi.BsiVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function Bsi(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  Bsi.prototype._read = function() {
    this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.version = this._io.readU1();
    this._debug.version.end = this._io.pos;
    if (!( ((this.version == Bsi.BsiVersion.V1)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
      this._debug.version.validationError = _err;
      throw _err;
    }
    this._debug.rowCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.rowCount = this._io.readS4be();
    this._debug.rowCount.end = this._io.pos;
    this._debug.hasPositive = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.hasPositive = this._io.readU1();
    this._debug.hasPositive.end = this._io.pos;
    if (this.hasPositive != 0) {
      this._debug.positive = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.positive = new BsiPart(this._io, this, this._root);
      this.positive._read();
      this._debug.positive.end = this._io.pos;
    }
    this._debug.hasNegative = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.hasNegative = this._io.readU1();
    this._debug.hasNegative.end = this._io.pos;
    if (this.hasNegative != 0) {
      this._debug.negative = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.negative = new BsiPart(this._io, this, this._root);
      this.negative._read();
      this._debug.negative.end = this._io.pos;
    }
  }

  /**
   * one bit-sliced index
   */

  var BsiPart = Bsi.BsiPart = (function() {
    function BsiPart(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BsiPart.prototype._read = function() {
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      this._debug.min = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.min = this._io.readS8be();
      this._debug.min.end = this._io.pos;
      this._debug.max = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.max = this._io.readS8be();
      this._debug.max.end = this._io.pos;
      this._debug.ebm = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.ebm = new Roaring32_.Roaring32(this._io, null, null);
      this.ebm._read();
      this._debug.ebm.end = this._io.pos;
      this._debug.sliceCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.sliceCount = this._io.readS4be();
      this._debug.sliceCount.end = this._io.pos;
      this._debug.slices = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.slices.arr = [];
      this.slices = [];
      for (var i = 0; i < this.sliceCount; i++) {
        this._debug.slices.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_slices = new Roaring32_.Roaring32(this._io, null, null);
        try {
          _t_slices._read();
        } finally {
          this.slices.push(_t_slices);
        }
        this._debug.slices.arr[i].end = this._io.pos;
      }
      this._debug.slices.end = this._io.pos;
    }

    /**
     * BSI version, 1 (newer versions refused by the reader)
     */

    /**
     * minimum stored value (always 0 in practice)
     */

    /**
     * maximum stored value
     */

    /**
     * existence bitmap (rows with a value on this side)
     */

    /**
     * number of slices (64 - nlz(max - min))
     */

    /**
     * slice i holds the rows whose value has bit i set
     */

    return BsiPart;
  })();

  /**
   * format version, 1
   */

  /**
   * rows written, nulls included
   */

  /**
   * 1 if a positive BSI follows
   */

  /**
   * BSI of the non-negative values
   */

  /**
   * 1 if a negative BSI follows
   */

  /**
   * BSI of the absolute values of the negative values
   */

  return Bsi;
})();
Bsi_.Bsi = Bsi;
});
