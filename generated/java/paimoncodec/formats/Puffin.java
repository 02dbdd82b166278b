// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.Map;
import java.util.HashMap;
import java.util.Arrays;


/**
 * Iceberg's puffin-spec: "PFA1" | blob ... | footer, the footer being
 * "PFA1" | FooterPayload (UTF-8 JSON FileMetadata) | int32 payload size | 4 flag bytes | "PFA1".
 * The footer is found from the end of the file: the fixed 12-byte tail gives the payload size.
 * Blobs are located by the JSON (absolute offset and length); a deletion-vector-v1 blob is a Paimon
 * 64-bit deletion vector entry (schemas/deletion_vector.ksy).
 * @see <a href="https://iceberg.apache.org/puffin-spec/">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java">Source</a>
 */
public class Puffin extends KaitaiStruct {
    public static Puffin fromFile(String fileName) throws IOException {
        return new Puffin(new ByteBufferKaitaiStream(fileName));
    }

    public enum PuffinFooterFlags {
        PAYLOAD_COMPRESSED(1);

        private final long id;
        PuffinFooterFlags(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, PuffinFooterFlags> byId = new HashMap<Long, PuffinFooterFlags>(1);
        static {
            for (PuffinFooterFlags e : PuffinFooterFlags.values())
                byId.put(e.id(), e);
        }
        public static PuffinFooterFlags byId(long id) { return byId.get(id); }
    }

    public Puffin(KaitaiStream _io) {
        this(_io, null, null);
    }

    public Puffin(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public Puffin(KaitaiStream _io, KaitaiStruct _parent, Puffin _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.magic = this._io.readBytes(4);
        if (!(Arrays.equals(this.magic, new byte[] { 80, 70, 65, 49 }))) {
            throw new KaitaiStream.ValidationNotEqualError(new byte[] { 80, 70, 65, 49 }, this.magic, this._io, "/seq/0");
        }
    }

    public void _fetchInstances() {
        footer();
        if (this.footer != null) {
            this.footer._fetchInstances();
        }
        footerTail();
        if (this.footerTail != null) {
            this.footerTail._fetchInstances();
        }
    }

    /**
     * footer magic and the UTF-8 JSON FileMetadata payload
     */
    public static class PuffinFooter extends KaitaiStruct {

        public PuffinFooter(KaitaiStream _io, int payloadSize) {
            this(_io, null, null, payloadSize);
        }

        public PuffinFooter(KaitaiStream _io, Puffin _parent, int payloadSize) {
            this(_io, _parent, null, payloadSize);
        }

        public PuffinFooter(KaitaiStream _io, Puffin _parent, Puffin _root, int payloadSize) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            this.payloadSize = payloadSize;
            _read();
        }
        private void _read() {
            this.magic = this._io.readBytes(4);
            if (!(Arrays.equals(this.magic, new byte[] { 80, 70, 65, 49 }))) {
                throw new KaitaiStream.ValidationNotEqualError(new byte[] { 80, 70, 65, 49 }, this.magic, this._io, "/types/puffin_footer/seq/0");
            }
            this.payload = this._io.readBytes(payloadSize());
        }

        public void _fetchInstances() {
        }
        private byte[] magic;
        private byte[] payload;
        private int payloadSize;
        private Puffin _root;
        private Puffin _parent;

        /**
         * footer magic
         */
        public byte[] magic() { return magic; }

        /**
         * FileMetadata JSON ({"blobs":[...], "properties":{...}}), UTF-8
         */
        public byte[] payload() { return payload; }

        /**
         * byte length of the payload (from the tail)
         */
        public int payloadSize() { return payloadSize; }
        public Puffin _root() { return _root; }
        public Puffin _parent() { return _parent; }
    }

    /**
     * the last 12 bytes of a Puffin file
     */
    public static class PuffinFooterTail extends KaitaiStruct {
        public static PuffinFooterTail fromFile(String fileName) throws IOException {
            return new PuffinFooterTail(new ByteBufferKaitaiStream(fileName));
        }

        public PuffinFooterTail(KaitaiStream _io) {
            this(_io, null, null);
        }

        public PuffinFooterTail(KaitaiStream _io, Puffin _parent) {
            this(_io, _parent, null);
        }

        public PuffinFooterTail(KaitaiStream _io, Puffin _parent, Puffin _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.payloadSize = this._io.readS4le();
            this.flags = this._io.readU4le();
            this.magic = this._io.readBytes(4);
            if (!(Arrays.equals(this.magic, new byte[] { 80, 70, 65, 49 }))) {
                throw new KaitaiStream.ValidationNotEqualError(new byte[] { 80, 70, 65, 49 }, this.magic, this._io, "/types/puffin_footer_tail/seq/2");
            }
        }

        public void _fetchInstances() {
        }
        private int payloadSize;
        private long flags;
        private byte[] magic;
        private Puffin _root;
        private Puffin _parent;

        /**
         * byte length of the footer payload (JSON)
         */
        public int payloadSize() { return payloadSize; }

        /**
         * footer flags; bit 0 of the first byte = payload compressed (LZ4)
         */
        public long flags() { return flags; }

        /**
         * trailing file magic
         */
        public byte[] magic() { return magic; }
        public Puffin _root() { return _root; }
        public Puffin _parent() { return _parent; }
    }
    private PuffinFooter footer;

    /**
     * the footer (magic + JSON payload) just before the tail
     */
    public PuffinFooter footer() {
        if (this.footer != null)
            return this.footer;
        long _pos = this._io.pos();
        this._io.seek(((_io().size() - 12) - footerTail().payloadSize()) - magic().length);
        this.footer = new PuffinFooter(this._io, this, _root, footerTail().payloadSize());
        this._io.seek(_pos);
        return this.footer;
    }
    private PuffinFooterTail footerTail;

    /**
     * the fixed-size end of the file (payload size, flags, trailing magic)
     */
    public PuffinFooterTail footerTail() {
        if (this.footerTail != null)
            return this.footerTail;
        long _pos = this._io.pos();
        this._io.seek(_io().size() - 12);
        this.footerTail = new PuffinFooterTail(this._io, this, _root);
        this._io.seek(_pos);
        return this.footerTail;
    }
    private byte[] magic;
    private Puffin _root;
    private KaitaiStruct _parent;

    /**
     * leading file magic
     */
    public byte[] magic() { return magic; }
    public Puffin _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
