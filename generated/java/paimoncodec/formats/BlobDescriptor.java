// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.Map;
import java.util.HashMap;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;


/**
 * Where one blob's bytes are: a file URI, an offset and a length. Paimon's engines hand a BLOB value out
 * in this form under the table option blob-as-descriptor; the writer of 1.4 uses version 2, which
 * carries the "BLOBDESC" magic after the version byte.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BlobDescriptor.java">Source</a>
 */
public class BlobDescriptor extends KaitaiStruct {
    public static BlobDescriptor fromFile(String fileName) throws IOException {
        return new BlobDescriptor(new ByteBufferKaitaiStream(fileName));
    }

    public enum BlobDescriptorVersion {
        V2(2);

        private final long id;
        BlobDescriptorVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, BlobDescriptorVersion> byId = new HashMap<Long, BlobDescriptorVersion>(1);
        static {
            for (BlobDescriptorVersion e : BlobDescriptorVersion.values())
                byId.put(e.id(), e);
        }
        public static BlobDescriptorVersion byId(long id) { return byId.get(id); }
    }

    public BlobDescriptor(KaitaiStream _io) {
        this(_io, null, null);
    }

    public BlobDescriptor(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public BlobDescriptor(KaitaiStream _io, KaitaiStruct _parent, BlobDescriptor _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.version = this._io.readU1();
        if (!( ((this.version == BlobDescriptorVersion.V2.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
        }
        this.magic = this._io.readBytes(8);
        if (!(Arrays.equals(this.magic, new byte[] { 67, 83, 69, 68, 66, 79, 76, 66 }))) {
            throw new KaitaiStream.ValidationNotEqualError(new byte[] { 67, 83, 69, 68, 66, 79, 76, 66 }, this.magic, this._io, "/seq/1");
        }
        this.uriLength = this._io.readS4le();
        this.uri = new String(this._io.readBytes(uriLength()), StandardCharsets.UTF_8);
        this.offset = this._io.readS8le();
        this.length = this._io.readS8le();
    }

    public void _fetchInstances() {
    }
    private int version;
    private byte[] magic;
    private int uriLength;
    private String uri;
    private long offset;
    private long length;
    private BlobDescriptor _root;
    private KaitaiStruct _parent;

    /**
     * descriptor version (2 in Paimon 1.4)
     */
    public int version() { return version; }

    /**
     * int64 0x424C4F4244455343 ("BLOBDESC") little-endian
     */
    public byte[] magic() { return magic; }

    /**
     * byte length of the URI
     */
    public int uriLength() { return uriLength; }

    /**
     * the file holding the blob
     */
    public String uri() { return uri; }

    /**
     * position of the blob's first byte in the file
     */
    public long offset() { return offset; }

    /**
     * byte length of the blob
     */
    public long length() { return length; }
    public BlobDescriptor _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
