// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.BlobDescriptor || (root.BlobDescriptor = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (BlobDescriptor_, KaitaiStream) {
/**
 * Where one blob's bytes are: a file URI, an offset and a length. Paimon's engines hand a BLOB value out
 * in this form under the table option blob-as-descriptor; the writer of 1.4 uses version 2, which
 * carries the "BLOBDESC" magic after the version byte.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BlobDescriptor.java|Source}
 */

var BlobDescriptor = (function() {
  BlobDescriptor.BlobDescriptorVersion = Object.freeze({
    V2: 2,

    2: "V2",
  });

  function BlobDescriptor(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  BlobDescriptor.prototype._read = function() {
    this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.version = this._io.readU1();
    this._debug.version.end = this._io.pos;
    if (!( ((this.version == BlobDescriptor.BlobDescriptorVersion.V2)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
      this._debug.version.validationError = _err;
      throw _err;
    }
    this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.magic = this._io.readBytes(8);
    this._debug.magic.end = this._io.pos;
    if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([67, 83, 69, 68, 66, 79, 76, 66])) == 0))) {
      var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([67, 83, 69, 68, 66, 79, 76, 66]), this.magic, this._io, "/seq/1");
      this._debug.magic.validationError = _err;
      throw _err;
    }
    this._debug.uriLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.uriLength = this._io.readS4le();
    this._debug.uriLength.end = this._io.pos;
    this._debug.uri = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.uri = KaitaiStream.bytesToStr(this._io.readBytes(this.uriLength), "UTF-8");
    this._debug.uri.end = this._io.pos;
    this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.offset = this._io.readS8le();
    this._debug.offset.end = this._io.pos;
    this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.length = this._io.readS8le();
    this._debug.length.end = this._io.pos;
  }

  /**
   * descriptor version (2 in Paimon 1.4)
   */

  /**
   * int64 0x424C4F4244455343 ("BLOBDESC") little-endian
   */

  /**
   * byte length of the URI
   */

  /**
   * the file holding the blob
   */

  /**
   * position of the blob's first byte in the file
   */

  /**
   * byte length of the blob
   */

  return BlobDescriptor;
})();
BlobDescriptor_.BlobDescriptor = BlobDescriptor;
});
