// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.Map;
import java.util.HashMap;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;


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
 * @see "docs/FORMATS.md section 14"
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeFileFooter.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexWriter.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/BlockWriter.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/SstFileWriter.java">Source</a>
 */
public class BtreeGlobalIndex extends KaitaiStruct {
    public static BtreeGlobalIndex fromFile(String fileName) throws IOException {
        return new BtreeGlobalIndex(new ByteBufferKaitaiStream(fileName));
    }

    public enum BlockAlignedType {
        ALIGNED(0),
        UNALIGNED(1);

        private final long id;
        BlockAlignedType(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BlockAlignedType> byId = new HashMap<Long, BlockAlignedType>(2);
        static {
            for (BlockAlignedType e : BlockAlignedType.values())
                byId.put(e.id(), e);
        }
        public static BlockAlignedType byId(long id) { return byId.get(id); }
    }

    public enum BlockCompression {
        NONE(0),
        ZSTD(1),
        LZ4(2),
        LZO(3);

        private final long id;
        BlockCompression(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BlockCompression> byId = new HashMap<Long, BlockCompression>(4);
        static {
            for (BlockCompression e : BlockCompression.values())
                byId.put(e.id(), e);
        }
        public static BlockCompression byId(long id) { return byId.get(id); }
    }

    public enum BtreeFooterVersion {
        V1(1);

        private final long id;
        BtreeFooterVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BtreeFooterVersion> byId = new HashMap<Long, BtreeFooterVersion>(1);
        static {
            for (BtreeFooterVersion e : BtreeFooterVersion.values())
                byId.put(e.id(), e);
        }
        public static BtreeFooterVersion byId(long id) { return byId.get(id); }
    }

    public BtreeGlobalIndex(KaitaiStream _io) {
        this(_io, null, null);
    }

