# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import varint
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BitmapGlobalIndex(KaitaiStruct):
    """The bitmap global index as pypaimon 2.1 writes it (``pypaimon/globalindex/bitmap``; Paimon Java
    adopts the layout after 1.4 - Java 1.4.2's own bitmap global index is a bare bitmap file-index
    payload, bitmap_index.ksy). Front to back: the null-rows bitmap, the non-null-rows bitmap, per
    distinct key its rows bitmap (portable Roaring64), the dictionary blocks (stored blocks as in
    btree_global_index: bytes then a 5-byte compression + CRC32 trailer) mapping keys - ordered by
    their serialised bytes - to their bitmap, the index block mapping each dictionary block's first key
    to it, and the 48-byte big-endian footer. Row ids are relative to the file's row-id range start.
    
    .. seealso::
       docs/FORMATS.md section 14
    
    
    .. seealso::
       Source - https://pypi.org/project/pypaimon/2.1.0/
    """

    class BitmapGlobalIndexVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(BitmapGlobalIndex, self).__init__(_io)
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


    class BitmapFooter(KaitaiStruct):
        """where the null / non-null bitmaps and the index block are, and how many distinct keys there are."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BitmapGlobalIndex.BitmapFooter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.null_rows_offset = self._io.read_s8be()
            self.null_rows_length = self._io.read_s4be()
            self.non_null_rows_offset = self._io.read_s8be()
            self.non_null_rows_length = self._io.read_s4be()
            self.index_block_offset = self._io.read_s8be()
            self.index_block_length = self._io.read_s4be()
            self.value_count = self._io.read_s4be()
            self.version = self._io.read_s4be()
            if not  ((self.version == int(BitmapGlobalIndex.BitmapGlobalIndexVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/bitmap_footer/seq/7")
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x42\x47\x49\x58":
                raise kaitaistruct.ValidationNotEqualError(b"\x42\x47\x49\x58", self.magic, self._io, u"/types/bitmap_footer/seq/8")


        def _fetch_instances(self):
            pass


    class DictionaryBlock(KaitaiStruct):
        """a decompressed dictionary block - keys ascending by their serialised bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BitmapGlobalIndex.DictionaryBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.entry_count = varint.Varint(self._io)
            self.entries = []
            for i in range(self.entry_count.value):
                self.entries.append(BitmapGlobalIndex.DictionaryEntry(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.entry_count._fetch_instances()
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    class DictionaryBlockRef(KaitaiStruct):
        """where one dictionary block is stored and its first key."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BitmapGlobalIndex.DictionaryBlockRef, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.first_key_length = varint.Varint(self._io)
            self.first_key = self._io.read_bytes(self.first_key_length.value)
            self.offset = varint.Varint(self._io)
            self.length = varint.Varint(self._io)


        def _fetch_instances(self):
            pass
            self.first_key_length._fetch_instances()
            self.offset._fetch_instances()
            self.length._fetch_instances()


    class DictionaryEntry(KaitaiStruct):
        """one key and where its rows bitmap is."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BitmapGlobalIndex.DictionaryEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key_length = varint.Varint(self._io)
            self.key = self._io.read_bytes(self.key_length.value)
            self.bitmap_offset = varint.Varint(self._io)
            self.bitmap_length = varint.Varint(self._io)


        def _fetch_instances(self):
            pass
            self.key_length._fetch_instances()
            self.bitmap_offset._fetch_instances()
            self.bitmap_length._fetch_instances()


    class IndexBlock(KaitaiStruct):
        """the decompressed index block - one reference per dictionary block."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BitmapGlobalIndex.IndexBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.block_count = varint.Varint(self._io)
            self.blocks = []
            for i in range(self.block_count.value):
                self.blocks.append(BitmapGlobalIndex.DictionaryBlockRef(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.block_count._fetch_instances()
            for i in range(len(self.blocks)):
                pass
                self.blocks[i]._fetch_instances()



    @property
    def footer(self):
        """the fixed-size footer at the end of the file."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 48)
        self._m_footer = BitmapGlobalIndex.BitmapFooter(self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_footer', None)


