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
 * FORMATS.md 6.1 / 6.2: one serialised deletion vector as it sits in a DELETION_VECTORS index
 * file. The framing is big-endian; the magic at the start of the bin chooses the 32-bit
 * (big-endian magic + Roaring32) or the 64-bit (little-endian magic + little-endian bitmap array)
 * flavour.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/BitmapDeletionVector.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java">Source</a>
 * @see "docs/FORMATS.md section 6"
 */
public class DeletionVector extends KaitaiStruct {
    public static DeletionVector fromFile(String fileName) throws IOException {
        return new DeletionVector(new ByteBufferKaitaiStream(fileName));
    }

    public enum DvJavaMagic {
        BITMAP32(1581511376),
        BITMAP64(1681511377);

        private final long id;
        DvJavaMagic(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, DvJavaMagic> byId = new HashMap<Long, DvJavaMagic>(2);
        static {
            for (DvJavaMagic e : DvJavaMagic.values())
                byId.put(e.id(), e);
        }
        public static DvJavaMagic byId(long id) { return byId.get(id); }
    }

    public enum DvMagic {
        BITMAP32(1581511376),
        BITMAP64(3520280932L);

        private final long id;
        DvMagic(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, DvMagic> byId = new HashMap<Long, DvMagic>(2);
        static {
            for (DvMagic e : DvMagic.values())
                byId.put(e.id(), e);
        }
        public static DvMagic byId(long id) { return byId.get(id); }
    }

    public DeletionVector(KaitaiStream _io) {
        this(_io, null, null);
    }

