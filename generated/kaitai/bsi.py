# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Bsi(KaitaiStruct):
    """FORMATS.md 5: values split by sign into a positive and a negative bit-sliced index (negative
    values stored as their absolute value). Roaring bitmaps are self-delimiting, no lengths stored.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bsi/BitSliceIndexBitmapFileIndex.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/BitSliceIndexRoaringBitmap.java
    
    
    .. seealso::
       docs/FORMATS.md section 5
    """

    class BsiPartVersion(IntEnum):
        v1 = 1

    class BsiVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(Bsi, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.version = self._io.read_u1()
        if not  ((self.version == int(Bsi.BsiVersion.v1))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/0")
        self.row_count = self._io.read_s4be()
        self.has_positive = self._io.read_u1()
        if self.has_positive != 0:
            pass
            self.positive = Bsi.BsiPart(self._io, self, self._root)

        self.has_negative = self._io.read_u1()
        if self.has_negative != 0:
            pass
            self.negative = Bsi.BsiPart(self._io, self, self._root)



    def _fetch_instances(self):
        pass
        if self.has_positive != 0:
            pass
            self.positive._fetch_instances()

        if self.has_negative != 0:
            pass
            self.negative._fetch_instances()


    class BsiPart(KaitaiStruct):
        """one bit-sliced index."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsi.BsiPart, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            self.min = self._io.read_s8be()
            self.max = self._io.read_s8be()
            self.ebm = roaring32.Roaring32(self._io)
            self.slice_count = self._io.read_s4be()
            self.slices = []
            for i in range(self.slice_count):
                self.slices.append(roaring32.Roaring32(self._io))



        def _fetch_instances(self):
            pass
            self.ebm._fetch_instances()
            for i in range(len(self.slices)):
                pass
                self.slices[i]._fetch_instances()




