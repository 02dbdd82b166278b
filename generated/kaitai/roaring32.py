# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Roaring32(KaitaiStruct):
    """FORMATS.md 0. Used for inspection and cross-checks; embedded in other formats the Construct
    codecs treat a roaring bitmap as self-delimiting bulk bytes and the runtime decodes it with
    pyroaring.
    
    .. seealso::
       Source - https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md
    """

    class RoaringCookie(IntEnum):
        no_run = 12346
        run = 12347
    def __init__(self, _io, _parent=None, _root=None):
        super(Roaring32, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.cookie = self._io.read_u4le()
        _ = self.cookie
        if not  ((_ & 65535 == int(Roaring32.RoaringCookie.run)) or (_ == int(Roaring32.RoaringCookie.no_run))) :
            raise kaitaistruct.ValidationExprError(self.cookie, self._io, u"/seq/0")
        if (not (self.has_run_containers)):
            pass
            self.container_count = self._io.read_u4le()

        if self.has_run_containers:
            pass
            self.run_flags = self._io.read_bytes(self.run_flags_size)

        self.descriptive_header = []
        for i in range(self.num_containers):
            self.descriptive_header.append(Roaring32.ContainerHeader(self._io, self, self._root))

        if self.has_offsets:
            pass
            self.offsets = []
            for i in range(self.num_containers):
                self.offsets.append(self._io.read_u4le())


        self.containers = []
        for i in range(self.num_containers):
            self.containers.append(Roaring32.Container( ((self.has_run_containers) and (KaitaiStream.byte_array_index(self.run_flags, i >> 3) >> (i & 7) & 1 == 1)) , self.descriptive_header[i].cardinality_minus_1, self._io, self, self._root))



    def _fetch_instances(self):
        pass
        if (not (self.has_run_containers)):
            pass

        if self.has_run_containers:
            pass

        for i in range(len(self.descriptive_header)):
            pass
            self.descriptive_header[i]._fetch_instances()

        if self.has_offsets:
            pass
            for i in range(len(self.offsets)):
                pass


        for i in range(len(self.containers)):
            pass
            self.containers[i]._fetch_instances()


    class Container(KaitaiStruct):
        """one container - array, bitmap or run."""
        def __init__(self, is_run, cardinality_minus_1, _io, _parent=None, _root=None):
            super(Roaring32.Container, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_run = is_run
            self.cardinality_minus_1 = cardinality_minus_1
            self._read()

        def _read(self):
            if self.is_array:
                pass
                self.values = []
                for i in range(self.cardinality_minus_1 + 1):
                    self.values.append(self._io.read_u2le())


            if self.is_bitmap:
                pass
                self.bitmap = []
                for i in range(self.bitmap_words):
                    self.bitmap.append(self._io.read_u8le())


            if self.is_run:
                pass
                self.num_runs = self._io.read_u2le()

            if self.is_run:
                pass
                self.runs = []
                for i in range(self.num_runs):
                    self.runs.append(Roaring32.Run(self._io, self, self._root))




        def _fetch_instances(self):
            pass
            if self.is_array:
                pass
                for i in range(len(self.values)):
                    pass


            if self.is_bitmap:
                pass
                for i in range(len(self.bitmap)):
                    pass


            if self.is_run:
                pass

            if self.is_run:
                pass
                for i in range(len(self.runs)):
                    pass
                    self.runs[i]._fetch_instances()



        @property
        def array_max_cardinality(self):
            """most values an array container holds (a container without runs holding more is a bitmap)."""
            if hasattr(self, '_m_array_max_cardinality'):
                return self._m_array_max_cardinality

            self._m_array_max_cardinality = 4096
            return getattr(self, '_m_array_max_cardinality', None)

        @property
        def bitmap_words(self):
            """words of a bitmap container."""
            if hasattr(self, '_m_bitmap_words'):
                return self._m_bitmap_words

            self._m_bitmap_words = 1024
            return getattr(self, '_m_bitmap_words', None)

        @property
        def is_array(self):
            """an array container (sorted values)."""
            if hasattr(self, '_m_is_array'):
                return self._m_is_array

            self._m_is_array =  (((not (self.is_run))) and (self.cardinality_minus_1 < self.array_max_cardinality)) 
            return getattr(self, '_m_is_array', None)

        @property
        def is_bitmap(self):
            """a bitmap container (one bit per low-16-bit value)."""
            if hasattr(self, '_m_is_bitmap'):
                return self._m_is_bitmap

            self._m_is_bitmap =  (((not (self.is_run))) and (self.cardinality_minus_1 >= self.array_max_cardinality)) 
            return getattr(self, '_m_is_bitmap', None)


    class ContainerHeader(KaitaiStruct):
        """key and cardinality of one container."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.ContainerHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.key = self._io.read_u2le()
            self.cardinality_minus_1 = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    class Run(KaitaiStruct):
        """one run of consecutive values."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Roaring32.Run, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.start = self._io.read_u2le()
            self.length_minus_1 = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    @property
    def has_offsets(self):
        """the offset header is present (always without run containers; with them from four containers on)."""
        if hasattr(self, '_m_has_offsets'):
            return self._m_has_offsets

        self._m_has_offsets =  (((not (self.has_run_containers))) or (self.num_containers >= 4)) 
        return getattr(self, '_m_has_offsets', None)

    @property
    def has_run_containers(self):
        """the cookie is a run cookie (its high 16 bits count the containers; run flags follow it)."""
        if hasattr(self, '_m_has_run_containers'):
            return self._m_has_run_containers

        self._m_has_run_containers = self.cookie & 65535 == int(Roaring32.RoaringCookie.run)
        return getattr(self, '_m_has_run_containers', None)

    @property
    def num_containers(self):
        """number of containers."""
        if hasattr(self, '_m_num_containers'):
            return self._m_num_containers

        self._m_num_containers = ((self.cookie >> 16) + 1 if self.has_run_containers else self.container_count)
        return getattr(self, '_m_num_containers', None)

    @property
    def run_flags_size(self):
        """bytes of run flags (one bit per container)."""
        if hasattr(self, '_m_run_flags_size'):
            return self._m_run_flags_size

        self._m_run_flags_size = (self.num_containers + 7) // 8
        return getattr(self, '_m_run_flags_size', None)