    public BtreeGlobalIndex(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public BtreeGlobalIndex(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
    }

    public void _fetchInstances() {
        footer();
        if (this.footer != null) {
            this.footer._fetchInstances();
        }
        indexBlock();
        if (this.indexBlock != null) {
            this.indexBlock._fetchInstances();
        }
        nullBitmap();
        if (this.nullBitmap != null) {
            this.nullBitmap._fetchInstances();
        }
    }

    /**
     * the value of an index-block entry - where a data block is stored
     */
    public static class BlockHandle extends KaitaiStruct {
        public static BlockHandle fromFile(String fileName) throws IOException {
            return new BlockHandle(new ByteBufferKaitaiStream(fileName));
        }

        public BlockHandle(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlockHandle(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public BlockHandle(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.offset = new Varint(this._io);
            this.size = new Varint(this._io);
        }

        public void _fetchInstances() {
            this.offset._fetchInstances();
            this.size._fetchInstances();
        }
        private Varint offset;
        private Varint size;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * file offset of the stored block (varint long)
         */
        public Varint offset() { return offset; }

        /**
         * byte size of the stored block bytes, without the trailer
         */
        public Varint size() { return size; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * the last 5 bytes of a decompressed block
     */
    public static class BlockTail extends KaitaiStruct {
        public static BlockTail fromFile(String fileName) throws IOException {
            return new BlockTail(new ByteBufferKaitaiStream(fileName));
        }

        public BlockTail(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlockTail(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public BlockTail(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.recordSizeOrCount = this._io.readU4le();
            this.alignedType = BtreeGlobalIndex.BlockAlignedType.byId(this._io.readU1());
        }

        public void _fetchInstances() {
        }
        private long recordSizeOrCount;
        private BlockAlignedType alignedType;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * aligned block - the size of every entry; unaligned block - the number of entries
         */
        public long recordSizeOrCount() { return recordSizeOrCount; }

        /**
         * 0 aligned (entries of one size), 1 unaligned (an offset table precedes this tail)
         */
        public BlockAlignedType alignedType() { return alignedType; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * BlockTrailer - how a stored block is compressed and its checksum
     */
    public static class BlockTrailer extends KaitaiStruct {
        public static BlockTrailer fromFile(String fileName) throws IOException {
            return new BlockTrailer(new ByteBufferKaitaiStream(fileName));
        }

        public BlockTrailer(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlockTrailer(KaitaiStream _io, BtreeGlobalIndex.StoredBlock _parent) {
            this(_io, _parent, null);
        }

        public BlockTrailer(KaitaiStream _io, BtreeGlobalIndex.StoredBlock _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.compression = BtreeGlobalIndex.BlockCompression.byId(this._io.readU1());
            this.crc32 = this._io.readU4le();
        }

        public void _fetchInstances() {
        }
        private BlockCompression compression;
        private long crc32;
        private BtreeGlobalIndex _root;
        private BtreeGlobalIndex.StoredBlock _parent;

        /**
         * block compression (0 none, 1 zstd, 2 lz4, 3 lzo)
         */
        public BlockCompression compression() { return compression; }

        /**
         * CRC32 (java.util.zip.CRC32) of the stored block bytes followed by the compression byte
         */
        public long crc32() { return crc32; }
        public BtreeGlobalIndex _root() { return _root; }
        public BtreeGlobalIndex.StoredBlock _parent() { return _parent; }
    }

    /**
     * BTreeFileFooter - handles of the bloom filter, index block and null bitmap (all zero when absent)
     */
    public static class BtreeFooter extends KaitaiStruct {
        public static BtreeFooter fromFile(String fileName) throws IOException {
            return new BtreeFooter(new ByteBufferKaitaiStream(fileName));
        }

        public BtreeFooter(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BtreeFooter(KaitaiStream _io, BtreeGlobalIndex _parent) {
            this(_io, _parent, null);
        }

        public BtreeFooter(KaitaiStream _io, BtreeGlobalIndex _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.bloomFilterOffset = this._io.readU8le();
            this.bloomFilterSize = this._io.readU4le();
            this.bloomFilterExpectedEntries = this._io.readU8le();
            this.indexBlockOffset = this._io.readU8le();
            this.indexBlockSize = this._io.readU4le();
            this.nullBitmapOffset = this._io.readU8le();
            this.nullBitmapSize = this._io.readU4le();
            this.version = this._io.readU4le();
            if (!( ((this.version == BtreeGlobalIndex.BtreeFooterVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/btree_footer/seq/7");
            }
            this.magic = this._io.readBytes(4);
            if (!(Arrays.equals(this.magic, new byte[] { 73, 84, 66, 80 }))) {
                throw new KaitaiStream.ValidationNotEqualError(new byte[] { 73, 84, 66, 80 }, this.magic, this._io, "/types/btree_footer/seq/8");
            }
        }

        public void _fetchInstances() {
        }
        private long bloomFilterOffset;
        private long bloomFilterSize;
        private long bloomFilterExpectedEntries;
        private long indexBlockOffset;
        private long indexBlockSize;
        private long nullBitmapOffset;
        private long nullBitmapSize;
        private long version;
        private byte[] magic;
        private BtreeGlobalIndex _root;
        private BtreeGlobalIndex _parent;

        /**
         * file offset of the bloom filter (0 with size 0 and expected entries 0 = none)
         */
        public long bloomFilterOffset() { return bloomFilterOffset; }

        /**
         * byte size of the bloom filter
         */
        public long bloomFilterSize() { return bloomFilterSize; }

        /**
         * number of keys the bloom filter was sized for
         */
        public long bloomFilterExpectedEntries() { return bloomFilterExpectedEntries; }

        /**
         * file offset of the index block
         */
        public long indexBlockOffset() { return indexBlockOffset; }

        /**
         * byte size of the index block, without its 5-byte trailer
         */
        public long indexBlockSize() { return indexBlockSize; }

        /**
         * file offset of the null bitmap (0 with size 0 = no null key)
         */
        public long nullBitmapOffset() { return nullBitmapOffset; }

        /**
         * byte size of the serialised null bitmap, without its CRC32
         */
        public long nullBitmapSize() { return nullBitmapSize; }

        /**
         * footer version, 1
         */
        public long version() { return version; }

        /**
         * int32 0x50425449 ("PBTI") little-endian
         */
        public byte[] magic() { return magic; }
        public BtreeGlobalIndex _root() { return _root; }
        public BtreeGlobalIndex _parent() { return _parent; }
    }

    /**
     * the bytes of a compressed stored block (compression != none)
     */
    public static class CompressedBlock extends KaitaiStruct {
        public static CompressedBlock fromFile(String fileName) throws IOException {
            return new CompressedBlock(new ByteBufferKaitaiStream(fileName));
        }

        public CompressedBlock(KaitaiStream _io) {
            this(_io, null, null);
        }

        public CompressedBlock(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public CompressedBlock(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.uncompressedSize = new Varint(this._io);
            this.payload = this._io.readBytesFull();
        }

        public void _fetchInstances() {
            this.uncompressedSize._fetchInstances();
        }
        private Varint uncompressedSize;
        private byte[] payload;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * byte size of the block once decompressed
         */
        public Varint uncompressedSize() { return uncompressedSize; }

        /**
         * the compressor's output (a zstd frame; lz4 / lzo add an 8-byte length header)
         */
        public byte[] payload() { return payload; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * one key-value entry of a block
     */
    public static class Entry extends KaitaiStruct {
        public static Entry fromFile(String fileName) throws IOException {
            return new Entry(new ByteBufferKaitaiStream(fileName));
        }

        public Entry(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Entry(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public Entry(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.keyLength = new Varint(this._io);
            this.key = this._io.readBytes(keyLength().value());
            this.valueLength = new Varint(this._io);
            this.value = this._io.readBytes(valueLength().value());
        }

        public void _fetchInstances() {
            this.keyLength._fetchInstances();
            this.valueLength._fetchInstances();
        }
        private Varint keyLength;
        private byte[] key;
        private Varint valueLength;
        private byte[] value;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * byte length of the key
         */
        public Varint keyLength() { return keyLength; }

        /**
         * the key bytes (data block - a serialised column value; index block - a data block's last key)
         */
        public byte[] key() { return key; }

        /**
         * byte length of the value
         */
        public Varint valueLength() { return valueLength; }

        /**
         * the value bytes (data block - row_ids; index block - block_handle)
         */
        public byte[] value() { return value; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * one slot of an unaligned block's offset table
     */
    public static class EntryOffset extends KaitaiStruct {
        public static EntryOffset fromFile(String fileName) throws IOException {
            return new EntryOffset(new ByteBufferKaitaiStream(fileName));
        }

        public EntryOffset(KaitaiStream _io) {
            this(_io, null, null);
        }

        public EntryOffset(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public EntryOffset(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.offset = this._io.readU4le();
        }

        public void _fetchInstances() {
        }
        private long offset;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * start of the entry within the block
         */
        public long offset() { return offset; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * the rows whose key is null, with a checksum
     */
    public static class NullBitmap extends KaitaiStruct {

        public NullBitmap(KaitaiStream _io, long size) {
            this(_io, null, null, size);
        }

        public NullBitmap(KaitaiStream _io, BtreeGlobalIndex _parent, long size) {
            this(_io, _parent, null, size);
        }

        public NullBitmap(KaitaiStream _io, BtreeGlobalIndex _parent, BtreeGlobalIndex _root, long size) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.size = size;
            _read();
        }
        private void _read() {
            this.bitmap = this._io.readBytes(size());
            this.crc32 = this._io.readU4le();
        }

        public void _fetchInstances() {
        }
        private byte[] bitmap;
        private long crc32;
        private long size;
        private BtreeGlobalIndex _root;
        private BtreeGlobalIndex _parent;

        /**
         * portable Roaring64 serialisation (roaring64.ksy) of the relative row ids
         */
        public byte[] bitmap() { return bitmap; }

        /**
         * CRC32 (java.util.zip.CRC32) of ``bitmap``
         */
        public long crc32() { return crc32; }

        /**
         * byte size of the serialised bitmap (the footer's null_bitmap_size)
         */
        public long size() { return size; }
        public BtreeGlobalIndex _root() { return _root; }
        public BtreeGlobalIndex _parent() { return _parent; }
    }

    /**
     * the value of a data-block entry - the rows holding the key
     */
    public static class RowIds extends KaitaiStruct {
        public static RowIds fromFile(String fileName) throws IOException {
            return new RowIds(new ByteBufferKaitaiStream(fileName));
        }

        public RowIds(KaitaiStream _io) {
            this(_io, null, null);
        }

        public RowIds(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public RowIds(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.count = new Varint(this._io);
            this.rowIds = new ArrayList<Varint>();
            for (int i = 0; i < count().value(); i++) {
                this.rowIds.add(new Varint(this._io));
            }
        }

        public void _fetchInstances() {
            this.count._fetchInstances();
            for (int i = 0; i < this.rowIds.size(); i++) {
                this.rowIds.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private Varint count;
        private List<Varint> rowIds;
        private BtreeGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * number of row ids that follow (at least 1)
         */
        public Varint count() { return count; }

        /**
         * row ids relative to the row-id range start, ascending (varint longs)
         */
        public List<Varint> rowIds() { return rowIds; }
        public BtreeGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * one block as stored in the file - its (compressed) bytes then the trailer
     */
    public static class StoredBlock extends KaitaiStruct {

        public StoredBlock(KaitaiStream _io, long size) {
            this(_io, null, null, size);
        }

        public StoredBlock(KaitaiStream _io, BtreeGlobalIndex _parent, long size) {
            this(_io, _parent, null, size);
        }

        public StoredBlock(KaitaiStream _io, BtreeGlobalIndex _parent, BtreeGlobalIndex _root, long size) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.size = size;
            _read();
        }
        private void _read() {
            this.data = this._io.readBytes(size());
            this.trailer = new BlockTrailer(this._io, this, _root);
        }

        public void _fetchInstances() {
            this.trailer._fetchInstances();
        }
        private byte[] data;
        private BlockTrailer trailer;
        private long size;
        private BtreeGlobalIndex _root;
        private BtreeGlobalIndex _parent;

        /**
         * the block bytes; when compressed, a varint uncompressed length then the codec's output
         */
        public byte[] data() { return data; }

        /**
         * compression and CRC32 of ``data``
         */
        public BlockTrailer trailer() { return trailer; }

        /**
         * byte size of the stored block bytes (the block handle's size)
         */
        public long size() { return size; }
        public BtreeGlobalIndex _root() { return _root; }
        public BtreeGlobalIndex _parent() { return _parent; }
    }
    private BtreeFooter footer;

    /**
     * the fixed-size footer at the end of the file
     */
    public BtreeFooter footer() {
        if (this.footer != null)
            return this.footer;
        long _pos = this._io.pos();
        this._io.seek(_io().size() - 52);
        this.footer = new BtreeFooter(this._io, this, _root);
        this._io.seek(_pos);
        return this.footer;
    }
    private StoredBlock indexBlock;

    /**
     * the index block (possibly compressed) and its trailer
     */
    public StoredBlock indexBlock() {
        if (this.indexBlock != null)
            return this.indexBlock;
        long _pos = this._io.pos();
        this._io.seek(footer().indexBlockOffset());
        this.indexBlock = new StoredBlock(this._io, this, _root, footer().indexBlockSize());
        this._io.seek(_pos);
        return this.indexBlock;
    }
    private NullBitmap nullBitmap;

    /**
     * the null bitmap and its CRC32, when some key is null
     */
    public NullBitmap nullBitmap() {
        if (this.nullBitmap != null)
            return this.nullBitmap;
        if (footer().nullBitmapSize() != 0) {
            long _pos = this._io.pos();
            this._io.seek(footer().nullBitmapOffset());
            this.nullBitmap = new NullBitmap(this._io, this, _root, footer().nullBitmapSize());
            this._io.seek(_pos);
        }
        return this.nullBitmap;
    }
    private BtreeGlobalIndex _root;
    private KaitaiStruct _parent;
    public BtreeGlobalIndex _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
