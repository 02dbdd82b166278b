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
 * FORMATS.md 0. Used for inspection and cross-checks; embedded in other formats the Construct
 * codecs treat a roaring bitmap as self-delimiting bulk bytes and the runtime decodes it with
 * pyroaring.
 * @see <a href="https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md">Source</a>
 */
public class Roaring32 extends KaitaiStruct {
    public static Roaring32 fromFile(String fileName) throws IOException {
        return new Roaring32(new ByteBufferKaitaiStream(fileName));
    }

    public enum RoaringCookie {
        NO_RUN(12346),
        RUN(12347);

        private final long id;
        RoaringCookie(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, RoaringCookie> byId = new HashMap<Long, RoaringCookie>(2);
        static {
            for (RoaringCookie e : RoaringCookie.values())
                byId.put(e.id(), e);
        }
        public static RoaringCookie byId(long id) { return byId.get(id); }
    }

    public Roaring32(KaitaiStream _io) {
        this(_io, null, null);
    }

    public Roaring32(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public Roaring32(KaitaiStream _io, KaitaiStruct _parent, Roaring32 _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.cookie = this._io.readU4le();
        {
            long _it = this.cookie;
            if (!( (((_it & 65535) == RoaringCookie.RUN.id()) || (_it == RoaringCookie.NO_RUN.id())) )) {
                throw new KaitaiStream.ValidationExprError(this.cookie, this._io, "/seq/0");
            }
        }
        if (!(hasRunContainers())) {
            this.containerCount = this._io.readU4le();
        }
        if (hasRunContainers()) {
            this.runFlags = this._io.readBytes(runFlagsSize());
        }
        this.descriptiveHeader = new ArrayList<ContainerHeader>();
        for (int i = 0; i < numContainers(); i++) {
            this.descriptiveHeader.add(new ContainerHeader(this._io, this, _root));
        }
        if (hasOffsets()) {
            this.offsets = new ArrayList<Long>();
            for (int i = 0; i < numContainers(); i++) {
                this.offsets.add(this._io.readU4le());
            }
        }
        this.containers = new ArrayList<Container>();
        for (int i = 0; i < numContainers(); i++) {
            this.containers.add(new Container(this._io, this, _root,  ((hasRunContainers()) && (((runFlags()[((Number) (i >> 3)).intValue()] & 0xff) >> (i & 7) & 1) == 1)) , descriptiveHeader().get(((Number) (i)).intValue()).cardinalityMinus1()));
        }
    }

    public void _fetchInstances() {
        if (!(hasRunContainers())) {
        }
        if (hasRunContainers()) {
        }
        for (int i = 0; i < this.descriptiveHeader.size(); i++) {
            this.descriptiveHeader.get(((Number) (i)).intValue())._fetchInstances();
        }
        if (hasOffsets()) {
            for (int i = 0; i < this.offsets.size(); i++) {
            }
        }
        for (int i = 0; i < this.containers.size(); i++) {
            this.containers.get(((Number) (i)).intValue())._fetchInstances();
        }
    }

    /**
     * one container - array, bitmap or run
     */
    public static class Container extends KaitaiStruct {

        public Container(KaitaiStream _io, boolean isRun, int cardinalityMinus1) {
            this(_io, null, null, isRun, cardinalityMinus1);
        }

        public Container(KaitaiStream _io, Roaring32 _parent, boolean isRun, int cardinalityMinus1) {
            this(_io, _parent, null, isRun, cardinalityMinus1);
        }

        public Container(KaitaiStream _io, Roaring32 _parent, Roaring32 _root, boolean isRun, int cardinalityMinus1) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.isRun = isRun;
            this.cardinalityMinus1 = cardinalityMinus1;
            _read();
        }
        private void _read() {
            if (isArray()) {
                this.values = new ArrayList<Integer>();
                for (int i = 0; i < cardinalityMinus1() + 1; i++) {
                    this.values.add(this._io.readU2le());
                }
            }
            if (isBitmap()) {
                this.bitmap = new ArrayList<Long>();
                for (int i = 0; i < bitmapWords(); i++) {
                    this.bitmap.add(this._io.readU8le());
                }
            }
            if (isRun()) {
                this.numRuns = this._io.readU2le();
            }
            if (isRun()) {
                this.runs = new ArrayList<Run>();
                for (int i = 0; i < numRuns(); i++) {
                    this.runs.add(new Run(this._io, this, _root));
                }
            }
        }

        public void _fetchInstances() {
            if (isArray()) {
                for (int i = 0; i < this.values.size(); i++) {
                }
            }
            if (isBitmap()) {
                for (int i = 0; i < this.bitmap.size(); i++) {
                }
            }
            if (isRun()) {
            }
            if (isRun()) {
                for (int i = 0; i < this.runs.size(); i++) {
                    this.runs.get(((Number) (i)).intValue())._fetchInstances();
                }
            }
        }
        private Integer arrayMaxCardinality;

        /**
         * most values an array container holds (a container without runs holding more is a bitmap)
         */
        public Integer arrayMaxCardinality() {
            if (this.arrayMaxCardinality != null)
                return this.arrayMaxCardinality;
            this.arrayMaxCardinality = ((int) 4096);
            return this.arrayMaxCardinality;
        }
        private Integer bitmapWords;

        /**
         * words of a bitmap container
         */
        public Integer bitmapWords() {
            if (this.bitmapWords != null)
                return this.bitmapWords;
            this.bitmapWords = ((int) 1024);
            return this.bitmapWords;
        }
        private Boolean isArray;

        /**
         * an array container (sorted values)
         */
        public Boolean isArray() {
            if (this.isArray != null)
                return this.isArray;
            this.isArray =  ((!(isRun())) && (cardinalityMinus1() < arrayMaxCardinality())) ;
            return this.isArray;
        }
        private Boolean isBitmap;

        /**
         * a bitmap container (one bit per low-16-bit value)
         */
        public Boolean isBitmap() {
            if (this.isBitmap != null)
                return this.isBitmap;
            this.isBitmap =  ((!(isRun())) && (cardinalityMinus1() >= arrayMaxCardinality())) ;
            return this.isBitmap;
        }
        private List<Integer> values;
        private List<Long> bitmap;
        private Integer numRuns;
        private List<Run> runs;
        private boolean isRun;
        private int cardinalityMinus1;
        private Roaring32 _root;
        private Roaring32 _parent;

        /**
         * array container - sorted low 16 bits
         */
        public List<Integer> values() { return values; }

        /**
         * bitmap container - 65536 bits, value v is bit v & 63 of word v >> 6
         */
        public List<Long> bitmap() { return bitmap; }

        /**
         * run container - number of runs
         */
        public Integer numRuns() { return numRuns; }

        /**
         * run container - the runs
         */
        public List<Run> runs() { return runs; }

        /**
         * the container's run flag is set
         */
        public boolean isRun() { return isRun; }

        /**
         * the container's cardinality - 1 (from its descriptive header)
         */
        public int cardinalityMinus1() { return cardinalityMinus1; }
        public Roaring32 _root() { return _root; }
        public Roaring32 _parent() { return _parent; }
    }

