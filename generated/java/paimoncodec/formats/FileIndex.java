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
 * One container per data file, embedded in the manifest or stored as `<data file>.index`
 * (FORMATS.md 1). A head lists, per column, each index type with the absolute start and length
 * of its payload; the body is the payloads back to back in head order.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java">Source</a>
 * @see "docs/FORMATS.md section 1"
 */
public class FileIndex extends KaitaiStruct {
    public static FileIndex fromFile(String fileName) throws IOException {
        return new FileIndex(new ByteBufferKaitaiStream(fileName));
    }

    public enum FileIndexVersion {
        V1(1);

        private final long id;
        FileIndexVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, FileIndexVersion> byId = new HashMap<Long, FileIndexVersion>(1);
        static {
            for (FileIndexVersion e : FileIndexVersion.values())
                byId.put(e.id(), e);
        }
        public static FileIndexVersion byId(long id) { return byId.get(id); }
    }

    public FileIndex(KaitaiStream _io) {
        this(_io, null, null);
    }

    public FileIndex(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public FileIndex(KaitaiStream _io, KaitaiStruct _parent, FileIndex _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.magic = this._io.readBytes(8);
        if (!(Arrays.equals(this.magic, new byte[] { 0, 5, 78, 78, -48, 26, 53, -82 }))) {
            throw new KaitaiStream.ValidationNotEqualError(new byte[] { 0, 5, 78, 78, -48, 26, 53, -82 }, this.magic, this._io, "/seq/0");
        }
        this.version = this._io.readS4be();
        if (!( ((this.version == FileIndexVersion.V1.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/1");
        }
        this.headLength = this._io.readS4be();
        this.columnCount = this._io.readS4be();
        this.columns = new ArrayList<Column>();
        for (int i = 0; i < columnCount(); i++) {
            this.columns.add(new Column(this._io, this, _root));
        }
        this.redundantLength = this._io.readS4be();
        this.redundant = this._io.readBytes(redundantLength());
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.columns.size(); i++) {
            this.columns.get(((Number) (i)).intValue())._fetchInstances();
        }
    }

    /**
     * one column and its indexes
     */
    public static class Column extends KaitaiStruct {
        public static Column fromFile(String fileName) throws IOException {
            return new Column(new ByteBufferKaitaiStream(fileName));
        }

        public Column(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Column(KaitaiStream _io, FileIndex _parent) {
            this(_io, _parent, null);
        }

        public Column(KaitaiStream _io, FileIndex _parent, FileIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.columnName = new JavaUtf(this._io, this, _root);
            this.indexCount = this._io.readS4be();
            this.indexes = new ArrayList<IndexEntry>();
            for (int i = 0; i < indexCount(); i++) {
                this.indexes.add(new IndexEntry(this._io, this, _root));
            }
        }

        public void _fetchInstances() {
            this.columnName._fetchInstances();
            for (int i = 0; i < this.indexes.size(); i++) {
                this.indexes.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private JavaUtf columnName;
        private int indexCount;
        private List<IndexEntry> indexes;
        private FileIndex _root;
        private FileIndex _parent;

        /**
         * column name (`mapcol[key]` for map sub-columns)
         */
        public JavaUtf columnName() { return columnName; }

        /**
         * number of index entries for this column
         */
        public int indexCount() { return indexCount; }

        /**
         * the index entries of this column
         */
        public List<IndexEntry> indexes() { return indexes; }
        public FileIndex _root() { return _root; }
        public FileIndex _parent() { return _parent; }
    }

    /**
     * one (column, index type) entry of the head
     */
    public static class IndexEntry extends KaitaiStruct {
        public static IndexEntry fromFile(String fileName) throws IOException {
            return new IndexEntry(new ByteBufferKaitaiStream(fileName));
        }

        public IndexEntry(KaitaiStream _io) {
            this(_io, null, null);
        }

        public IndexEntry(KaitaiStream _io, FileIndex.Column _parent) {
            this(_io, _parent, null);
        }

        public IndexEntry(KaitaiStream _io, FileIndex.Column _parent, FileIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.indexType = new JavaUtf(this._io, this, _root);
            this.start = this._io.readS4be();
            this.length = this._io.readS4be();
        }

        public void _fetchInstances() {
            this.indexType._fetchInstances();
            payload();
            if (this.payload != null) {
            }
        }
        private byte[] payload;

        /**
         * the index payload (bitmap / bloom-filter / range-bitmap / bsi bytes); absent for an empty index
         */
        public byte[] payload() {
            if (this.payload != null)
                return this.payload;
            if (start() >= 0) {
                KaitaiStream io = _root()._io();
                long _pos = io.pos();
                io.seek(start());
                this.payload = io.readBytes(length());
                io.seek(_pos);
            }
            return this.payload;
        }
        private JavaUtf indexType;
        private int start;
        private int length;
        private FileIndex _root;
        private FileIndex.Column _parent;

        /**
         * index type name (bitmap, bloom-filter, range-bitmap, bsi)
         */
        public JavaUtf indexType() { return indexType; }

        /**
         * absolute offset of the payload in the container, or -1 (EMPTY_INDEX_FLAG)
         */
        public int start() { return start; }

        /**
         * payload length in bytes (0 with start = -1)
         */
        public int length() { return length; }
        public FileIndex _root() { return _root; }
        public FileIndex.Column _parent() { return _parent; }
    }

    /**
     * DataOutput.writeUTF string - u16 byte length + Java modified UTF-8
     */
    public static class JavaUtf extends KaitaiStruct {
        public static JavaUtf fromFile(String fileName) throws IOException {
            return new JavaUtf(new ByteBufferKaitaiStream(fileName));
        }

        public JavaUtf(KaitaiStream _io) {
            this(_io, null, null);
        }

        public JavaUtf(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public JavaUtf(KaitaiStream _io, KaitaiStruct _parent, FileIndex _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.len = this._io.readU2be();
            this.value = this._io.readBytes(len());
        }

        public void _fetchInstances() {
        }
        private int len;
        private byte[] value;
        private FileIndex _root;
        private KaitaiStruct _parent;

        /**
         * byte length of the modified UTF-8 that follows
         */
        public int len() { return len; }

        /**
         * modified UTF-8 bytes (U+0000 as C0 80, supplementary characters as two 3-byte surrogates)
         */
        public byte[] value() { return value; }
        public FileIndex _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }
    private byte[] magic;
    private int version;
    private int headLength;
    private int columnCount;
    private List<Column> columns;
    private int redundantLength;
    private byte[] redundant;
    private FileIndex _root;
    private KaitaiStruct _parent;

    /**
     * int64 magic 1493475289347502
     */
    public byte[] magic() { return magic; }

    /**
     * container version, always 1
     */
    public int version() { return version; }

    /**
     * size of everything before the body, magic included; equals the absolute body start
     */
    public int headLength() { return headLength; }

    /**
     * number of columns that follow
     */
    public int columnCount() { return columnCount; }

    /**
     * the indexed columns, in writer (HashMap) order
     */
    public List<Column> columns() { return columns; }

    /**
     * length of the reserved region, 0 in version 1
     */
    public int redundantLength() { return redundantLength; }

    /**
     * reserved bytes (empty in version 1)
     */
    public byte[] redundant() { return redundant; }
    public FileIndex _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
