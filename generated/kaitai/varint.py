# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Varint(KaitaiStruct):
    """Seven value bits per byte, least significant group first; the high bit of a byte says another
    byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
    lengths, counts, offsets and row ids this way. Embedded in other formats the Construct codecs
    use the runtime's ``VarUInt`` (Construct's ``VarInt``, the same encoding) and the generated fast
    paths its ``fast_parse_varint`` / ``fast_build_varint``.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/VarLengthIntUtils.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/memory/MemorySliceInput.java
    """

    class VarintGroup(IntEnum):
        bits = 7
        payload = 127
        continuation = 128
    def __init__(self, _io, _parent=None, _root=None):
        super(Varint, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.groups = []
        i = 0
        while True:
            _ = self._io.read_u1()
            self.groups.append(_)
            if _ & int(Varint.VarintGroup.continuation) == 0:
                break
            i += 1


    def _fetch_instances(self):
        pass
        for i in range(len(self.groups)):
            pass


    @property
    def value(self):
        """the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
        64-bit products, not shifts and ors: the Java and JavaScript targets do bit operations in 32 bits
        (Java then holds a value of 2**63 and above as a negative long; JavaScript as the nearest double)
        """
        if hasattr(self, '_m_value'):
            return self._m_value

        self._m_value = ((((((((((self.groups[0] & 127) + ((self.groups[1] & 127) * 128 if len(self.groups) > 1 else 0)) + ((self.groups[2] & 127) * 16384 if len(self.groups) > 2 else 0)) + ((self.groups[3] & 127) * 2097152 if len(self.groups) > 3 else 0)) + ((self.groups[4] & 127) * 268435456 if len(self.groups) > 4 else 0)) + ((self.groups[5] & 127) * 34359738368 if len(self.groups) > 5 else 0)) + ((self.groups[6] & 127) * 4398046511104 if len(self.groups) > 6 else 0)) + ((self.groups[7] & 127) * 562949953421312 if len(self.groups) > 7 else 0)) + ((self.groups[8] & 127) * 72057594037927936 if len(self.groups) > 8 else 0)) + ((self.groups[9] & 127) * 9223372036854775808 if len(self.groups) > 9 else 0))
        return getattr(self, '_m_value', None)


