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
 * FORMATS.md 7.2: a row of `arity` fields. The fixed part is the header word (the row kind in its
 * first byte, then the null bits: field i is null when bit i of `null_bits` is set, i.e. bit i + 8 of
 * the header words) padded to whole 8-byte words, then one 8-byte slot per field; the variable part
 * follows. How a slot holds its field is the `slot` type: a primitive in its low bytes, a string or
 * binary of at most 7 bytes inline (`inline_slot`), or a `reference` (offset from the row's first byte
 * | length) into the variable part, which holds longer strings / binaries (zero-padded to whole words),
 * the 8 bytes of epoch millis of a TIMESTAMP(p > 3) (the reference's low half is then the nanos of the
 * millisecond) and the 16 reserved bytes of a DECIMAL(p > 18) (`BigInteger.toByteArray()` of the
 * unscaled value, big-endian, at the front). A null field has a zero slot; a null wide TIMESTAMP /
 * DECIMAL still reserves its bytes (reference length 0).
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinarySection.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java">Source</a>
 * @see "docs/FORMATS.md section 7.2"
 */
public class BinaryRow extends KaitaiStruct {

    public enum InlineMarker {
        FLAG(128);

        private final long id;
        InlineMarker(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, InlineMarker> byId = new HashMap<Long, InlineMarker>(1);
        static {
            for (InlineMarker e : InlineMarker.values())
                byId.put(e.id(), e);
        }
        public static InlineMarker byId(long id) { return byId.get(id); }
    }

    public enum RowKind {
        INSERT(0),
        UPDATE_BEFORE(1),
        UPDATE_AFTER(2),
        DELETE(3);

        private final long id;
        RowKind(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, RowKind> byId = new HashMap<Long, RowKind>(4);
        static {
            for (RowKind e : RowKind.values())
                byId.put(e.id(), e);
        }
        public static RowKind byId(long id) { return byId.get(id); }
    }

    public enum SlotKind {
        BOOLEAN(0),
        TINYINT(1),
        SMALLINT(2),
        INT(3),
        BIGINT(4),
        FLOAT(5),
        DOUBLE(6),
        INLINE(7),
        REFERENCE(8);

        private final long id;
        SlotKind(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, SlotKind> byId = new HashMap<Long, SlotKind>(9);
        static {
            for (SlotKind e : SlotKind.values())
                byId.put(e.id(), e);
        }
        public static SlotKind byId(long id) { return byId.get(id); }
    }

    public enum WideSizes {
        TIMESTAMP(8),
        DECIMAL(16);

        private final long id;
        WideSizes(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, WideSizes> byId = new HashMap<Long, WideSizes>(2);
        static {
            for (WideSizes e : WideSizes.values())
                byId.put(e.id(), e);
        }
        public static WideSizes byId(long id) { return byId.get(id); }
    }

    public BinaryRow(KaitaiStream _io, int arity) {
        this(_io, null, null, arity);
    }

    public BinaryRow(KaitaiStream _io, KaitaiStruct _parent, int arity) {
        this(_io, _parent, null, arity);
    }

