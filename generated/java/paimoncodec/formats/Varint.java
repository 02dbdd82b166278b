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
 * Seven value bits per byte (varint_group), least significant group first; the high bit of a byte
 * says another byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
 * lengths, counts, offsets and row ids this way. Embedded in other formats the Construct codecs
 * use the runtime's ``VarUInt`` (Construct's ``VarInt``, the same encoding) and the generated fast
 * paths its ``fast_parse_varint`` / ``fast_build_varint``.
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/VarLengthIntUtils.java">Source</a>
 * @see <a href="https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/memory/MemorySliceInput.java">Source</a>
 */
public class Varint extends KaitaiStruct {
    public static Varint fromFile(String fileName) throws IOException {
        return new Varint(new ByteBufferKaitaiStream(fileName));
    }

    public enum VarintGroup {
        BITS(7),
        PAYLOAD(127),
        CONTINUATION(128);

        private final long id;
        VarintGroup(long id) { this.id = id; }
        public long id() { return id; }
        private static final Map<Long, VarintGroup> byId = new HashMap<Long, VarintGroup>(3);
        static {
            for (VarintGroup e : VarintGroup.values())
                byId.put(e.id(), e);
        }
        public static VarintGroup byId(long id) { return byId.get(id); }
    }

    public Varint(KaitaiStream _io) {
        this(_io, null, null);
    }

    public Varint(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public Varint(KaitaiStream _io, KaitaiStruct _parent, Varint _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.groups = new ArrayList<Integer>();
        {
            int _it;
            int i = 0;
            do {
                _it = this._io.readU1();
                this.groups.add(_it);
                i++;
            } while (!((_it & VarintGroup.CONTINUATION.id()) == 0));
        }
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.groups.size(); i++) {
        }
    }
    private Long groupWeight;

    /**
     * what one unit of a group is worth in units of the group before it (2 ** bits)
     */
    public Long groupWeight() {
        if (this.groupWeight != null)
            return this.groupWeight;
        this.groupWeight = ((Number) (((Number) (1 << VarintGroup.BITS.id())).longValue())).longValue();
        return this.groupWeight;
    }
    private Long value;

    /**
     * the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
     * 64-bit products of the groups' payloads and powers of group_weight, not shifts and ors: the Java
     * and JavaScript targets do bit operations in 32 bits (Java then holds a value of 2**63 and above as
     * a negative long; JavaScript as the nearest double)
     */
    public Long value() {
        if (this.value != null)
            return this.value;
        this.value = ((Number) (((Number) (((((((((((Number) (groups().get(((int) 0)) & VarintGroup.PAYLOAD.id())).longValue() + (groups().size() > 1 ? ((Number) (groups().get(((int) 1)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight() : 0)) + (groups().size() > 2 ? (((Number) (groups().get(((int) 2)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight() : 0)) + (groups().size() > 3 ? ((((Number) (groups().get(((int) 3)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 4 ? (((((Number) (groups().get(((int) 4)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 5 ? ((((((Number) (groups().get(((int) 5)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 6 ? (((((((Number) (groups().get(((int) 6)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 7 ? ((((((((Number) (groups().get(((int) 7)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 8 ? (((((((((Number) (groups().get(((int) 8)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0)) + (groups().size() > 9 ? ((((((((((Number) (groups().get(((int) 9)) & VarintGroup.PAYLOAD.id())).longValue() * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight()) * groupWeight() : 0))).longValue())).longValue();
        return this.value;
    }
    private List<Integer> groups;
    private Varint _root;
    private KaitaiStruct _parent;

    /**
     * the 7-bit groups, least significant first; the last has its high bit clear
     */
    public List<Integer> groups() { return groups; }
    public Varint _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
