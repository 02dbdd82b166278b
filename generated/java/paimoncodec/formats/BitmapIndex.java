// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.Map;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;


/**
 * FORMATS.md 2.3 / 2.4. The version byte switches between the legacy V1 layout (unsorted
 * dictionary of key -> offset, no lengths) and V2 (sorted entries packed into index blocks that
 * are positioned by a block directory and loadable one at a time). Offsets of bitmaps are
 * relative to the bitmap body; a negative offset -1 - p encodes the singleton bitmap {p}.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMetaV2.java">Source</a>
 * @see "docs/FORMATS.md section 2"
 */
public class BitmapIndex extends KaitaiStruct {

    public enum BitmapIndexVersion {
        V1(1),
        V2(2);

        private final long id;
        BitmapIndexVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BitmapIndexVersion> byId = new HashMap<Long, BitmapIndexVersion>(2);
        static {
            for (BitmapIndexVersion e : BitmapIndexVersion.values())
                byId.put(e.id(), e);
        }
        public static BitmapIndexVersion byId(long id) { return byId.get(id); }
    }

    public BitmapIndex(KaitaiStream _io, String keyKind) {
        this(_io, null, null, keyKind);
    }

    public BitmapIndex(KaitaiStream _io, KaitaiStruct _parent, String keyKind) {
        this(_io, _parent, null, keyKind);
    }

