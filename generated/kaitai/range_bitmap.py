# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import paimon_key
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class RangeBitmap(KaitaiStruct):
    """FORMATS.md 4: a header, a chunked sorted dictionary (key -> dense code) and a bit-sliced index
    (BSI) of the code of every row. Keys use the same encoding as the bitmap index (DECIMAL as the
    unscaled int64, timestamps as millis/micros, FLOAT/DOUBLE as raw IEEE bits).
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/RangeBitmap.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/FixedLengthChunk.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/VariableLengthChunk.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java
    
    
    .. seealso::
       docs/FORMATS.md section 4
    """

    class BitSliceIndexVersion(IntEnum):
        v1 = 1

    class ChunkVersion(IntEnum):
        v1 = 1

    class DictionaryVersion(IntEnum):
        v1 = 1

    class RangeBitmapVersion(IntEnum):
        v1 = 1
    def __init__(self, key_kind, _io, _parent=None, _root=None):
        super(RangeBitmap, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.key_kind = key_kind
        self._read()

    def _read(self):
        self.header_length = self._io.read_s4be()
        self._raw_header = self._io.read_bytes(self.header_length)
        _io__raw_header = KaitaiStream(BytesIO(self._raw_header))
        self.header = RangeBitmap.RangeBitmapHeader(self.key_kind, _io__raw_header, self, self._root)
        self._raw_dictionary = self._io.read_bytes(self.header.dictionary_length)
        _io__raw_dictionary = KaitaiStream(BytesIO(self._raw_dictionary))
        self.dictionary = RangeBitmap.Dictionary(self.key_kind, _io__raw_dictionary, self, self._root)
        self._raw_bsi = self._io.read_bytes_full()
        _io__raw_bsi = KaitaiStream(BytesIO(self._raw_bsi))
        self.bsi = RangeBitmap.BitSlicedIndex(_io__raw_bsi, self, self._root)


    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        self.dictionary._fetch_instances()
        self.bsi._fetch_instances()

    class BitSlicedIndex(KaitaiStruct):
        """bit-sliced index of the row codes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RangeBitmap.BitSlicedIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bsi_header_length = self._io.read_s4be()
            self._raw_bsi_header = self._io.read_bytes(self.bsi_header_length)
            _io__raw_bsi_header = KaitaiStream(BytesIO(self._raw_bsi_header))
            self.bsi_header = RangeBitmap.BsiHeader(_io__raw_bsi_header, self, self._root)
            self.ebm = self._io.read_bytes(self.bsi_header.ebm_length)
            self.slices = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            self.bsi_header._fetch_instances()


    class BsiHeader(KaitaiStruct):
        """BSI header."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RangeBitmap.BsiHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            if not  ((self.version == int(RangeBitmap.BitSliceIndexVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/bsi_header/seq/0")
            self.slice_count = self._io.read_u1()
            self.ebm_length = self._io.read_s4be()
            self.indexes_length = self._io.read_s4be()
            self.slice_refs = []
            for i in range(self.slice_count):
                self.slice_refs.append(RangeBitmap.SliceRef(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.slice_refs)):
                pass
                self.slice_refs[i]._fetch_instances()



    class Chunk(KaitaiStruct):
        """one chunk header (fixed-length keys, or variable-length keys for strings)."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(RangeBitmap.Chunk, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            self.key = paimon_key.PaimonKey(self.key_kind, self._io)
            self.code = self._io.read_s4be()
            self.keys_offset = self._io.read_s4be()
            self.size = self._io.read_s4be()
            if self.key_kind == u"string":
                pass
                self.offsets_length = self._io.read_s4be()

            self.keys_length = self._io.read_s4be()
            if self.key_kind != u"string":
                pass
                self.fixed_length = self._io.read_s4be()



        def _fetch_instances(self):
            pass
            self.key._fetch_instances()
            if self.key_kind == u"string":
                pass

            if self.key_kind != u"string":
                pass



    class Chunks(KaitaiStruct):
        """the chunk headers area."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(RangeBitmap.Chunks, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.chunks = []
            i = 0
            while not self._io.is_eof():
                self.chunks.append(RangeBitmap.Chunk(self.key_kind, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.chunks)):
                pass
                self.chunks[i]._fetch_instances()



    class Dictionary(KaitaiStruct):
        """chunked dictionary; codes are 0..cardinality-1 in ascending key order."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(RangeBitmap.Dictionary, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.dict_header_length = self._io.read_s4be()
            self._raw_dict_header = self._io.read_bytes(self.dict_header_length)
            _io__raw_dict_header = KaitaiStream(BytesIO(self._raw_dict_header))
            self.dict_header = RangeBitmap.DictionaryHeader(_io__raw_dict_header, self, self._root)
            self.offsets = []
            for i in range(self.dict_header.chunk_count):
                self.offsets.append(self._io.read_s4be())

            self._raw_chunks = self._io.read_bytes(self.dict_header.chunks_length)
            _io__raw_chunks = KaitaiStream(BytesIO(self._raw_chunks))
            self.chunks = RangeBitmap.Chunks(self.key_kind, _io__raw_chunks, self, self._root)
            self.keys = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            self.dict_header._fetch_instances()
            for i in range(len(self.offsets)):
                pass

            self.chunks._fetch_instances()


    class DictionaryHeader(KaitaiStruct):
        """dictionary header."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RangeBitmap.DictionaryHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            if not  ((self.version == int(RangeBitmap.DictionaryVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/dictionary_header/seq/0")
            self.chunk_count = self._io.read_s4be()
            self.offsets_length = self._io.read_s4be()
            self.chunks_length = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class RangeBitmapHeader(KaitaiStruct):
        """range-bitmap header."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(RangeBitmap.RangeBitmapHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.version = self._io.read_u1()
            if not  ((self.version == int(RangeBitmap.RangeBitmapVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/range_bitmap_header/seq/0")
            self.row_count = self._io.read_s4be()
            self.cardinality = self._io.read_s4be()
            if self.cardinality > 0:
                pass
                self.min = paimon_key.PaimonKey(self.key_kind, self._io)

            if self.cardinality > 0:
                pass
                self.max = paimon_key.PaimonKey(self.key_kind, self._io)

            self.dictionary_length = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            if self.cardinality > 0:
                pass
                self.min._fetch_instances()

            if self.cardinality > 0:
                pass
                self.max._fetch_instances()



    class SliceRef(KaitaiStruct):
        """position of one slice bitmap."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RangeBitmap.SliceRef, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.offset = self._io.read_s4be()
            self.length = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class VariableChunkKeys(KaitaiStruct):
        """the key region of one variable-length (string) chunk, at the chunk's keys_offset in the dictionary's
        keys: its keys' offsets, then the keys (VariableLengthChunk). The dictionary keeps the regions as bulk
        bytes (a region's length is in its chunk header, not in front of it); the semantic layer reads one
        region at a time with this type.
        """
        def __init__(self, key_count, _io, _parent=None, _root=None):
            super(RangeBitmap.VariableChunkKeys, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_count = key_count
            self._read()

        def _read(self):
            self.key_offsets = []
            for i in range(self.key_count):
                self.key_offsets.append(self._io.read_s4be())

            self.keys = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.key_offsets)):
                pass




