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
 * The bitmap global index as pypaimon 2.1 writes it (``pypaimon/globalindex/bitmap``; Paimon Java
 * adopts the layout after 1.4 - Java 1.4.2's own bitmap global index is a bare bitmap file-index
 * payload, bitmap_index.ksy). Front to back: the null-rows bitmap, the non-null-rows bitmap, per
 * distinct key its rows bitmap (portable Roaring64), the dictionary blocks (stored blocks as in
 * btree_global_index: bytes then a 5-byte compression + CRC32 trailer) mapping keys - ordered by
 * their serialised bytes - to their bitmap, the index block mapping each dictionary block's first key
 * to it, and the 48-byte big-endian footer. Row ids are relative to the file's row-id range start.
 * @see "docs/FORMATS.md section 14"
 * @see <a href="https://pypi.org/project/pypaimon/2.1.0/">Source</a>
 */
public class BitmapGlobalIndex extends KaitaiStruct {
    public static BitmapGlobalIndex fromFile(String fileName) throws IOException {
        return new BitmapGlobalIndex(new ByteBufferKaitaiStream(fileName));
    }

    public enum BitmapGlobalIndexVersion {
        V1(1);

        private final long id;
        BitmapGlobalIndexVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BitmapGlobalIndexVersion> byId = new HashMap<Long, BitmapGlobalIndexVersion>(1);
        static {
            for (BitmapGlobalIndexVersion e : BitmapGlobalIndexVersion.values())
                byId.put(e.id(), e);
        }
        public static BitmapGlobalIndexVersion byId(long id) { return byId.get(id); }
    }

    public BitmapGlobalIndex(KaitaiStream _io) {
        this(_io, null, null);
    }

