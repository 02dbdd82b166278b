// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;


/**
 * FORMATS.md 7.1: a flat sequence of int32 BE BinaryRow hash codes, no header (an empty file
 * holds no hashes). Parsed in bulk as one numpy array.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/index/HashIndexFile.java">Source</a>
 * @see "docs/FORMATS.md section 7"
 */
public class HashIndex extends KaitaiStruct {
    public static HashIndex fromFile(String fileName) throws IOException {
        return new HashIndex(new ByteBufferKaitaiStream(fileName));
    }

    public HashIndex(KaitaiStream _io) {
        this(_io, null, null);
    }

    public HashIndex(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public HashIndex(KaitaiStream _io, KaitaiStruct _parent, HashIndex _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.hashes = new ArrayList<Integer>();
        {
            int i = 0;
            while (!this._io.isEof()) {
                this.hashes.add(this._io.readS4be());
                i++;
            }
        }
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.hashes.size(); i++) {
        }
    }
    private List<Integer> hashes;
    private HashIndex _root;
    private KaitaiStruct _parent;

    /**
     * the key hashes (MurmurHash3 x86_32, seed 42, of the key BinaryRow), in writer order
     */
    public List<Integer> hashes() { return hashes; }
    public HashIndex _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
