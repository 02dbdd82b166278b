# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class FileIndex(KaitaiStruct):
    """One container per data file, embedded in the manifest or stored as `<data file>.index`
    (FORMATS.md 1). A head lists, per column, each index type with the absolute start and length
    of its payload; the body is the payloads back to back in head order.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
    
    
    .. seealso::
       docs/FORMATS.md section 1
    """

    class FileIndexVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(FileIndex, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(8)
        if not self.magic == b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE":
            raise kaitaistruct.ValidationNotEqualError(b"\x00\x05\x4E\x4E\xD0\x1A\x35\xAE", self.magic, self._io, u"/seq/0")
        self.version = self._io.read_s4be()
        if not  ((self.version == int(FileIndex.FileIndexVersion.v1))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/1")
        self.head_length = self._io.read_s4be()
        self.column_count = self._io.read_s4be()
        self.columns = []
        for i in range(self.column_count):
            self.columns.append(FileIndex.Column(self._io, self, self._root))

        self.redundant_length = self._io.read_s4be()
        self.redundant = self._io.read_bytes(self.redundant_length)


    def _fetch_instances(self):
        pass
        for i in range(len(self.columns)):
            pass
            self.columns[i]._fetch_instances()


    class Column(KaitaiStruct):
        """one column and its indexes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(FileIndex.Column, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.column_name = FileIndex.JavaUtf(self._io, self, self._root)
            self.index_count = self._io.read_s4be()
            self.indexes = []
            for i in range(self.index_count):
                self.indexes.append(FileIndex.IndexEntry(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.column_name._fetch_instances()
            for i in range(len(self.indexes)):
                pass
                self.indexes[i]._fetch_instances()



    class IndexEntry(KaitaiStruct):
        """one (column, index type) entry of the head."""
        def __init__(self, _io, _parent=None, _root=None):
            super(FileIndex.IndexEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.index_type = FileIndex.JavaUtf(self._io, self, self._root)
            self.start = self._io.read_s4be()
            self.length = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.index_type._fetch_instances()
            _ = self.payload
            if hasattr(self, '_m_payload'):
                pass


        @property
        def payload(self):
            """the index payload (bitmap / bloom-filter / range-bitmap / bsi bytes); absent for an empty index."""
            if hasattr(self, '_m_payload'):
                return self._m_payload

            if self.start >= 0:
                pass
                io = self._root._io
                _pos = io.pos()
                io.seek(self.start)
                self._m_payload = io.read_bytes(self.length)
                io.seek(_pos)

            return getattr(self, '_m_payload', None)


    class JavaUtf(KaitaiStruct):
        """DataOutput.writeUTF string - u16 byte length + Java modified UTF-8."""
        def __init__(self, _io, _parent=None, _root=None):
            super(FileIndex.JavaUtf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len = self._io.read_u2be()
            self.value = self._io.read_bytes(self.len)


        def _fetch_instances(self):
            pass



