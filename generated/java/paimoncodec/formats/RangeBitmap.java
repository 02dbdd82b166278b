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
 * FORMATS.md 4: a header, a chunked sorted dictionary (key -> dense code) and a bit-sliced index
 * (BSI) of the code of every row. Keys use the same encoding as the bitmap index (DECIMAL as the
 * unscaled int64, timestamps as millis/micros, FLOAT/DOUBLE as raw IEEE bits).
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/RangeBitmap.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/FixedLengthChunk.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/VariableLengthChunk.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java">Source</a>
 * @see "docs/FORMATS.md section 4"
 */
public class RangeBitmap extends KaitaiStruct {

    public enum BitSliceIndexVersion {
        V1(1);

        private final long id;
        BitSliceIndexVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BitSliceIndexVersion> byId = new HashMap<Long, BitSliceIndexVersion>(1);
        static {
            for (BitSliceIndexVersion e : BitSliceIndexVersion.values())
                byId.put(e.id(), e);
        }
        public static BitSliceIndexVersion byId(long id) { return byId.get(id); }
    }

    public enum ChunkVersion {
        V1(1);

        private final long id;
        ChunkVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, ChunkVersion> byId = new HashMap<Long, ChunkVersion>(1);
        static {
            for (ChunkVersion e : ChunkVersion.values())
                byId.put(e.id(), e);
        }
        public static ChunkVersion byId(long id) { return byId.get(id); }
    }

    public enum DictionaryVersion {
        V1(1);

        private final long id;
        DictionaryVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, DictionaryVersion> byId = new HashMap<Long, DictionaryVersion>(1);
        static {
            for (DictionaryVersion e : DictionaryVersion.values())
                byId.put(e.id(), e);
        }
        public static DictionaryVersion byId(long id) { return byId.get(id); }
    }

    public enum RangeBitmapVersion {
        V1(1);

        private final long id;
        RangeBitmapVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, RangeBitmapVersion> byId = new HashMap<Long, RangeBitmapVersion>(1);
        static {
            for (RangeBitmapVersion e : RangeBitmapVersion.values())
                byId.put(e.id(), e);
        }
        public static RangeBitmapVersion byId(long id) { return byId.get(id); }
    }

    public RangeBitmap(KaitaiStream _io, String keyKind) {
        this(_io, null, null, keyKind);
    }

    public RangeBitmap(KaitaiStream _io, KaitaiStruct _parent, String keyKind) {
        this(_io, _parent, null, keyKind);
    }

