// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;


/**
 * How ``KeySerializer`` writes a key (little-endian, unlike the file-index keys of paimon_key.ksy);
 * the key is the whole byte string of an entry, so strings carry no length. The parameter is the
 * key kind the column type maps to: TINYINT int8, SMALLINT int16, INT/DATE/TIME int32,
 * BIGINT/DECIMAL(p <= 18, unscaled)/TIMESTAMP(p <= 3, epoch millis) int64, FLOAT float32,
 * DOUBLE double64, BOOLEAN bool, CHAR/VARCHAR string, TIMESTAMP(p > 3) timestamp_nanos.
 * @see "docs/FORMATS.md section 14"
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/KeySerializer.java">Source</a>
 */
public class BtreeGlobalIndexKey extends KaitaiStruct {

    public BtreeGlobalIndexKey(KaitaiStream _io, String kind) {
        this(_io, null, null, kind);
    }

    public BtreeGlobalIndexKey(KaitaiStream _io, KaitaiStruct _parent, String kind) {
        this(_io, _parent, null, kind);
    }

    public BtreeGlobalIndexKey(KaitaiStream _io, KaitaiStruct _parent, BtreeGlobalIndexKey _root, String kind) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        this.kind = kind;
        _read();
    }
    private void _read() {
        switch (kind()) {
        case "bool": {
            this.value = ((Object) (this._io.readU1()));
            break;
        }
        case "float32": {
            this.value = ((Object) (this._io.readF4le()));
            break;
        }
        case "float64": {
            this.value = ((Object) (this._io.readF8le()));
            break;
        }
        case "int16": {
            this.value = ((Object) (this._io.readS2le()));
            break;
        }
        case "int32": {
            this.value = ((Object) (this._io.readS4le()));
            break;
        }
        case "int64": {
            this.value = ((Object) (this._io.readS8le()));
            break;
        }
        case "int8": {
            this.value = ((Object) (this._io.readS1()));
            break;
        }
        case "string": {
            this.value = new Utf8Key(this._io, this, _root);
            break;
        }
        case "timestamp_nanos": {
            this.value = new TimestampNanos(this._io, this, _root);
            break;
        }
        }
    }

    public void _fetchInstances() {
        switch (kind()) {
        case "bool": {
            break;
        }
        case "float32": {
            break;
        }
        case "float64": {
            break;
        }
        case "int16": {
            break;
        }
        case "int32": {
            break;
        }
        case "int64": {
            break;
        }
        case "int8": {
            break;
        }
        case "string": {
            ((Utf8Key) (this.value))._fetchInstances();
            break;
        }
        case "timestamp_nanos": {
            ((TimestampNanos) (this.value))._fetchInstances();
            break;
        }
        }
    }

    /**
     * a timestamp of precision > 3 - epoch millis then the nanos within the milli
     */
    public static class TimestampNanos extends KaitaiStruct {
        public static TimestampNanos fromFile(String fileName) throws IOException {
            return new TimestampNanos(new ByteBufferKaitaiStream(fileName));
        }

        public TimestampNanos(KaitaiStream _io) {
            this(_io, null, null);
        }

        public TimestampNanos(KaitaiStream _io, BtreeGlobalIndexKey _parent) {
            this(_io, _parent, null);
        }

        public TimestampNanos(KaitaiStream _io, BtreeGlobalIndexKey _parent, BtreeGlobalIndexKey _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.millisecond = this._io.readS8le();
            this.nanoOfMillisecond = new Varint(this._io);
        }

        public void _fetchInstances() {
            this.nanoOfMillisecond._fetchInstances();
        }
        private long millisecond;
        private Varint nanoOfMillisecond;
        private BtreeGlobalIndexKey _root;
        private BtreeGlobalIndexKey _parent;

        /**
         * epoch milliseconds
         */
        public long millisecond() { return millisecond; }

        /**
         * nanoseconds within the millisecond (0..999999)
         */
        public Varint nanoOfMillisecond() { return nanoOfMillisecond; }
        public BtreeGlobalIndexKey _root() { return _root; }
        public BtreeGlobalIndexKey _parent() { return _parent; }
    }

    /**
     * a BinaryString key - its UTF-8 bytes, the whole key
     */
    public static class Utf8Key extends KaitaiStruct {
        public static Utf8Key fromFile(String fileName) throws IOException {
            return new Utf8Key(new ByteBufferKaitaiStream(fileName));
        }

        public Utf8Key(KaitaiStream _io) {
            this(_io, null, null);
        }

        public Utf8Key(KaitaiStream _io, BtreeGlobalIndexKey _parent) {
            this(_io, _parent, null);
        }

        public Utf8Key(KaitaiStream _io, BtreeGlobalIndexKey _parent, BtreeGlobalIndexKey _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.value = new String(this._io.readBytesFull(), StandardCharsets.UTF_8);
        }

        public void _fetchInstances() {
        }
        private String value;
        private BtreeGlobalIndexKey _root;
        private BtreeGlobalIndexKey _parent;

        /**
         * the string (ordered unsigned byte-wise)
         */
        public String value() { return value; }
        public BtreeGlobalIndexKey _root() { return _root; }
        public BtreeGlobalIndexKey _parent() { return _parent; }
    }
    private Object value;
    private String kind;
    private BtreeGlobalIndexKey _root;
    private KaitaiStruct _parent;

    /**
     * the key value; its layout is chosen by the key kind
     */
    public Object value() { return value; }

    /**
     * key kind (int8, int16, int32, int64, float32, float64, bool, string, timestamp_nanos)
     */
    public String kind() { return kind; }
    public BtreeGlobalIndexKey _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
