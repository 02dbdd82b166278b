// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './PaimonKey'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./PaimonKey'));
  } else {
    factory(root.RangeBitmap || (root.RangeBitmap = {}), root.KaitaiStream, root.PaimonKey || (root.PaimonKey = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (RangeBitmap_, KaitaiStream, PaimonKey_) {
/**
 * FORMATS.md 4: a header, a chunked sorted dictionary (key -> dense code) and a bit-sliced index
 * (BSI) of the code of every row. Keys use the same encoding as the bitmap index (DECIMAL as the
 * unscaled int64, timestamps as millis/micros, FLOAT/DOUBLE as raw IEEE bits).
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/RangeBitmap.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/FixedLengthChunk.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/VariableLengthChunk.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java|Source}
 * @see docs/FORMATS.md section 4
 */

var RangeBitmap = (function() {
  RangeBitmap.BitSliceIndexVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  RangeBitmap.ChunkVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  RangeBitmap.DictionaryVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  RangeBitmap.RangeBitmapVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function RangeBitmap(_io, _parent, _root, keyKind) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this.keyKind = keyKind;
    this._debug = {};

  }
  RangeBitmap.prototype._read = function() {
    this._debug.headerLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.headerLength = this._io.readS4be();
    this._debug.headerLength.end = this._io.pos;
    this._debug.header = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._raw_header = this._io.readBytes(this.headerLength);
    var _io__raw_header = new KaitaiStream(this._raw_header);
    this.header = new RangeBitmapHeader(_io__raw_header, this, this._root, this.keyKind);
    this.header._read();
    this._debug.header.end = this._io.pos;
    this._debug.dictionary = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._raw_dictionary = this._io.readBytes(this.header.dictionaryLength);
    var _io__raw_dictionary = new KaitaiStream(this._raw_dictionary);
    this.dictionary = new Dictionary(_io__raw_dictionary, this, this._root, this.keyKind);
    this.dictionary._read();
    this._debug.dictionary.end = this._io.pos;
    this._debug.bsi = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._raw_bsi = this._io.readBytesFull();
    var _io__raw_bsi = new KaitaiStream(this._raw_bsi);
    this.bsi = new BitSlicedIndex(_io__raw_bsi, this, this._root);
    this.bsi._read();
    this._debug.bsi.end = this._io.pos;
  }

  /**
   * bit-sliced index of the row codes
   */

  var BitSlicedIndex = RangeBitmap.BitSlicedIndex = (function() {
    function BitSlicedIndex(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BitSlicedIndex.prototype._read = function() {
      this._debug.bsiHeaderLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bsiHeaderLength = this._io.readS4be();
      this._debug.bsiHeaderLength.end = this._io.pos;
      this._debug.bsiHeader = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._raw_bsiHeader = this._io.readBytes(this.bsiHeaderLength);
      var _io__raw_bsiHeader = new KaitaiStream(this._raw_bsiHeader);
      this.bsiHeader = new BsiHeader(_io__raw_bsiHeader, this, this._root);
      this.bsiHeader._read();
      this._debug.bsiHeader.end = this._io.pos;
      this._debug.ebm = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.ebm = this._io.readBytes(this.bsiHeader.ebmLength);
      this._debug.ebm.end = this._io.pos;
      this._debug.slices = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.slices = this._io.readBytesFull();
      this._debug.slices.end = this._io.pos;
    }

    /**
     * byte length of the BSI header
     */

    /**
     * BSI header
     */

    /**
     * existence bitmap (Roaring32 of non-null rows, bulk)
     */

    /**
     * the slice bitmaps back to back (Roaring32 each, bulk; located by slice_refs)
     */

    return BitSlicedIndex;
  })();

  /**
   * BSI header
   */

  var BsiHeader = RangeBitmap.BsiHeader = (function() {
    function BsiHeader(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BsiHeader.prototype._read = function() {
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == RangeBitmap.BitSliceIndexVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/bsi_header/seq/0");
        this._debug.version.validationError = _err;
        throw _err;
      }
      this._debug.sliceCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.sliceCount = this._io.readU1();
      this._debug.sliceCount.end = this._io.pos;
      this._debug.ebmLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.ebmLength = this._io.readS4be();
      this._debug.ebmLength.end = this._io.pos;
      this._debug.indexesLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexesLength = this._io.readS4be();
      this._debug.indexesLength.end = this._io.pos;
      this._debug.sliceRefs = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.sliceRefs.arr = [];
      this.sliceRefs = [];
      for (var i = 0; i < this.sliceCount; i++) {
        this._debug.sliceRefs.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_sliceRefs = new SliceRef(this._io, this, this._root);
        try {
          _t_sliceRefs._read();
        } finally {
          this.sliceRefs.push(_t_sliceRefs);
        }
        this._debug.sliceRefs.arr[i].end = this._io.pos;
      }
      this._debug.sliceRefs.end = this._io.pos;
    }

    /**
     * BSI version, 1
     */

    /**
     * number of slices (ONE byte; 64 when the cardinality is 0)
     */

    /**
     * byte length of the existence bitmap
     */

    /**
     * byte length of the slice directory (8 per slice)
     */

    /**
     * where each slice bitmap is
     */

    return BsiHeader;
  })();

  /**
   * one chunk header (fixed-length keys, or variable-length keys for strings)
   */

  var Chunk = RangeBitmap.Chunk = (function() {
    function Chunk(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    Chunk.prototype._read = function() {
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
      this.key._read();
      this._debug.key.end = this._io.pos;
      this._debug.code = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.code = this._io.readS4be();
      this._debug.code.end = this._io.pos;
      this._debug.keysOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keysOffset = this._io.readS4be();
      this._debug.keysOffset.end = this._io.pos;
      this._debug.size = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.size = this._io.readS4be();
      this._debug.size.end = this._io.pos;
      if (this.keyKind == "string") {
        this._debug.offsetsLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.offsetsLength = this._io.readS4be();
        this._debug.offsetsLength.end = this._io.pos;
      }
      this._debug.keysLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keysLength = this._io.readS4be();
      this._debug.keysLength.end = this._io.pos;
      if (this.keyKind != "string") {
        this._debug.fixedLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.fixedLength = this._io.readS4be();
        this._debug.fixedLength.end = this._io.pos;
      }
    }

    /**
     * chunk version, 1
     */

    /**
     * first key of the chunk
     */

    /**
     * code of the first key; the chunk's other keys have the following codes
     */

    /**
     * offset of this chunk's key region from the start of the dictionary keys
     */

    /**
     * number of additional keys stored in the key region
     */

    /**
     * variable-length chunk - byte length of the key offsets (4 per key)
     */

    /**
     * byte length of the serialised keys
     */

    /**
     * fixed-length chunk - byte length of one key
     */

    /**
     * key kind
     */

    return Chunk;
  })();

  /**
   * the chunk headers area
   */

  var Chunks = RangeBitmap.Chunks = (function() {
    function Chunks(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    Chunks.prototype._read = function() {
      this._debug.chunks = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.chunks.arr = [];
      this.chunks = [];
      var i = 0;
      while (!this._io.isEof()) {
        this._debug.chunks.arr[this.chunks.length] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_chunks = new Chunk(this._io, this, this._root, this.keyKind);
        try {
          _t_chunks._read();
        } finally {
          this.chunks.push(_t_chunks);
        }
        this._debug.chunks.arr[this.chunks.length - 1].end = this._io.pos;
        i++;
      }
      this._debug.chunks.end = this._io.pos;
    }

    /**
     * chunk headers in key order
     */

    /**
     * key kind
     */

    return Chunks;
  })();

  /**
   * chunked dictionary; codes are 0..cardinality-1 in ascending key order
   */

  var Dictionary = RangeBitmap.Dictionary = (function() {
    function Dictionary(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    Dictionary.prototype._read = function() {
      this._debug.dictHeaderLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.dictHeaderLength = this._io.readS4be();
      this._debug.dictHeaderLength.end = this._io.pos;
      this._debug.dictHeader = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._raw_dictHeader = this._io.readBytes(this.dictHeaderLength);
      var _io__raw_dictHeader = new KaitaiStream(this._raw_dictHeader);
      this.dictHeader = new DictionaryHeader(_io__raw_dictHeader, this, this._root);
      this.dictHeader._read();
      this._debug.dictHeader.end = this._io.pos;
      this._debug.offsets = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.offsets.arr = [];
      this.offsets = [];
      for (var i = 0; i < this.dictHeader.chunkCount; i++) {
        this._debug.offsets.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.offsets.push(this._io.readS4be());
        this._debug.offsets.arr[i].end = this._io.pos;
      }
      this._debug.offsets.end = this._io.pos;
      this._debug.chunks = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._raw_chunks = this._io.readBytes(this.dictHeader.chunksLength);
      var _io__raw_chunks = new KaitaiStream(this._raw_chunks);
      this.chunks = new Chunks(_io__raw_chunks, this, this._root, this.keyKind);
      this.chunks._read();
      this._debug.chunks.end = this._io.pos;
      this._debug.keys = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keys = this._io.readBytesFull();
      this._debug.keys.end = this._io.pos;
    }

    /**
     * byte length of the dictionary header (13)
     */

    /**
     * dictionary header
     */

    /**
     * start of each chunk header inside the chunks area
     */

    /**
     * chunk headers back to back
     */

    /**
     * the per-chunk key regions back to back (bulk; decoded by the semantic layer)
     */

    /**
     * key kind
     */

    return Dictionary;
  })();

  /**
   * dictionary header
   */

  var DictionaryHeader = RangeBitmap.DictionaryHeader = (function() {
    function DictionaryHeader(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    DictionaryHeader.prototype._read = function() {
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == RangeBitmap.DictionaryVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/dictionary_header/seq/0");
        this._debug.version.validationError = _err;
        throw _err;
      }
      this._debug.chunkCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.chunkCount = this._io.readS4be();
      this._debug.chunkCount.end = this._io.pos;
      this._debug.offsetsLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offsetsLength = this._io.readS4be();
      this._debug.offsetsLength.end = this._io.pos;
      this._debug.chunksLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.chunksLength = this._io.readS4be();
      this._debug.chunksLength.end = this._io.pos;
    }

    /**
     * dictionary version, 1
     */

    /**
     * number of chunks
     */

    /**
     * byte length of the chunk offsets (4 per chunk)
     */

    /**
     * byte length of the chunk headers area
     */

    return DictionaryHeader;
  })();

  /**
   * range-bitmap header
   */

  var RangeBitmapHeader = RangeBitmap.RangeBitmapHeader = (function() {
    function RangeBitmapHeader(_io, _parent, _root, keyKind) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyKind = keyKind;
      this._debug = {};

    }
    RangeBitmapHeader.prototype._read = function() {
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU1();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == RangeBitmap.RangeBitmapVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/range_bitmap_header/seq/0");
        this._debug.version.validationError = _err;
        throw _err;
      }
      this._debug.rowCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.rowCount = this._io.readS4be();
      this._debug.rowCount.end = this._io.pos;
      this._debug.cardinality = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.cardinality = this._io.readS4be();
      this._debug.cardinality.end = this._io.pos;
      if (this.cardinality > 0) {
        this._debug.min = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.min = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
        this.min._read();
        this._debug.min.end = this._io.pos;
      }
      if (this.cardinality > 0) {
        this._debug.max = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.max = new PaimonKey_.PaimonKey(this._io, null, null, this.keyKind);
        this.max._read();
        this._debug.max.end = this._io.pos;
      }
      this._debug.dictionaryLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.dictionaryLength = this._io.readS4be();
      this._debug.dictionaryLength.end = this._io.pos;
    }

    /**
     * format version, 1
     */

    /**
     * rows written, nulls included
     */

    /**
     * number of distinct non-null keys
     */

    /**
     * smallest key
     */

    /**
     * largest key
     */

    /**
     * byte length of the dictionary
     */

    /**
     * key kind
     */

    return RangeBitmapHeader;
  })();

  /**
   * position of one slice bitmap
   */

  var SliceRef = RangeBitmap.SliceRef = (function() {
    function SliceRef(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    SliceRef.prototype._read = function() {
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = this._io.readS4be();
      this._debug.offset.end = this._io.pos;
      this._debug.length = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.length = this._io.readS4be();
      this._debug.length.end = this._io.pos;
    }

    /**
     * offset from the end of the existence bitmap
     */

    /**
     * byte length of the slice bitmap
     */

    return SliceRef;
  })();

  /**
   * the key region of one variable-length (string) chunk, at the chunk's keys_offset in the dictionary's
   * keys: its keys' offsets, then the keys (VariableLengthChunk). The dictionary keeps the regions as bulk
   * bytes (a region's length is in its chunk header, not in front of it); the semantic layer reads one
   * region at a time with this type.
   */

  var VariableChunkKeys = RangeBitmap.VariableChunkKeys = (function() {
    function VariableChunkKeys(_io, _parent, _root, keyCount) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.keyCount = keyCount;
      this._debug = {};

    }
    VariableChunkKeys.prototype._read = function() {
      this._debug.keyOffsets = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.keyOffsets.arr = [];
      this.keyOffsets = [];
      for (var i = 0; i < this.keyCount; i++) {
        this._debug.keyOffsets.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.keyOffsets.push(this._io.readS4be());
        this._debug.keyOffsets.arr[i].end = this._io.pos;
      }
      this._debug.keyOffsets.end = this._io.pos;
      this._debug.keys = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keys = this._io.readBytesFull();
      this._debug.keys.end = this._io.pos;
    }

    /**
     * start of each key inside keys (the chunk's offsets_length is 4 per key)
     */

    /**
     * the keys in their paimon_key string form, back to back (the chunk's keys_length bytes)
     */

    /**
     * the chunk's size (its keys after the first, which is in the header)
     */

    return VariableChunkKeys;
  })();

  /**
   * byte length of the header that follows
   */

  /**
   * version, counts, min/max key and the dictionary length
   */

  /**
   * the chunked dictionary
   */

  /**
   * the bit-sliced index of row codes
   */

  /**
   * key kind of the indexed column (see paimon_key)
   */

  return RangeBitmap;
})();
RangeBitmap_.RangeBitmap = RangeBitmap;
});
