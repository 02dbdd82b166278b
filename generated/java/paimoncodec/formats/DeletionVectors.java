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
 * FORMATS.md 6.1: a version byte, then one `size | bin | crc32` entry per data file. Which data
 * file an entry belongs to is recorded in the index manifest (offset of the size field, length).
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java">Source</a>
 * @see "docs/FORMATS.md section 6.1"
 */
public class DeletionVectors extends KaitaiStruct {
    public static DeletionVectors fromFile(String fileName) throws IOException {
        return new DeletionVectors(new ByteBufferKaitaiStream(fileName));
    }

    public enum DeletionVectorsVersion {
        V1(1);

        private final long id;
        DeletionVectorsVersion(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, DeletionVectorsVersion> byId = new HashMap<Long, DeletionVectorsVersion>(1);
        static {
            for (DeletionVectorsVersion e : DeletionVectorsVersion.values())
                byId.put(e.id(), e);
        }
        public static DeletionVectorsVersion byId(long id) { return byId.get(id); }
    }

    public DeletionVectors(KaitaiStream _io) {
        this(_io, null, null);
    }

    public DeletionVectors(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public DeletionVectors(KaitaiStream _io, KaitaiStruct _parent, DeletionVectors _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.version = this._io.readU1();
        if (!( ((this.version == DeletionVectorsVersion.V1.id())) )) {
            throw new KaitaiStream.ValidationNotAnyOfError(this.version, this._io, "/seq/0");
        }
        this.entries = new ArrayList<DeletionVector>();
        {
            int i = 0;
            while (!this._io.isEof()) {
                this.entries.add(new DeletionVector(this._io));
                i++;
            }
        }
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.entries.size(); i++) {
            this.entries.get(((Number) (i)).intValue())._fetchInstances();
        }
    }
    private int version;
    private List<DeletionVector> entries;
    private DeletionVectors _root;
    private KaitaiStruct _parent;

    /**
     * file version, always 1
     */
    public int version() { return version; }

    /**
     * the deletion vectors in write order
     */
    public List<DeletionVector> entries() { return entries; }
    public DeletionVectors _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
