// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './BinaryRow'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./BinaryRow'));
  } else {
    factory(root.SerializedBinaryRow || (root.SerializedBinaryRow = {}), root.KaitaiStream, root.BinaryRow || (root.BinaryRow = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (SerializedBinaryRow_, KaitaiStream, BinaryRow_) {
/**
 * `SerializationUtils.serializeBinaryRow`: the manifest fields `_PARTITION`, `_MIN_KEY` / `_MAX_KEY`
 * and the value / key statistics (`_MIN_VALUES`, `_MAX_VALUES`) hold a row as its arity, big-endian,
 * then the BinaryRow bytes.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/SerializationUtils.java|Source}
 * @see docs/FORMATS.md section 8
 */

var SerializedBinaryRow = (function() {
  function SerializedBinaryRow(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  SerializedBinaryRow.prototype._read = function() {
    this._debug.head = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.head = new SerializedHead(this._io, this, this._root);
    this.head._read();
    this._debug.head.end = this._io.pos;
    this._debug.row = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._raw_row = this._io.readBytesFull();
    var _io__raw_row = new KaitaiStream(this._raw_row);
    this.row = new BinaryRow_.BinaryRow(_io__raw_row, null, null, this.head.arity);
    this.row._read();
    this._debug.row.end = this._io.pos;
  }

  /**
   * what precedes the row
   */

  var SerializedHead = SerializedBinaryRow.SerializedHead = (function() {
    function SerializedHead(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    SerializedHead.prototype._read = function() {
      this._debug.arity = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.arity = this._io.readS4be();
      this._debug.arity.end = this._io.pos;
    }

    /**
     * number of fields of the row
     */

    return SerializedHead;
  })();

  /**
   * the arity
   */

  /**
   * the BinaryRow
   */

  return SerializedBinaryRow;
})();
SerializedBinaryRow_.SerializedBinaryRow = SerializedBinaryRow;
});
