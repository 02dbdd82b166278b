# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class PaimonKey(KaitaiStruct):
    """The serialised form of one index key as the bitmap, range-bitmap and BSI indexes store it
    (FORMATS.md 2.1 / 4). One parameterised type for every Paimon column type; the parameter is
    the key kind the column type maps to:
    TINYINT -> int8, SMALLINT -> int16, INT/DATE/TIME -> int32, BIGINT/TIMESTAMP(p)/TIMESTAMP_LTZ(p)
    (millis for p <= 3, micros for p > 3)/DECIMAL(p <= 18, unscaled) -> int64, FLOAT -> float32,
    DOUBLE -> float64, BOOLEAN -> bool, CHAR/VARCHAR/STRING -> string.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/KeyFactory.java
    
    
    .. seealso::
       docs/FORMATS.md section 2.1
    """
    def __init__(self, kind, _io, _parent=None, _root=None):
        super(PaimonKey, self).__init__(_io)
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
            self.value = self._io.read_f4be()
        elif _on == u"float64":
            pass
            self.value = self._io.read_f8be()
        elif _on == u"int16":
            pass
            self.value = self._io.read_s2be()
        elif _on == u"int32":
            pass
            self.value = self._io.read_s4be()
        elif _on == u"int64":
            pass
            self.value = self._io.read_s8be()
        elif _on == u"int8":
            pass
            self.value = self._io.read_s1()
        elif _on == u"string":
            pass
            self.value = PaimonKey.BinaryString(self._io, self, self._root)


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

    class BinaryString(KaitaiStruct):
        """Paimon BinaryString key - int32 byte length then UTF-8 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(PaimonKey.BinaryString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.len = self._io.read_s4be()
            self.value = (self._io.read_bytes(self.len)).decode(u"UTF-8")


        def _fetch_instances(self):
            pass



