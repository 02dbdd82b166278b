# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import paimon_key
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BitmapIndex(KaitaiStruct):
    """FORMATS.md 2.3 / 2.4. The version byte switches between the legacy V1 layout (unsorted
    dictionary of key -> offset, no lengths) and V2 (sorted entries packed into index blocks that
    are positioned by a block directory and loadable one at a time). Offsets of bitmaps are
    relative to the bitmap body; a negative offset -1 - p encodes the singleton bitmap {p}.
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMetaV2.java
    
    
    .. seealso::
       docs/FORMATS.md section 2
    """

    class BitmapIndexVersion(IntEnum):
        v1 = 1
        v2 = 2
    def __init__(self, key_kind, _io, _parent=None, _root=None):
        super(BitmapIndex, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.key_kind = key_kind
        self._read()

    def _read(self):
        self.version = self._io.read_u1()
        if not  ((self.version == int(BitmapIndex.BitmapIndexVersion.v1)) or (self.version == int(BitmapIndex.BitmapIndexVersion.v2))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/seq/0")
        self.row_count = self._io.read_s4be()
        self.non_null_bitmap_number = self._io.read_s4be()
        self.has_null_value = self._io.read_u1()
        if self.has_null_value != 0:
            pass
            self.null_value_offset = self._io.read_s4be()

        if  ((self.version == int(BitmapIndex.BitmapIndexVersion.v2)) and (self.has_null_value != 0)) :
            pass
            self.null_bitmap_length = self._io.read_s4be()

        if self.version == int(BitmapIndex.BitmapIndexVersion.v1):
            pass
            self.entries = []
            for i in range(self.non_null_bitmap_number):
                self.entries.append(BitmapIndex.V1Entry(self.key_kind, self._io, self, self._root))


        if self.version == int(BitmapIndex.BitmapIndexVersion.v2):
            pass
            self.v2_head = BitmapIndex.BitmapIndexV2Head(self.key_kind, self._io, self, self._root)

        if self.version == int(BitmapIndex.BitmapIndexVersion.v2):
            pass
            self._raw_index_blocks = self._io.read_bytes(self.v2_head.bitmap_body_offset)
            _io__raw_index_blocks = KaitaiStream(BytesIO(self._raw_index_blocks))
            self.index_blocks = BitmapIndex.IndexBlocks(self.key_kind, _io__raw_index_blocks, self, self._root)

        self.body = self._io.read_bytes_full()


    def _fetch_instances(self):
        pass
        if self.has_null_value != 0:
            pass

        if  ((self.version == int(BitmapIndex.BitmapIndexVersion.v2)) and (self.has_null_value != 0)) :
            pass

        if self.version == int(BitmapIndex.BitmapIndexVersion.v1):
            pass
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()


        if self.version == int(BitmapIndex.BitmapIndexVersion.v2):
            pass
            self.v2_head._fetch_instances()

        if self.version == int(BitmapIndex.BitmapIndexVersion.v2):
            pass
            self.index_blocks._fetch_instances()


    class BitmapIndexV2Head(KaitaiStruct):
        """V2 block directory."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.BitmapIndexV2Head, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.index_block_count = self._io.read_s4be()
            self.block_heads = []
            for i in range(self.index_block_count):
                self.block_heads.append(BitmapIndex.BlockHead(self.key_kind, self._io, self, self._root))

            self.bitmap_body_offset = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.block_heads)):
                pass
                self.block_heads[i]._fetch_instances()



    class BlockHead(KaitaiStruct):
        """first key and position of one index block."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.BlockHead, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.key = paimon_key.PaimonKey(self.key_kind, self._io)
            self.block_offset = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()
            _ = self.block
            if hasattr(self, '_m_block'):
                pass
                self._m_block._fetch_instances()


        @property
        def block(self):
            """the index block itself, parsed on demand."""
            if hasattr(self, '_m_block'):
                return self._m_block

            io = self._parent._parent.index_blocks._io
            _pos = io.pos()
            io.seek(self.block_offset)
            self._m_block = BitmapIndex.IndexBlock(self.key_kind, io, self, self._root)
            io.seek(_pos)
            return getattr(self, '_m_block', None)


    class IndexBlock(KaitaiStruct):
        """one V2 index block."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.IndexBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.entry_count = self._io.read_s4be()
            self.entries = []
            for i in range(self.entry_count):
                self.entries.append(BitmapIndex.V2Entry(self.key_kind, self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    class IndexBlocks(KaitaiStruct):
        """the V2 index blocks area."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.IndexBlocks, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.blocks = []
            i = 0
            while not self._io.is_eof():
                self.blocks.append(BitmapIndex.IndexBlock(self.key_kind, self._io, self, self._root))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.blocks)):
                pass
                self.blocks[i]._fetch_instances()



    class V1Entry(KaitaiStruct):
        """one V1 dictionary entry."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.V1Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.key = paimon_key.PaimonKey(self.key_kind, self._io)
            self.offset = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()


    class V2Entry(KaitaiStruct):
        """one V2 entry."""
        def __init__(self, key_kind, _io, _parent=None, _root=None):
            super(BitmapIndex.V2Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.key_kind = key_kind
            self._read()

        def _read(self):
            self.key = paimon_key.PaimonKey(self.key_kind, self._io)
            self.offset = self._io.read_s4be()
            self.length = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.key._fetch_instances()



