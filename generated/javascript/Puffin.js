// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.Puffin || (root.Puffin = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (Puffin_, KaitaiStream) {
/**
 * Iceberg's puffin-spec: "PFA1" | blob ... | footer, the footer being
 * "PFA1" | FooterPayload (UTF-8 JSON FileMetadata) | int32 payload size | 4 flag bytes | "PFA1".
 * The footer is found from the end of the file: the fixed 12-byte tail gives the payload size.
 * Blobs are located by the JSON (absolute offset and length); a deletion-vector-v1 blob is a Paimon
 * 64-bit deletion vector entry (schemas/deletion_vector.ksy).
 * @see {@link https://iceberg.apache.org/puffin-spec/|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java|Source}
 */

var Puffin = (function() {
  Puffin.PuffinFooterFlags = Object.freeze({
    PAYLOAD_COMPRESSED: 1,

    1: "PAYLOAD_COMPRESSED",
  });

  function Puffin(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  Puffin.prototype._read = function() {
    this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.magic = this._io.readBytes(4);
    this._debug.magic.end = this._io.pos;
    if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([80, 70, 65, 49])) == 0))) {
      var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([80, 70, 65, 49]), this.magic, this._io, "/seq/0");
      this._debug.magic.validationError = _err;
      throw _err;
    }
  }

  /**
   * footer magic and the UTF-8 JSON FileMetadata payload
   */

  var PuffinFooter = Puffin.PuffinFooter = (function() {
    function PuffinFooter(_io, _parent, _root, payloadSize) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.payloadSize = payloadSize;
      this._debug = {};

    }
    PuffinFooter.prototype._read = function() {
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readBytes(4);
      this._debug.magic.end = this._io.pos;
      if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([80, 70, 65, 49])) == 0))) {
        var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([80, 70, 65, 49]), this.magic, this._io, "/types/puffin_footer/seq/0");
        this._debug.magic.validationError = _err;
        throw _err;
      }
      this._debug.payload = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.payload = this._io.readBytes(this.payloadSize);
      this._debug.payload.end = this._io.pos;
    }

    /**
     * footer magic
     */

    /**
     * FileMetadata JSON ({"blobs":[...], "properties":{...}}), UTF-8
     */

    /**
     * byte length of the payload (from the tail)
     */

    return PuffinFooter;
  })();

  /**
   * the last 12 bytes of a Puffin file
   */

  var PuffinFooterTail = Puffin.PuffinFooterTail = (function() {
    function PuffinFooterTail(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    PuffinFooterTail.prototype._read = function() {
      this._debug.payloadSize = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.payloadSize = this._io.readS4le();
      this._debug.payloadSize.end = this._io.pos;
      this._debug.flags = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.flags = this._io.readU4le();
      this._debug.flags.end = this._io.pos;
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readBytes(4);
      this._debug.magic.end = this._io.pos;
      if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([80, 70, 65, 49])) == 0))) {
        var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([80, 70, 65, 49]), this.magic, this._io, "/types/puffin_footer_tail/seq/2");
        this._debug.magic.validationError = _err;
        throw _err;
      }
    }

    /**
     * byte length of the footer payload (JSON)
     */

    /**
     * footer flags; bit 0 of the first byte = payload compressed (LZ4)
     */

    /**
     * trailing file magic
     */

    return PuffinFooterTail;
  })();

  /**
   * the footer (magic + JSON payload) just before the tail
   */
  Object.defineProperty(Puffin.prototype, 'footer', {
    get: function() {
      if (this._m_footer !== undefined)
        return this._m_footer;
      var _pos = this._io.pos;
      this._io.seek(((this._io.size - 12) - this.footerTail.payloadSize) - this.magic.length);
      this._debug._m_footer = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_footer = new PuffinFooter(this._io, this, this._root, this.footerTail.payloadSize);
      this._m_footer._read();
      this._debug._m_footer.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_footer;
    }
  });

  /**
   * the fixed-size end of the file (payload size, flags, trailing magic)
   */
  Object.defineProperty(Puffin.prototype, 'footerTail', {
    get: function() {
      if (this._m_footerTail !== undefined)
        return this._m_footerTail;
      var _pos = this._io.pos;
      this._io.seek(this._io.size - 12);
      this._debug._m_footerTail = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_footerTail = new PuffinFooterTail(this._io, this, this._root);
      this._m_footerTail._read();
      this._debug._m_footerTail.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_footerTail;
    }
  });

  /**
   * leading file magic
   */

  return Puffin;
})();
Puffin_.Puffin = Puffin;
});
