# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class DeleteMap(KaitaiStruct):
    """The proposed (never shipped) variant-2 layout: a map header with the file names padded to
    the longest name, each with the start and size of its bitmap, followed by the bitmaps.
    
    .. seealso::
       docs/FORMATS.md section 6.4 (the DELETE_MAP proposal, never shipped in Paimon)
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(DeleteMap, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.entry_count = self._io.read_s4be()
        self.max_name_length = self._io.read_s4be()
        self.entries = []
        for i in range(self.entry_count):
            self.entries.append(DeleteMap.DeleteMapEntry(self._io, self, self._root))

        self.bitmaps = self._io.read_bytes_full()


    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()


    class DeleteMapEntry(KaitaiStruct):
        """one data file and where its bitmap is."""
        def __init__(self, _io, _parent=None, _root=None):
            super(DeleteMap.DeleteMapEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = (KaitaiStream.bytes_strip_right(self._io.read_bytes(self._parent.max_name_length), 0)).decode(u"UTF-8")
            self.start = self._io.read_s4be()
            self.size = self._io.read_s4be()


        def _fetch_instances(self):
            pass



