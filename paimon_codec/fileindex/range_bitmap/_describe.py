"""The range-bitmap reader's structure views: ``verify`` (every structure decoded and checked, for audits)
and ``describe`` (the decoded structure in the golden sidecars' shape, for ``inspect`` and tests).  A mixin of
:class:`~.reader.RangeBitmapReader`, apart from the lookups so that each module stays one idea."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...generated.construct import range_bitmap as _codec
from ._layout import _DICT_HEADER_LENGTH, VERSION


class RangeBitmapDescribe:
    """Mixed into the reader, which provides the header fields, the dictionary and the BSI head."""

    # what the reader provides, declared for the type checker only (a stub here would shadow the reader's
    # own methods, the mixin stands last among its bases all the same)
    if TYPE_CHECKING:
        _directory: Any
        _bsi_head: Any
        _dict_src: Any
        _ebm: Any
        codec: Any
        header_length: int
        row_count: int
        cardinality: int
        min_key: Any
        max_key: Any
        dictionary_offset: int
        dictionary_length: int
        bsi_offset: int

        @property
        def slice_count(self) -> int: ...
        def _slice(self, i: int) -> Any: ...
        def _length_prefix(self, src: Any, what: str) -> int: ...
        def row_codes(self) -> Any: ...
        def keys_by_code(self) -> Any: ...

    def verify(self) -> None:
        """Decode every structure - header, dictionary (every chunk's keys), EBM and every slice, each checked
        against the row count - with no per-row output: what an audit needs, in work proportional to the
        bytes present (a 160-byte file declaring 2**31 rows costs what its bytes hold, not 2**31 codes)."""
        self.describe(row_codes=False)
        _ = self._ebm
        for i in range(self.slice_count):
            self._slice(i)

    def describe(self, row_codes: bool = True) -> dict:
        """Decoded structure in the shape of the golden sidecars' ``expected_meta`` (``row_codes``: one code
        per row, as the sidecars list them - an output as large as the row count)."""
        firsts, chunks, keys_base = self._directory
        slices, ebm_len, index, body, _ = self._bsi_head
        is_str = self.codec.is_string
        kv = self.codec.key_value
        headers = []
        for c in chunks:
            h = {"class": "VariableLengthChunk" if is_str else "FixedLengthChunk", "key": kv(c.first),
                 "code": c.code, "keys_offset": c.keys_offset, "size": c.size}
            if is_str:
                h.update(offsets_length=c.offsets_length, keys_length=c.keys_length)
            else:
                h.update(keys_length=c.keys_length, fixed_length=self.codec.width)
            headers.append(h)
        d = self._dict_src
        dhl = self._length_prefix(d, "dictionary header length")
        hd, _ = _codec.fast_parse_dictionary_header(
            d.read(_codec.DICTIONARY_PREFIX_SIZE, _DICT_HEADER_LENGTH, "dictionary header"))
        count, offsets_length, chunks_length = hd["chunk_count"], hd["offsets_length"], hd["chunks_length"]
        codes = self.row_codes() if row_codes else None
        meta: dict[str, Any] = {
            "header_length": self.header_length, "version": VERSION, "row_count": self.row_count,
            "cardinality": self.cardinality,
            "min": None if self.min_key is None else kv(self.min_key),
            "max": None if self.max_key is None else kv(self.max_key),
            "dictionary_offset": self.dictionary_offset, "dictionary_length": self.dictionary_length,
            "bsi_offset": self.bsi_offset,
            "bsi": {"slices": slices, "ebm_length": ebm_len, "body_offset": self.bsi_offset + body,
                    "slice_offset_length": index.tolist(),
                    **({} if codes is None else {"row_codes": [None if c < 0 else c for c in codes.tolist()]})},
        }
        if self.cardinality > 0:
            meta["dictionary"] = {
                "chunks": count, "offsets_length": offsets_length, "chunks_length": chunks_length,
                "body_offset": self.dictionary_offset + _codec.DICTIONARY_PREFIX_SIZE + dhl, "chunk_headers": headers,
                "keys_by_code": [kv(k) for k in self.keys_by_code()]}
            if self.codec.is_float:
                digits = 2 * (self.codec.width or 0)
                mask = (1 << (4 * digits)) - 1
                meta["dictionary"]["keys_by_code_bits"] = [
                    format(int(k) & mask, f"0{digits}x") for k in self.keys_by_code()]
        return meta
