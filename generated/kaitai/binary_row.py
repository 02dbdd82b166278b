# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BinaryRow(KaitaiStruct):
    """FORMATS.md 7.2: a row of `arity` fields. The fixed part is the header word (the row kind in its
    first byte, then the null bits: field i is null when bit i of `null_bits` is set, i.e. bit i + 8 of
    the header words) padded to whole 8-byte words, then one 8-byte slot per field; the variable part
    follows. How a slot holds its field is the `slot` type: a primitive in its low bytes, a string or
    binary of at most 7 bytes inline (`inline_slot`), or a `reference` (offset from the row's first byte
    | length) into the variable part, which holds longer strings / binaries (zero-padded to whole words),
    the 8 bytes of epoch millis of a TIMESTAMP(p > 3) (the reference's low half is then the nanos of the
    millisecond) and the 16 reserved bytes of a DECIMAL(p > 18) (`BigInteger.toByteArray()` of the
    unscaled value, big-endian, at the front). A null field has a zero slot; a null wide TIMESTAMP /
    DECIMAL still reserves its bytes (reference length 0).
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/BinarySection.java
    
    
    .. seealso::
       Source - https://github.com/apache/paimon/blob/release-1.4.2/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java
    
    
    .. seealso::
       docs/FORMATS.md section 7.2
    """

    class InlineMarker(IntEnum):
        flag = 128

    class RowKind(IntEnum):
        insert = 0
        update_before = 1
        update_after = 2
        delete = 3

    class SlotKind(IntEnum):
        boolean = 0
        tinyint = 1
        smallint = 2
        int = 3
        bigint = 4
        float = 5
        double = 6
        inline = 7
        reference = 8

    class WideSizes(IntEnum):
        timestamp = 8
        decimal = 16
    def __init__(self, arity, _io, _parent=None, _root=None):
        super(BinaryRow, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.arity = arity
        self._read()

    def _read(self):
        self.row_kind = self._io.read_u1()
        if not  ((self.row_kind == int(BinaryRow.RowKind.insert)) or (self.row_kind == int(BinaryRow.RowKind.update_before)) or (self.row_kind == int(BinaryRow.RowKind.update_after)) or (self.row_kind == int(BinaryRow.RowKind.delete))) :
            raise kaitaistruct.ValidationNotAnyOfError(self.row_kind, self._io, u"/seq/0")
        self.null_bits = self._io.read_bytes(self.null_bits_size)
        self.slots = []
        for i in range(self.arity):
            self.slots.append(self._io.read_u8le())

        self.var_part = self._io.read_bytes_full()


    def _fetch_instances(self):
        pass
        for i in range(len(self.slots)):
            pass


    class InlineSlot(KaitaiStruct):
        """a string / binary of at most 7 bytes kept in its slot."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BinaryRow.InlineSlot, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.data = self._io.read_bytes(7)
            self.marker = self._io.read_u1()


        def _fetch_instances(self):
            pass

        @property
        def is_inline(self):
            """the slot holds its value inline."""
            if hasattr(self, '_m_is_inline'):
                return self._m_is_inline

            self._m_is_inline = self.marker & int(BinaryRow.InlineMarker.flag) != 0
            return getattr(self, '_m_is_inline', None)

        @property
        def length(self):
            """bytes of data that are the value."""
            if hasattr(self, '_m_length'):
                return self._m_length

            self._m_length = self.marker & 127
            return getattr(self, '_m_length', None)


    class Reference(KaitaiStruct):
        """a reference into the variable part (offset << 32 | length as one little-endian long)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BinaryRow.Reference, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.length = self._io.read_u4le()
            self.offset = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class Slot(KaitaiStruct):
        """one field's 8-byte slot, as its kind reads it."""
        def __init__(self, kind, _io, _parent=None, _root=None):
            super(BinaryRow.Slot, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.kind = kind
            self._read()

        def _read(self):
            _on = self.kind
            if _on == int(BinaryRow.SlotKind.bigint):
                pass
                self.value = self._io.read_s8le()
            elif _on == int(BinaryRow.SlotKind.boolean):
                pass
                self.value = self._io.read_u1()
            elif _on == int(BinaryRow.SlotKind.double):
                pass
                self.value = self._io.read_f8le()
            elif _on == int(BinaryRow.SlotKind.float):
                pass
                self.value = self._io.read_f4le()
            elif _on == int(BinaryRow.SlotKind.inline):
                pass
                self._raw_value = self._io.read_bytes(8)
                _io__raw_value = KaitaiStream(BytesIO(self._raw_value))
                self.value = BinaryRow.InlineSlot(_io__raw_value, self, self._root)
            elif _on == int(BinaryRow.SlotKind.int):
                pass
                self.value = self._io.read_s4le()
            elif _on == int(BinaryRow.SlotKind.reference):
                pass
                self._raw_value = self._io.read_bytes(8)
                _io__raw_value = KaitaiStream(BytesIO(self._raw_value))
                self.value = BinaryRow.Reference(_io__raw_value, self, self._root)
            elif _on == int(BinaryRow.SlotKind.smallint):
                pass
                self.value = self._io.read_s2le()
            elif _on == int(BinaryRow.SlotKind.tinyint):
                pass
                self.value = self._io.read_s1()
            else:
                pass
                self.value = self._io.read_bytes(8)


        def _fetch_instances(self):
            pass
            _on = self.kind
            if _on == int(BinaryRow.SlotKind.bigint):
                pass
            elif _on == int(BinaryRow.SlotKind.boolean):
                pass
            elif _on == int(BinaryRow.SlotKind.double):
                pass
            elif _on == int(BinaryRow.SlotKind.float):
                pass
            elif _on == int(BinaryRow.SlotKind.inline):
                pass
                self.value._fetch_instances()
            elif _on == int(BinaryRow.SlotKind.int):
                pass
            elif _on == int(BinaryRow.SlotKind.reference):
                pass
                self.value._fetch_instances()
            elif _on == int(BinaryRow.SlotKind.smallint):
                pass
            elif _on == int(BinaryRow.SlotKind.tinyint):
                pass
            else:
                pass


    class WideTimestamp(KaitaiStruct):
        """the variable-part bytes of a TIMESTAMP(p > 3)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(BinaryRow.WideTimestamp, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.millis = self._io.read_s8le()


        def _fetch_instances(self):
            pass


    @property
    def fixed_size(self):
        """bytes of the fixed part (header words and slots); references point at or after it."""
        if hasattr(self, '_m_fixed_size'):
            return self._m_fixed_size

        self._m_fixed_size = (1 + self.null_bits_size) + 8 * self.arity
        return getattr(self, '_m_fixed_size', None)

    @property
    def null_bits_size(self):
        """bytes of null bits after the row-kind byte (the header is whole 8-byte words)."""
        if hasattr(self, '_m_null_bits_size'):
            return self._m_null_bits_size

        self._m_null_bits_size = (((self.arity + 63) + 8) // 64) * 8 - 1
        return getattr(self, '_m_null_bits_size', None)