    public BitmapGlobalIndex(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public BitmapGlobalIndex(KaitaiStream _io, KaitaiStruct _parent, BitmapGlobalIndex _root) {
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
    }

    /**
     * where the null / non-null bitmaps and the index block are, and how many distinct keys there are
     */
    public static class BitmapFooter extends KaitaiStruct {
        public static BitmapFooter fromFile(String fileName) throws IOException {
            return new BitmapFooter(new ByteBufferKaitaiStream(fileName));
        }

        public BitmapFooter(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BitmapFooter(KaitaiStream _io, BitmapGlobalIndex _parent) {
            this(_io, _parent, null);
        }

        public BitmapFooter(KaitaiStream _io, BitmapGlobalIndex _parent, BitmapGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.nullRowsOffset = this._io.readS8be();
            this.nullRowsLength = this._io.readS4be();
            this.nonNullRowsOffset = this._io.readS8be();
            this.nonNullRowsLength = this._io.readS4be();
            this.indexBlockOffset = this._io.readS8be();
            this.indexBlockLength = this._io.readS4be();
            this.valueCount = this._io.readS4be();
            this.version = this._io.readS4be();
            if (!( ((this.version == BitmapGlobalIndex.BitmapGlobalIndexVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/bitmap_footer/seq/7");
            }
            this.magic = this._io.readBytes(4);
            if (!(Arrays.equals(this.magic, new byte[] { 66, 71, 73, 88 }))) {
                throw new KaitaiStream.ValidationNotEqualError(new byte[] { 66, 71, 73, 88 }, this.magic, this._io, "/types/bitmap_footer/seq/8");
            }
        }

        public void _fetchInstances() {
        }
        private long nullRowsOffset;
        private int nullRowsLength;
        private long nonNullRowsOffset;
        private int nonNullRowsLength;
        private long indexBlockOffset;
        private int indexBlockLength;
        private int valueCount;
        private int version;
        private byte[] magic;
        private BitmapGlobalIndex _root;
        private BitmapGlobalIndex _parent;

        /**
         * file offset of the null-rows bitmap
         */
        public long nullRowsOffset() { return nullRowsOffset; }

        /**
         * byte size of the null-rows bitmap
         */
        public int nullRowsLength() { return nullRowsLength; }

        /**
         * file offset of the non-null-rows bitmap
         */
        public long nonNullRowsOffset() { return nonNullRowsOffset; }

        /**
         * byte size of the non-null-rows bitmap
         */
        public int nonNullRowsLength() { return nonNullRowsLength; }

        /**
         * file offset of the index block
         */
        public long indexBlockOffset() { return indexBlockOffset; }

        /**
         * byte size of the index block, without its 5-byte trailer
         */
        public int indexBlockLength() { return indexBlockLength; }

        /**
         * number of distinct non-null keys
         */
        public int valueCount() { return valueCount; }

        /**
         * file version, 1
         */
        public int version() { return version; }

        /**
         * int32 0x42474958 ("BGIX")
         */
        public byte[] magic() { return magic; }
        public BitmapGlobalIndex _root() { return _root; }
        public BitmapGlobalIndex _parent() { return _parent; }
    }

    /**
     * a decompressed dictionary block - keys ascending by their serialised bytes
     */
    public static class DictionaryBlock extends KaitaiStruct {
        public static DictionaryBlock fromFile(String fileName) throws IOException {
            return new DictionaryBlock(new ByteBufferKaitaiStream(fileName));
        }

        public DictionaryBlock(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DictionaryBlock(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public DictionaryBlock(KaitaiStream _io, KaitaiStruct _parent, BitmapGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.entryCount = new Varint(this._io);
            this.entries = new ArrayList<DictionaryEntry>();
            for (int i = 0; i < entryCount().value(); i++) {
                this.entries.add(new DictionaryEntry(this._io, this, _root));
            }
        }

        public void _fetchInstances() {
            this.entryCount._fetchInstances();
            for (int i = 0; i < this.entries.size(); i++) {
                this.entries.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private Varint entryCount;
        private List<DictionaryEntry> entries;
        private BitmapGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * number of entries
         */
        public Varint entryCount() { return entryCount; }

        /**
         * one entry per distinct key
         */
        public List<DictionaryEntry> entries() { return entries; }
        public BitmapGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * where one dictionary block is stored and its first key
     */
    public static class DictionaryBlockRef extends KaitaiStruct {
        public static DictionaryBlockRef fromFile(String fileName) throws IOException {
            return new DictionaryBlockRef(new ByteBufferKaitaiStream(fileName));
        }

        public DictionaryBlockRef(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DictionaryBlockRef(KaitaiStream _io, BitmapGlobalIndex.IndexBlock _parent) {
            this(_io, _parent, null);
        }

        public DictionaryBlockRef(KaitaiStream _io, BitmapGlobalIndex.IndexBlock _parent, BitmapGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.firstKeyLength = new Varint(this._io);
            this.firstKey = this._io.readBytes(firstKeyLength().value());
            this.offset = new Varint(this._io);
            this.length = new Varint(this._io);
        }

        public void _fetchInstances() {
            this.firstKeyLength._fetchInstances();
            this.offset._fetchInstances();
            this.length._fetchInstances();
        }
        private Varint firstKeyLength;
        private byte[] firstKey;
        private Varint offset;
        private Varint length;
        private BitmapGlobalIndex _root;
        private BitmapGlobalIndex.IndexBlock _parent;

        /**
         * byte length of the first key
         */
        public Varint firstKeyLength() { return firstKeyLength; }

        /**
         * the block's first serialised key
         */
        public byte[] firstKey() { return firstKey; }

        /**
         * file offset of the stored dictionary block (varint long)
         */
        public Varint offset() { return offset; }

        /**
         * byte size of the stored block bytes, without the trailer
         */
        public Varint length() { return length; }
        public BitmapGlobalIndex _root() { return _root; }
        public BitmapGlobalIndex.IndexBlock _parent() { return _parent; }
    }

    /**
     * one key and where its rows bitmap is
     */
    public static class DictionaryEntry extends KaitaiStruct {
        public static DictionaryEntry fromFile(String fileName) throws IOException {
            return new DictionaryEntry(new ByteBufferKaitaiStream(fileName));
        }

        public DictionaryEntry(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DictionaryEntry(KaitaiStream _io, BitmapGlobalIndex.DictionaryBlock _parent) {
            this(_io, _parent, null);
        }

        public DictionaryEntry(KaitaiStream _io, BitmapGlobalIndex.DictionaryBlock _parent, BitmapGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.keyLength = new Varint(this._io);
            this.key = this._io.readBytes(keyLength().value());
            this.bitmapOffset = new Varint(this._io);
            this.bitmapLength = new Varint(this._io);
        }

        public void _fetchInstances() {
            this.keyLength._fetchInstances();
            this.bitmapOffset._fetchInstances();
            this.bitmapLength._fetchInstances();
        }
        private Varint keyLength;
        private byte[] key;
        private Varint bitmapOffset;
        private Varint bitmapLength;
        private BitmapGlobalIndex _root;
        private BitmapGlobalIndex.DictionaryBlock _parent;

        /**
         * byte length of the key
         */
        public Varint keyLength() { return keyLength; }

        /**
         * the serialised key (btree_global_index_key)
         */
        public byte[] key() { return key; }

        /**
         * file offset of the key's rows bitmap (varint long)
         */
        public Varint bitmapOffset() { return bitmapOffset; }

        /**
         * byte size of the bitmap (portable Roaring64, no trailer)
         */
        public Varint bitmapLength() { return bitmapLength; }
        public BitmapGlobalIndex _root() { return _root; }
        public BitmapGlobalIndex.DictionaryBlock _parent() { return _parent; }
    }

    /**
     * the decompressed index block - one reference per dictionary block
     */
    public static class IndexBlock extends KaitaiStruct {
        public static IndexBlock fromFile(String fileName) throws IOException {
            return new IndexBlock(new ByteBufferKaitaiStream(fileName));
        }

        public IndexBlock(KaitaiStream _io) {
            this(_io, null, null);
        }

        public IndexBlock(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public IndexBlock(KaitaiStream _io, KaitaiStruct _parent, BitmapGlobalIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.blockCount = new Varint(this._io);
            this.blocks = new ArrayList<DictionaryBlockRef>();
            for (int i = 0; i < blockCount().value(); i++) {
                this.blocks.add(new DictionaryBlockRef(this._io, this, _root));
            }
        }

        public void _fetchInstances() {
            this.blockCount._fetchInstances();
            for (int i = 0; i < this.blocks.size(); i++) {
                this.blocks.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private Varint blockCount;
        private List<DictionaryBlockRef> blocks;
        private BitmapGlobalIndex _root;
        private KaitaiStruct _parent;

        /**
         * number of dictionary blocks
         */
        public Varint blockCount() { return blockCount; }

        /**
         * the dictionary blocks, by first key
         */
        public List<DictionaryBlockRef> blocks() { return blocks; }
        public BitmapGlobalIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }
    private BitmapFooter footer;

    /**
     * the fixed-size footer at the end of the file
     */
    public BitmapFooter footer() {
        if (this.footer != null)
            return this.footer;
        long _pos = this._io.pos();
        this._io.seek(_io().size() - 48);
        this.footer = new BitmapFooter(this._io, this, _root);
        this._io.seek(_pos);
        return this.footer;
    }
    private BitmapGlobalIndex _root;
    private KaitaiStruct _parent;
    public BitmapGlobalIndex _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
