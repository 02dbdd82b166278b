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
        if self.cookie & 65535 != int(Roaring32.RoaringCookie.run):
            pass
            self.container_count = self._io.read_u4le()

        if self.cookie & 65535 == int(Roaring32.RoaringCookie.run):
            pass
            self.run_flags = self._io.read_bytes((((self.cookie >> 16) + 1) + 7) // 8)

        self.descriptive_header = []
        for i in range(self.num_containers):
            self.descriptive_header.append(Roaring32.ContainerHeader(self._io, self, self._root))

        if  ((self.cookie & 65535 != int(Roaring32.RoaringCookie.run)) or (self.num_containers >= 4)) :
            pass
            self.offsets = []
            for i in range(self.num_containers):
                self.offsets.append(self._io.read_u4le())


        self.containers = []
        for i in range(self.num_containers):
            self.containers.append(Roaring32.Container(i, self._io, self, self._root))



    def _fetch_instances(self):
        pass
        if self.cookie & 65535 != int(Roaring32.RoaringCookie.run):
            pass

        if self.cookie & 65535 == int(Roaring32.RoaringCookie.run):
            pass

        for i in range(len(self.descriptive_header)):
            pass
            self.descriptive_header[i]._fetch_instances()

        if  ((self.cookie & 65535 != int(Roaring32.RoaringCookie.run)) or (self.num_containers >= 4)) :
            pass
            for i in range(len(self.offsets)):
                pass


        for i in range(len(self.containers)):
            pass
            self.containers[i]._fetch_instances()


    class Container(KaitaiStruct):
        """one container - array, bitmap or run."""
        def __init__(self, idx, _io, _parent=None, _root=None):
            super(Roaring32.Container, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self._read()

        def _read(self):
            if  (((not ( ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) ))) and (self._parent.descriptive_header[self.idx].cardinality_minus_1 < 4096)) :
                pass
                self.values = []
                for i in range(self._parent.descriptive_header[self.idx].cardinality_minus_1 + 1):
                    self.values.append(self._io.read_u2le())


            if  (((not ( ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) ))) and (self._parent.descriptive_header[self.idx].cardinality_minus_1 >= 4096)) :
                pass
                self.bitmap = []
                for i in range(1024):
                    self.bitmap.append(self._io.read_u8le())


            if  ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) :
                pass
                self.num_runs = self._io.read_u2le()

            if  ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) :
                pass
                self.runs = []
                for i in range(self.num_runs):
                    self.runs.append(Roaring32.Run(self._io, self, self._root))




        def _fetch_instances(self):
            pass
            if  (((not ( ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) ))) and (self._parent.descriptive_header[self.idx].cardinality_minus_1 < 4096)) :
                pass
                for i in range(len(self.values)):
                    pass


            if  (((not ( ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) ))) and (self._parent.descriptive_header[self.idx].cardinality_minus_1 >= 4096)) :
                pass
                for i in range(len(self.bitmap)):
                    pass


            if  ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) :
                pass

            if  ((self.cookie_runs) and (KaitaiStream.byte_array_index(self._parent.run_flags, self.idx >> 3) >> (self.idx & 7) & 1 == 1)) :
                pass
                for i in range(len(self.runs)):
                    pass
                    self.runs[i]._fetch_instances()



        @property
        def cookie_runs(self):
            """whether the bitmap has run containers."""
            if hasattr(self, '_m_cookie_runs'):
                return self._m_cookie_runs

            self._m_cookie_runs = self._parent.cookie & 65535 == int(Roaring32.RoaringCookie.run)
            return getattr(self, '_m_cookie_runs', None)


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
    def num_containers(self):
        """number of containers."""
        if hasattr(self, '_m_num_containers'):
            return self._m_num_containers

        self._m_num_containers = ((self.cookie >> 16) + 1 if self.cookie & 65535 == int(Roaring32.RoaringCookie.run) else self.container_count)
        return getattr(self, '_m_num_containers', None)


