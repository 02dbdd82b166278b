// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.Map;
import java.util.HashMap;


/**
 * Carried in the index manifest (``_GLOBAL_INDEX._INDEX_META``) of every B-tree and (pypaimon) bitmap
 * global-index file: the smallest and largest serialised key and whether a key is null. Java 1.4.2
 * (``BTreeIndexMeta``) writes a length of 0 for an absent key and stops after ``has_nulls``;
 * ``SortedIndexFileMeta`` (pypaimon 2.1, later Java) appends a format version and flags saying which
 * keys are absent, so that an empty key is told from no key.
 * @see "docs/FORMATS.md section 14"
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexMeta.java">Source</a>
 * @see <a href="https://pypi.org/project/pypaimon/2.1.0/">Source</a>
 */
public class SortedIndexFileMeta extends KaitaiStruct {
    public static SortedIndexFileMeta fromFile(String fileName) throws IOException {
        return new SortedIndexFileMeta(new ByteBufferKaitaiStream(fileName));
    }

    public enum NullKeyFlag {
        FIRST_KEY_IS_NULL(1),
        LAST_KEY_IS_NULL(2);

        private final long id;
        NullKeyFlag(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, NullKeyFlag> byId = new HashMap<Long, NullKeyFlag>(2);
        static {
            for (NullKeyFlag e : NullKeyFlag.values())
                byId.put(e.id(), e);
        }
        public static NullKeyFlag byId(long id) { return byId.get(id); }
    }

    public enum SortedIndexFileMetaVersion {
        WITH_NULL_FLAGS(1);

        private final long id;
        SortedIndexFileMetaVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, SortedIndexFileMetaVersion> byId = new HashMap<Long, SortedIndexFileMetaVersion>(1);
        static {
            for (SortedIndexFileMetaVersion e : SortedIndexFileMetaVersion.values())
                byId.put(e.id(), e);
        }
        public static SortedIndexFileMetaVersion byId(long id) { return byId.get(id); }
    }

    public SortedIndexFileMeta(KaitaiStream _io) {
        this(_io, null, null);
    }

    public SortedIndexFileMeta(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public SortedIndexFileMeta(KaitaiStream _io, KaitaiStruct _parent, SortedIndexFileMeta _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.firstKeyLength = this._io.readS4le();
        this.firstKey = this._io.readBytes(firstKeyLength());
        this.lastKeyLength = this._io.readS4le();
        this.lastKey = this._io.readBytes(lastKeyLength());
        this.hasNulls = this._io.readU1();
        if (!(_io().isEof())) {
            this.formatVersion = this._io.readU1();
            if (!( ((this.formatVersion == SortedIndexFileMetaVersion.WITH_NULL_FLAGS.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.formatVersion, this._io, "/seq/5");
            }
        }
        if (!(_io().isEof())) {
            this.nullKeyFlags = this._io.readU1();
        }
    }

    public void _fetchInstances() {
        if (!(_io().isEof())) {
        }
        if (!(_io().isEof())) {
        }
    }
    private int firstKeyLength;
    private byte[] firstKey;
    private int lastKeyLength;
    private byte[] lastKey;
    private int hasNulls;
    private Integer formatVersion;
    private Integer nullKeyFlags;
    private SortedIndexFileMeta _root;
    private KaitaiStruct _parent;

    /**
     * byte length of the first key (0 - no key, unless the flags say otherwise)
     */
    public int firstKeyLength() { return firstKeyLength; }

    /**
     * the smallest serialised key of the file (btree_global_index_key)
     */
    public byte[] firstKey() { return firstKey; }

    /**
     * byte length of the last key
     */
    public int lastKeyLength() { return lastKeyLength; }

    /**
     * the largest serialised key of the file
     */
    public byte[] lastKey() { return lastKey; }

    /**
     * 1 when some row of the file has a null key
     */
    public int hasNulls() { return hasNulls; }

    /**
     * absent in Java 1.4.2's BTreeIndexMeta; 1 - null-key flags follow
     */
    public Integer formatVersion() { return formatVersion; }

    /**
     * bit 0 - the first key is absent, bit 1 - the last key is absent
     */
    public Integer nullKeyFlags() { return nullKeyFlags; }
    public SortedIndexFileMeta _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
