# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SortedIndexFileMeta(KaitaiStruct):
    """Carried in the index manifest (``_GLOBAL_INDEX._INDEX_META``) of every B-tree and (pypaimon) bitmap
    global-index file: the smallest and largest serialised key and whether a key is null. Java 1.4.2
    (``BTreeIndexMeta``) writes a length of 0 for an absent key and stops after ``has_nulls``;
    ``SortedIndexFileMeta`` (pypaimon 2.1, later Java) appends a format version and flags saying which
    keys are absent, so that an empty key is told from no key.
    
    .. seealso::
       docs/FORMATS.md section 14
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexMeta.java
    
    
    .. seealso::
       Source - https://pypi.org/project/pypaimon/2.1.0/
    """

    class NullKeyFlag(IntEnum):
        first_key_is_null = 1
        last_key_is_null = 2

    class SortedIndexFileMetaVersion(IntEnum):
        with_null_flags = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(SortedIndexFileMeta, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.first_key_length = self._io.read_s4le()
        self.first_key = self._io.read_bytes(self.first_key_length)
        self.last_key_length = self._io.read_s4le()
        self.last_key = self._io.read_bytes(self.last_key_length)
        self.has_nulls = self._io.read_u1()
        if (not (self._io.is_eof())):
            pass
            self.format_version = self._io.read_u1()
            if not  ((self.format_version == int(SortedIndexFileMeta.SortedIndexFileMetaVersion.with_null_flags))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.format_version, self._io, u"/seq/5")

        if (not (self._io.is_eof())):
            pass
            self.null_key_flags = self._io.read_u1()



    def _fetch_instances(self):
        pass
        if (not (self._io.is_eof())):
            pass

        if (not (self._io.is_eof())):
            pass



