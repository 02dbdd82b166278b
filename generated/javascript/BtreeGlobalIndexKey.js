// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Varint'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Varint'));
  } else {
    factory(root.BtreeGlobalIndexKey || (root.BtreeGlobalIndexKey = {}), root.KaitaiStream, root.Varint || (root.Varint = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (BtreeGlobalIndexKey_, KaitaiStream, Varint_) {
/**
 * How ``KeySerializer`` writes a key (little-endian, unlike the file-index keys of paimon_key.ksy);
 * the key is the whole byte string of an entry, so strings carry no length. The parameter is the
 * key kind the column type maps to: TINYINT int8, SMALLINT int16, INT/DATE/TIME int32,
 * BIGINT/DECIMAL(p <= 18, unscaled)/TIMESTAMP(p <= 3, epoch millis) int64, FLOAT float32,
 * DOUBLE double64, BOOLEAN bool, CHAR/VARCHAR string, TIMESTAMP(p > 3) timestamp_nanos.
 * @see docs/FORMATS.md section 14
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/KeySerializer.java|Source}
 */

var BtreeGlobalIndexKey = (function() {
  function BtreeGlobalIndexKey(_io, _parent, _root, kind) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this.kind = kind;
    this._debug = {};

  }
  BtreeGlobalIndexKey.prototype._read = function() {
    this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
    switch (this.kind) {
    case "bool":
      this.value = this._io.readU1();
      break;
    case "float32":
      this.value = this._io.readF4le();
      break;
    case "float64":
      this.value = this._io.readF8le();
      break;
    case "int16":
      this.value = this._io.readS2le();
      break;
    case "int32":
      this.value = this._io.readS4le();
      break;
    case "int64":
      this.value = this._io.readS8le();
      break;
    case "int8":
      this.value = this._io.readS1();
      break;
    case "string":
      this.value = new Utf8Key(this._io, this, this._root);
      this.value._read();
      break;
    case "timestamp_nanos":
      this.value = new TimestampNanos(this._io, this, this._root);
      this.value._read();
      break;
    }
    this._debug.value.end = this._io.pos;
  }

  /**
   * a timestamp of precision > 3 - epoch millis then the nanos within the milli
   */

  var TimestampNanos = BtreeGlobalIndexKey.TimestampNanos = (function() {
    function TimestampNanos(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    TimestampNanos.prototype._read = function() {
      this._debug.millisecond = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.millisecond = this._io.readS8le();
      this._debug.millisecond.end = this._io.pos;
      this._debug.nanoOfMillisecond = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nanoOfMillisecond = new Varint_.Varint(this._io, null, null);
      this.nanoOfMillisecond._read();
      this._debug.nanoOfMillisecond.end = this._io.pos;
    }

    /**
     * epoch milliseconds
     */

    /**
     * nanoseconds within the millisecond (0..999999)
     */

    return TimestampNanos;
  })();

  /**
   * a BinaryString key - its UTF-8 bytes, the whole key
   */

  var Utf8Key = BtreeGlobalIndexKey.Utf8Key = (function() {
    function Utf8Key(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Utf8Key.prototype._read = function() {
      this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.value = KaitaiStream.bytesToStr(this._io.readBytesFull(), "UTF-8");
      this._debug.value.end = this._io.pos;
    }

    /**
     * the string (ordered unsigned byte-wise)
     */

    return Utf8Key;
  })();

  /**
   * the key value; its layout is chosen by the key kind
   */

  /**
   * key kind (int8, int16, int32, int64, float32, float64, bool, string, timestamp_nanos)
   */

  return BtreeGlobalIndexKey;
})();
BtreeGlobalIndexKey_.BtreeGlobalIndexKey = BtreeGlobalIndexKey;
});