    public BitmapIndex(KaitaiStream _io, KaitaiStruct _parent, BitmapIndex _root, String keyKind) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        this.keyKind = keyKind;
        _read();
    }
    private void _read() {
        this.version = this._io.readU1();
        if (!( ((this.version == BitmapIndexVersion.V1.id()) || (this.version == BitmapIndexVersion.V2.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
        }
        this.rowCount = this._io.readS4be();
        this.nonNullBitmapNumber = this._io.readS4be();
        this.hasNullValue = this._io.readU1();
        if (hasNullValue() != 0) {
            this.nullValueOffset = this._io.readS4be();
        }
        if ( ((version() == BitmapIndexVersion.V2.id()) && (hasNullValue() != 0)) ) {
            this.nullBitmapLength = this._io.readS4be();
        }
        if (version() == BitmapIndexVersion.V1.id()) {
            this.entries = new ArrayList<V1Entry>();
            for (int i = 0; i < nonNullBitmapNumber(); i++) {
                this.entries.add(new V1Entry(this._io, this, _root, keyKind()));
            }
        }
        if (version() == BitmapIndexVersion.V2.id()) {
            this.v2Head = new BitmapIndexV2Head(this._io, this, _root, keyKind());
        }
        if (version() == BitmapIndexVersion.V2.id()) {
            KaitaiStream _io_indexBlocks = this._io.substream(v2Head().bitmapBodyOffset());
            this.indexBlocks = new IndexBlocks(_io_indexBlocks, this, _root, keyKind());
        }
        this.body = this._io.readBytesFull();
    }

    public void _fetchInstances() {
        if (hasNullValue() != 0) {
        }
        if ( ((version() == BitmapIndexVersion.V2.id()) && (hasNullValue() != 0)) ) {
        }
        if (version() == BitmapIndexVersion.V1.id()) {
            for (int i = 0; i < this.entries.size(); i++) {
                this.entries.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        if (version() == BitmapIndexVersion.V2.id()) {
            this.v2Head._fetchInstances();
        }
        if (version() == BitmapIndexVersion.V2.id()) {
            this.indexBlocks._fetchInstances();
        }
    }

    /**
     * V2 block directory
     */
    public static class BitmapIndexV2Head extends KaitaiStruct {

        public BitmapIndexV2Head(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public BitmapIndexV2Head(KaitaiStream _io, BitmapIndex _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public BitmapIndexV2Head(KaitaiStream _io, BitmapIndex _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.indexBlockCount = this._io.readS4be();
            this.blockHeads = new ArrayList<BlockHead>();
            for (int i = 0; i < indexBlockCount(); i++) {
                this.blockHeads.add(new BlockHead(this._io, this, _root, keyKind()));
            }
            this.bitmapBodyOffset = this._io.readS4be();
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.blockHeads.size(); i++) {
                this.blockHeads.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private int indexBlockCount;
        private List<BlockHead> blockHeads;
        private int bitmapBodyOffset;
        private String keyKind;
        private BitmapIndex _root;
        private BitmapIndex _parent;

        /**
         * number of index blocks
         */
        public int indexBlockCount() { return indexBlockCount; }

        /**
         * one head per index block, in key order
         */
        public List<BlockHead> blockHeads() { return blockHeads; }

        /**
         * total size of the index blocks (the body starts this far after this field)
         */
        public int bitmapBodyOffset() { return bitmapBodyOffset; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public BitmapIndex _parent() { return _parent; }
    }

    /**
     * first key and position of one index block
     */
    public static class BlockHead extends KaitaiStruct {

        public BlockHead(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public BlockHead(KaitaiStream _io, BitmapIndex.BitmapIndexV2Head _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public BlockHead(KaitaiStream _io, BitmapIndex.BitmapIndexV2Head _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.key = new PaimonKey(this._io, keyKind());
            this.blockOffset = this._io.readS4be();
        }

        public void _fetchInstances() {
            this.key._fetchInstances();
            block();
            if (this.block != null) {
                this.block._fetchInstances();
            }
        }
        private IndexBlock block;

        /**
         * the index block itself, parsed on demand
         */
        public IndexBlock block() {
            if (this.block != null)
                return this.block;
            KaitaiStream io = _parent()._parent().indexBlocks()._io();
            long _pos = io.pos();
            io.seek(blockOffset());
            this.block = new IndexBlock(io, this, _root, keyKind());
            io.seek(_pos);
            return this.block;
        }
        private PaimonKey key;
        private int blockOffset;
        private String keyKind;
        private BitmapIndex _root;
        private BitmapIndex.BitmapIndexV2Head _parent;

        /**
         * first key of the block
         */
        public PaimonKey key() { return key; }

        /**
         * offset of the block from the start of the index blocks
         */
        public int blockOffset() { return blockOffset; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public BitmapIndex.BitmapIndexV2Head _parent() { return _parent; }
    }

    /**
     * one V2 index block
     */
    public static class IndexBlock extends KaitaiStruct {

        public IndexBlock(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public IndexBlock(KaitaiStream _io, KaitaiStruct _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public IndexBlock(KaitaiStream _io, KaitaiStruct _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.entryCount = this._io.readS4be();
            this.entries = new ArrayList<V2Entry>();
            for (int i = 0; i < entryCount(); i++) {
                this.entries.add(new V2Entry(this._io, this, _root, keyKind()));
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.entries.size(); i++) {
                this.entries.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private int entryCount;
        private List<V2Entry> entries;
        private String keyKind;
        private BitmapIndex _root;
        private KaitaiStruct _parent;

        /**
         * number of entries in this block
         */
        public int entryCount() { return entryCount; }

        /**
         * entries sorted by key
         */
        public List<V2Entry> entries() { return entries; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * the V2 index blocks area
     */
    public static class IndexBlocks extends KaitaiStruct {

        public IndexBlocks(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public IndexBlocks(KaitaiStream _io, BitmapIndex _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public IndexBlocks(KaitaiStream _io, BitmapIndex _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.blocks = new ArrayList<IndexBlock>();
            {
                int i = 0;
                while (!this._io.isEof()) {
                    this.blocks.add(new IndexBlock(this._io, this, _root, keyKind()));
                    i++;
                }
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.blocks.size(); i++) {
                this.blocks.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private List<IndexBlock> blocks;
        private String keyKind;
        private BitmapIndex _root;
        private BitmapIndex _parent;

        /**
         * index blocks in key order
         */
        public List<IndexBlock> blocks() { return blocks; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public BitmapIndex _parent() { return _parent; }
    }

    /**
     * one V1 dictionary entry
     */
    public static class V1Entry extends KaitaiStruct {

        public V1Entry(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public V1Entry(KaitaiStream _io, BitmapIndex _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public V1Entry(KaitaiStream _io, BitmapIndex _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.key = new PaimonKey(this._io, keyKind());
            this.offset = this._io.readS4be();
        }

        public void _fetchInstances() {
            this.key._fetchInstances();
        }
        private PaimonKey key;
        private int offset;
        private String keyKind;
        private BitmapIndex _root;
        private BitmapIndex _parent;

        /**
         * the key
         */
        public PaimonKey key() { return key; }

        /**
         * body offset of its bitmap, or -1 - position for a singleton
         */
        public int offset() { return offset; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public BitmapIndex _parent() { return _parent; }
    }

    /**
     * one V2 entry
     */
    public static class V2Entry extends KaitaiStruct {

        public V2Entry(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public V2Entry(KaitaiStream _io, BitmapIndex.IndexBlock _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public V2Entry(KaitaiStream _io, BitmapIndex.IndexBlock _parent, BitmapIndex _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.key = new PaimonKey(this._io, keyKind());
            this.offset = this._io.readS4be();
            this.length = this._io.readS4be();
        }

        public void _fetchInstances() {
            this.key._fetchInstances();
        }
        private PaimonKey key;
        private int offset;
        private int length;
        private String keyKind;
        private BitmapIndex _root;
        private BitmapIndex.IndexBlock _parent;

        /**
         * the key
         */
        public PaimonKey key() { return key; }

        /**
         * body offset of its bitmap, or -1 - position for a singleton
         */
        public int offset() { return offset; }

        /**
         * serialised bitmap length, -1 for a singleton
         */
        public int length() { return length; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public BitmapIndex _root() { return _root; }
        public BitmapIndex.IndexBlock _parent() { return _parent; }
    }
    private int version;
    private int rowCount;
    private int nonNullBitmapNumber;
    private int hasNullValue;
    private Integer nullValueOffset;
    private Integer nullBitmapLength;
    private List<V1Entry> entries;
    private BitmapIndexV2Head v2Head;
    private IndexBlocks indexBlocks;
    private byte[] body;
    private String keyKind;
    private BitmapIndex _root;
    private KaitaiStruct _parent;

    /**
     * 1 = V1 (legacy), 2 = V2 (default since Paimon 1.1.0)
     */
    public int version() { return version; }

    /**
     * number of rows indexed, nulls included
     */
    public int rowCount() { return rowCount; }

    /**
     * number of distinct non-null keys (singletons included)
     */
    public int nonNullBitmapNumber() { return nonNullBitmapNumber; }

    /**
     * 1 if at least one row is null
     */
    public int hasNullValue() { return hasNullValue; }

    /**
     * body offset of the null bitmap, or -1 - position for a single null
     */
    public Integer nullValueOffset() { return nullValueOffset; }

    /**
     * V2 only - serialised size of the null bitmap (even when it is a singleton)
     */
    public Integer nullBitmapLength() { return nullBitmapLength; }

    /**
     * V1 dictionary, in Java HashMap order (not sorted)
     */
    public List<V1Entry> entries() { return entries; }

    /**
     * V2 block directory (first key and offset of each index block)
     */
    public BitmapIndexV2Head v2Head() { return v2Head; }

    /**
     * V2 index blocks back to back (each also reachable through its head's `block` instance)
     */
    public IndexBlocks indexBlocks() { return indexBlocks; }

    /**
     * the serialised Roaring32 bitmaps (null bitmap first when present), bulk bytes
     */
    public byte[] body() { return body; }

    /**
     * key kind of the indexed column (see paimon_key)
     */
    public String keyKind() { return keyKind; }
    public BitmapIndex _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
