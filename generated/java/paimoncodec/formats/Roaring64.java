// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;


/**
 * u64 bucket count, then per bucket a u32 high-32-bit key and a portable Roaring32 bitmap of
 * the low 32 bits (each bitmap is self-delimiting).
 * @see <a href="https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md#extension-for-64-bit-implementations">Source</a>
 */
public class Roaring64 extends KaitaiStruct {
    public static Roaring64 fromFile(String fileName) throws IOException {
        return new Roaring64(new ByteBufferKaitaiStream(fileName));
    }

    public Roaring64(KaitaiStream _io) {
        this(_io, null, null);
    }

    public Roaring64(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public Roaring64(KaitaiStream _io, KaitaiStruct _parent, Roaring64 _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.bucketCount = this._io.readU8le();
        this.buckets = new ArrayList<Bucket>();
        for (int i = 0; i < bucketCount(); i++) {
            this.buckets.add(new Bucket(this._io, this, _root));
        }
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.buckets.size(); i++) {
            this.buckets.get(((Number) (i)).intValue())._fetchInstances();
        }
    }

    /**
     * one 32-bit bucket
     */
    public static class Bucket extends KaitaiStruct {
        public static Bucket fromFile(String fileName) throws IOException {
            return new Bucket(new ByteBufferKaitaiStream(fileName));
        }

        public Bucket(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Bucket(KaitaiStream _io, Roaring64 _parent) {
            this(_io, _parent, null);
        }

        public Bucket(KaitaiStream _io, Roaring64 _parent, Roaring64 _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.key = this._io.readU4le();
            this.bitmap = new Roaring32(this._io);
        }

        public void _fetchInstances() {
            this.bitmap._fetchInstances();
        }
        private long key;
        private Roaring32 bitmap;
        private Roaring64 _root;
        private Roaring64 _parent;

        /**
         * high 32 bits of every value in this bucket
         */
        public long key() { return key; }

        /**
         * low 32 bits as a Roaring32 bitmap
         */
        public Roaring32 bitmap() { return bitmap; }
        public Roaring64 _root() { return _root; }
        public Roaring64 _parent() { return _parent; }
    }
    private long bucketCount;
    private List<Bucket> buckets;
    private Roaring64 _root;
    private KaitaiStruct _parent;

    /**
     * number of buckets that follow
     */
    public long bucketCount() { return bucketCount; }

    /**
     * buckets in ascending key order
     */
    public List<Bucket> buckets() { return buckets; }
    public Roaring64 _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
