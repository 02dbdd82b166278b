# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import varint
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BlobFile(KaitaiStruct):
    """One BLOB column of a data-evolution table, one record per row: the records back to back, then the
    index (one varint per row), then a 5-byte footer (index byte length, version). A record is
    magic | blob bytes | int64 record length (magic + bytes + 12) | CRC-32 of magic, bytes and record length.
    The index holds each row's record length (-1 for a null blob, which has no record) as the first
    value and then differences to the previous row's, ZigZag-mapped and written as base-128 varints
    (low groups first); record offsets are the running sum of the non-null lengths. Everything is
    found from the end of the file.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java
    """

    class BlobFileVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(BlobFile, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass
        _ = self.footer
        if hasattr(self, '_m_footer'):
            pass
            self._m_footer._fetch_instances()

        _ = self.index
        if hasattr(self, '_m_index'):
            pass
            self._m_index._fetch_instances()


    class BlobFooter(KaitaiStruct):
        """the fixed-size end of a blob file."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BlobFile.BlobFooter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.index_length = self._io.read_s4le()
            self.version = self._io.read_u1()
            if not  ((self.version == int(BlobFile.BlobFileVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/blob_footer/seq/1")


        def _fetch_instances(self):
            pass


    class BlobIndex(KaitaiStruct):
        """one varint per row of the file, to the end of the (sized) index."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BlobFile.BlobIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.entries = []
            i = 0
            while not self._io.is_eof():
                self.entries.append(varint.Varint(self._io))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    class BlobRecord(KaitaiStruct):
        """one non-null blob, parsed from exactly its record's bytes (offset and length from the index)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BlobFile.BlobRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\xCF\x11\x4E\x58":
                raise kaitaistruct.ValidationNotEqualError(b"\xCF\x11\x4E\x58", self.magic, self._io, u"/types/blob_record/seq/0")
            self.data = self._io.read_bytes((self._io.size() - self._io.pos()) - 12)
            self.tail = BlobFile.BlobRecordTail(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.tail._fetch_instances()


    class BlobRecordTail(KaitaiStruct):
        """the fixed-size end of a record."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BlobFile.BlobRecordTail, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.record_length = self._io.read_s8le()
            self.crc = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    @property
    def footer(self):
        """the last 5 bytes of the file."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 5)
        self._m_footer = BlobFile.BlobFooter(self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_footer', None)

    @property
    def index(self):
        """the per-row record lengths, delta + ZigZag + varint coded."""
        if hasattr(self, '_m_index'):
            return self._m_index

        _pos = self._io.pos()
        self._io.seek((self._io.size() - 5) - self.footer.index_length)
        self._raw__m_index = self._io.read_bytes(self.footer.index_length)
        _io__raw__m_index = KaitaiStream(BytesIO(self._raw__m_index))
        self._m_index = BlobFile.BlobIndex(_io__raw__m_index, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_index', None)


