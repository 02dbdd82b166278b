# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Puffin(KaitaiStruct):
    """Iceberg's puffin-spec: "PFA1" | blob ... | footer, the footer being
    "PFA1" | FooterPayload (UTF-8 JSON FileMetadata) | int32 payload size | 4 flag bytes | "PFA1".
    The footer is found from the end of the file: the fixed 12-byte tail gives the payload size.
    Blobs are located by the JSON (absolute offset and length); a deletion-vector-v1 blob is a Paimon
    64-bit deletion vector entry (schemas/deletion_vector.ksy).
    
    .. seealso::
       Source - https://iceberg.apache.org/puffin-spec/
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java
    """

    class PuffinFooterFlags(IntEnum):
        payload_compressed = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(Puffin, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x50\x46\x41\x31":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self.magic, self._io, u"/seq/0")


    def _fetch_instances(self):
        pass
        _ = self.footer
        if hasattr(self, '_m_footer'):
            pass
            self._m_footer._fetch_instances()

        _ = self.footer_tail
        if hasattr(self, '_m_footer_tail'):
            pass
            self._m_footer_tail._fetch_instances()


    class PuffinFooter(KaitaiStruct):
        """footer magic and the UTF-8 JSON FileMetadata payload."""
        def __init__(self, payload_size, _io, _parent=None, _root=None):
            super(Puffin.PuffinFooter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.payload_size = payload_size
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x46\x41\x31":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self.magic, self._io, u"/types/puffin_footer/seq/0")
            self.payload = self._io.read_bytes(self.payload_size)


        def _fetch_instances(self):
            pass


    class PuffinFooterTail(KaitaiStruct):
        """the last 12 bytes of a Puffin file."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Puffin.PuffinFooterTail, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.payload_size = self._io.read_s4le()
            self.flags = self._io.read_u4le()
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x46\x41\x31":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x46\x41\x31", self.magic, self._io, u"/types/puffin_footer_tail/seq/2")


        def _fetch_instances(self):
            pass


    @property
    def footer(self):
        """the footer (magic + JSON payload) just before the tail."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        _pos = self._io.pos()
        self._io.seek(((self._io.size() - 12) - self.footer_tail.payload_size) - len(self.magic))
        self._m_footer = Puffin.PuffinFooter(self.footer_tail.payload_size, self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_footer', None)

    @property
    def footer_tail(self):
        """the fixed-size end of the file (payload size, flags, trailing magic)."""
        if hasattr(self, '_m_footer_tail'):
            return self._m_footer_tail

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 12)
        self._m_footer_tail = Puffin.PuffinFooterTail(self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_footer_tail', None)


