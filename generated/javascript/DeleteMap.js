// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.DeleteMap || (root.DeleteMap = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (DeleteMap_, KaitaiStream) {
/**
 * The proposed (never shipped) variant-2 layout: a map header with the file names padded to
 * the longest name, each with the start and size of its bitmap, followed by the bitmaps.
 * @see docs/FORMATS.md section 6.4 (the DELETE_MAP proposal, never shipped in Paimon)
 */

var DeleteMap = (function() {
  function DeleteMap(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  DeleteMap.prototype._read = function() {
    this._debug.entryCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.entryCount = this._io.readS4be();
    this._debug.entryCount.end = this._io.pos;
    this._debug.maxNameLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.maxNameLength = this._io.readS4be();
    this._debug.maxNameLength.end = this._io.pos;
    this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.entries.arr = [];
    this.entries = [];
    for (var i = 0; i < this.entryCount; i++) {
      this._debug.entries.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_entries = new DeleteMapEntry(this._io, this, this._root);
      try {
        _t_entries._read();
      } finally {
        this.entries.push(_t_entries);
      }
      this._debug.entries.arr[i].end = this._io.pos;
    }
    this._debug.entries.end = this._io.pos;
    this._debug.bitmaps = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.bitmaps = this._io.readBytesFull();
    this._debug.bitmaps.end = this._io.pos;
  }

  /**
   * one data file and where its bitmap is
   */

  var DeleteMapEntry = DeleteMap.DeleteMapEntry = (function() {
    function DeleteMapEntry(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DeleteMapEntry.prototype._read = function() {
      this._debug.name = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.name = KaitaiStream.bytesToStr(KaitaiStream.bytesStripRight(this._io.readBytes(this._parent.maxNameLength), 0), "UTF-8");
      this._debug.name.end = this._io.pos;
      this._debug.start = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.start = this._io.readS4be();
      this._debug.start.end = this._io.pos;
      this._debug.size = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.size = this._io.readS4be();
      this._debug.size.end = this._io.pos;
    }

    /**
     * data file name, zero-padded to max_name_length
     */

    /**
     * starting position of the serialised bitmap
     */

    /**
     * size of the serialised bitmap
     */

    return DeleteMapEntry;
  })();

  /**
   * number of map entries
   */

  /**
   * byte length of the longest file name (every name is padded to it)
   */

  /**
   * the map entries
   */

  /**
   * the serialised bitmaps (bulk)
   */

  return DeleteMap;
})();
DeleteMap_.DeleteMap = DeleteMap;
});
