// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;


/**
 * FORMATS.md 3: int32 number of hash functions followed by the bit set (bit i in byte i >> 3,
 * mask 1 << (i & 7)); num_bits = 8 * len(bit_set). No version byte, no item count.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/BloomFilterFileIndex.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BloomFilter64.java">Source</a>
 * @see "docs/FORMATS.md section 3"
 */
public class BloomFilter extends KaitaiStruct {
    public static BloomFilter fromFile(String fileName) throws IOException {
        return new BloomFilter(new ByteBufferKaitaiStream(fileName));
    }

    public BloomFilter(KaitaiStream _io) {
        this(_io, null, null);
    }

    public BloomFilter(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public BloomFilter(KaitaiStream _io, KaitaiStruct _parent, BloomFilter _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.numHashFunctions = this._io.readS4be();
        this.bitSet = this._io.readBytesFull();
    }

    public void _fetchInstances() {
    }
    private int numHashFunctions;
    private byte[] bitSet;
    private BloomFilter _root;
    private KaitaiStruct _parent;

    /**
     * k, the number of probes per value
     */
    public int numHashFunctions() { return numHashFunctions; }

    /**
     * the bit set bytes (bulk; probed by the semantic layer)
     */
    public byte[] bitSet() { return bitSet; }
    public BloomFilter _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
