# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BloomFilter(KaitaiStruct):
    """FORMATS.md 3: int32 number of hash functions followed by the bit set (bit i in byte i >> 3,
    mask 1 << (i & 7)); num_bits = 8 * len(bit_set). No version byte, no item count.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/BloomFilterFileIndex.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BloomFilter64.java
    
    
    .. seealso::
       docs/FORMATS.md section 3
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(BloomFilter, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.num_hash_functions = self._io.read_s4be()
        self.bit_set = self._io.read_bytes_full()


    def _fetch_instances(self):
        pass


