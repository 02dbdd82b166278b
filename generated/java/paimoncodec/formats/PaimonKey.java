// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;


/**
 * The serialised form of one index key as the bitmap, range-bitmap and BSI indexes store it
 * (FORMATS.md 2.1 / 4). One parameterised type for every Paimon column type; the parameter is
 * the key kind the column type maps to:
 * TINYINT -> int8, SMALLINT -> int16, INT/DATE/TIME -> int32, BIGINT/TIMESTAMP(p)/TIMESTAMP_LTZ(p)
 * (millis for p <= 3, micros for p > 3)/DECIMAL(p <= 18, unscaled) -> int64, FLOAT -> float32,
 * DOUBLE -> float64, BOOLEAN -> bool, CHAR/VARCHAR/STRING -> string.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/KeyFactory.java">Source</a>
 * @see "docs/FORMATS.md section 2.1"
 */
public class PaimonKey extends KaitaiStruct {

    public PaimonKey(KaitaiStream _io, String kind) {
        this(_io, null, null, kind);
    }

    public PaimonKey(KaitaiStream _io, KaitaiStruct _parent, String kind) {
        this(_io, _parent, null, kind);
    }

    public PaimonKey(KaitaiStream _io, KaitaiStruct _parent, PaimonKey _root, String kind) {
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
            this.value = ((Object) (this._io.readF4be()));
            break;
        }
        case "float64": {
            this.value = ((Object) (this._io.readF8be()));
            break;
        }
        case "int16": {
            this.value = ((Object) (this._io.readS2be()));
            break;
        }
        case "int32": {
            this.value = ((Object) (this._io.readS4be()));
            break;
        }
        case "int64": {
            this.value = ((Object) (this._io.readS8be()));
            break;
        }
        case "int8": {
            this.value = ((Object) (this._io.readS1()));
            break;
        }
        case "string": {
            this.value = new BinaryString(this._io, this, _root);
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
            ((BinaryString) (this.value))._fetchInstances();
            break;
        }
        }
    }

    /**
     * Paimon BinaryString key - int32 byte length then UTF-8 bytes
     */
    public static class BinaryString extends KaitaiStruct {
        public static BinaryString fromFile(String fileName) throws IOException {
            return new BinaryString(new ByteBufferKaitaiStream(fileName));
        }

        public BinaryString(KaitaiStream _io) {
            this(_io, null, null);
        }

        public BinaryString(KaitaiStream _io, PaimonKey _parent) {
            this(_io, _parent, null);
        }

        public BinaryString(KaitaiStream _io, PaimonKey _parent, PaimonKey _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.len = this._io.readS4be();
            this.value = new String(this._io.readBytes(len()), StandardCharsets.UTF_8);
        }

        public void _fetchInstances() {
        }
        private int len;
        private String value;
        private PaimonKey _root;
        private PaimonKey _parent;

        /**
         * number of UTF-8 bytes that follow
         */
        public int len() { return len; }

        /**
         * the string (ordering of such keys is unsigned byte-wise on these bytes)
         */
        public String value() { return value; }
        public PaimonKey _root() { return _root; }
        public PaimonKey _parent() { return _parent; }
    }
    private Object value;
    private String kind;
    private PaimonKey _root;
    private KaitaiStruct _parent;

    /**
     * the key value, big-endian; its layout is chosen by the key kind
     */
    public Object value() { return value; }

    /**
     * key kind (int8, int16, int32, int64, float32, float64, bool, string)
     */
    public String kind() { return kind; }
    public PaimonKey _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
