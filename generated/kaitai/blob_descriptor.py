# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BlobDescriptor(KaitaiStruct):
    """Where one blob's bytes are: a file URI, an offset and a length. Paimon's engines hand a BLOB value out
    in this form under the table option blob-as-descriptor; the writer of 1.4 uses version 2, which
    carries the "BLOBDESC" magic after the version byte.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BlobDescriptor.java
    """

    class BlobDescriptorVersion(IntEnum):
        v2 = 2
    def __init__(self, _io, _parent=None, _root=None):
        super(BlobDescriptor, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.version = self._io.read_u1()
        if not  ((self.version == int(BlobDescriptor.BlobDescriptorVersion.v2))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/0")
        self.magic = self._io.read_bytes(8)
        if not self.magic == b"\x43\x53\x45\x44\x42\x4F\x4C\x42":
            raise kaitaistruct.ValidationNotEqualError(b"\x43\x53\x45\x44\x42\x4F\x4C\x42", self.magic, self._io, u"/seq/1")
        self.uri_length = self._io.read_s4le()
        self.uri = (self._io.read_bytes(self.uri_length)).decode(u"UTF-8")
        self.offset = self._io.read_s8le()
        self.length = self._io.read_s8le()


    def _fetch_instances(self):
        pass


