# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import roaring32


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Roaring64(KaitaiStruct):
    """u64 bucket count, then per bucket a u32 high-32-bit key and a portable Roaring32 bitmap of
    the low 32 bits (each bitmap is self-delimiting).
    
    .. seealso::
       Source - https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md#extension-for-64-bit-implementations
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring64, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.bucket_count = self._io.read_u8le()
        self.buckets = []
        for i in range(self.bucket_count):
            self.buckets.append(Roaring64.Bucket(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        for i in range(len(self.buckets)):
            pass
            self.buckets[i]._fetch_instances()


    class Bucket(KaitaiStruct):
        """one 32-bit bucket."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring64.Bucket, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key = self._io.read_u4le()
            self.bitmap = roaring32.Roaring32(self._io)


        def _fetch_instances(self):
            pass
            self.bitmap._fetch_instances()



