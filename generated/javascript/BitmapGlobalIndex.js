// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Varint'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Varint'));
  } else {
    factory(root.BitmapGlobalIndex || (root.BitmapGlobalIndex = {}), root.KaitaiStream, root.Varint || (root.Varint = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (BitmapGlobalIndex_, KaitaiStream, Varint_) {
/**
 * The bitmap global index as pypaimon 2.1 writes it (``pypaimon/globalindex/bitmap``; Paimon Java
 * adopts the layout after 1.4 - Java 1.4.2's own bitmap global index is a bare bitmap file-index
 * payload, bitmap_index.ksy). Front to back: the null-rows bitmap, the non-null-rows bitmap, per
 * distinct key its rows bitmap (portable Roaring64), the dictionary blocks (stored blocks as in
 * btree_global_index: bytes then a 5-byte compression + CRC32 trailer) mapping keys - ordered by
 * their serialised bytes - to their bitmap, the index block mapping each dictionary block's first key
 * to it, and the 48-byte big-endian footer. Row ids are relative to the file's row-id range start.
 * @see docs/FORMATS.md section 14
 * @see {@link https://pypi.org/project/pypaimon/2.1.0/|Source}
 */

var BitmapGlobalIndex = (function() {
  BitmapGlobalIndex.BitmapGlobalIndexVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function BitmapGlobalIndex(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  BitmapGlobalIndex.prototype._read = function() {
  }

  /**
   * where the null / non-null bitmaps and the index block are, and how many distinct keys there are
   */

  var BitmapFooter = BitmapGlobalIndex.BitmapFooter = (function() {
    function BitmapFooter(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BitmapFooter.prototype._read = function() {
      this._debug.nullRowsOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullRowsOffset = this._io.readS8be();
      this._debug.nullRowsOffset.end = this._io.pos;
      this._debug.nullRowsLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullRowsLength = this._io.readS4be();
      this._debug.nullRowsLength.end = this._io.pos;
      this._debug.nonNullRowsOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nonNullRowsOffset = this._io.readS8be();
      this._debug.nonNullRowsOffset.end = this._io.pos;
      this._debug.nonNullRowsLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nonNullRowsLength = this._io.readS4be();
      this._debug.nonNullRowsLength.end = this._io.pos;
      this._debug.indexBlockOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexBlockOffset = this._io.readS8be();
      this._debug.indexBlockOffset.end = this._io.pos;
      this._debug.indexBlockLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexBlockLength = this._io.readS4be();
      this._debug.indexBlockLength.end = this._io.pos;
      this._debug.valueCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.valueCount = this._io.readS4be();
      this._debug.valueCount.end = this._io.pos;
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readS4be();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == BitmapGlobalIndex.BitmapGlobalIndexVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/bitmap_footer/seq/7");
        this._debug.version.validationError = _err;
        throw _err;
      }
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readBytes(4);
      this._debug.magic.end = this._io.pos;
      if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([66, 71, 73, 88])) == 0))) {
        var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([66, 71, 73, 88]), this.magic, this._io, "/types/bitmap_footer/seq/8");
        this._debug.magic.validationError = _err;
        throw _err;
      }
    }

    /**
     * file offset of the null-rows bitmap
     */

    /**
     * byte size of the null-rows bitmap
     */

    /**
     * file offset of the non-null-rows bitmap
     */

    /**
     * byte size of the non-null-rows bitmap
     */

    /**
     * file offset of the index block
     */

    /**
     * byte size of the index block, without its 5-byte trailer
     */

    /**
     * number of distinct non-null keys
     */

    /**
     * file version, 1
     */

    /**
     * int32 0x42474958 ("BGIX")
     */

    return BitmapFooter;
  })();

  /**
   * a decompressed dictionary block - keys ascending by their serialised bytes
   */

  var DictionaryBlock = BitmapGlobalIndex.DictionaryBlock = (function() {
    function DictionaryBlock(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DictionaryBlock.prototype._read = function() {
      this._debug.entryCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.entryCount = new Varint_.Varint(this._io, null, null);
      this.entryCount._read();
      this._debug.entryCount.end = this._io.pos;
      this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.entries.arr = [];
      this.entries = [];
      for (var i = 0; i < this.entryCount.value; i++) {
        this._debug.entries.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_entries = new DictionaryEntry(this._io, this, this._root);
        try {
          _t_entries._read();
        } finally {
          this.entries.push(_t_entries);
        }
        this._debug.entries.arr[i].end = this._io.pos;
      }
      this._debug.entries.end = this._io.pos;
    }

    /**
     * number of entries
     */

    /**
     * one entry per distinct key
     */

    return DictionaryBlock;
  })();

  /**
   * where one dictionary block is stored and its first key
   */

  var DictionaryBlockRef = BitmapGlobalIndex.DictionaryBlockRef = (function() {
    function DictionaryBlockRef(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DictionaryBlockRef.prototype._read = function() {
      this._debug.firstKeyLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.firstKeyLength = new Varint_.Varint(this._io, null, null);
      this.firstKeyLength._read();
      this._debug.firstKeyLength.end = this._io.pos;
      this._debug.firstKey = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.firstKey = this._io.readBytes(this.firstKeyLength.value);
      this._debug.firstKey.end = this._io.pos;
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = new Varint_.Varint(this._io, null, null);
      this.offset._read();
      this._debug.offset.end = this._io.pos;
      this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.length = new Varint_.Varint(this._io, null, null);
      this.length._read();
      this._debug.length.end = this._io.pos;
    }

    /**
     * byte length of the first key
     */

    /**
     * the block's first serialised key
     */

    /**
     * file offset of the stored dictionary block (varint long)
     */

    /**
     * byte size of the stored block bytes, without the trailer
     */

    return DictionaryBlockRef;
  })();

  /**
   * one key and where its rows bitmap is
   */

  var DictionaryEntry = BitmapGlobalIndex.DictionaryEntry = (function() {
    function DictionaryEntry(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DictionaryEntry.prototype._read = function() {
      this._debug.keyLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keyLength = new Varint_.Varint(this._io, null, null);
      this.keyLength._read();
      this._debug.keyLength.end = this._io.pos;
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = this._io.readBytes(this.keyLength.value);
      this._debug.key.end = this._io.pos;
      this._debug.bitmapOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmapOffset = new Varint_.Varint(this._io, null, null);
      this.bitmapOffset._read();
      this._debug.bitmapOffset.end = this._io.pos;
      this._debug.bitmapLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmapLength = new Varint_.Varint(this._io, null, null);
      this.bitmapLength._read();
      this._debug.bitmapLength.end = this._io.pos;
    }

    /**
     * byte length of the key
     */

    /**
     * the serialised key (btree_global_index_key)
     */

    /**
     * file offset of the key's rows bitmap (varint long)
     */

    /**
     * byte size of the bitmap (portable Roaring64, no trailer)
     */

    return DictionaryEntry;
  })();

  /**
   * the decompressed index block - one reference per dictionary block
   */

  var IndexBlock = BitmapGlobalIndex.IndexBlock = (function() {
    function IndexBlock(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    IndexBlock.prototype._read = function() {
      this._debug.blockCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.blockCount = new Varint_.Varint(this._io, null, null);
      this.blockCount._read();
      this._debug.blockCount.end = this._io.pos;
      this._debug.blocks = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.blocks.arr = [];
      this.blocks = [];
      for (var i = 0; i < this.blockCount.value; i++) {
        this._debug.blocks.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_blocks = new DictionaryBlockRef(this._io, this, this._root);
        try {
          _t_blocks._read();
        } finally {
          this.blocks.push(_t_blocks);
        }
        this._debug.blocks.arr[i].end = this._io.pos;
      }
      this._debug.blocks.end = this._io.pos;
    }

    /**
     * number of dictionary blocks
     */

    /**
     * the dictionary blocks, by first key
     */

    return IndexBlock;
  })();

  /**
   * the fixed-size footer at the end of the file
   */
  Object.defineProperty(BitmapGlobalIndex.prototype, 'footer', {
    get: function() {
      if (this._m_footer !== undefined)
        return this._m_footer;
      var _pos = this._io.pos;
      this._io.seek(this._io.size - 48);
      this._debug._m_footer = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_footer = new BitmapFooter(this._io, this, this._root);
      this._m_footer._read();
      this._debug._m_footer.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_footer;
    }
  });

  return BitmapGlobalIndex;
})();
BitmapGlobalIndex_.BitmapGlobalIndex = BitmapGlobalIndex;
});