    public RangeBitmap(KaitaiStream _io, KaitaiStruct _parent, RangeBitmap _root, String keyKind) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        this.keyKind = keyKind;
        _read();
    }
    private void _read() {
        this.headerLength = this._io.readS4be();
        KaitaiStream _io_header = this._io.substream(headerLength());
        this.header = new RangeBitmapHeader(_io_header, this, _root, keyKind());
        KaitaiStream _io_dictionary = this._io.substream(header().dictionaryLength());
        this.dictionary = new Dictionary(_io_dictionary, this, _root, keyKind());
        this._raw_bsi = this._io.readBytesFull();
        KaitaiStream _io__raw_bsi = new ByteBufferKaitaiStream(this._raw_bsi);
        this.bsi = new BitSlicedIndex(_io__raw_bsi, this, _root);
    }

    public void _fetchInstances() {
        this.header._fetchInstances();
        this.dictionary._fetchInstances();
        this.bsi._fetchInstances();
    }

    /**
     * bit-sliced index of the row codes
     */
    public static class BitSlicedIndex extends KaitaiStruct {
        public static BitSlicedIndex fromFile(String fileName) throws IOException {
            return new BitSlicedIndex(new ByteBufferKaitaiStream(fileName));
        }

        public BitSlicedIndex(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BitSlicedIndex(KaitaiStream _io, RangeBitmap _parent) {
            this(_io, _parent, null);
        }

        public BitSlicedIndex(KaitaiStream _io, RangeBitmap _parent, RangeBitmap _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.bsiHeaderLength = this._io.readS4be();
            KaitaiStream _io_bsiHeader = this._io.substream(bsiHeaderLength());
            this.bsiHeader = new BsiHeader(_io_bsiHeader, this, _root);
            this.ebm = this._io.readBytes(bsiHeader().ebmLength());
            this.slices = this._io.readBytesFull();
        }

        public void _fetchInstances() {
            this.bsiHeader._fetchInstances();
        }
        private int bsiHeaderLength;
        private BsiHeader bsiHeader;
        private byte[] ebm;
        private byte[] slices;
        private RangeBitmap _root;
        private RangeBitmap _parent;

        /**
         * byte length of the BSI header
         */
        public int bsiHeaderLength() { return bsiHeaderLength; }

        /**
         * BSI header
         */
        public BsiHeader bsiHeader() { return bsiHeader; }

        /**
         * existence bitmap (Roaring32 of non-null rows, bulk)
         */
        public byte[] ebm() { return ebm; }

        /**
         * the slice bitmaps back to back (Roaring32 each, bulk; located by slice_refs)
         */
        public byte[] slices() { return slices; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap _parent() { return _parent; }
    }

    /**
     * BSI header
     */
    public static class BsiHeader extends KaitaiStruct {
        public static BsiHeader fromFile(String fileName) throws IOException {
            return new BsiHeader(new ByteBufferKaitaiStream(fileName));
        }

        public BsiHeader(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BsiHeader(KaitaiStream _io, RangeBitmap.BitSlicedIndex _parent) {
            this(_io, _parent, null);
        }

        public BsiHeader(KaitaiStream _io, RangeBitmap.BitSlicedIndex _parent, RangeBitmap _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.version = this._io.readU1();
            if (!( ((this.version == RangeBitmap.BitSliceIndexVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/bsi_header/seq/0");
            }
            this.sliceCount = this._io.readU1();
            this.ebmLength = this._io.readS4be();
            this.indexesLength = this._io.readS4be();
            this.sliceRefs = new ArrayList<SliceRef>();
            for (int i = 0; i < sliceCount(); i++) {
                this.sliceRefs.add(new SliceRef(this._io, this, _root));
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.sliceRefs.size(); i++) {
                this.sliceRefs.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private int version;
        private int sliceCount;
        private int ebmLength;
        private int indexesLength;
        private List<SliceRef> sliceRefs;
        private RangeBitmap _root;
        private RangeBitmap.BitSlicedIndex _parent;

        /**
         * BSI version, 1
         */
        public int version() { return version; }

        /**
         * number of slices (ONE byte; 64 when the cardinality is 0)
         */
        public int sliceCount() { return sliceCount; }

        /**
         * byte length of the existence bitmap
         */
        public int ebmLength() { return ebmLength; }

        /**
         * byte length of the slice directory (8 per slice)
         */
        public int indexesLength() { return indexesLength; }

        /**
         * where each slice bitmap is
         */
        public List<SliceRef> sliceRefs() { return sliceRefs; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap.BitSlicedIndex _parent() { return _parent; }
    }

    /**
     * one chunk header (fixed-length keys, or variable-length keys for strings)
     */
    public static class Chunk extends KaitaiStruct {

        public Chunk(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public Chunk(KaitaiStream _io, RangeBitmap.Chunks _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public Chunk(KaitaiStream _io, RangeBitmap.Chunks _parent, RangeBitmap _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.version = this._io.readU1();
            this.key = new PaimonKey(this._io, keyKind());
            this.code = this._io.readS4be();
            this.keysOffset = this._io.readS4be();
            this.size = this._io.readS4be();
            if (keyKind().equals("string")) {
                this.offsetsLength = this._io.readS4be();
            }
            this.keysLength = this._io.readS4be();
            if (!keyKind().equals("string")) {
                this.fixedLength = this._io.readS4be();
            }
        }

        public void _fetchInstances() {
            this.key._fetchInstances();
            if (keyKind().equals("string")) {
            }
            if (!keyKind().equals("string")) {
            }
        }
        private int version;
        private PaimonKey key;
        private int code;
        private int keysOffset;
        private int size;
        private Integer offsetsLength;
        private int keysLength;
        private Integer fixedLength;
        private String keyKind;
        private RangeBitmap _root;
        private RangeBitmap.Chunks _parent;

        /**
         * chunk version, 1
         */
        public int version() { return version; }

        /**
         * first key of the chunk
         */
        public PaimonKey key() { return key; }

        /**
         * code of the first key; the chunk's other keys have the following codes
         */
        public int code() { return code; }

        /**
         * offset of this chunk's key region from the start of the dictionary keys
         */
        public int keysOffset() { return keysOffset; }

        /**
         * number of additional keys stored in the key region
         */
        public int size() { return size; }

        /**
         * variable-length chunk - byte length of the key offsets (4 per key)
         */
        public Integer offsetsLength() { return offsetsLength; }

        /**
         * byte length of the serialised keys
         */
        public int keysLength() { return keysLength; }

        /**
         * fixed-length chunk - byte length of one key
         */
        public Integer fixedLength() { return fixedLength; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap.Chunks _parent() { return _parent; }
    }

    /**
     * the chunk headers area
     */
    public static class Chunks extends KaitaiStruct {

        public Chunks(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public Chunks(KaitaiStream _io, RangeBitmap.Dictionary _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public Chunks(KaitaiStream _io, RangeBitmap.Dictionary _parent, RangeBitmap _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.chunks = new ArrayList<Chunk>();
            {
                int i = 0;
                while (!this._io.isEof()) {
                    this.chunks.add(new Chunk(this._io, this, _root, keyKind()));
                    i++;
                }
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.chunks.size(); i++) {
                this.chunks.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private List<Chunk> chunks;
        private String keyKind;
        private RangeBitmap _root;
        private RangeBitmap.Dictionary _parent;

        /**
         * chunk headers in key order
         */
        public List<Chunk> chunks() { return chunks; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap.Dictionary _parent() { return _parent; }
    }

    /**
     * chunked dictionary; codes are 0..cardinality-1 in ascending key order
     */
    public static class Dictionary extends KaitaiStruct {

        public Dictionary(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public Dictionary(KaitaiStream _io, RangeBitmap _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public Dictionary(KaitaiStream _io, RangeBitmap _parent, RangeBitmap _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.dictHeaderLength = this._io.readS4be();
            KaitaiStream _io_dictHeader = this._io.substream(dictHeaderLength());
            this.dictHeader = new DictionaryHeader(_io_dictHeader, this, _root);
            this.offsets = new ArrayList<Integer>();
            for (int i = 0; i < dictHeader().chunkCount(); i++) {
                this.offsets.add(this._io.readS4be());
            }
            KaitaiStream _io_chunks = this._io.substream(dictHeader().chunksLength());
            this.chunks = new Chunks(_io_chunks, this, _root, keyKind());
            this.keys = this._io.readBytesFull();
        }

        public void _fetchInstances() {
            this.dictHeader._fetchInstances();
            for (int i = 0; i < this.offsets.size(); i++) {
            }
            this.chunks._fetchInstances();
        }
        private int dictHeaderLength;
        private DictionaryHeader dictHeader;
        private List<Integer> offsets;
        private Chunks chunks;
        private byte[] keys;
        private String keyKind;
        private RangeBitmap _root;
        private RangeBitmap _parent;

        /**
         * byte length of the dictionary header (13)
         */
        public int dictHeaderLength() { return dictHeaderLength; }

        /**
         * dictionary header
         */
        public DictionaryHeader dictHeader() { return dictHeader; }

        /**
         * start of each chunk header inside the chunks area
         */
        public List<Integer> offsets() { return offsets; }

        /**
         * chunk headers back to back
         */
        public Chunks chunks() { return chunks; }

        /**
         * the per-chunk key regions back to back (bulk; decoded by the semantic layer)
         */
        public byte[] keys() { return keys; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap _parent() { return _parent; }
    }

    /**
     * dictionary header
     */
    public static class DictionaryHeader extends KaitaiStruct {
        public static DictionaryHeader fromFile(String fileName) throws IOException {
            return new DictionaryHeader(new ByteBufferKaitaiStream(fileName));
        }

        public DictionaryHeader(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DictionaryHeader(KaitaiStream _io, RangeBitmap.Dictionary _parent) {
            this(_io, _parent, null);
        }

        public DictionaryHeader(KaitaiStream _io, RangeBitmap.Dictionary _parent, RangeBitmap _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.version = this._io.readU1();
            if (!( ((this.version == RangeBitmap.DictionaryVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/dictionary_header/seq/0");
            }
            this.chunkCount = this._io.readS4be();
            this.offsetsLength = this._io.readS4be();
            this.chunksLength = this._io.readS4be();
        }

        public void _fetchInstances() {
        }
        private int version;
        private int chunkCount;
        private int offsetsLength;
        private int chunksLength;
        private RangeBitmap _root;
        private RangeBitmap.Dictionary _parent;

        /**
         * dictionary version, 1
         */
        public int version() { return version; }

        /**
         * number of chunks
         */
        public int chunkCount() { return chunkCount; }

        /**
         * byte length of the chunk offsets (4 per chunk)
         */
        public int offsetsLength() { return offsetsLength; }

        /**
         * byte length of the chunk headers area
         */
        public int chunksLength() { return chunksLength; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap.Dictionary _parent() { return _parent; }
    }

    /**
     * range-bitmap header
     */
    public static class RangeBitmapHeader extends KaitaiStruct {

        public RangeBitmapHeader(KaitaiStream _io, String keyKind) {
            this(_io, null, null, keyKind);
        }

        public RangeBitmapHeader(KaitaiStream _io, RangeBitmap _parent, String keyKind) {
            this(_io, _parent, null, keyKind);
        }

        public RangeBitmapHeader(KaitaiStream _io, RangeBitmap _parent, RangeBitmap _root, String keyKind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyKind = keyKind;
            _read();
        }
        private void _read() {
            this.version = this._io.readU1();
            if (!( ((this.version == RangeBitmap.RangeBitmapVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/range_bitmap_header/seq/0");
            }
            this.rowCount = this._io.readS4be();
            this.cardinality = this._io.readS4be();
            if (cardinality() > 0) {
                this.min = new PaimonKey(this._io, keyKind());
            }
            if (cardinality() > 0) {
                this.max = new PaimonKey(this._io, keyKind());
            }
            this.dictionaryLength = this._io.readS4be();
        }

        public void _fetchInstances() {
            if (cardinality() > 0) {
                this.min._fetchInstances();
            }
            if (cardinality() > 0) {
                this.max._fetchInstances();
            }
        }
        private int version;
        private int rowCount;
        private int cardinality;
        private PaimonKey min;
        private PaimonKey max;
        private int dictionaryLength;
        private String keyKind;
        private RangeBitmap _root;
        private RangeBitmap _parent;

        /**
         * format version, 1
         */
        public int version() { return version; }

        /**
         * rows written, nulls included
         */
        public int rowCount() { return rowCount; }

        /**
         * number of distinct non-null keys
         */
        public int cardinality() { return cardinality; }

        /**
         * smallest key
         */
        public PaimonKey min() { return min; }

        /**
         * largest key
         */
        public PaimonKey max() { return max; }

        /**
         * byte length of the dictionary
         */
        public int dictionaryLength() { return dictionaryLength; }

        /**
         * key kind
         */
        public String keyKind() { return keyKind; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap _parent() { return _parent; }
    }

    /**
     * position of one slice bitmap
     */
    public static class SliceRef extends KaitaiStruct {
        public static SliceRef fromFile(String fileName) throws IOException {
            return new SliceRef(new ByteBufferKaitaiStream(fileName));
        }

        public SliceRef(KaitaiStream _io) {
            this(_io, null, null);
        }

        public SliceRef(KaitaiStream _io, RangeBitmap.BsiHeader _parent) {
            this(_io, _parent, null);
        }

        public SliceRef(KaitaiStream _io, RangeBitmap.BsiHeader _parent, RangeBitmap _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.offset = this._io.readS4be();
            this.length = this._io.readS4be();
        }

        public void _fetchInstances() {
        }
        private int offset;
        private int length;
        private RangeBitmap _root;
        private RangeBitmap.BsiHeader _parent;

        /**
         * offset from the end of the existence bitmap
         */
        public int offset() { return offset; }

        /**
         * byte length of the slice bitmap
         */
        public int length() { return length; }
        public RangeBitmap _root() { return _root; }
        public RangeBitmap.BsiHeader _parent() { return _parent; }
    }

    /**
     * the key region of one variable-length (string) chunk, at the chunk's keys_offset in the dictionary's
     * keys: its keys' offsets, then the keys (VariableLengthChunk). The dictionary keeps the regions as bulk
     * bytes (a region's length is in its chunk header, not in front of it); the semantic layer reads one
     * region at a time with this type.
     */
    public static class VariableChunkKeys extends KaitaiStruct {

        public VariableChunkKeys(KaitaiStream _io, int keyCount) {
            this(_io, null, null, keyCount);
        }

        public VariableChunkKeys(KaitaiStream _io, KaitaiStruct _parent, int keyCount) {
            this(_io, _parent, null, keyCount);
        }

        public VariableChunkKeys(KaitaiStream _io, KaitaiStruct _parent, RangeBitmap _root, int keyCount) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.keyCount = keyCount;
            _read();
        }
        private void _read() {
            this.keyOffsets = new ArrayList<Integer>();
            for (int i = 0; i < keyCount(); i++) {
                this.keyOffsets.add(this._io.readS4be());
            }
            this.keys = this._io.readBytesFull();
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.keyOffsets.size(); i++) {
            }
        }
        private List<Integer> keyOffsets;
        private byte[] keys;
        private int keyCount;
        private RangeBitmap _root;
        private KaitaiStruct _parent;

        /**
         * start of each key inside keys (the chunk's offsets_length is 4 per key)
         */
        public List<Integer> keyOffsets() { return keyOffsets; }

        /**
         * the keys in their paimon_key string form, back to back (the chunk's keys_length bytes)
         */
        public byte[] keys() { return keys; }

        /**
         * the chunk's size (its keys after the first, which is in the header)
         */
        public int keyCount() { return keyCount; }
        public RangeBitmap _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }
    private int headerLength;
    private RangeBitmapHeader header;
    private Dictionary dictionary;
    private BitSlicedIndex bsi;
    private String keyKind;
    private RangeBitmap _root;
    private KaitaiStruct _parent;
    private byte[] _raw_bsi;

    /**
     * byte length of the header that follows
     */
    public int headerLength() { return headerLength; }

    /**
     * version, counts, min/max key and the dictionary length
     */
    public RangeBitmapHeader header() { return header; }

    /**
     * the chunked dictionary
     */
    public Dictionary dictionary() { return dictionary; }

    /**
     * the bit-sliced index of row codes
     */
    public BitSlicedIndex bsi() { return bsi; }

    /**
     * key kind of the indexed column (see paimon_key)
     */
    public String keyKind() { return keyKind; }
    public RangeBitmap _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
    public byte[] _raw_bsi() { return _raw_bsi; }
}
