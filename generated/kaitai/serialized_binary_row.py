# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import binary_row


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SerializedBinaryRow(KaitaiStruct):
    """`SerializationUtils.serializeBinaryRow`: the manifest fields `_PARTITION`, `_MIN_KEY` / `_MAX_KEY`
    and the value / key statistics (`_MIN_VALUES`, `_MAX_VALUES`) hold a row as its arity, big-endian,
    then the BinaryRow bytes.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/utils/SerializationUtils.java
    
    
    .. seealso::
       docs/FORMATS.md section 8
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(SerializedBinaryRow, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.head = SerializedBinaryRow.SerializedHead(self._io, self, self._root)
        self._raw_row = self._io.read_bytes_full()
        _io__raw_row = KaitaiStream(BytesIO(self._raw_row))
        self.row = binary_row.BinaryRow(self.head.arity, _io__raw_row)


    def _fetch_instances(self):
        pass
        self.head._fetch_instances()
        self.row._fetch_instances()

    class SerializedHead(KaitaiStruct):
        """what precedes the row."""
        def __init__(self, _io, _parent=None, _root=None):
            super(SerializedBinaryRow.SerializedHead, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.arity = self._io.read_s4be()


        def _fetch_instances(self):
            pass