    public DeletionVector(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public DeletionVector(KaitaiStream _io, KaitaiStruct _parent, DeletionVector _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.size = this._io.readS4be();
        KaitaiStream _io_bin = this._io.substream(size());
        this.bin = new DvBin(_io_bin, this, _root);
        this.crc = this._io.readS4be();
    }

    public void _fetchInstances() {
        this.bin._fetchInstances();
    }

    /**
     * 32-bit deletion vector body
     */
    public static class Dv32Bin extends KaitaiStruct {
        public static Dv32Bin fromFile(String fileName) throws IOException {
            return new Dv32Bin(new ByteBufferKaitaiStream(fileName));
        }

        public Dv32Bin(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Dv32Bin(KaitaiStream _io, DeletionVector.DvBin _parent) {
            this(_io, _parent, null);
        }

        public Dv32Bin(KaitaiStream _io, DeletionVector.DvBin _parent, DeletionVector _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.roaring = this._io.readBytesFull();
        }

        public void _fetchInstances() {
        }
        private byte[] roaring;
        private DeletionVector _root;
        private DeletionVector.DvBin _parent;

        /**
         * Roaring32 portable bitmap of deleted positions (bulk)
         */
        public byte[] roaring() { return roaring; }
        public DeletionVector _root() { return _root; }
        public DeletionVector.DvBin _parent() { return _parent; }
    }

    /**
     * 64-bit deletion vector body (Iceberg compatible)
     */
    public static class Dv64Bin extends KaitaiStruct {
        public static Dv64Bin fromFile(String fileName) throws IOException {
            return new Dv64Bin(new ByteBufferKaitaiStream(fileName));
        }

        public Dv64Bin(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Dv64Bin(KaitaiStream _io, DeletionVector.DvBin _parent) {
            this(_io, _parent, null);
        }

        public Dv64Bin(KaitaiStream _io, DeletionVector.DvBin _parent, DeletionVector _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.bitmapCount = this._io.readS8le();
            this.bitmaps = new ArrayList<Dv64Bucket>();
            for (int i = 0; i < bitmapCount(); i++) {
                this.bitmaps.add(new Dv64Bucket(this._io, this, _root));
            }
        }

        public void _fetchInstances() {
            for (int i = 0; i < this.bitmaps.size(); i++) {
                this.bitmaps.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private long bitmapCount;
        private List<Dv64Bucket> bitmaps;
        private DeletionVector _root;
        private DeletionVector.DvBin _parent;

        /**
         * number of 32-bit buckets (dense from key 0)
         */
        public long bitmapCount() { return bitmapCount; }

        /**
         * the buckets in key order
         */
        public List<Dv64Bucket> bitmaps() { return bitmaps; }
        public DeletionVector _root() { return _root; }
        public DeletionVector.DvBin _parent() { return _parent; }
    }

    /**
     * positions whose high 32 bits equal key
     */
    public static class Dv64Bucket extends KaitaiStruct {
        public static Dv64Bucket fromFile(String fileName) throws IOException {
            return new Dv64Bucket(new ByteBufferKaitaiStream(fileName));
        }

        public Dv64Bucket(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Dv64Bucket(KaitaiStream _io, DeletionVector.Dv64Bin _parent) {
            this(_io, _parent, null);
        }

        public Dv64Bucket(KaitaiStream _io, DeletionVector.Dv64Bin _parent, DeletionVector _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.key = this._io.readS4le();
            this.roaring = new Roaring32(this._io);
        }

        public void _fetchInstances() {
            this.roaring._fetchInstances();
        }
        private int key;
        private Roaring32 roaring;
        private DeletionVector _root;
        private DeletionVector.Dv64Bin _parent;

        /**
         * high 32 bits
         */
        public int key() { return key; }

        /**
         * low 32 bits as a Roaring32 bitmap (self-delimiting)
         */
        public Roaring32 roaring() { return roaring; }
        public DeletionVector _root() { return _root; }
        public DeletionVector.Dv64Bin _parent() { return _parent; }
    }

    /**
     * a deletion-vector bin; the magic chooses its flavour
     */
    public static class DvBin extends KaitaiStruct {
        public static DvBin fromFile(String fileName) throws IOException {
            return new DvBin(new ByteBufferKaitaiStream(fileName));
        }

        public DvBin(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DvBin(KaitaiStream _io, DeletionVector _parent) {
            this(_io, _parent, null);
        }

        public DvBin(KaitaiStream _io, DeletionVector _parent, DeletionVector _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.magic = this._io.readU4be();
            if (!( ((this.magic == DeletionVector.DvMagic.BITMAP32.id()) || (this.magic == DeletionVector.DvMagic.BITMAP64.id())) )) {
                throw new KaitaiStream.ValidationNotAnyOfError(this.magic, this._io, "/types/dv_bin/seq/0");
            }
            switch (String.valueOf(magic())) {
            case "1581511376": {
                this.bitmap = new Dv32Bin(this._io, this, _root);
                break;
            }
            case "3520280932": {
                this.bitmap = new Dv64Bin(this._io, this, _root);
                break;
            }
            }
        }

        public void _fetchInstances() {
            switch (String.valueOf(magic())) {
            case "1581511376": {
                ((Dv32Bin) (this.bitmap))._fetchInstances();
                break;
            }
            case "3520280932": {
                ((Dv64Bin) (this.bitmap))._fetchInstances();
                break;
            }
            }
        }
        private long magic;
        private KaitaiStruct bitmap;
        private DeletionVector _root;
        private DeletionVector _parent;

        /**
         * 0x5e43f2d0 (1581511376 BE) = 32-bit; 0xd1d33964 (1681511377 LE) = 64-bit
         */
        public long magic() { return magic; }

        /**
         * the positions
         */
        public KaitaiStruct bitmap() { return bitmap; }
        public DeletionVector _root() { return _root; }
        public DeletionVector _parent() { return _parent; }
    }
    private int size;
    private DvBin bin;
    private int crc;
    private DeletionVector _root;
    private KaitaiStruct _parent;

    /**
     * byte length of the bin (magic included, size and crc excluded)
     */
    public int size() { return size; }

    /**
     * the deletion vector
     */
    public DvBin bin() { return bin; }

    /**
     * CRC-32 (java.util.zip.CRC32) of the bin bytes, as a signed int
     */
    public int crc() { return crc; }
    public DeletionVector _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
