// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;


/**
 * `SerializationUtils.serializeBinaryRow`: the manifest fields `_PARTITION`, `_MIN_KEY` / `_MAX_KEY`
 * and the value / key statistics (`_MIN_VALUES`, `_MAX_VALUES`) hold a row as its arity, big-endian,
 * then the BinaryRow bytes.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/SerializationUtils.java">Source</a>
 * @see "docs/FORMATS.md section 8"
 */
public class SerializedBinaryRow extends KaitaiStruct {
    public static SerializedBinaryRow fromFile(String fileName) throws IOException {
        return new SerializedBinaryRow(new ByteBufferKaitaiStream(fileName));
    }

    public SerializedBinaryRow(KaitaiStream _io) {
        this(_io, null, null);
    }

    public SerializedBinaryRow(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public SerializedBinaryRow(KaitaiStream _io, KaitaiStruct _parent, SerializedBinaryRow _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.head = new SerializedHead(this._io, this, _root);
        this._raw_row = this._io.readBytesFull();
        KaitaiStream _io__raw_row = new ByteBufferKaitaiStream(this._raw_row);
        this.row = new BinaryRow(_io__raw_row, head().arity());
    }

    public void _fetchInstances() {
        this.head._fetchInstances();
        this.row._fetchInstances();
    }

    /**
     * what precedes the row
     */
    public static class SerializedHead extends KaitaiStruct {
        public static SerializedHead fromFile(String fileName) throws IOException {
            return new SerializedHead(new ByteBufferKaitaiStream(fileName));
        }

        public SerializedHead(KaitaiStream _io) {
            this(_io, null, null);
        }

        public SerializedHead(KaitaiStream _io, SerializedBinaryRow _parent) {
            this(_io, _parent, null);
        }

        public SerializedHead(KaitaiStream _io, SerializedBinaryRow _parent, SerializedBinaryRow _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.arity = this._io.readS4be();
        }

        public void _fetchInstances() {
        }
        private int arity;
        private SerializedBinaryRow _root;
        private SerializedBinaryRow _parent;

        /**
         * number of fields of the row
         */
        public int arity() { return arity; }
        public SerializedBinaryRow _root() { return _root; }
        public SerializedBinaryRow _parent() { return _parent; }
    }
    private SerializedHead head;
    private BinaryRow row;
    private SerializedBinaryRow _root;
    private KaitaiStruct _parent;
    private byte[] _raw_row;

    /**
     * the arity
     */
    public SerializedHead head() { return head; }

    /**
     * the BinaryRow
     */
    public BinaryRow row() { return row; }
    public SerializedBinaryRow _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
    public byte[] _raw_row() { return _raw_row; }
}
