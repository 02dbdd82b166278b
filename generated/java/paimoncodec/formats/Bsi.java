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
 * FORMATS.md 5: values split by sign into a positive and a negative bit-sliced index (negative
 * values stored as their absolute value). Roaring bitmaps are self-delimiting, no lengths stored.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bsi/BitSliceIndexBitmapFileIndex.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BitSliceIndexRoaringBitmap.java">Source</a>
 * @see "docs/FORMATS.md section 5"
 */
public class Bsi extends KaitaiStruct {
    public static Bsi fromFile(String fileName) throws IOException {
        return new Bsi(new ByteBufferKaitaiStream(fileName));
    }

    public enum BsiPartVersion {
        V1(1);

        private final long id;
        BsiPartVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BsiPartVersion> byId = new HashMap<Long, BsiPartVersion>(1);
        static {
            for (BsiPartVersion e : BsiPartVersion.values())
                byId.put(e.id(), e);
        }
        public static BsiPartVersion byId(long id) { return byId.get(id); }
    }

    public enum BsiVersion {
        V1(1);

        private final long id;
        BsiVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BsiVersion> byId = new HashMap<Long, BsiVersion>(1);
        static {
            for (BsiVersion e : BsiVersion.values())
                byId.put(e.id(), e);
        }
        public static BsiVersion byId(long id) { return byId.get(id); }
    }

    public Bsi(KaitaiStream _io) {
        this(_io, null, null);
    }

    public Bsi(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public Bsi(KaitaiStream _io, KaitaiStruct _parent, Bsi _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.version = this._io.readU1();
        if (!( ((this.version == BsiVersion.V1.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
        }
        this.rowCount = this._io.readS4be();
        this.hasPositive = this._io.readU1();
        if (hasPositive() != 0) {
            this.positive = new BsiPart(this._io, this, _root);
        }
        this.hasNegative = this._io.readU1();
        if (hasNegative() != 0) {
            this.negative = new BsiPart(this._io, this, _root);
        }
    }

    public void _fetchInstances() {
        if (hasPositive() != 0) {
            this.positive._fetchInstances();
        }
        if (hasNegative() != 0) {
            this.negative._fetchInstances();
        }
    }

    /**
     * one bit-sliced index
     */
    public static class BsiPart extends KaitaiStruct {
        public static BsiPart fromFile(String fileName) throws IOException {
            return new BsiPart(new ByteBufferKaitaiStream(fileName));
        }

        public BsiPart(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BsiPart(KaitaiStream _io, Bsi _parent) {
            this(_io, _parent, null);
        }

        public BsiPart(KaitaiStream _io, Bsi _parent, Bsi _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.version = this._io.readU1();
            this.min = this._io.readS8be();
            this.max = this._io.readS8be();
            this.ebm = new Roaring32(this._io);
            this.sliceCount = this._io.readS4be();
            this.slices = new ArrayList<Roaring32>();
            for (int i = 0; i < sliceCount(); i++) {
                this.slices.add(new Roaring32(this._io));
            }
        }

        public void _fetchInstances() {
            this.ebm._fetchInstances();
            for (int i = 0; i < this.slices.size(); i++) {
                this.slices.get(((Number) (i)).intValue())._fetchInstances();
            }
        }
        private int version;
        private long min;
        private long max;
        private Roaring32 ebm;
        private int sliceCount;
        private List<Roaring32> slices;
        private Bsi _root;
        private Bsi _parent;

        /**
         * BSI version, 1 (newer versions refused by the reader)
         */
        public int version() { return version; }

        /**
         * minimum stored value (always 0 in practice)
         */
        public long min() { return min; }

        /**
         * maximum stored value
         */
        public long max() { return max; }

        /**
         * existence bitmap (rows with a value on this side)
         */
        public Roaring32 ebm() { return ebm; }

        /**
         * number of slices (64 - nlz(max - min))
         */
        public int sliceCount() { return sliceCount; }

        /**
         * slice i holds the rows whose value has bit i set
         */
        public List<Roaring32> slices() { return slices; }
        public Bsi _root() { return _root; }
        public Bsi _parent() { return _parent; }
    }
    private int version;
    private int rowCount;
    private int hasPositive;
    private BsiPart positive;
    private int hasNegative;
    private BsiPart negative;
    private Bsi _root;
    private KaitaiStruct _parent;

    /**
     * format version, 1
     */
    public int version() { return version; }

    /**
     * rows written, nulls included
     */
    public int rowCount() { return rowCount; }

    /**
     * 1 if a positive BSI follows
     */
    public int hasPositive() { return hasPositive; }

    /**
     * BSI of the non-negative values
     */
    public BsiPart positive() { return positive; }

    /**
     * 1 if a negative BSI follows
     */
    public int hasNegative() { return hasNegative; }

    /**
     * BSI of the absolute values of the negative values
     */
    public BsiPart negative() { return negative; }
    public Bsi _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
