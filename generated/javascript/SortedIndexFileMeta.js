// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.SortedIndexFileMeta || (root.SortedIndexFileMeta = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (SortedIndexFileMeta_, KaitaiStream) {
/**
 * Carried in the index manifest (``_GLOBAL_INDEX._INDEX_META``) of every B-tree and (pypaimon) bitmap
 * global-index file: the smallest and largest serialised key and whether a key is null. Java 1.4.2
 * (``BTreeIndexMeta``) writes a length of 0 for an absent key and stops after ``has_nulls``;
 * ``SortedIndexFileMeta`` (pypaimon 2.1, later Java) appends a format version and flags saying which
 * keys are absent, so that an empty key is told from no key.
 * @see docs/FORMATS.md section 14
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexMeta.java|Source}
 * @see {@link https://pypi.org/project/pypaimon/2.1.0/|Source}
 */

var SortedIndexFileMeta = (function() {
  SortedIndexFileMeta.NullKeyFlag = Object.freeze({
    FIRST_KEY_IS_NULL: 1,
    LAST_KEY_IS_NULL: 2,

    1: "FIRST_KEY_IS_NULL",
    2: "LAST_KEY_IS_NULL",
  });

  SortedIndexFileMeta.SortedIndexFileMetaVersion = Object.freeze({
    WITH_NULL_FLAGS: 1,

    1: "WITH_NULL_FLAGS",
  });

  function SortedIndexFileMeta(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  SortedIndexFileMeta.prototype._read = function() {
    this._debug.firstKeyLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.firstKeyLength = this._io.readS4le();
    this._debug.firstKeyLength.end = this._io.pos;
    this._debug.firstKey = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.firstKey = this._io.readBytes(this.firstKeyLength);
    this._debug.firstKey.end = this._io.pos;
    this._debug.lastKeyLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.lastKeyLength = this._io.readS4le();
    this._debug.lastKeyLength.end = this._io.pos;
    this._debug.lastKey = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.lastKey = this._io.readBytes(this.lastKeyLength);
    this._debug.lastKey.end = this._io.pos;
    this._debug.hasNulls = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.hasNulls = this._io.readU1();
    this._debug.hasNulls.end = this._io.pos;
    if (!(this._io.isEof())) {
      this._debug.formatVersion = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.formatVersion = this._io.readU1();
      this._debug.formatVersion.end = this._io.pos;
      if (!( ((this.formatVersion == SortedIndexFileMeta.SortedIndexFileMetaVersion.WITH_NULL_FLAGS)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.formatVersion, this._io, "/seq/5");
        this._debug.formatVersion.validationError = _err;
        throw _err;
      }
    }
    if (!(this._io.isEof())) {
      this._debug.nullKeyFlags = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullKeyFlags = this._io.readU1();
      this._debug.nullKeyFlags.end = this._io.pos;
    }
  }

  /**
   * byte length of the first key (0 - no key, unless the flags say otherwise)
   */

  /**
   * the smallest serialised key of the file (btree_global_index_key)
   */

  /**
   * byte length of the last key
   */

  /**
   * the largest serialised key of the file
   */

  /**
   * 1 when some row of the file has a null key
   */

  /**
   * absent in Java 1.4.2's BTreeIndexMeta; 1 - null-key flags follow
   */

  /**
   * bit 0 - the first key is absent, bit 1 - the last key is absent
   */

  return SortedIndexFileMeta;
})();
SortedIndexFileMeta_.SortedIndexFileMeta = SortedIndexFileMeta;
});
