# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class DeletionVector(KaitaiStruct):
    """FORMATS.md 6.1 / 6.2: one serialised deletion vector as it sits in a DELETION_VECTORS index
    file. The framing is big-endian; the magic at the start of the bin chooses the 32-bit
    (big-endian magic + Roaring32) or the 64-bit (little-endian magic + little-endian bitmap array)
    flavour.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/BitmapDeletionVector.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
    
    
    .. seealso::
       docs/FORMATS.md section 6
    """

    class DvJavaMagic(IntEnum):
        bitmap32 = 1581511376
        bitmap64 = 1681511377

    class DvMagic(IntEnum):
        bitmap32 = 1581511376
        bitmap64 = 3520280932
    def __init__(self, _io, _parent=None, _root=None):
        super(DeletionVector, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.size = self._io.read_s4be()
        self._raw_bin = self._io.read_bytes(self.size)
        _io__raw_bin = KaitaiStream(BytesIO(self._raw_bin))
        self.bin = DeletionVector.DvBin(_io__raw_bin, self, self._root)
        self.crc = self._io.read_s4be()


    def _fetch_instances(self):
        pass
        self.bin._fetch_instances()

    class Dv32Bin(KaitaiStruct):
        """32-bit deletion vector body."""
        def __init__(self, _io, _parent=None, _root=None):
            super(DeletionVector.Dv32Bin, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.roaring = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class Dv64Bin(KaitaiStruct):
        """64-bit deletion vector body (Iceberg compatible)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(DeletionVector.Dv64Bin, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bitmap_count = self._io.read_s8le()
            self.bitmaps = []
            for i in range(self.bitmap_count):
                self.bitmaps.append(DeletionVector.Dv64Bucket(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.bitmaps)):
                pass
                self.bitmaps[i]._fetch_instances()



    class Dv64Bucket(KaitaiStruct):
        """positions whose high 32 bits equal key."""
        def __init__(self, _io, _parent=None, _root=None):
            super(DeletionVector.Dv64Bucket, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key = self._io.read_s4le()
            self.roaring = roaring32.Roaring32(self._io)


        def _fetch_instances(self):
            pass
            self.roaring._fetch_instances()


    class DvBin(KaitaiStruct):
        """a deletion-vector bin; the magic chooses its flavour."""
        def __init__(self, _io, _parent=None, _root=None):
            super(DeletionVector.DvBin, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_u4be()
            if not  ((self.magic == int(DeletionVector.DvMagic.bitmap32)) or (self.magic == int(DeletionVector.DvMagic.bitmap64))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.magic, self._io, u"/types/dv_bin/seq/0")
            _on = self.magic
            if _on == int(DeletionVector.DvMagic.bitmap32):
                pass
                self.bitmap = DeletionVector.Dv32Bin(self._io, self, self._root)
            elif _on == int(DeletionVector.DvMagic.bitmap64):
                pass
                self.bitmap = DeletionVector.Dv64Bin(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            _on = self.magic
            if _on == int(DeletionVector.DvMagic.bitmap32):
                pass
                self.bitmap._fetch_instances()
            elif _on == int(DeletionVector.DvMagic.bitmap64):
                pass
                self.bitmap._fetch_instances()



