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
import java.util.Arrays;


/**
 * One BLOB column of a data-evolution table, one record per row: the records back to back, then the
 * index (one varint per row), then a 5-byte footer (index byte length, version). A record is
 * magic | blob bytes | int64 record length (magic + bytes + 12) | CRC-32 of magic, bytes and record length.
 * The index holds each row's record length (-1 for a null blob, which has no record) as the first
 * value and then differences to the previous row's, ZigZag-mapped and written as base-128 varints
 * (low groups first); record offsets are the running sum of the non-null lengths. Everything is
 * found from the end of the file.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java">Source</a>
 */
public class BlobFile extends KaitaiStruct {
    public static BlobFile fromFile(String fileName) throws IOException {
        return new BlobFile(new ByteBufferKaitaiStream(fileName));
    }

    public enum BlobFileVersion {
        V1(1);

        private final long id;
        BlobFileVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BlobFileVersion> byId = new HashMap<Long, BlobFileVersion>(1);
        static {
            for (BlobFileVersion e : BlobFileVersion.values())
                byId.put(e.id(), e);
        }
        public static BlobFileVersion byId(long id) { return byId.get(id); }
    }

    public BlobFile(KaitaiStream _io) {
        this(_io, null, null);
    }

    public BlobFile(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public BlobFile(KaitaiStream _io, KaitaiStruct _parent, BlobFile _root) {
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
        index();
        if (this.index != null) {
            this.index._fetchInstances();
        }
    }

    /**
     * the fixed-size end of a blob file
     */
    public static class BlobFooter extends KaitaiStruct {
        public static BlobFooter fromFile(String fileName) throws IOException {
            return new BlobFooter(new ByteBufferKaitaiStream(fileName));
        }

        public BlobFooter(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlobFooter(KaitaiStream _io, BlobFile _parent) {
            this(_io, _parent, null);
        }

        public BlobFooter(KaitaiStream _io, BlobFile _parent, BlobFile _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.indexLength = this._io.readS4le();
            this.version = this._io.readU1();
            if (!( ((this.version == BlobFile.BlobFileVersion.V1.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/types/blob_footer/seq/1");
            }
        }

        public void _fetchInstances() {
        }
        private int indexLength;
        private int version;
        private BlobFile _root;
        private BlobFile _parent;

        /**
         * byte length of the index just before the footer
         */
        public int indexLength() { return indexLength; }

        /**
         * file version, always 1
         */
        public int version() { return version; }
        public BlobFile _root() { return _root; }
        public BlobFile _parent() { return _parent; }
    }

    /**
     * one varint per row of the file, to the end of the (sized) index
     */
    public static class BlobIndex extends KaitaiStruct {
        public static BlobIndex fromFile(String fileName) throws IOException {
            return new BlobIndex(new ByteBufferKaitaiStream(fileName));
        }

        public BlobIndex(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlobIndex(KaitaiStream _io, BlobFile _parent) {
            this(_io, _parent, null);
        }

        public BlobIndex(KaitaiStream _io, BlobFile _parent, BlobFile _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.entries = new ArrayList<Varint>();
            {
                int i = 0;
                while (!this._io.isEof()) {
                    this.entries.add(new Varint(this._io));
                    i++;
                }
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.entries.size(); i++) {
                this.entries.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private List<Varint> entries;
        private BlobFile _root;
        private BlobFile _parent;

        /**
         * ZigZag varint of the row's record length minus the previous row's (the first row - its own)
         */
        public List<Varint> entries() { return entries; }
        public BlobFile _root() { return _root; }
        public BlobFile _parent() { return _parent; }
    }

    /**
     * one non-null blob, parsed from exactly its record's bytes (offset and length from the index)
     */
    public static class BlobRecord extends KaitaiStruct {
        public static BlobRecord fromFile(String fileName) throws IOException {
            return new BlobRecord(new ByteBufferKaitaiStream(fileName));
        }

        public BlobRecord(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlobRecord(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public BlobRecord(KaitaiStream _io, KaitaiStruct _parent, BlobFile _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.magic = this._io.readBytes(4);
            if (!(Arrays.equals(this.magic, new byte[] { -49, 17, 78, 88 }))) {
                throw new KaitaiStream.ValidationNotEqualError(new byte[] { -49, 17, 78, 88 }, this.magic, this._io, "/types/blob_record/seq/0");
            }
            this.data = this._io.readBytes((_io().size() - _io().pos()) - 12);
            this.tail = new BlobRecordTail(this._io, this, _root);
        }

        public void _fetchInstances() {
            this.tail._fetchInstances();
        }
        private byte[] magic;
        private byte[] data;
        private BlobRecordTail tail;
        private BlobFile _root;
        private KaitaiStruct _parent;

        /**
         * record magic (int32 1481511375, little-endian)
         */
        public byte[] magic() { return magic; }

        /**
         * the blob's bytes (all of the record between its magic and its tail)
         */
        public byte[] data() { return data; }

        /**
         * the record's length and checksum
         */
        public BlobRecordTail tail() { return tail; }
        public BlobFile _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * the fixed-size end of a record
     */
    public static class BlobRecordTail extends KaitaiStruct {
        public static BlobRecordTail fromFile(String fileName) throws IOException {
            return new BlobRecordTail(new ByteBufferKaitaiStream(fileName));
        }

        public BlobRecordTail(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BlobRecordTail(KaitaiStream _io, BlobFile.BlobRecord _parent) {
            this(_io, _parent, null);
        }

        public BlobRecordTail(KaitaiStream _io, BlobFile.BlobRecord _parent, BlobFile _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.recordLength = this._io.readS8le();
            this.crc = this._io.readU4le();
        }

        public void _fetchInstances() {
        }
        private long recordLength;
        private long crc;
        private BlobFile _root;
        private BlobFile.BlobRecord _parent;

        /**
         * byte length of the whole record (magic + data + this tail)
         */
        public long recordLength() { return recordLength; }

        /**
         * CRC-32 of the magic, the data and the record length (every byte of the record before it)
         */
        public long crc() { return crc; }
        public BlobFile _root() { return _root; }
        public BlobFile.BlobRecord _parent() { return _parent; }
    }
    private BlobFooter footer;

    /**
     * the last 5 bytes of the file
     */
    public BlobFooter footer() {
        if (this.footer != null)
            return this.footer;
        long _pos = this._io.pos();
        this._io.seek(_io().size() - 5);
        this.footer = new BlobFooter(this._io, this, _root);
        this._io.seek(_pos);
        return this.footer;
    }
    private BlobIndex index;

    /**
     * the per-row record lengths, delta + ZigZag + varint coded
     */
    public BlobIndex index() {
        if (this.index != null)
            return this.index;
        long _pos = this._io.pos();
        this._io.seek((_io().size() - 5) - footer().indexLength());
        KaitaiStream _io_index = this._io.substream(footer().indexLength());
        this.index = new BlobIndex(_io_index, this, _root);
        this._io.seek(_pos);
        return this.index;
    }
    private BlobFile _root;
    private KaitaiStruct _parent;
    public BlobFile _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