    public BinaryRow(KaitaiStream _io, KaitaiStruct _parent, BinaryRow _root, int arity) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        this.arity = arity;
        _read();
    }
    private void _read() {
        this.rowKind = this._io.readU1();
        if (!( ((this.rowKind == RowKind.INSERT.id()) || (this.rowKind == RowKind.UPDATE_BEFORE.id()) || (this.rowKind == RowKind.UPDATE_AFTER.id()) || (this.rowKind == RowKind.DELETE.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.rowKind, this._io, "/seq/0");
        }
        this.nullBits = this._io.readBytes(nullBitsSize());
        this.slots = new ArrayList<Long>();
        for (int i = 0; i < arity(); i++) {
            this.slots.add(this._io.readU8le());
        }
        this.varPart = this._io.readBytesFull();
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.slots.size(); i++) {
        }
    }

    /**
     * a string / binary of at most 7 bytes kept in its slot
     */
    public static class InlineSlot extends KaitaiStruct {
        public static InlineSlot fromFile(String fileName) throws IOException {
            return new InlineSlot(new ByteBufferKaitaiStream(fileName));
        }

        public InlineSlot(KaitaiStream _io) {
            this(_io, null, null);
        }

        public InlineSlot(KaitaiStream _io, BinaryRow.Slot _parent) {
            this(_io, _parent, null);
        }

        public InlineSlot(KaitaiStream _io, BinaryRow.Slot _parent, BinaryRow _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.data = this._io.readBytes(7);
            this.marker = this._io.readU1();
        }

        public void _fetchInstances() {
        }
        private Boolean isInline;

        /**
         * the slot holds its value inline
         */
        public Boolean isInline() {
            if (this.isInline != null)
                return this.isInline;
            this.isInline = (marker() & BinaryRow.InlineMarker.FLAG.id()) != 0;
            return this.isInline;
        }
        private Integer length;

        /**
         * bytes of data that are the value
         */
        public Integer length() {
            if (this.length != null)
                return this.length;
            this.length = ((Number) (marker() & 127)).intValue();
            return this.length;
        }
        private byte[] data;
        private int marker;
        private BinaryRow _root;
        private BinaryRow.Slot _parent;

        /**
         * the value's bytes, zero after its length
         */
        public byte[] data() { return data; }

        /**
         * inline_marker::flag | length; the flag clear means the slot is a reference
         */
        public int marker() { return marker; }
        public BinaryRow _root() { return _root; }
        public BinaryRow.Slot _parent() { return _parent; }
    }

    /**
     * a reference into the variable part (offset << 32 | length as one little-endian long)
     */
    public static class Reference extends KaitaiStruct {
        public static Reference fromFile(String fileName) throws IOException {
            return new Reference(new ByteBufferKaitaiStream(fileName));
        }

        public Reference(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Reference(KaitaiStream _io, BinaryRow.Slot _parent) {
            this(_io, _parent, null);
        }

        public Reference(KaitaiStream _io, BinaryRow.Slot _parent, BinaryRow _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.length = this._io.readU4le();
            this.offset = this._io.readU4le();
        }

        public void _fetchInstances() {
        }
        private long length;
        private long offset;
        private BinaryRow _root;
        private BinaryRow.Slot _parent;

        /**
         * byte length of a string / binary / wide decimal; nanos of the millisecond of a wide timestamp
         */
        public long length() { return length; }

        /**
         * position of the bytes, from the row's first byte (its top bit is clear, unlike an inline marker)
         */
        public long offset() { return offset; }
        public BinaryRow _root() { return _root; }
        public BinaryRow.Slot _parent() { return _parent; }
    }

    /**
     * one field's 8-byte slot, as its kind reads it
     */
    public static class Slot extends KaitaiStruct {

        public Slot(KaitaiStream _io, int kind) {
            this(_io, null, null, kind);
        }

        public Slot(KaitaiStream _io, KaitaiStruct _parent, int kind) {
            this(_io, _parent, null, kind);
        }

        public Slot(KaitaiStream _io, KaitaiStruct _parent, BinaryRow _root, int kind) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.kind = kind;
            _read();
        }
        private void _read() {
            switch (String.valueOf(kind())) {
            case "4": {
                this.value = ((Object) (this._io.readS8le()));
                break;
            }
            case "0": {
                this.value = ((Object) (this._io.readU1()));
                break;
            }
            case "6": {
                this.value = ((Object) (this._io.readF8le()));
                break;
            }
            case "5": {
                this.value = ((Object) (this._io.readF4le()));
                break;
            }
            case "7": {
                KaitaiStream _io_value = this._io.substream(8);
                this.value = new InlineSlot(_io_value, this, _root);
                break;
            }
            case "3": {
                this.value = ((Object) (this._io.readS4le()));
                break;
            }
            case "8": {
                KaitaiStream _io_value = this._io.substream(8);
                this.value = new Reference(_io_value, this, _root);
                break;
            }
            case "2": {
                this.value = ((Object) (this._io.readS2le()));
                break;
            }
            case "1": {
                this.value = ((Object) (this._io.readS1()));
                break;
            }
            default: {
                this.value = this._io.readBytes(8);
                break;
            }
            }
        }

        public void _fetchInstances() {
            switch (String.valueOf(kind())) {
            case "4": {
                break;
            }
            case "0": {
                break;
            }
            case "6": {
                break;
            }
            case "5": {
                break;
            }
            case "7": {
                ((InlineSlot) (this.value))._fetchInstances();
                break;
            }
            case "3": {
                break;
            }
            case "8": {
                ((Reference) (this.value))._fetchInstances();
                break;
            }
            case "2": {
                break;
            }
            case "1": {
                break;
            }
            default: {
                break;
            }
            }
        }
        private Object value;
        private int kind;
        private BinaryRow _root;
        private KaitaiStruct _parent;

        /**
         * the field's value in the slot's low bytes (zero above them), or an inline / reference form
         */
        public Object value() { return value; }

        /**
         * a slot_kind
         */
        public int kind() { return kind; }
        public BinaryRow _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }

    /**
     * the variable-part bytes of a TIMESTAMP(p > 3)
     */
    public static class WideTimestamp extends KaitaiStruct {
        public static WideTimestamp fromFile(String fileName) throws IOException {
            return new WideTimestamp(new ByteBufferKaitaiStream(fileName));
        }

        public WideTimestamp(KaitaiStream _io) {
            this(_io, null, null);
        }

        public WideTimestamp(KaitaiStream _io, KaitaiStruct _parent) {
            this(_io, _parent, null);
        }

        public WideTimestamp(KaitaiStream _io, KaitaiStruct _parent, BinaryRow _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.millis = this._io.readS8le();
        }

        public void _fetchInstances() {
        }
        private long millis;
        private BinaryRow _root;
        private KaitaiStruct _parent;

        /**
         * epoch milliseconds (the nanos of the millisecond are the reference's length half)
         */
        public long millis() { return millis; }
        public BinaryRow _root() { return _root; }
        public KaitaiStruct _parent() { return _parent; }
    }
    private Integer fixedSize;

    /**
     * bytes of the fixed part (header words and slots); references point at or after it
     */
    public Integer fixedSize() {
        if (this.fixedSize != null)
            return this.fixedSize;
        this.fixedSize = ((Number) ((1 + nullBitsSize()) + 8 * arity())).intValue();
        return this.fixedSize;
    }
    private Integer nullBitsSize;

    /**
     * bytes of null bits after the row-kind byte (the header is whole 8-byte words)
     */
    public Integer nullBitsSize() {
        if (this.nullBitsSize != null)
            return this.nullBitsSize;
        this.nullBitsSize = ((Number) ((((arity() + 63) + 8) / 64) * 8 - 1)).intValue();
        return this.nullBitsSize;
    }
    private int rowKind;
    private byte[] nullBits;
    private List<Long> slots;
    private byte[] varPart;
    private int arity;
    private BinaryRow _root;
    private KaitaiStruct _parent;

    /**
     * RowKind (row_kind enum); 0 for keys, partitions and statistics rows; another byte is not a row Paimon wrote
     */
    public int rowKind() { return rowKind; }

    /**
     * bit i (byte i / 8, bit i % 8) set = field i is null; zero padding to the end of the header words
     */
    public byte[] nullBits() { return nullBits; }

    /**
     * one 8-byte slot per field, read as the field's slot kind says (the slot type)
     */
    public List<Long> slots() { return slots; }

    /**
     * the variable part, addressed by references relative to the row's first byte
     */
    public byte[] varPart() { return varPart; }

    /**
     * number of fields (not stored in the row; the serialized form stores it in front)
     */
    public int arity() { return arity; }
    public BinaryRow _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
