// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.FileIndex || (root.FileIndex = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (FileIndex_, KaitaiStream) {
/**
 * One container per data file, embedded in the manifest or stored as `<data file>.index`
 * (FORMATS.md 1). A head lists, per column, each index type with the absolute start and length
 * of its payload; the body is the payloads back to back in head order.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java|Source}
 * @see docs/FORMATS.md section 1
 */

var FileIndex = (function() {
  FileIndex.FileIndexVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function FileIndex(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  FileIndex.prototype._read = function() {
    this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.magic = this._io.readBytes(8);
    this._debug.magic.end = this._io.pos;
    if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([0, 5, 78, 78, 208, 26, 53, 174])) == 0))) {
      var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([0, 5, 78, 78, 208, 26, 53, 174]), this.magic, this._io, "/seq/0");
      this._debug.magic.validationError = _err;
      throw _err;
    }
    this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.version = this._io.readS4be();
    this._debug.version.end = this._io.pos;
    if (!( ((this.version == FileIndex.FileIndexVersion.V1)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/1");
      this._debug.version.validationError = _err;
      throw _err;
    }
    this._debug.headLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.headLength = this._io.readS4be();
    this._debug.headLength.end = this._io.pos;
    this._debug.columnCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.columnCount = this._io.readS4be();
    this._debug.columnCount.end = this._io.pos;
    this._debug.columns = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.columns.arr = [];
    this.columns = [];
    for (var i = 0; i < this.columnCount; i++) {
      this._debug.columns.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_columns = new Column(this._io, this, this._root);
      try {
        _t_columns._read();
      } finally {
        this.columns.push(_t_columns);
      }
      this._debug.columns.arr[i].end = this._io.pos;
    }
    this._debug.columns.end = this._io.pos;
    this._debug.redundantLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.redundantLength = this._io.readS4be();
    this._debug.redundantLength.end = this._io.pos;
    this._debug.redundant = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.redundant = this._io.readBytes(this.redundantLength);
    this._debug.redundant.end = this._io.pos;
  }

  /**
   * one column and its indexes
   */

  var Column = FileIndex.Column = (function() {
    function Column(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Column.prototype._read = function() {
      this._debug.columnName = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.columnName = new JavaUtf(this._io, this, this._root);
      this.columnName._read();
      this._debug.columnName.end = this._io.pos;
      this._debug.indexCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexCount = this._io.readS4be();
      this._debug.indexCount.end = this._io.pos;
      this._debug.indexes = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.indexes.arr = [];
      this.indexes = [];
      for (var i = 0; i < this.indexCount; i++) {
        this._debug.indexes.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_indexes = new IndexEntry(this._io, this, this._root);
        try {
          _t_indexes._read();
        } finally {
          this.indexes.push(_t_indexes);
        }
        this._debug.indexes.arr[i].end = this._io.pos;
      }
      this._debug.indexes.end = this._io.pos;
    }

    /**
     * column name (`mapcol[key]` for map sub-columns)
     */

    /**
     * number of index entries for this column
     */

    /**
     * the index entries of this column
     */

    return Column;
  })();

  /**
   * one (column, index type) entry of the head
   */

  var IndexEntry = FileIndex.IndexEntry = (function() {
    function IndexEntry(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    IndexEntry.prototype._read = function() {
      this._debug.indexType = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexType = new JavaUtf(this._io, this, this._root);
      this.indexType._read();
      this._debug.indexType.end = this._io.pos;
      this._debug.start = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.start = this._io.readS4be();
      this._debug.start.end = this._io.pos;
      this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.length = this._io.readS4be();
      this._debug.length.end = this._io.pos;
    }

    /**
     * the index payload (bitmap / bloom-filter / range-bitmap / bsi bytes); absent for an empty index
     */
    Object.defineProperty(IndexEntry.prototype, 'payload', {
      get: function() {
        if (this._m_payload !== undefined)
          return this._m_payload;
        if (this.start >= 0) {
          var io = this._root._io;
          var _pos = io.pos;
          io.seek(this.start);
          this._debug._m_payload = { start: io.pos, ioOffset: io.byteOffset };
          this._m_payload = io.readBytes(this.length);
          this._debug._m_payload.end = io.pos;
          io.seek(_pos);
        }
        return this._m_payload;
      }
    });

    /**
     * index type name (bitmap, bloom-filter, range-bitmap, bsi)
     */

    /**
     * absolute offset of the payload in the container, or -1 (EMPTY_INDEX_FLAG)
     */

    /**
     * payload length in bytes (0 with start = -1)
     */

    return IndexEntry;
  })();

  /**
   * DataOutput.writeUTF string - u16 byte length + Java modified UTF-8
   */

  var JavaUtf = FileIndex.JavaUtf = (function() {
    function JavaUtf(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    JavaUtf.prototype._read = function() {
      this._debug.len = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.len = this._io.readU2be();
      this._debug.len.end = this._io.pos;
      this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.value = this._io.readBytes(this.len);
      this._debug.value.end = this._io.pos;
    }

    /**
     * byte length of the modified UTF-8 that follows
     */

    /**
     * modified UTF-8 bytes (U+0000 as C0 80, supplementary characters as two 3-byte surrogates)
     */

    return JavaUtf;
  })();

  /**
   * int64 magic 1493475289347502
   */

  /**
   * container version, always 1
   */

  /**
   * size of everything before the body, magic included; equals the absolute body start
   */

  /**
   * number of columns that follow
   */

  /**
   * the indexed columns, in writer (HashMap) order
   */

  /**
   * length of the reserved region, 0 in version 1
   */

  /**
   * reserved bytes (empty in version 1)
   */

  return FileIndex;
})();
FileIndex_.FileIndex = FileIndex;
});
