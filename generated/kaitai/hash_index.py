# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class HashIndex(KaitaiStruct):
    """FORMATS.md 7.1: a flat sequence of int32 BE BinaryRow hash codes, no header (an empty file
    holds no hashes). Parsed in bulk as one numpy array.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/index/HashIndexFile.java
    
    
    .. seealso::
       docs/FORMATS.md section 7
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(HashIndex, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.hashes = []
        i = 0
        while not self._io.is_eof():
            self.hashes.append(self._io.read_s4be())
            i += 1



    def _fetch_instances(self):
        pass
        for i in range(len(self.hashes)):
            pass



