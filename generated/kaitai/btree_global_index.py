# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from . import varint
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BtreeGlobalIndex(KaitaiStruct):
    """One file per (indexed column, row-id range) of a data-evolution table, written by Paimon Java's and
    pypaimon's B-tree global-index writers (``index/btree-global-index-<uuid>.index``). Front to back:
    data blocks, each a stored block (block bytes + 5-byte trailer: compression, CRC32); the null
    bitmap (portable Roaring64 of the rows whose key is null, then its CRC32); an optional bloom filter
    over the keys; the index block (a stored block whose entries map the last key of each data block to
    that block's handle); the 52-byte footer. Once decompressed, a block is its entries (varint key
    length, key, varint value length, value) then either a fixed record size (aligned block) or one
    u4 start offset per entry and their count (unaligned block), then the aligned-type byte. A data
    entry's key is the serialised column value (btree_global_index_key), its value the row ids holding
    it, relative to the file's row-id range start.
    
    .. seealso::
       docs/FORMATS.md section 14
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeFileFooter.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexWriter.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/BlockWriter.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/sst/SstFileWriter.java
    """

    class BlockAlignedType(IntEnum):
        aligned = 0
        unaligned = 1

    class BlockCompression(IntEnum):
        none = 0
        zstd = 1
        lz4 = 2
        lzo = 3

    class BtreeFooterVersion(IntEnum):
        v1 = 1
    def __init__(self, _io, _parent=None, _root=None):
        super(BtreeGlobalIndex, self).__init__(_io)
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

        _ = self.index_block
        if hasattr(self, '_m_index_block'):
            pass
            self._m_index_block._fetch_instances()

        _ = self.null_bitmap
        if hasattr(self, '_m_null_bitmap'):
            pass
            self._m_null_bitmap._fetch_instances()


    class BlockHandle(KaitaiStruct):
        """the value of an index-block entry - where a data block is stored."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.BlockHandle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.offset = varint.Varint(self._io)
            self.size = varint.Varint(self._io)


        def _fetch_instances(self):
            pass
            self.offset._fetch_instances()
            self.size._fetch_instances()


    class BlockTail(KaitaiStruct):
        """the last 5 bytes of a decompressed block."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.BlockTail, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.record_size_or_count = self._io.read_u4le()
            self.aligned_type = KaitaiStream.resolve_enum(BtreeGlobalIndex.BlockAlignedType, self._io.read_u1())


        def _fetch_instances(self):
            pass


    class BlockTrailer(KaitaiStruct):
        """BlockTrailer - how a stored block is compressed and its checksum."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.BlockTrailer, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.compression = KaitaiStream.resolve_enum(BtreeGlobalIndex.BlockCompression, self._io.read_u1())
            self.crc32 = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class BtreeFooter(KaitaiStruct):
        """BTreeFileFooter - handles of the bloom filter, index block and null bitmap (all zero when absent)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.BtreeFooter, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bloom_filter_offset = self._io.read_u8le()
            self.bloom_filter_size = self._io.read_u4le()
            self.bloom_filter_expected_entries = self._io.read_u8le()
            self.index_block_offset = self._io.read_u8le()
            self.index_block_size = self._io.read_u4le()
            self.null_bitmap_offset = self._io.read_u8le()
            self.null_bitmap_size = self._io.read_u4le()
            self.version = self._io.read_u4le()
            if not  ((self.version == int(BtreeGlobalIndex.BtreeFooterVersion.v1))) :
                raise kaitaistruct.ValidationNotAnyOfError(self.version, self._io, u"/types/btree_footer/seq/7")
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x49\x54\x42\x50":
                raise kaitaistruct.ValidationNotEqualError(b"\x49\x54\x42\x50", self.magic, self._io, u"/types/btree_footer/seq/8")


        def _fetch_instances(self):
            pass


    class CompressedBlock(KaitaiStruct):
        """the bytes of a compressed stored block (compression != none)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.CompressedBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.uncompressed_size = varint.Varint(self._io)
            self.payload = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            self.uncompressed_size._fetch_instances()


    class Entry(KaitaiStruct):
        """one key-value entry of a block."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key_length = varint.Varint(self._io)
            self.key = self._io.read_bytes(self.key_length.value)
            self.value_length = varint.Varint(self._io)
            self.value = self._io.read_bytes(self.value_length.value)


        def _fetch_instances(self):
            pass
            self.key_length._fetch_instances()
            self.value_length._fetch_instances()


    class EntryOffset(KaitaiStruct):
        """one slot of an unaligned block's offset table."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.EntryOffset, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.offset = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class NullBitmap(KaitaiStruct):
        """the rows whose key is null, with a checksum."""
        def __init__(self, size, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.NullBitmap, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.size = size
            self._read()

        def _read(self):
            self.bitmap = self._io.read_bytes(self.size)
            self.crc32 = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class RowIds(KaitaiStruct):
        """the value of a data-block entry - the rows holding the key."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.RowIds, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.count = varint.Varint(self._io)
            self.row_ids = []
            for i in range(self.count.value):
                self.row_ids.append(varint.Varint(self._io))



        def _fetch_instances(self):
            pass
            self.count._fetch_instances()
            for i in range(len(self.row_ids)):
                pass
                self.row_ids[i]._fetch_instances()



    class StoredBlock(KaitaiStruct):
        """one block as stored in the file - its (compressed) bytes then the trailer."""
        def __init__(self, size, _io, _parent=None, _root=None):
            super(BtreeGlobalIndex.StoredBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.size = size
            self._read()

        def _read(self):
            self.data = self._io.read_bytes(self.size)
            self.trailer = BtreeGlobalIndex.BlockTrailer(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.trailer._fetch_instances()


    @property
    def footer(self):
        """the fixed-size footer at the end of the file."""
        if hasattr(self, '_m_footer'):
            return self._m_footer

        _pos = self._io.pos()
        self._io.seek(self._io.size() - 52)
        self._m_footer = BtreeGlobalIndex.BtreeFooter(self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_footer', None)

    @property
    def index_block(self):
        """the index block (possibly compressed) and its trailer."""
        if hasattr(self, '_m_index_block'):
            return self._m_index_block

        _pos = self._io.pos()
        self._io.seek(self.footer.index_block_offset)
        self._m_index_block = BtreeGlobalIndex.StoredBlock(self.footer.index_block_size, self._io, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_index_block', None)

    @property
    def null_bitmap(self):
        """the null bitmap and its CRC32, when some key is null."""
        if hasattr(self, '_m_null_bitmap'):
            return self._m_null_bitmap

        if self.footer.null_bitmap_size != 0:
            pass
            _pos = self._io.pos()
            self._io.seek(self.footer.null_bitmap_offset)
            self._m_null_bitmap = BtreeGlobalIndex.NullBitmap(self.footer.null_bitmap_size, self._io, self, self._root)
            self._io.seek(_pos)

        return getattr(self, '_m_null_bitmap', None)


