// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Varint'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Varint'));
  } else {
    factory(root.BlobFile || (root.BlobFile = {}), root.KaitaiStream, root.Varint || (root.Varint = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (BlobFile_, KaitaiStream, Varint_) {
/**
 * One BLOB column of a data-evolution table, one record per row: the records back to back, then the
 * index (one varint per row), then a 5-byte footer (index byte length, version). A record is
 * magic | blob bytes | int64 record length (magic + bytes + 12) | CRC-32 of magic, bytes and record length.
 * The index holds each row's record length (-1 for a null blob, which has no record) as the first
 * value and then differences to the previous row's, ZigZag-mapped and written as base-128 varints
 * (low groups first); record offsets are the running sum of the non-null lengths. Everything is
 * found from the end of the file.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java|Source}
 */

var BlobFile = (function() {
  BlobFile.BlobFileVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function BlobFile(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  BlobFile.prototype._read = function() {
  }

  /**
   * the fixed-size end of a blob file
   */

  var BlobFooter = BlobFile.BlobFooter = (function() {
    function BlobFooter(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlobFooter.prototype._read = function() {
      this._debug.indexLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexLength = this._io.readS4le();
      this._debug.indexLength.end = this._io.pos;
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == BlobFile.BlobFileVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/blob_footer/seq/1");
        this._debug.version.validationError = _err;
        throw _err;
      }
    }

    /**
     * byte length of the index just before the footer
     */

    /**
     * file version, always 1
     */

    return BlobFooter;
  })();

  /**
   * one varint per row of the file, to the end of the (sized) index
   */

  var BlobIndex = BlobFile.BlobIndex = (function() {
    function BlobIndex(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlobIndex.prototype._read = function() {
      this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.entries.arr = [];
      this.entries = [];
      var i = 0;
      while (!this._io.isEof()) {
        this._debug.entries.arr[this.entries.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_entries = new Varint_.Varint(this._io, null, null);
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
     * ZigZag varint of the row's record length minus the previous row's (the first row - its own)
     */

    return BlobIndex;
  })();

  /**
   * one non-null blob, parsed from exactly its record's bytes (offset and length from the index)
   */

  var BlobRecord = BlobFile.BlobRecord = (function() {
    function BlobRecord(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlobRecord.prototype._read = function() {
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readBytes(4);
      this._debug.magic.end = this._io.pos;
      if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([207, 17, 78, 88])) == 0))) {
        var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([207, 17, 78, 88]), this.magic, this._io, "/types/blob_record/seq/0");
        this._debug.magic.validationError = _err;
        throw _err;
      }
      this._debug.data = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.data = this._io.readBytes((this._io.size - this._io.pos) - 12);
      this._debug.data.end = this._io.pos;
      this._debug.tail = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.tail = new BlobRecordTail(this._io, this, this._root);
      this.tail._read();
      this._debug.tail.end = this._io.pos;
    }

    /**
     * record magic (int32 1481511375, little-endian)
     */

    /**
     * the blob's bytes (all of the record between its magic and its tail)
     */

    /**
     * the record's length and checksum
     */

    return BlobRecord;
  })();

  /**
   * the fixed-size end of a record
   */

  var BlobRecordTail = BlobFile.BlobRecordTail = (function() {
    function BlobRecordTail(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlobRecordTail.prototype._read = function() {
      this._debug.recordLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.recordLength = this._io.readS8le();
      this._debug.recordLength.end = this._io.pos;
      this._debug.crc = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.crc = this._io.readU4le();
      this._debug.crc.end = this._io.pos;
    }

    /**
     * byte length of the whole record (magic + data + this tail)
     */

    /**
     * CRC-32 of the magic, the data and the record length (every byte of the record before it)
     */

    return BlobRecordTail;
  })();

  /**
   * the last 5 bytes of the file
   */
  Object.defineProperty(BlobFile.prototype, 'footer', {
    get: function() {
      if (this._m_footer !== undefined)
        return this._m_footer;
      var _pos = this._io.pos;
      this._io.seek(this._io.size - 5);
      this._debug._m_footer = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_footer = new BlobFooter(this._io, this, this._root);
      this._m_footer._read();
      this._debug._m_footer.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_footer;
    }
  });

  /**
   * the per-row record lengths, delta + ZigZag + varint coded
   */
  Object.defineProperty(BlobFile.prototype, 'index', {
    get: function() {
      if (this._m_index !== undefined)
        return this._m_index;
      var _pos = this._io.pos;
      this._io.seek((this._io.size - 5) - this.footer.indexLength);
      this._debug._m_index = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._raw__m_index = this._io.readBytes(this.footer.indexLength);
      var _io__raw__m_index = new KaitaiStream(this._raw__m_index);
      this._m_index = new BlobIndex(_io__raw__m_index, this, this._root);
      this._m_index._read();
      this._debug._m_index.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_index;
    }
  });

  return BlobFile;
})();
BlobFile_.BlobFile = BlobFile;
});
