# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Varint(KaitaiStruct):
    """Seven value bits per byte (varint_group), least significant group first; the high bit of a byte
    says another byte follows (at most 5 bytes for an int, 10 for a long). Paimon's global-index files write
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
    def group_weight(self):
        """what one unit of a group is worth in units of the group before it (2 ** bits)."""
        if hasattr(self, '_m_group_weight'):
            return self._m_group_weight

        self._m_group_weight = (1 << int(Varint.VarintGroup.bits))
        return getattr(self, '_m_group_weight', None)

    @property
    def value(self):
        """the integer (groups beyond the tenth, which no Paimon writer emits, are not summed). A sum of
        64-bit products of the groups' payloads and powers of group_weight, not shifts and ors: the Java
        and JavaScript targets do bit operations in 32 bits (Java then holds a value of 2**63 and above as
        a negative long; JavaScript as the nearest double)
        """
        if hasattr(self, '_m_value'):
            return self._m_value

        self._m_value = ((((((((((self.groups[0] & int(Varint.VarintGroup.payload)) + ((self.groups[1] & int(Varint.VarintGroup.payload)) * self.group_weight if len(self.groups) > 1 else 0)) + (((self.groups[2] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight if len(self.groups) > 2 else 0)) + ((((self.groups[3] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 3 else 0)) + (((((self.groups[4] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 4 else 0)) + ((((((self.groups[5] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 5 else 0)) + (((((((self.groups[6] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 6 else 0)) + ((((((((self.groups[7] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 7 else 0)) + (((((((((self.groups[8] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 8 else 0)) + ((((((((((self.groups[9] & int(Varint.VarintGroup.payload)) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight) * self.group_weight if len(self.groups) > 9 else 0))
        return getattr(self, '_m_value', None)


