# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import varint


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BtreeGlobalIndexKey(KaitaiStruct):
    """How ``KeySerializer`` writes a key (little-endian, unlike the file-index keys of paimon_key.ksy);
    the key is the whole byte string of an entry, so strings carry no length. The parameter is the
    key kind the column type maps to: TINYINT int8, SMALLINT int16, INT/DATE/TIME int32,
    BIGINT/DECIMAL(p <= 18, unscaled)/TIMESTAMP(p <= 3, epoch millis) int64, FLOAT float32,
    DOUBLE double64, BOOLEAN bool, CHAR/VARCHAR string, TIMESTAMP(p > 3) timestamp_nanos.
    
    .. seealso::
       docs/FORMATS.md section 14
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/KeySerializer.java
    """
    def __init__(self, kind, _io, _parent=None, _root=None):
        super(BtreeGlobalIndexKey, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.kind = kind
        self._read()

    def _read(self):
        _on = self.kind
        if _on == u"bool":
            pass
            self.value = self._io.read_u1()
        elif _on == u"float32":
            pass
            self.value = self._io.read_f4le()
        elif _on == u"float64":
            pass
            self.value = self._io.read_f8le()
        elif _on == u"int16":
            pass
            self.value = self._io.read_s2le()
        elif _on == u"int32":
            pass
            self.value = self._io.read_s4le()
        elif _on == u"int64":
            pass
            self.value = self._io.read_s8le()
        elif _on == u"int8":
            pass
            self.value = self._io.read_s1()
        elif _on == u"string":
            pass
            self.value = BtreeGlobalIndexKey.Utf8Key(self._io, self, self._root)
        elif _on == u"timestamp_nanos":
            pass
            self.value = BtreeGlobalIndexKey.TimestampNanos(self._io, self, self._root)


    def _fetch_instances(self):
        pass
        _on = self.kind
        if _on == u"bool":
            pass
        elif _on == u"float32":
            pass
        elif _on == u"float64":
            pass
        elif _on == u"int16":
            pass
        elif _on == u"int32":
            pass
        elif _on == u"int64":
            pass
        elif _on == u"int8":
            pass
        elif _on == u"string":
            pass
            self.value._fetch_instances()
        elif _on == u"timestamp_nanos":
            pass
            self.value._fetch_instances()

    class TimestampNanos(KaitaiStruct):
        """a timestamp of precision > 3 - epoch millis then the nanos within the milli."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndexKey.TimestampNanos, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.millisecond = self._io.read_s8le()
            self.nano_of_millisecond = varint.Varint(self._io)


        def _fetch_instances(self):
            pass
            self.nano_of_millisecond._fetch_instances()


    class Utf8Key(KaitaiStruct):
        """a BinaryString key - its UTF-8 bytes, the whole key."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndexKey.Utf8Key, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.value = (self._io.read_bytes_full()).decode(u"UTF-8")


        def _fetch_instances(self):
            pass