    /**
     * key and cardinality of one container
     */
    public static class ContainerHeader extends KaitaiStruct {
        public static ContainerHeader fromFile(String fileName) throws IOException {
            return new ContainerHeader(new ByteBufferKaitaiStream(fileName));
        }

        public ContainerHeader(KaitaiStream _io) {
            this(_io, null, null);
        }

        public ContainerHeader(KaitaiStream _io, Roaring32 _parent) {
            this(_io, _parent, null);
        }

        public ContainerHeader(KaitaiStream _io, Roaring32 _parent, Roaring32 _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.key = this._io.readU2le();
            this.cardinalityMinus1 = this._io.readU2le();
        }

        public void _fetchInstances() {
        }
        private int key;
        private int cardinalityMinus1;
        private Roaring32 _root;
        private Roaring32 _parent;

        /**
         * high 16 bits of every value in the container
         */
        public int key() { return key; }

        /**
         * number of values in the container minus one
         */
        public int cardinalityMinus1() { return cardinalityMinus1; }
        public Roaring32 _root() { return _root; }
        public Roaring32 _parent() { return _parent; }
    }

    /**
     * one run of consecutive values
     */
    public static class Run extends KaitaiStruct {
        public static Run fromFile(String fileName) throws IOException {
            return new Run(new ByteBufferKaitaiStream(fileName));
        }

