// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './PaimonKey'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./PaimonKey'));
  } else {
    factory(root.BitmapIndex || (root.BitmapIndex = {}), root.KaitaiStream, root.PaimonKey || (root.PaimonKey = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (BitmapIndex_, KaitaiStream, PaimonKey_) {
/**
 * FORMATS.md 2.3 / 2.4. The version byte switches between the legacy V1 layout (unsorted
 * dictionary of key -> offset, no lengths) and V2 (sorted entries packed into index blocks that
 * are positioned by a block directory and loadable one at a time). Offsets of bitmaps are
 * relative to the bitmap body; a negative offset -1 - p encodes the singleton bitmap {p}.
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMetaV2.java|Source}
 * @see docs/FORMATS.md section 2
 */

var BitmapIndex = (function() {
  BitmapIndex.BitmapIndexVersion = Object.freeze({
    V1: 1,
    V2: 2,

    1: "V1",
    2: "V2",
  });

  function BitmapIndex(_io, _parent, _root, keyKind) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this.keyKind = keyKind;
    this._debug = {};

  }
  BitmapIndex.prototype._read = function() {
    this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.version = this._io.readU1();
    this._debug.version.end = this._io.pos;
    if (!( ((this.version == BitmapIndex.BitmapIndexVersion.V1) || (this.version == BitmapIndex.BitmapIndexVersion.V2)) )) {
      var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
      this._debug.version.validationError = _err;
      throw _err;
    }
    this._debug.rowCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.rowCount = this._io.readS4be();
    this._debug.rowCount.end = this._io.pos;
    this._debug.nonNullBitmapNumber = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.nonNullBitmapNumber = this._io.readS4be();
    this._debug.nonNullBitmapNumber.end = this._io.pos;
    this._debug.hasNullValue = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.hasNullValue = this._io.readU1();
    this._debug.hasNullValue.end = this._io.pos;
    if (this.hasNullValue != 0) {
      this._debug.nullValueOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullValueOffset = this._io.readS4be();
      this._debug.nullValueOffset.end = this._io.pos;
    }
    if ( ((this.version == BitmapIndex.BitmapIndexVersion.V2) && (this.hasNullValue != 0)) ) {
      this._debug.nullBitmapLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullBitmapLength = this._io.readS4be();
      this._debug.nullBitmapLength.end = this._io.pos;
    }
    if (this.version == BitmapIndex.BitmapIndexVersion.V1) {
      this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.entries.arr = [];
      this.entries = [];
      for (var i = 0; i < this.nonNullBitmapNumber; i++) {
        this._debug.entries.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_entries = new V1Entry(this._io, this, this._root, this.keyKind);
        try {
          _t_entries._read();
        } finally {
          this.entries.push(_t_entries);
        }
        this._debug.entries.arr[i].end = this._io.pos;
      }
      this._debug.entries.end = this._io.pos;
    }
    if (this.version == BitmapIndex.BitmapIndexVersion.V2) {
      this._debug.v2Head = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.v2Head = new BitmapIndexV2Head(this._io, this, this._root, this.keyKind);
      this.v2Head._read();
      this._debug.v2Head.end = this._io.pos;
    }
    if (this.version == BitmapIndex.BitmapIndexVersion.V2) {
      this._debug.indexBlocks = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._raw_indexBlocks = this._io.readBytes(this.v2Head.bitmapBodyOffset);
      var _io__raw_indexBlocks = new KaitaiStream(this._raw_indexBlocks);
      this.indexBlocks = new IndexBlocks(_io__raw_indexBlocks, this, this._root, this.keyKind);
      this.indexBlocks._read();
      this._debug.indexBlocks.end = this._io.pos;
    }
    this._debug.body = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.body = this._io.readBytesFull();
    this._debug.body.end = this._io.pos;
  }

  /**
   * V2 block directory
   */

  var BitmapIndexV2Head = BitmapIndex.BitmapIndexV2Head = (function() {
    function BitmapIndexV2Head(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    BitmapIndexV2Head.prototype._read = function() {
      this._debug.indexBlockCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexBlockCount = this._io.readS4be();
      this._debug.indexBlockCount.end = this._io.pos;
      this._debug.blockHeads = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.blockHeads.arr = [];
      this.blockHeads = [];
      for (var i = 0; i < this.indexBlockCount; i++) {
        this._debug.blockHeads.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_blockHeads = new BlockHead(this._io, this, this._root, this.keyKind);
        try {
          _t_blockHeads._read();
        } finally {
          this.blockHeads.push(_t_blockHeads);
        }
        this._debug.blockHeads.arr[i].end = this._io.pos;
      }
      this._debug.blockHeads.end = this._io.pos;
      this._debug.bitmapBodyOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmapBodyOffset = this._io.readS4be();
      this._debug.bitmapBodyOffset.end = this._io.pos;
    }

    /**
     * number of index blocks
     */

    /**
     * one head per index block, in key order
     */

    /**
     * total size of the index blocks (the body starts this far after this field)
     */

    /**
     * key kind
     */

    return BitmapIndexV2Head;
  })();

  /**
   * first key and position of one index block
   */

  var BlockHead = BitmapIndex.BlockHead = (function() {
    function BlockHead(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    BlockHead.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
      this.key._read();
      this._debug.key.end = this._io.pos;
      this._debug.blockOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.blockOffset = this._io.readS4be();
      this._debug.blockOffset.end = this._io.pos;
    }

    /**
     * the index block itself, parsed on demand
     */
    Object.defineProperty(BlockHead.prototype, 'block', {
      get: function() {
        if (this._m_block !== undefined)
          return this._m_block;
        var io = this._parent._parent.indexBlocks._io;
        var _pos = io.pos;
        io.seek(this.blockOffset);
        this._debug._m_block = { start: io.pos, ioOffset: io.byteOffset };
        this._m_block = new IndexBlock(io, this, this._root, this.keyKind);
        this._m_block._read();
        this._debug._m_block.end = io.pos;
        io.seek(_pos);
        return this._m_block;
      }
    });

    /**
     * first key of the block
     */

    /**
     * offset of the block from the start of the index blocks
     */

    /**
     * key kind
     */

    return BlockHead;
  })();

  /**
   * one V2 index block
   */

  var IndexBlock = BitmapIndex.IndexBlock = (function() {
    function IndexBlock(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    IndexBlock.prototype._read = function() {
      this._debug.entryCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.entryCount = this._io.readS4be();
      this._debug.entryCount.end = this._io.pos;
      this._debug.entries = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.entries.arr = [];
      this.entries = [];
      for (var i = 0; i < this.entryCount; i++) {
        this._debug.entries.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_entries = new V2Entry(this._io, this, this._root, this.keyKind);
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
     * number of entries in this block
     */

    /**
     * entries sorted by key
     */

    /**
     * key kind
     */

    return IndexBlock;
  })();

  /**
   * the V2 index blocks area
   */

  var IndexBlocks = BitmapIndex.IndexBlocks = (function() {
    function IndexBlocks(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    IndexBlocks.prototype._read = function() {
      this._debug.blocks = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.blocks.arr = [];
      this.blocks = [];
      var i = 0;
      while (!this._io.isEof()) {
        this._debug.blocks.arr[this.blocks.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_blocks = new IndexBlock(this._io, this, this._root, this.keyKind);
        try {
          _t_blocks._read();
        } finally {
          this.blocks.push(_t_blocks);
        }
        this._debug.blocks.arr[this.blocks.length - 1].end = this._io.pos;
        i++;
      }
      this._debug.blocks.end = this._io.pos;
    }

    /**
     * index blocks in key order
     */

    /**
     * key kind
     */

    return IndexBlocks;
  })();

  /**
   * one V1 dictionary entry
   */

  var V1Entry = BitmapIndex.V1Entry = (function() {
    function V1Entry(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    V1Entry.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
      this.key._read();
      this._debug.key.end = this._io.pos;
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = this._io.readS4be();
      this._debug.offset.end = this._io.pos;
    }

    /**
     * the key
     */

    /**
     * body offset of its bitmap, or -1 - position for a singleton
     */

    /**
     * key kind
     */

    return V1Entry;
  })();

  /**
   * one V2 entry
   */

  var V2Entry = BitmapIndex.V2Entry = (function() {
    function V2Entry(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    V2Entry.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
      this.key._read();
      this._debug.key.end = this._io.pos;
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = this._io.readS4be();
      this._debug.offset.end = this._io.pos;
      this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.length = this._io.readS4be();
      this._debug.length.end = this._io.pos;
    }

    /**
     * the key
     */

    /**
     * body offset of its bitmap, or -1 - position for a singleton
     */

    /**
     * serialised bitmap length, -1 for a singleton
     */

    /**
     * key kind
     */

    return V2Entry;
  })();

  /**
   * 1 = V1 (legacy), 2 = V2 (default since Paimon 1.1.0)
   */

  /**
   * number of rows indexed, nulls included
   */

  /**
   * number of distinct non-null keys (singletons included)
   */

  /**
   * 1 if at least one row is null
   */

  /**
   * body offset of the null bitmap, or -1 - position for a single null
   */

  /**
   * V2 only - serialised size of the null bitmap (even when it is a singleton)
   */

  /**
   * V1 dictionary, in Java HashMap order (not sorted)
   */

  /**
   * V2 block directory (first key and offset of each index block)
   */

  /**
   * V2 index blocks back to back (each also reachable through its head's `block` instance)
   */

  /**
   * the serialised Roaring32 bitmaps (null bitmap first when present), bulk bytes
   */

  /**
   * key kind of the indexed column (see paimon_key)
   */

  return BitmapIndex;
})();
BitmapIndex_.BitmapIndex = BitmapIndex;
});
