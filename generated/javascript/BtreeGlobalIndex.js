// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream', './Varint'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'), require('./Varint'));
  } else {
    factory(root.BtreeGlobalIndex || (root.BtreeGlobalIndex = {}), root.KaitaiStream, root.Varint || (root.Varint = {}));
  }
})(typeof self !== 'undefined' ? self : this, function (BtreeGlobalIndex_, KaitaiStream, Varint_) {
/**
 * One file per (indexed column, row-id range) of a data-evolution table, written by Paimon Java's and
 * pypaimon's B-tree global-index writers (``index/btree-global-index-<uuid>.index``). Front to back:
 * data blocks, each a stored block (block bytes + 5-byte trailer: compression, CRC32); the null
 * bitmap (portable Roaring64 of the rows whose key is null, then its CRC32); an optional bloom filter
 * over the keys; the index block (a stored block whose entries map the last key of each data block to
 * that block's handle); the 52-byte footer. Once decompressed, a block is its entries (varint key
 * length, key, varint value length, value) then either a fixed record size (aligned block) or one
 * u4 start offset per entry and their count (unaligned block), then the aligned-type byte. A data
 * entry's key is the serialised column value (btree_global_index_key), its value the row ids holding
 * it, relative to the file's row-id range start.
 * @see docs/FORMATS.md section 14
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeFileFooter.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexWriter.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/BlockWriter.java|Source}
 * @see {@link https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/SstFileWriter.java|Source}
 */

var BtreeGlobalIndex = (function() {
  BtreeGlobalIndex.BlockAlignedType = Object.freeze({
    ALIGNED: 0,
    UNALIGNED: 1,

    0: "ALIGNED",
    1: "UNALIGNED",
  });

  BtreeGlobalIndex.BlockCompression = Object.freeze({
    NONE: 0,
    ZSTD: 1,
    LZ4: 2,
    LZO: 3,

    0: "NONE",
    1: "ZSTD",
    2: "LZ4",
    3: "LZO",
  });

  BtreeGlobalIndex.BtreeFooterVersion = Object.freeze({
    V1: 1,

    1: "V1",
  });

  function BtreeGlobalIndex(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  BtreeGlobalIndex.prototype._read = function() {
  }

  /**
   * the value of an index-block entry - where a data block is stored
   */

  var BlockHandle = BtreeGlobalIndex.BlockHandle = (function() {
    function BlockHandle(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlockHandle.prototype._read = function() {
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = new Varint_.Varint(this._io, null, null);
      this.offset._read();
      this._debug.offset.end = this._io.pos;
      this._debug.size = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.size = new Varint_.Varint(this._io, null, null);
      this.size._read();
      this._debug.size.end = this._io.pos;
    }

    /**
     * file offset of the stored block (varint long)
     */

    /**
     * byte size of the stored block bytes, without the trailer
     */

    return BlockHandle;
  })();

  /**
   * the last 5 bytes of a decompressed block
   */

  var BlockTail = BtreeGlobalIndex.BlockTail = (function() {
    function BlockTail(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlockTail.prototype._read = function() {
      this._debug.recordSizeOrCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.recordSizeOrCount = this._io.readU4le();
      this._debug.recordSizeOrCount.end = this._io.pos;
      this._debug.alignedType = { start: this._io.pos, ioOffset: this._io.byteOffset, enumName: "BtreeGlobalIndex.BlockAlignedType" };
      this.alignedType = this._io.readU1();
      this._debug.alignedType.end = this._io.pos;
    }

    /**
     * aligned block - the size of every entry; unaligned block - the number of entries
     */

    /**
     * 0 aligned (entries of one size), 1 unaligned (an offset table precedes this tail)
     */

    return BlockTail;
  })();

  /**
   * BlockTrailer - how a stored block is compressed and its checksum
   */

  var BlockTrailer = BtreeGlobalIndex.BlockTrailer = (function() {
    function BlockTrailer(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BlockTrailer.prototype._read = function() {
      this._debug.compression = { start: this._io.pos, ioOffset: this._io.byteOffset, enumName: "BtreeGlobalIndex.BlockCompression" };
      this.compression = this._io.readU1();
      this._debug.compression.end = this._io.pos;
      this._debug.crc32 = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.crc32 = this._io.readU4le();
      this._debug.crc32.end = this._io.pos;
    }

    /**
     * block compression (0 none, 1 zstd, 2 lz4, 3 lzo)
     */

    /**
     * CRC32 (java.util.zip.CRC32) of the stored block bytes followed by the compression byte
     */

    return BlockTrailer;
  })();

  /**
   * BTreeFileFooter - handles of the bloom filter, index block and null bitmap (all zero when absent)
   */

  var BtreeFooter = BtreeGlobalIndex.BtreeFooter = (function() {
    function BtreeFooter(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    BtreeFooter.prototype._read = function() {
      this._debug.bloomFilterOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bloomFilterOffset = this._io.readU8le();
      this._debug.bloomFilterOffset.end = this._io.pos;
      this._debug.bloomFilterSize = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bloomFilterSize = this._io.readU4le();
      this._debug.bloomFilterSize.end = this._io.pos;
      this._debug.bloomFilterExpectedEntries = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bloomFilterExpectedEntries = this._io.readU8le();
      this._debug.bloomFilterExpectedEntries.end = this._io.pos;
      this._debug.indexBlockOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexBlockOffset = this._io.readU8le();
      this._debug.indexBlockOffset.end = this._io.pos;
      this._debug.indexBlockSize = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.indexBlockSize = this._io.readU4le();
      this._debug.indexBlockSize.end = this._io.pos;
      this._debug.nullBitmapOffset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullBitmapOffset = this._io.readU8le();
      this._debug.nullBitmapOffset.end = this._io.pos;
      this._debug.nullBitmapSize = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.nullBitmapSize = this._io.readU4le();
      this._debug.nullBitmapSize.end = this._io.pos;
      this._debug.version = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.version = this._io.readU4le();
      this._debug.version.end = this._io.pos;
      if (!( ((this.version == BtreeGlobalIndex.BtreeFooterVersion.V1)) )) {
        var _err = new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/btree_footer/seq/7");
        this._debug.version.validationError = _err;
        throw _err;
      }
      this._debug.magic = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.magic = this._io.readBytes(4);
      this._debug.magic.end = this._io.pos;
      if (!((KaitaiStream.byteArrayCompare(this.magic, new Uint8Array([73, 84, 66, 80])) == 0))) {
        var _err = new KaitaiStream.ValidationNotEqualError(new Uint8Array([73, 84, 66, 80]), this.magic, this._io, "/types/btree_footer/seq/8");
        this._debug.magic.validationError = _err;
        throw _err;
      }
    }

    /**
     * file offset of the bloom filter (0 with size 0 and expected entries 0 = none)
     */

    /**
     * byte size of the bloom filter
     */

    /**
     * number of keys the bloom filter was sized for
     */

    /**
     * file offset of the index block
     */

    /**
     * byte size of the index block, without its 5-byte trailer
     */

    /**
     * file offset of the null bitmap (0 with size 0 = no null key)
     */

    /**
     * byte size of the serialised null bitmap, without its CRC32
     */

    /**
     * footer version, 1
     */

    /**
     * int32 0x50425449 ("PBTI") little-endian
     */

    return BtreeFooter;
  })();

  /**
   * the bytes of a compressed stored block (compression != none)
   */

  var CompressedBlock = BtreeGlobalIndex.CompressedBlock = (function() {
    function CompressedBlock(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    CompressedBlock.prototype._read = function() {
      this._debug.uncompressedSize = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.uncompressedSize = new Varint_.Varint(this._io, null, null);
      this.uncompressedSize._read();
      this._debug.uncompressedSize.end = this._io.pos;
      this._debug.payload = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.payload = this._io.readBytesFull();
      this._debug.payload.end = this._io.pos;
    }

    /**
     * byte size of the block once decompressed
     */

    /**
     * the compressor's output (a zstd frame; lz4 / lzo add an 8-byte length header)
     */

    return CompressedBlock;
  })();

  /**
   * one key-value entry of a block
   */

  var Entry = BtreeGlobalIndex.Entry = (function() {
    function Entry(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Entry.prototype._read = function() {
      this._debug.keyLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.keyLength = new Varint_.Varint(this._io, null, null);
      this.keyLength._read();
      this._debug.keyLength.end = this._io.pos;
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = this._io.readBytes(this.keyLength.value);
      this._debug.key.end = this._io.pos;
      this._debug.valueLength = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.valueLength = new Varint_.Varint(this._io, null, null);
      this.valueLength._read();
      this._debug.valueLength.end = this._io.pos;
      this._debug.value = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.value = this._io.readBytes(this.valueLength.value);
      this._debug.value.end = this._io.pos;
    }

    /**
     * byte length of the key
     */

    /**
     * the key bytes (data block - a serialised column value; index block - a data block's last key)
     */

    /**
     * byte length of the value
     */

    /**
     * the value bytes (data block - row_ids; index block - block_handle)
     */

    return Entry;
  })();

  /**
   * one slot of an unaligned block's offset table
   */

  var EntryOffset = BtreeGlobalIndex.EntryOffset = (function() {
    function EntryOffset(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    EntryOffset.prototype._read = function() {
      this._debug.offset = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.offset = this._io.readU4le();
      this._debug.offset.end = this._io.pos;
    }

    /**
     * start of the entry within the block
     */

    return EntryOffset;
  })();

  /**
   * the rows whose key is null, with a checksum
   */

  var NullBitmap = BtreeGlobalIndex.NullBitmap = (function() {
    function NullBitmap(_io, _parent, _root, size) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.size = size;
      this._debug = {};

    }
    NullBitmap.prototype._read = function() {
      this._debug.bitmap = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.bitmap = this._io.readBytes(this.size);
      this._debug.bitmap.end = this._io.pos;
      this._debug.crc32 = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.crc32 = this._io.readU4le();
      this._debug.crc32.end = this._io.pos;
    }

    /**
     * portable Roaring64 serialisation (roaring64.ksy) of the relative row ids
     */

    /**
     * CRC32 (java.util.zip.CRC32) of ``bitmap``
     */

    /**
     * byte size of the serialised bitmap (the footer's null_bitmap_size)
     */

    return NullBitmap;
  })();

  /**
   * the value of a data-block entry - the rows holding the key
   */

  var RowIds = BtreeGlobalIndex.RowIds = (function() {
    function RowIds(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    RowIds.prototype._read = function() {
      this._debug.count = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.count = new Varint_.Varint(this._io, null, null);
      this.count._read();
      this._debug.count.end = this._io.pos;
      this._debug.rowIds = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.rowIds.arr = [];
      this.rowIds = [];
      for (var i = 0; i < this.count.value; i++) {
        this._debug.rowIds.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        var _t_rowIds = new Varint_.Varint(this._io, null, null);
        try {
          _t_rowIds._read();
        } finally {
          this.rowIds.push(_t_rowIds);
        }
        this._debug.rowIds.arr[i].end = this._io.pos;
      }
      this._debug.rowIds.end = this._io.pos;
    }

    /**
     * number of row ids that follow (at least 1)
     */

    /**
     * row ids relative to the row-id range start, ascending (varint longs)
     */

    return RowIds;
  })();

  /**
   * one block as stored in the file - its (compressed) bytes then the trailer
   */

  var StoredBlock = BtreeGlobalIndex.StoredBlock = (function() {
    function StoredBlock(_io, _parent, _root, size) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.size = size;
      this._debug = {};

    }
    StoredBlock.prototype._read = function() {
      this._debug.data = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.data = this._io.readBytes(this.size);
      this._debug.data.end = this._io.pos;
      this._debug.trailer = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.trailer = new BlockTrailer(this._io, this, this._root);
      this.trailer._read();
      this._debug.trailer.end = this._io.pos;
    }

    /**
     * the block bytes; when compressed, a varint uncompressed length then the codec's output
     */

    /**
     * compression and CRC32 of ``data``
     */

    /**
     * byte size of the stored block bytes (the block handle's size)
     */

    return StoredBlock;
  })();

  /**
   * the fixed-size footer at the end of the file
   */
  Object.defineProperty(BtreeGlobalIndex.prototype, 'footer', {
    get: function() {
      if (this._m_footer !== undefined)
        return this._m_footer;
      var _pos = this._io.pos;
      this._io.seek(this._io.size - 52);
      this._debug._m_footer = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_footer = new BtreeFooter(this._io, this, this._root);
      this._m_footer._read();
      this._debug._m_footer.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_footer;
    }
  });

  /**
   * the index block (possibly compressed) and its trailer
   */
  Object.defineProperty(BtreeGlobalIndex.prototype, 'indexBlock', {
    get: function() {
      if (this._m_indexBlock !== undefined)
        return this._m_indexBlock;
      var _pos = this._io.pos;
      this._io.seek(this.footer.indexBlockOffset);
      this._debug._m_indexBlock = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._m_indexBlock = new StoredBlock(this._io, this, this._root, this.footer.indexBlockSize);
      this._m_indexBlock._read();
      this._debug._m_indexBlock.end = this._io.pos;
      this._io.seek(_pos);
      return this._m_indexBlock;
    }
  });

  /**
   * the null bitmap and its CRC32, when some key is null
   */
  Object.defineProperty(BtreeGlobalIndex.prototype, 'nullBitmap', {
    get: function() {
      if (this._m_nullBitmap !== undefined)
        return this._m_nullBitmap;
      if (this.footer.nullBitmapSize != 0) {
        var _pos = this._io.pos;
        this._io.seek(this.footer.nullBitmapOffset);
        this._debug._m_nullBitmap = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this._m_nullBitmap = new NullBitmap(this._io, this, this._root, this.footer.nullBitmapSize);
        this._m_nullBitmap._read();
        this._debug._m_nullBitmap.end = this._io.pos;
        this._io.seek(_pos);
      }
      return this._m_nullBitmap;
    }
  });

  return BtreeGlobalIndex;
})();
BtreeGlobalIndex_.BtreeGlobalIndex = BtreeGlobalIndex;
});
