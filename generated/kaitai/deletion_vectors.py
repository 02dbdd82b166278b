# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import deletion_vector
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class DeletionVectors(KaitaiStruct):
    """FORMATS.md 6.1: a version byte, then one `size | bin | crc32` entry per data file. Which data
    file an entry belongs to is recorded in the index manifest (offset of the size field, length).
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
    
    
    .. seealso::
       docs/FORMATS.md section 6.1
    """

    class DeletionVectorsVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(DeletionVectors, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.version = self._io.read_u1()
        if not  ((self.version == int(DeletionVectors.DeletionVectorsVersion.v1))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/0")
        self.entries = []
        i = 0
        while not self._io.is_eof():
            self.entries.append(deletion_vector.DeletionVector(self._io))
            i += 1



    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()



