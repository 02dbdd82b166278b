// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './DeletionVector'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./DeletionVector'));
  } else {
    factory(root.DeletionVectors || (root.DeletionVectors = {}), root.KaitaiStream, root.DeletionVector || (root.DeletionVector = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (DeletionVectors_, KaitaiStream, DeletionVector_) {
/**
 * FORMATS.md 6.1: a version byte, then one `size | bin | crc32` entry per data file. Which data
 * file an entry belongs to is recorded in the index manifest (offset of the size field, length).
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java|Source}
 * @see docs/FORMATS.md section 6.1
 */

var DeletionVectors = (function() {
  DeletionVectors.DeletionVectorsVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function DeletionVectors(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  DeletionVectors.prototype._read = function() {
    this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.version = this._io.readU1();
    this._debug.version.end = this._io.pos;
    if (!( ((this.version == DeletionVectors.DeletionVectorsVersion.V1)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
      this._debug.version.validationError = _err;
      throw _err;
    }
    this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.entries.arr = [];
    this.entries = [];
    var i = 0;
    while (!this._io.isEof()) {
      this._debug.entries.arr[this.entries.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_entries = new DeletionVector_.DeletionVector(this._io, null, null);
      try {
        _t_entries._read();
      } finally {
        this.entries.push(_t_entries);
      }
      this._debug.entries.arr[this.entries.length - 1].end = this._io.pos;
      i++;
    }
    this._debug.entries.end = this._io.pos;
  }

  /**
   * file version, always 1
   */

  /**
   * the deletion vectors in write order
   */

  return DeletionVectors;
})();
DeletionVectors_.DeletionVectors = DeletionVectors;
});
