// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.PaimonKey || (root.PaimonKey = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (PaimonKey_, KaitaiStream) {
/**
 * The serialised form of one index key as the bitmap, range-bitmap and BSI indexes store it
 * (FORMATS.md 2.1 / 4). One parameterised type for every Paimon column type; the parameter is
 * the key kind the column type maps to:
 * TINYINT -> int8, SMALLINT -> int16, INT/DATE/TIME -> int32, BIGINT/TIMESTAMP(p)/TIMESTAMP_LTZ(p)
 * (millis for p <= 3, micros for p > 3)/DECIMAL(p <= 18, unscaled) -> int64, FLOAT -> float32,
 * DOUBLE -> float64, BOOLEAN -> bool, CHAR/VARCHAR/STRING -> string.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/KeyFactory.java|Source}
 * @see docs/FORMATS.md section 2.1
 */

var PaimonKey = (function() {
  function PaimonKey(_io, _parent, _root, kind) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this.kind = kind;
    this._debug = {};

  }
  PaimonKey.prototype._read = function() {
    this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
    switch (this.kind) {
    case "bool":
      this.value = this._io.readU1();
      break;
    case "float32":
      this.value = this._io.readF4be();
      break;
    case "float64":
      this.value = this._io.readF8be();
      break;
    case "int16":
      this.value = this._io.readS2be();
      break;
    case "int32":
      this.value = this._io.readS4be();
      break;
    case "int64":
      this.value = this._io.readS8be();
      break;
    case "int8":
      this.value = this._io.readS1();
      break;
    case "string":
      this.value = new BinaryString(this._io, this, this._root);
      this.value._read();
      break;
    }
    this._debug.value.end = this._io.pos;
  }

  /**
   * Paimon BinaryString key - int32 byte length then UTF-8 bytes
   */

  var BinaryString = PaimonKey.BinaryString = (function() {
    function BinaryString(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BinaryString.prototype._read = function() {
      this._debug.len = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.len = this._io.readS4be();
      this._debug.len.end = this._io.pos;
      this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.value = KaitaiStream.bytesToStr(this._io.readBytes(this.len), "UTF-8");
      this._debug.value.end = this._io.pos;
    }

    /**
     * number of UTF-8 bytes that follow
     */

    /**
     * the string (ordering of such keys is unsigned byte-wise on these bytes)
     */

    return BinaryString;
  })();

  /**
   * the key value, big-endian; its layout is chosen by the key kind
   */

  /**
   * key kind (int8, int16, int32, int64, float32, float64, bool, string)
   */

  return PaimonKey;
})();
PaimonKey_.PaimonKey = PaimonKey;
});