        public Run(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Run(KaitaiStream _io, Roaring32.Container _parent) {
            this(_io, _parent, null);
        }

        public Run(KaitaiStream _io, Roaring32.Container _parent, Roaring32 _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.start = this._io.readU2le();
            this.lengthMinus1 = this._io.readU2le();
        }

        public void _fetchInstances() {
        }
        private int start;
        private int lengthMinus1;
        private Roaring32 _root;
        private Roaring32.Container _parent;

        /**
         * first low-16-bit value of the run
         */
        public int start() { return start; }

        /**
         * run length minus one
         */
        public int lengthMinus1() { return lengthMinus1; }
        public Roaring32 _root() { return _root; }
        public Roaring32.Container _parent() { return _parent; }
    }
    private Boolean hasOffsets;

    /**
     * the offset header is present (always without run containers; with them from four containers on)
     */
    public Boolean hasOffsets() {
        if (this.hasOffsets != null)
            return this.hasOffsets;
        this.hasOffsets =  ((!(hasRunContainers())) || (numContainers() >= 4)) ;
        return this.hasOffsets;
    }
    private Boolean hasRunContainers;

    /**
     * the cookie is a run cookie (its high 16 bits count the containers; run flags follow it)
     */
    public Boolean hasRunContainers() {
        if (this.hasRunContainers != null)
            return this.hasRunContainers;
        this.hasRunContainers = (cookie() & 65535) == RoaringCookie.RUN.id();
        return this.hasRunContainers;
    }
    private Integer numContainers;

    /**
     * number of containers
     */
    public Integer numContainers() {
        if (this.numContainers != null)
            return this.numContainers;
        this.numContainers = ((Number) ((hasRunContainers() ? (cookie() >> 16) + 1 : containerCount()))).intValue();
        return this.numContainers;
    }
    private Integer runFlagsSize;

    /**
     * bytes of run flags (one bit per container)
     */
    public Integer runFlagsSize() {
        if (this.runFlagsSize != null)
            return this.runFlagsSize;
        this.runFlagsSize = ((Number) ((numContainers() + 7) / 8)).intValue();
        return this.runFlagsSize;
    }
    private long cookie;
    private Long containerCount;
    private byte[] runFlags;
    private List<ContainerHeader> descriptiveHeader;
    private List<Long> offsets;
    private List<Container> containers;
    private Roaring32 _root;
    private KaitaiStruct _parent;

    /**
     * 12346 (no run containers) or 12347 | (container_count - 1) << 16 (run containers present)
     */
    public long cookie() { return cookie; }

    /**
     * number of containers (only without run containers)
     */
    public Long containerCount() { return containerCount; }

    /**
     * bit i set means container i is a run container
     */
    public byte[] runFlags() { return runFlags; }

    /**
     * per container the high 16 bits (key) and cardinality - 1
     */
    public List<ContainerHeader> descriptiveHeader() { return descriptiveHeader; }

    /**
     * byte offset of each container from the start of the bitmap
     */
    public List<Long> offsets() { return offsets; }

    /**
     * the containers, in key order
     */
    public List<Container> containers() { return containers; }
    public Roaring32 _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
