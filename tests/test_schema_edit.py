"""Edit one field of each schema in a temp copy, regenerate, and watch everything follow.

For every ``schemas/*.ksy`` a field or constant is changed in a copy of the repository's package and
schemas; ``tools/generate.py`` regenerates both codecs there (Construct and Kaitai), and a fresh
interpreter on that copy runs the unchanged semantic layer: what it writes carries the edit, the
Construct codec (``formats.decode``) and the Kaitai parser (``formats.parse_kaitai``) read it, and the
semantic reader gets the original data back.  No hand-written module is touched: a layout restated by
hand anywhere in ``paimon_codec/`` would keep the old bytes and fail here.

Which fields get edited is not left to taste: the last test reads (with ``ast``) every generated name a
hand-written module uses and regenerates the Construct codecs under each edit; a used name that no edit
changes fails it (a new use needs an edit whose probe shows the semantic layer following it).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]

_PRELUDE = """
import numpy as np, pyarrow as pa
from paimon_codec import formats as F
from paimon_codec.types import parse_row_type

def both(fmt, data, key_kind=None):
    F.get(fmt).decode(data, key_kind=key_kind)       # generated Construct codec
    F.get(fmt).parse_kaitai(data, key_kind=key_kind)  # generated Kaitai parser
"""

#: schema id -> (old text, new text, probe run on the regenerated copy)
EDITS: dict[str, tuple[str, str, str]] = {
    "file_index": (
        "contents: [0x00, 0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xae]",
        "contents: [0x00, 0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xaf]",
        """
        from paimon_codec.expressions import parse_where
        from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
        schema = parse_row_type("a INT")
        w = FileIndexWriter(schema, {"file-index.bitmap.columns": "a"})
        w.write_table(pa.table({"a": pa.array([1, 2, 1], pa.int32())}))
        data = w.serialize()
        assert data[:8] == bytes([0, 5, 0x4E, 0x4E, 0xD0, 0x1A, 0x35, 0xAF]), data[:8]
        assert F.detect(data) == "file-index"
        both("file-index", data)
        assert sorted(evaluate(parse_where("a = 1"), FileIndexContainerReader(data), schema).bitmap) == [0, 2]
        from paimon_codec.fileindex import container
        assert container.MAGIC == 1493475289347503, container.MAGIC   # the Java long follows the bytes
        assert FileIndexContainerReader(data).to_dict()["magic"] == 1493475289347503
        """),
    "bitmap_index": (
        "    2:\n      id: v2", "    3:\n      id: v2",
        """
        from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
        for t, vals, kind in (("INT", [1, 2, 1, None], "int32"), ("STRING", ["x", "y", "x", None], "string")):
            w = BitmapIndexWriter(t)
            w.write_array(vals)
            data = w.serialize()
            assert data[0] == 3, data[0]
            both("bitmap", data, key_kind=kind)
            r = BitmapIndexReader(data, t)
            assert sorted(r.lookup(vals[0])) == [0, 2] and sorted(r.null_bitmap()) == [3]
        """),
    "bloom_filter": (
        "  - id: num_hash_functions\n    -orig-id: numHashFunctions\n    type: s4",
        "  - id: num_hash_functions\n    -orig-id: numHashFunctions\n    type: s8",
        """
        from paimon_codec.fileindex.bloom import BloomFilterReader, BloomFilterWriter
        w = BloomFilterWriter("BIGINT", {"items": 100, "fpp": 0.01})
        w.write_array(pa.array(list(range(50)), pa.int64()))
        data = w.serialize()
        k = int.from_bytes(data[:8], "big")
        assert 1 <= k <= 30 and (len(data) - 8) % 8 == 0, (k, len(data))
        both("bloom-filter", data)
        r = BloomFilterReader(data, "BIGINT")
        assert all(r.might_contain(v) for v in range(50))
        """),
    "range_bitmap": (
        "  range_bitmap_version:\n    1:", "  range_bitmap_version:\n    2:",
        """
        from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
        w = RangeBitmapWriter("BIGINT")
        w.write_batch([5, None, 3, 5, 9])
        data = w.serialize()
        assert data[4] == 2, data[:8]
        both("range-bitmap", data, key_kind="int64")
        r = RangeBitmapReader(data, "BIGINT")
        assert sorted(r.visit_gte(5).bitmap) == [0, 3, 4] and sorted(r.visit_is_null().bitmap) == [1]
        """),
    "bsi": (
        "      - id: slice_count\n        -orig-id: slices.length\n        type: s4",
        "      - id: slice_count\n        -orig-id: slices.length\n        type: s8",
        """
        from paimon_codec.fileindex.bsi import BsiReader, BsiWriter
        w = BsiWriter("BIGINT")
        w.write_batch([5, None, -3, 0, 12, -3])
        data = w.serialize()
        both("bsi", data)
        r = BsiReader(data, "BIGINT")
        assert sorted(r.visit_equal(-3).bitmap) == [2, 5] and sorted(r.visit_gte(5).bitmap) == [0, 4]
        """),
    "deletion_vectors": (
        "  deletion_vectors_version:\n    1:", "  deletion_vectors_version:\n    7:",
        """
        from paimon_codec.dv import DeletionVector, encode_dv_files, read_dv_index
        dv = DeletionVector.from_array([1, 5, 9])
        (data, ranges), = encode_dv_files({"f.parquet": dv})
        assert data[0] == 7
        both("deletion-vectors", data)
        back = read_dv_index(data)
        assert back.version == 7 and back.entries[0].dv.to_array().tolist() == [1, 5, 9]
        """),
    "deletion_vector": (
        "    0x5e43f2d0:\n      id: bitmap32", "    0x5e43f2d1:\n      id: bitmap32",
        """
        from paimon_codec.dv import DeletionVector, encode_dv_files, read_dv_index
        dv = DeletionVector.from_array([1, 5, 9])
        bin_ = dv.serialize()
        assert bin_[:4] == bytes.fromhex("5e43f2d1"), bin_[:4]
        assert DeletionVector.deserialize(bin_).to_array().tolist() == [1, 5, 9]
        (data, ranges), = encode_dv_files({"f.parquet": dv})
        both("deletion-vectors", data)
        both("deletion-vector", data[1:])
        assert read_dv_index(data).entries[0].dv.to_array().tolist() == [1, 5, 9]
        """),
    "delete_map": (
        "      - id: start\n        type: s4", "      - id: start\n        type: s8",
        """
        from paimon_codec.dv import DeletionVector, encode_delete_map, read_delete_map
        dvs = {"a.parquet": DeletionVector.from_array([1, 2]), "bb.parquet": DeletionVector.from_array([7])}
        data, where = encode_delete_map(dvs)
        both("delete-map", data)
        back = read_delete_map(data)
        assert {k: v.to_array().tolist() for k, v in back.items()} == {"a.parquet": [1, 2], "bb.parquet": [7]}
        assert len(data) == 8 + 2 * (len("bb.parquet") + 12) + sum(s for _, s in where.values())
        """),
    "hash_index": (
        "  - id: hashes\n    type: s4", "  - id: hashes\n    type: s8",
        """
        from paimon_codec.bucket.hash_index import encode_hash_index, read_hash_index
        data = encode_hash_index([3, -1, 2**31 - 1])
        assert len(data) == 24, len(data)
        both("hash-index", data)
        assert read_hash_index(data).tolist() == [3, -1, 2**31 - 1]
        """),
    "paimon_key": (
        "      - id: len\n        type: s4", "      - id: len\n        type: s2",
        """
        from paimon_codec.generated.construct import paimon_key
        from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
        assert paimon_key.fast_build_paimon_key(b"ab", kind="string") == b"\\x00\\x02ab"
        for version in ("1", "2"):
            w = BitmapIndexWriter("STRING", {"version": version})
            w.write_array(["ab", "c", "ab"])
            data = w.serialize()
            both("bitmap", data, key_kind="string")
            r = BitmapIndexReader(data, "STRING")
            assert sorted(r.lookup("ab")) == [0, 2] and sorted(r.lookup("c")) == [1]
            assert r.describe()["non_null_bitmap_number"] == 2
        from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
        w = RangeBitmapWriter("STRING")
        w.write_batch(["pear", None, "apple", "pear"])
        data = w.serialize()
        both("range-bitmap", data, key_kind="string")
        r = RangeBitmapReader(data, "STRING")
        assert sorted(r.visit_equal("pear").bitmap) == [0, 3] and sorted(r.visit_lt("b").bitmap) == [2]
        assert r.min_key == b"apple" and r.max_key == b"pear"
        """),
    "roaring32": (
        "    12347:\n      id: run", "    12349:\n      id: run",  # the run cookie's value
        """
        from paimon_codec import codec_runtime, roaring
        from paimon_codec.generated.construct import roaring32
        assert roaring32.ROARING_COOKIE_RUN == 12349
        data = (12349).to_bytes(2, "little") + SAMPLE[2:]  # pyroaring's bytes with the edited run cookie
        assert roaring32.Roaring32.build(roaring32.Roaring32.parse(data)) == data
        assert codec_runtime.roaring32_size(data + b"junk") == len(data) == roaring.portable_size(data + b"junk")
        F.get("roaring32").parse_kaitai(data)
        """),
    "roaring64": (
        "  - id: bucket_count\n    type: u8", "  - id: bucket_count\n    type: u4",
        """
        # no semantic layer owns Roaring64 portable bytes (Paimon's 64-bit DVs frame their buckets with
        # deletion_vector.ksy); the two codecs and the format registry follow
        from pyroaring import BitMap
        from paimon_codec.generated.construct import roaring64
        low = BitMap([1, 5]).serialize()
        data = roaring64.Roaring64.build({"buckets": [{"key": 0, "bitmap": low}, {"key": 2, "bitmap": low}]})
        assert data[:4] == (2).to_bytes(4, "little") and len(data) == 4 + 2 * (4 + len(low)), data[:8]
        both("roaring64", data)
        assert F.parse(data, fmt="roaring64")["bucket_count"] == 2
        """),
    "btree_global_index": (
        "contents: [0x49, 0x54, 0x42, 0x50]", "contents: [0x49, 0x54, 0x42, 0x51]",
        """
        # no writer of ours: the file is built from the generated codecs, read by the semantic reader
        import zlib
        import numpy as np
        from paimon_codec.fileio import ByteSource
        from paimon_codec.generated.construct import btree_global_index as B
        from paimon_codec.generated.kaitai.btree_global_index import BtreeGlobalIndex as KaitaiBtree
        from paimon_codec.globalindex.btree import BTreeGlobalIndexReader
        from paimon_codec.globalindex.keys import global_key_codec
        codec = global_key_codec("INT")
        def block(entries):
            body = b"".join(entries)
            offs = np.cumsum([0] + [len(e) for e in entries[:-1]]).astype(B.ENTRY_OFFSET_DTYPE["offset"])
            return body + offs.tobytes() + B.BlockTail.build({"record_size_or_count": len(entries), "aligned_type": 1})
        def stored(b):
            return b + B.BlockTrailer.build({"compression": 0, "crc32": zlib.crc32(b + b"\\0")})
        data_block = block([B.Entry.build({"key": codec.encode(k), "value": B.RowIds.build({"row_ids": rows})})
                            for k, rows in ((1, [0, 2]), (7, [1]))])
        index_block = block([B.Entry.build({"key": codec.encode(7),
                                            "value": B.BlockHandle.build({"offset": 0, "size": len(data_block)})})])
        head = stored(data_block)
        data = head + stored(index_block) + B.BtreeFooter.build({
            "bloom_filter_offset": 0, "bloom_filter_size": 0, "bloom_filter_expected_entries": 0,
            "index_block_offset": len(head), "index_block_size": len(index_block), "null_bitmap_offset": 0,
            "null_bitmap_size": 0, "version": 1})
        assert data[-4:] == b"ITBQ", data[-4:]
        assert KaitaiBtree.from_bytes(data).footer.index_block_offset == len(head)
        r = BTreeGlobalIndexReader(ByteSource(data), codec)
        assert sorted(r.equal(1)) == [0, 2] and sorted(r.range(2, True, None, True)) == [1]
        """),
    "bitmap_global_index": (
        "contents: BGIX", "contents: BGIY",
        """
        import zlib
        from pyroaring import BitMap64
        from paimon_codec.fileio import ByteSource
        from paimon_codec.generated.construct import bitmap_global_index as G
        from paimon_codec.generated.construct import btree_global_index as B
        from paimon_codec.generated.kaitai.bitmap_global_index import BitmapGlobalIndex as KaitaiBitmap
        from paimon_codec.globalindex.bitmap import BitmapGlobalIndexReader
        from paimon_codec.globalindex.keys import global_key_codec
        codec = global_key_codec("STRING")
        def stored(b):
            return b + B.BlockTrailer.build({"compression": 0, "crc32": zlib.crc32(b + b"\\0")})
        nulls, nonnull, rows_x = BitMap64([1]).serialize(), BitMap64([0, 2]).serialize(), BitMap64([0, 2]).serialize()
        out = nulls + nonnull + rows_x
        dictionary = G.DictionaryBlock.build({"entries": [{"key": b"x", "bitmap_offset": len(nulls + nonnull),
                                                           "bitmap_length": len(rows_x)}]})
        dict_at = len(out)
        out += stored(dictionary)
        index = G.IndexBlock.build({"blocks": [{"first_key": b"x", "offset": dict_at, "length": len(dictionary)}]})
        index_at = len(out)
        out += stored(index)
        data = out + G.BitmapFooter.build({
            "null_rows_offset": 0, "null_rows_length": len(nulls), "non_null_rows_offset": len(nulls),
            "non_null_rows_length": len(nonnull), "index_block_offset": index_at, "index_block_length": len(index),
            "value_count": 1, "version": 1})
        assert data[-4:] == b"BGIY", data[-4:]
        assert KaitaiBitmap.from_bytes(data).footer.value_count == 1
        r = BitmapGlobalIndexReader(ByteSource(data), codec)
        assert sorted(r.equal("x")) == [0, 2] and sorted(r.null_rows()) == [1] and not r.equal("y")
        """),
    "sorted_index_file_meta": (
        "    1:\n      id: with_null_flags", "    2:\n      id: with_null_flags",
        """
        from paimon_codec.generated.construct import sorted_index_file_meta as M
        from paimon_codec.generated.kaitai.sorted_index_file_meta import SortedIndexFileMeta as KaitaiMeta
        from paimon_codec.globalindex.meta import read_sorted_meta
        # the optional tail (present when bytes remain) is appended: the codec builds the Java 1.4.2 form
        data = M.SortedIndexFileMeta.build({"first_key_length": 0, "first_key": b"", "last_key_length": 1,
                                            "last_key": b"z", "has_nulls": 1})
        data += bytes([M.SORTED_INDEX_FILE_META_VERSION_WITH_NULL_FLAGS, M.NULL_KEY_FLAG_FIRST_KEY_IS_NULL])
        assert data[-2] == 2, data
        assert KaitaiMeta.from_bytes(data).format_version == 2
        m = read_sorted_meta(data)
        assert m.first_key is None and m.last_key == b"z" and m.has_nulls
        """),
    "btree_global_index_key": (
        "        '\"int32\"': s4", "        '\"int32\"': s8",
        """
        from paimon_codec.globalindex.keys import global_key_codec
        from paimon_codec.generated.kaitai.btree_global_index_key import BtreeGlobalIndexKey as KaitaiKey
        from kaitaistruct import KaitaiStream
        import io
        codec = global_key_codec("INT")
        raw = codec.encode(-5)
        assert len(raw) == 8 and codec.decode(raw) == -5, raw
        assert KaitaiKey("int32", KaitaiStream(io.BytesIO(raw))).value == -5
        """),
    "varint": (
        "  -min-size: 1\n", "  -min-size: 2\n",
        """
        # the Construct side is the runtime's VarUInt; the schema's -min-size bounds repeat counts
        from paimon_codec.generated.construct import btree_global_index as B
        from paimon_codec.generated.kaitai.varint import Varint as KaitaiVarint
        two = bytes([2, 0x81, 0x01])  # two row ids would need 4 bytes at 2 bytes each: refused
        try:
            B.RowIds.parse(bytes([2, 1, 3]))
        except Exception as e:
            assert "do not fit" in str(e), e
        else:
            raise AssertionError("a count the bytes cannot hold was accepted")
        assert KaitaiVarint.from_bytes(bytes([0x81, 0x01])).value == 129
        """),
    "blob_file": (
        "contents: [0xcf, 0x11, 0x4e, 0x58]", "contents: [0xcf, 0x11, 0x4e, 0x59]",
        """
        import tempfile, zlib, os
        from pyroaring import BitMap
        from paimon_codec.generated.construct import blob_file as B
        from paimon_codec.reading.blob_file import read_blobs
        assert B.BLOB_RECORD_MAGIC == bytes([0xCF, 0x11, 0x4E, 0x59]), B.BLOB_RECORD_MAGIC
        body = b"hello"
        n = len(B.BLOB_RECORD_MAGIC) + len(body) + 12
        # a record's data is sized by its stream (the record is cut out by the index), so the probe lays it out
        rec = B.BLOB_RECORD_MAGIC + body + n.to_bytes(8, "little")
        rec += (zlib.crc32(rec) & 0xFFFFFFFF).to_bytes(4, "little")
        assert bytes(B.BlobRecord.parse(rec)["data"]) == body
        index = B.BlobIndex.build({"entries": [2 * n]})  # ZigZag of n, one varint byte
        data = bytes(rec) + index + B.BlobFooter.build({"index_length": len(index), "version": 1})
        path = os.path.join(tempfile.mkdtemp(), "x.blob")
        open(path, "wb").write(data)
        assert read_blobs(path, BitMap([0])).to_pylist() == [body]
        """),
    "blob_descriptor": (
        "contents: [0x43, 0x53, 0x45, 0x44, 0x42, 0x4f, 0x4c, 0x42]",
        "contents: [0x43, 0x53, 0x45, 0x44, 0x42, 0x4f, 0x4c, 0x43]",
        """
        from paimon_codec.reading.blob_file import blob_descriptor, parse_blob_descriptor
        d = blob_descriptor("file:/t/x.blob", 4, 5)
        assert d[1:9] == bytes([0x43, 0x53, 0x45, 0x44, 0x42, 0x4F, 0x4C, 0x43]), d[1:9]
        assert parse_blob_descriptor(d) == ("file:/t/x.blob", 4, 5)
        """),
    "puffin": (
        "    contents: PFA1\n", "    contents: PFA2\n",
        """
        from paimon_codec.dv import DeletionVector, encode_puffin, read_puffin
        data, blobs = encode_puffin({"f.parquet": DeletionVector.from_array([3, 4])})
        assert data[:4] == b"PFA2" and data[-4:] == b"PFA2", (data[:4], data[-4:])
        from paimon_codec.generated.construct.puffin import Puffin
        from paimon_codec.generated.kaitai.puffin import Puffin as KaitaiPuffin
        Puffin.parse(data)
        KaitaiPuffin.from_bytes(data).footer
        back = read_puffin(data)
        assert back[0].referenced_data_file == "f.parquet" and back[0].dv.to_array().tolist() == [3, 4]
        """),
}


def _behind_next(sid: str, *at_names: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The (old, new) texts of an edit moving each field marked ``-at-name: NAME`` of schema ``sid`` one place
    down, behind the field that follows it (both field blocks swapped)."""
    text = (REPO / "schemas" / f"{sid}.ksy").read_text()
    olds, news = [], []
    for name in at_names:
        mark = text.index(f"-at-name: {name}\n")
        start = text.rindex("- id: ", 0, mark)
        start = text.rindex("\n", 0, start) + 1
        indent = text[start:text.index("- id: ", start)]
        mid = text.index(f"\n{indent}- id: ", mark) + 1
        # the next field, or the first line indented less than a field's keys (the sequence's end)
        nxt = re.compile(rf"\n({re.escape(indent)}- id: | {{0,{len(indent) + 1}}}[^ \n-])").search(text, mid)
        end = nxt.start() + 1 if nxt else len(text)
        olds.append(text[start:end])
        news.append(text[mid:end] + text[start:mid])
    return tuple(olds), tuple(news)


#: More edits, of fields that semantic modules take from the generated codecs instead of restating them:
#: ``(name, schema id, old text, new text, probe)``.
FIELD_EDITS: list[tuple[str, str, Any, Any, str]] = [
    ("binary_row:null_bits_size", "binary_row",
     "value: ((arity + 63 + 8) / 64) * 8 - 1", "value: ((arity + 63 + 8) / 64) * 16 - 1",
     """
     import decimal
     from paimon_codec.binary_row import BinaryRowCodec, serialize_binary_row, decode_serialized_row
     from paimon_codec.bucket import KeyEncoder
     from paimon_codec.generated.construct.serialized_binary_row import SerializedBinaryRow
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     types, row = ["INT", "STRING", "STRING"], [7, "ab", "hello world!"]
     data = serialize_binary_row(types, row)
     assert len(data) == 4 + 16 + 3 * 8 + 16, len(data)     # the header is two words now
     assert data[4 + 16] == 7 and data[4 + 16 + 8 + 7] == 0x82, data.hex()
     assert decode_serialized_row(data, types) == tuple(row)
     assert K.from_bytes(data).row.fixed_size == 40 and SerializedBinaryRow.parse(data)["row"]["slots"][0] == 7
     cols = BinaryRowCodec("INT, BIGINT").encode_columns([np.array([1, 2]), np.array([3, 4])],
                                                          [np.array([False, True]), None])
     assert cols.shape == (2, 32) and cols[1, 1] == 1 and cols[0, 16] == 1, cols
     assert KeyEncoder("INT, BIGINT").hash_columns([np.array([1]), np.array([3])])[0] == \
         KeyEncoder("INT, BIGINT").hash([1, 3])
     """),
    ("binary_row:wide_decimal", "binary_row",
     "    16:\n      id: decimal", "    24:\n      id: decimal",
     """
     import decimal
     from paimon_codec.binary_row import serialize_binary_row, decode_serialized_row
     types = ["DECIMAL(30, 2)", "DECIMAL(30, 2)"]
     data = serialize_binary_row(types, [decimal.Decimal("12.34"), None])
     assert len(data) == 4 + 8 + 16 + 24 + 24, len(data)   # each wide decimal reserves 24 bytes
     assert decode_serialized_row(data, types) == (decimal.Decimal("12.34"), None)
     """),
    ("serialized_binary_row:arity", "serialized_binary_row",
     "      - id: arity\n        type: s4", "      - id: arity\n        type: s8",
     """
     from paimon_codec.binary_row import serialize_binary_row, decode_serialized_row
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     data = serialize_binary_row(["INT"], [5])
     assert data[:8] == (1).to_bytes(8, "big") and len(data) == 8 + 16, data.hex()
     assert decode_serialized_row(data, ["INT"]) == (5,)
     assert K.from_bytes(data).head.arity == 1
     """),
    ("deletion_vector:size", "deletion_vector",
     "  - id: size\n    -orig-id: size\n    type: s4", "  - id: size\n    -orig-id: size\n    type: s8",
     """
     from paimon_codec.dv import DeletionVector, encode_dv_files, read_dv_index
     from paimon_codec.dv.index_file import read_deletion_vector
     for dv in (DeletionVector.from_array([1, 5, 9]), DeletionVector([1, 2**33], bitmap64=True)):
         (data, ranges), = encode_dv_files({"f.parquet": dv})
         r = ranges[0]
         assert r.offset == 1 and data[1:9] == (len(data) - 13).to_bytes(8, "big"), data[:12].hex()
         both("deletion-vectors", data)
         assert read_dv_index(data).entries[0].dv == dv
         assert read_deletion_vector(data, r.offset, r.length) == dv
     """),
    ("paimon_key:byte_order", "paimon_key",
     "  endian: be\n", "  endian: le\n",
     """
     import math
     from paimon_codec.generated.construct import paimon_key
     from paimon_codec.fileindex.keys import KeyCodec
     from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
     from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
     assert paimon_key.KEY_STRUCTS["int32"].pack(70000) == (70000).to_bytes(4, "little")
     f = KeyCodec("FLOAT", index="range-bitmap")
     assert f.map_value(1.5) == 0x3FC00000 and f.to_python(0x3FC00000) == 1.5      # IEEE bits, not bytes
     assert f.scalar(-0.0) == 0x80000000 and f.key_value(0x80000000) == 0.0
     assert KeyCodec("DOUBLE").map_value(-2.0) == -(1 << 62)  # 0xc000000000000000 as a long
     cases = [("INT", [5, -3, 5, None, 70000], 70000, (70000).to_bytes(4, "little")),
              ("BIGINT", [2**40, -1, 2**40], 2**40, (2**40).to_bytes(8, "little")),
              ("FLOAT", [1.5, -0.0, float("nan"), 0.25], 1.5, bytes.fromhex("0000c03f")),
              ("DOUBLE", [1.5, -2.0, 7.0], -2.0, bytes.fromhex("00000000000000c0"))]
     for ty, rows, lit, stored in cases:
         kind = KeyCodec(ty).kind
         w = RangeBitmapWriter(ty)
         w.write_batch(rows)
         data = w.serialize()
         assert stored in data, (ty, data.hex())              # the keys are stored little-endian now
         both("range-bitmap", data, key_kind=kind)
         r = RangeBitmapReader(data, ty)
         assert sorted(r.visit_equal(lit).bitmap) == [i for i, v in enumerate(rows) if v == lit], ty
         lo = min(v for v in rows if v is not None and not (isinstance(v, float) and math.isnan(v)))
         assert sorted(r.visit_lte(lo).bitmap) == [i for i, v in enumerate(rows) if v == lo], ty
         for version in ("1", "2"):
             bw = BitmapIndexWriter(ty, {"version": version})
             bw.write_array(rows)
             bdata = bw.serialize()
             assert stored in bdata, (ty, version, bdata.hex())
             both("bitmap", bdata, key_kind=kind)
             assert sorted(BitmapIndexReader(bdata, ty).lookup(lit)) == [i for i, v in enumerate(rows) if v == lit]
     """),
    ("range_bitmap:variable_chunk_key_offsets", "range_bitmap",
     "      - id: key_offsets\n        type: s4\n", "      - id: key_offsets\n        type: s8\n",
     """
     from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
     words = [f"w{i:03d}" for i in range(40)]
     w = RangeBitmapWriter("STRING", {"chunk-size": "64b"})
     w.write_batch(words + [None])
     data = w.serialize()
     d = RangeBitmapReader(data, "STRING").describe()["dictionary"]
     heads = d["chunk_headers"]
     assert len(heads) > 1 and any(h["size"] for h in heads), heads
     assert all(h["offsets_length"] == 8 * h["size"] for h in heads), heads   # 8 bytes per key offset now
     both("range-bitmap", data, key_kind="string")
     r = RangeBitmapReader(data, "STRING")
     assert sorted(r.visit_equal("w017").bitmap) == [17] and sorted(r.visit_lt("w003").bitmap) == [0, 1, 2]
     assert sorted(r.visit_in(["w039", "w020", "zz"]).bitmap) == [20, 39]
     """),
    ("blob_file:footer_version", "blob_file",
     "        -orig-id: VERSION\n        type: u1", "        -orig-id: VERSION\n        type: u2",
     """
     import tempfile, zlib, os
     from pyroaring import BitMap
     from paimon_codec.generated.construct import blob_file as B
     from paimon_codec.reading.blob_file import read_blobs
     assert B.BLOB_FOOTER_SIZE == 6, B.BLOB_FOOTER_SIZE
     body = b"hello"
     n = len(B.BLOB_RECORD_MAGIC) + len(body) + B.BLOB_RECORD_TAIL_SIZE
     rec = B.BLOB_RECORD_MAGIC + body + n.to_bytes(8, "little")
     rec += (zlib.crc32(rec) & 0xFFFFFFFF).to_bytes(4, "little")
     index = B.BlobIndex.build({"entries": [2 * n]})
     data = bytes(rec) + index + B.BlobFooter.build({"index_length": len(index), "version": 1})
     assert data[-2:] == bytes([0, 1]) or data[-2:] == bytes([1, 0]), data[-6:].hex()
     path = os.path.join(tempfile.mkdtemp(), "x.blob")
     open(path, "wb").write(data)
     assert read_blobs(path, BitMap([0])).to_pylist() == [body]   # the reader finds the 6-byte footer
     """),
    ("range_bitmap:every_int_wider", "range_bitmap",
     # every s4 of the payload (lengths, counts, offsets, codes) an s8, every version 2 and two bytes wide (the
     # readers find a version to refuse a newer one through RANGE_BITMAP_VERSION_AT / _DTYPE and the like)
     # (and the -build of the offsets' and the slice refs' lengths with them)
     ("    type: s4\n", "    1:\n      id: v1\n", "4 * this['chunk_count']", "8 * len(this['slice_refs'])",
      "-orig-id: version\n        type: u1\n"),
     ("    type: s8\n", "    2:\n      id: v1\n", "8 * this['chunk_count']", "16 * len(this['slice_refs'])",
      "-orig-id: version\n        type: u2\n"),
     """
     from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
     from paimon_codec.generated.construct import range_bitmap as RB
     assert RB.RANGE_BITMAP_VERSION_V1 == 2 and RB.RANGE_BITMAP_PREFIX_SIZE == 8, RB.RANGE_BITMAP_PREFIX_SIZE
     assert RB.RANGE_BITMAP_VERSION_DTYPE.itemsize == RB.DICTIONARY_VERSION_DTYPE.itemsize == 2
     for ty, rows, opts in (("BIGINT", [5, None, 3, 5, 9, -2**40], {}),
                            ("INT", [7, 1, None, 7, 3], {}),
                            ("STRING", [f"w{i:03d}" for i in range(40)] + [None], {"chunk-size": "64b"})):
         w = RangeBitmapWriter(ty, opts)
         w.write_batch(rows)
         data = w.serialize()
         assert int.from_bytes(data[:8], "big") > 0 and data[8:10] == b"\\0\\2", data[:12].hex()
         both("range-bitmap", data, key_kind={"BIGINT": "int64", "INT": "int32", "STRING": "string"}[ty])
         r = RangeBitmapReader(data, ty)
         d = r.describe()
         assert d is not None
         vals = [v for v in rows if v is not None]
         for lit in (min(vals), max(vals), sorted(vals)[len(vals) // 2]):
             assert sorted(r.visit_equal(lit).bitmap) == [i for i, v in enumerate(rows) if v == lit], (ty, lit)
             assert sorted(r.visit_lt(lit).bitmap) == [i for i, v in enumerate(rows) if v is not None and v < lit]
             assert sorted(r.visit_gte(lit).bitmap) == [i for i, v in enumerate(rows) if v is not None and v >= lit]
         assert sorted(r.visit_is_null().bitmap) == [i for i, v in enumerate(rows) if v is None]
     from paimon_codec.errors import UnsupportedVersionError
     try:  # a newer (two-byte) version is refused as unsupported, not misread as corrupt
         RangeBitmapReader(data[:8] + b"\\0\\3" + data[10:], ty).visit_is_null()
         raise AssertionError("version 3 was read")
     except UnsupportedVersionError:
         pass
     """),
]


_RB_MOVED = _behind_next("range_bitmap", "RANGE_BITMAP_VERSION_AT", "DICTIONARY_VERSION_AT", "BSI_HEADER_VERSION_AT")
_BSI_MOVED = _behind_next("bsi", "BSI_VERSION_AT")
FIELD_EDITS += [
    ("range_bitmap:versions_moved", "range_bitmap",
     # each of the three versions behind the field after it (the header's counts head then starts at row_count):
     # a reader taking a version from its header's first byte reads a count instead
     _RB_MOVED[0] + ("range_bitmap_header_counts: [version, cardinality]",),
     _RB_MOVED[1] + ("range_bitmap_header_counts: [row_count, cardinality]",),
     """
     from paimon_codec.errors import UnsupportedVersionError
     from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
     from paimon_codec.generated.construct import range_bitmap as RB
     assert (RB.RANGE_BITMAP_VERSION_AT, RB.DICTIONARY_VERSION_AT, RB.BSI_HEADER_VERSION_AT) == (4, 4, 1)
     for ty, rows, kind in (("BIGINT", [5, None, 3, 5, 9], "int64"),
                            ("STRING", ["pear", None, "apple", "pear"], "string")):
         w = RangeBitmapWriter(ty)
         w.write_batch(rows)
         data = w.serialize()
         both("range-bitmap", data, key_kind=kind)
         r = RangeBitmapReader(data, ty)
         vals = sorted(v for v in rows if v is not None)
         for lit in (vals[0], vals[-1]):
             assert sorted(r.visit_equal(lit).bitmap) == [i for i, v in enumerate(rows) if v == lit], (ty, lit)
         assert sorted(r.visit_is_null().bitmap) == [1]
         for what, at in (("range-bitmap", RB.RANGE_BITMAP_PREFIX_SIZE + RB.RANGE_BITMAP_VERSION_AT),
                          ("dictionary", r.dictionary_offset + RB.DICTIONARY_PREFIX_SIZE + RB.DICTIONARY_VERSION_AT),
                          ("bsi", r.bsi_offset + RB.BIT_SLICED_INDEX_PREFIX_SIZE + RB.BSI_HEADER_VERSION_AT)):
             assert data[at] == 1, (what, data[at])
             try:  # refused by the reader's own version check (its message), where the version now is
                 RangeBitmapReader(data[:at] + b"\\2" + data[at + 1:], ty).visit_equal(vals[0])
                 raise AssertionError(f"{what} version 2 was read")
             except UnsupportedVersionError as e:
                 assert f"{what} version 2" in str(e), (what, str(e))
     """),
    ("bsi:version_moved_numbers_wider", "bsi",
     # the payload's version behind the row count, every one-byte field (versions, sign flags) two bytes wide,
     # both versions 2
     _BSI_MOVED[0] + ("type: u1\n", "    1:\n      id: v1\n"),
     _BSI_MOVED[1] + ("type: u2\n", "    2:\n      id: v1\n"),
     """
     from paimon_codec.errors import UnsupportedVersionError
     from paimon_codec.fileindex.bsi import BsiReader, BsiWriter
     from paimon_codec.generated.construct import bsi as G
     assert G.BSI_VERSION_AT == 4 and G.BSI_VERSION_DTYPE.itemsize == 2
     assert G.BSI_VERSION_V1 == G.BSI_PART_VERSION_V1 == 2
     rows = [5, None, -3, 0, 12, -3, -7]
     w = BsiWriter("BIGINT")
     w.write_batch(rows)
     data = w.serialize()
     assert data[4:6] == b"\\0\\2", data[:8].hex()
     both("bsi", data)
     r = BsiReader(data, "BIGINT")
     for lit in (-7, -3, 0, 5, 12):
         assert sorted(r.visit_equal(lit).bitmap) == [i for i, v in enumerate(rows) if v == lit], lit
         assert sorted(r.visit_gte(lit).bitmap) == [i for i, v in enumerate(rows) if v is not None and v >= lit]
         assert sorted(r.visit_lt(lit).bitmap) == [i for i, v in enumerate(rows) if v is not None and v < lit]
     try:
         BsiReader(data[:4] + b"\\0\\3" + data[6:], "BIGINT")
         raise AssertionError("bsi version 3 was read")
     except UnsupportedVersionError as e:
         assert "bsi version 3" in str(e), str(e)
     """),
]


FIELD_EDITS.append(
    ("btree_global_index:numbers_wider_renumbered", "btree_global_index",
     # every u4 (footer sizes and version, CRCs, block tails, entry offsets) a u8, every u1 (compression, aligned
     # type) a u2, both enums renumbered: the trailer's CRC then covers two compression bytes, the null bitmap's
     # CRC is eight bytes, a block's tail nine
     ("type: u4\n", "type: u1\n", "    0: none\n    1: zstd\n    2: lz4\n    3: lzo\n",
      "    0: aligned\n    1: unaligned\n"),
     ("type: u8\n", "type: u2\n", "    4: none\n    5: zstd\n    6: lz4\n    7: lzo\n",
      "    2: aligned\n    3: unaligned\n"),
     """
     import zlib
     import numpy as np
     from pyroaring import BitMap64
     from paimon_codec.errors import UnsupportedTypeError
     from paimon_codec.fileio import ByteSource
     from paimon_codec.generated.construct import btree_global_index as B
     from paimon_codec.generated.kaitai.btree_global_index import BtreeGlobalIndex as KaitaiBtree
     from paimon_codec.globalindex.btree import BTreeGlobalIndexReader
     from paimon_codec.globalindex.keys import global_key_codec
     assert (B.BLOCK_TRAILER_SIZE, B.BLOCK_TAIL_SIZE, B.BLOCK_COMPRESSION_NONE) == (10, 10, 4)
     codec = global_key_codec("INT")
     def block(entries, aligned):
         body = b"".join(entries)
         if aligned:
             return body + B.BlockTail.build({"record_size_or_count": len(entries[0]),
                                              "aligned_type": B.BLOCK_ALIGNED_TYPE_ALIGNED})
         offs = np.cumsum([0] + [len(e) for e in entries[:-1]]).astype(B.ENTRY_OFFSET_DTYPE["offset"])
         return body + offs.tobytes() + B.BlockTail.build({"record_size_or_count": len(entries),
                                                           "aligned_type": B.BLOCK_ALIGNED_TYPE_UNALIGNED})
     def stored(b, compression=B.BLOCK_COMPRESSION_NONE):
         kind = compression.to_bytes(2, "little")   # the edited layout, stated here: a two-byte compression
         return b + kind + zlib.crc32(b + kind).to_bytes(8, "little")
     data_block = block([B.Entry.build({"key": codec.encode(k), "value": B.RowIds.build({"row_ids": rows})})
                         for k, rows in ((1, [0, 2]), (7, [1]), (9, [4]))], aligned=False)
     index_block = block([B.Entry.build({"key": codec.encode(9),
                                         "value": B.BlockHandle.build({"offset": 0, "size": len(data_block)})})],
                         aligned=True)
     nulls = BitMap64([3]).serialize()
     head = stored(data_block) + nulls + zlib.crc32(nulls).to_bytes(8, "little")
     def file(index):
         return head + index + B.BtreeFooter.build({
             "bloom_filter_offset": 0, "bloom_filter_size": 0, "bloom_filter_expected_entries": 0,
             "index_block_offset": len(head), "index_block_size": len(index_block),
             "null_bitmap_offset": len(data_block) + 10, "null_bitmap_size": len(nulls), "version": 1})
     data = file(stored(index_block))
     assert KaitaiBtree.from_bytes(data).footer.index_block_offset == len(head)
     r = BTreeGlobalIndexReader(ByteSource(data), codec)
     assert sorted(r.equal(1)) == [0, 2] and sorted(r.range(2, True, None, True)) == [1, 4]
     assert sorted(r.null_rows()) == [3]
     try:  # an lz4 block (compression 6 now) is refused by name
         BTreeGlobalIndexReader(ByteSource(file(stored(index_block, B.BLOCK_COMPRESSION_LZ4))), codec).equal(1)
         raise AssertionError("an lz4 block was read")
     except UnsupportedTypeError as e:
         assert "lz4" in str(e), str(e)
     """))


_SLOT_KINDS = ("boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "inline", "reference")
FIELD_EDITS.append(
    ("binary_row:slot_kinds_renumbered_inline_flag_moved", "binary_row",
     # every slot kind renumbered (10 + its number; only the slot_kind enum has the ids below) and the inline flag
     # bit 0x40 instead of 0x80 (an inline length then in the low six bits)
     tuple(f"    {i}:\n      id: {k}\n" for i, k in enumerate(_SLOT_KINDS))
     + ("    0x80:\n      id: flag\n", "value: marker & 0x7f"),
     tuple(f"    {10 + i}:\n      id: {k}\n" for i, k in enumerate(_SLOT_KINDS))
     + ("    0x40:\n      id: flag\n", "value: marker & 0x3f"),
     """
     from paimon_codec.binary_row import BinaryRowCodec, serialize_binary_row, decode_serialized_row
     from paimon_codec.bucket import KeyEncoder
     from paimon_codec.generated.construct import binary_row as R
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     assert R.SLOT_KIND_BOOLEAN == 10 and R.INLINE_MARKER_FLAG == 0x40
     types = ["INT", "STRING", "STRING", "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "DOUBLE", "BYTES"]
     row = [7, "ab", "hello world!", True, -3, 300, 2**40, 1.5, -2.25, b"xyz"]
     data = serialize_binary_row(types, row)
     assert data[4 + 8 + 8 + 7] == 0x42 and data[4 + 8 + 9 * 8 + 7] == 0x43, data.hex()   # inline "ab", b"xyz"
     assert decode_serialized_row(data, types) == tuple(row)
     assert decode_serialized_row(serialize_binary_row(types, [None] * 10), types) == (None,) * 10
     assert K.from_bytes(data).row.fixed_size == 8 + 10 * 8
     cols = BinaryRowCodec("INT, BIGINT, BOOLEAN").encode_columns(
         [np.array([1, 2]), np.array([3, 4]), np.array([True, False])], [np.array([False, True]), None, None])
     assert cols.shape == (2, 32) and cols[1, 1] == 1 and cols[0, 8] == 1 and cols[0, 24] == 1, cols
     assert KeyEncoder("INT, BOOLEAN").hash_columns([np.array([1]), np.array([True])])[0] == \
         KeyEncoder("INT, BOOLEAN").hash([1, True])
     """))


FIELD_EDITS += [
    ("sorted_index_file_meta:null_flags_renumbered", "sorted_index_file_meta",
     ("    1:\n      id: first_key_is_null\n", "    2:\n      id: last_key_is_null\n"),
     ("    4:\n      id: first_key_is_null\n", "    8:\n      id: last_key_is_null\n"),
     """
     from paimon_codec.generated.construct import sorted_index_file_meta as M
     from paimon_codec.generated.kaitai.sorted_index_file_meta import SortedIndexFileMeta as KaitaiMeta
     from paimon_codec.globalindex.meta import read_sorted_meta
     assert (M.NULL_KEY_FLAG_FIRST_KEY_IS_NULL, M.NULL_KEY_FLAG_LAST_KEY_IS_NULL) == (4, 8)
     base = M.SortedIndexFileMeta.build({"first_key_length": 0, "first_key": b"", "last_key_length": 0,
                                         "last_key": b"", "has_nulls": 1})
     for flags, first, last in ((4, None, b""), (8, b"", None), (12, None, None), (0, b"", b"")):
         data = base + bytes([M.SORTED_INDEX_FILE_META_VERSION_WITH_NULL_FLAGS, flags])
         KaitaiMeta.from_bytes(data)
         m = read_sorted_meta(data)
         assert (m.first_key, m.last_key) == (first, last), (flags, m)
     """),
    ("file_index:version_renumbered", "file_index",
     "  file_index_version:\n    1:\n      id: v1", "  file_index_version:\n    3:\n      id: v1",
     """
     from paimon_codec.expressions import parse_where
     from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
     from paimon_codec.generated.construct import file_index as FI
     assert FI.FILE_INDEX_VERSION_V1 == 3
     schema = parse_row_type("a INT, b STRING")
     w = FileIndexWriter(schema, {"file-index.bitmap.columns": "a", "file-index.bloom-filter.columns": "b"})
     w.write_table(pa.table({"a": pa.array([1, 2, 1], pa.int32()), "b": ["x", "y", "z"]}))
     data = w.serialize()
     assert int.from_bytes(data[8:12], "big") == 3, data[:12].hex()
     both("file-index", data)
     r = FileIndexContainerReader(data)
     assert sorted(evaluate(parse_where("a = 1"), r, schema).bitmap) == [0, 2]
     assert r.to_dict()["version"] == 3
     """),
]


FIELD_EDITS.append(
    ("bitmap_global_index:every_s4_wider", "bitmap_global_index", "type: s4\n", "type: s8\n",
     # the footer (lengths, value count, version) and the blocks' s4s eight bytes: the footer is 68 bytes
     textwrap.dedent(EDITS["bitmap_global_index"][2]).replace('"BGIY"', '"BGIX"') + textwrap.dedent("""
     assert G.BITMAP_GLOBAL_FOOTER_SIZE == 68 and len(G.BitmapFooter.build(dict(
         null_rows_offset=0, null_rows_length=0, non_null_rows_offset=0, non_null_rows_length=0,
         index_block_offset=0, index_block_length=0, value_count=0, version=1))) == 68
     """)))


FIELD_EDITS.append(
    ("delete_map:every_s4_wider", "delete_map", "type: s4\n", "type: s8\n",
     # the head (entry count, longest name) and each entry's range eight-byte numbers
     """
     from paimon_codec.dv import DeletionVector, encode_delete_map, read_delete_map
     from paimon_codec.generated.construct import delete_map as D
     assert D.DELETE_MAP_HEAD_SIZE == 16
     dvs = {"a.parquet": DeletionVector.from_array([1, 2]), "bb.parquet": DeletionVector.from_array([7])}
     data, where = encode_delete_map(dvs)
     assert int.from_bytes(data[:8], "big") == 2, data[:16].hex()
     both("delete-map", data)
     back = read_delete_map(data)
     assert {k: v.to_array().tolist() for k, v in back.items()} == {"a.parquet": [1, 2], "bb.parquet": [7]}
     assert len(data) == 16 + 2 * (len("bb.parquet") + 16) + sum(s for _, s in where.values())
     """))


FIELD_EDITS.append(
    ("roaring32:numbers_wider_shape_moved", "roaring32",
     # every u4 (cookie, count, offsets) a u8 and every u2 (keys, cardinalities, values, runs) a u4, bitmap
     # containers 2048 u2 words (4 KiB, values below 32768), the no-run cookie renumbered, arrays of at most 2048 values, the offset header from
     # two run containers on: the size scan (roaring.portable_size, behind the codecs' embedded bitmaps) and the
     # run reader (runs.roaring32_runs) follow
     ("type: u4\n", "type: u2\n", "      - id: bitmap\n        type: u8\n", "value: 1024\n", "value: 4096\n",
      "num_containers >= 4\n", "    12346:\n      id: no_run"),
     ("type: u8\n", "type: u4\n", "      - id: bitmap\n        type: u2\n", "value: 2048\n", "value: 2048\n",
      "num_containers >= 2\n", "    12348:\n      id: no_run"),
     """
     from paimon_codec import codec_runtime, roaring, runs
     from paimon_codec.generated.construct import roaring32 as R
     assert R.COOKIE_DTYPE.itemsize == 8 and R.DESCRIPTIVE_HEADER_DTYPE.itemsize == 8 and R.ROARING_COOKIE_NO_RUN == 12348
     assert roaring.EMPTY_PORTABLE == (12348).to_bytes(8, "little") + bytes(8)
     def bitmap_words(values):
         words = np.zeros(2048, R.CONTAINER_BITMAP_DTYPE)
         assert R.CONTAINER_BITMAP_DTYPE.itemsize == 2
         for v in values:
             words[v >> 4] |= 1 << (v & 15)
         return words
     run = {"num_runs": 2, "runs": [{"start": 10, "length_minus_1": 5}, {"start": 100, "length_minus_1": 0}]}
     evens = list(range(0, 6000, 2))   # 3000 values: a bitmap container now (an array one before the edit)
     containers = [(0, True, 6, run, [*range(10, 16), 100]), (1, False, 2, {"values": [1, 2, 7]}, [1, 2, 7]),
                   (2, False, 2999, {"bitmap": bitmap_words(evens)}, evens)]
     def build(cookie, count, flags, picked):
         heads = [{"key": k, "cardinality_minus_1": c} for k, _, c, _, _ in picked]
         sizes = [len(R.Container.build(obj, is_run=is_run, cardinality_minus_1=c)) for _, is_run, c, obj, _ in picked]
         obj = {"cookie": cookie, "container_count": count, "run_flags": flags, "descriptive_header": heads,
                "offsets": [0] * len(picked), "containers": [c[3] for c in picked]}
         if R.roaring32_has_offsets(cookie, count):  # the containers' offsets, from the built sizes
             first = len(R.Roaring32.build(obj)) - sum(sizes)
             obj["offsets"] = [first + sum(sizes[:i]) for i in range(len(picked))]
         else:
             del obj["offsets"]
         return R.Roaring32.build(obj)
     cases = [build(R.ROARING_COOKIE_RUN | (2 << 16), None, bytes([1]), containers),   # 3 containers: offsets
              build(R.ROARING_COOKIE_RUN, None, bytes([1]), containers[:1]),           # 1 container: none
              build(R.ROARING_COOKIE_NO_RUN, 2, None, containers[1:]),
              roaring.EMPTY_PORTABLE]
     expected = [containers, containers[:1], containers[1:], []]
     for data, picked in zip(cases, expected):
         want = sorted((k << 16) + v for k, _, _, _, vals in picked for v in vals)
         assert roaring.portable_size(data + b"junk") == len(data) == codec_runtime.roaring32_size(data + b"junk")
         r = runs.roaring32_runs(data)
         assert [p for a, b in r.ranges() for p in range(a, b)] == want, (r, want[:20])
         F.get("roaring32").parse_kaitai(data)
         assert R.Roaring32.build(R.Roaring32.parse(data)) == data
     """))


FIELD_EDITS += [
    ("deletion_vector:numbers_wider_magics_renumbered", "deletion_vector",
     # the bin's magic eight bytes, the crc eight, a 64-bit bin's bucket count four and each key eight; the 64-bit
     # magic and both Java int magics renumbered
     ("type: u4be\n        -dtype-name: DV_MAGIC_DTYPE", "type: s4\n    -dtype-name: DV_CRC_DTYPE",
      "type: s8le\n        -dtype-name: DV64_BITMAP_COUNT_DTYPE", "type: s4le\n        -dtype-name: DV64_BUCKET_KEY_DTYPE",
      "    0xd1d33964:\n      id: bitmap64", "    1581511376:\n      id: bitmap32", "    1681511377:\n      id: bitmap64"),
     ("type: u8be\n        -dtype-name: DV_MAGIC_DTYPE", "type: s8\n    -dtype-name: DV_CRC_DTYPE",
      "type: s4le\n        -dtype-name: DV64_BITMAP_COUNT_DTYPE", "type: s8le\n        -dtype-name: DV64_BUCKET_KEY_DTYPE",
      "    0xd1d33965:\n      id: bitmap64", "    1581511300:\n      id: bitmap32", "    1681511300:\n      id: bitmap64"),
     """
     from paimon_codec.dv import (DeletionVector, MAGIC_32, MAGIC_64, encode_delete_map, encode_dv_files,
                                  encode_puffin, read_delete_map, read_deletion_vectors, read_dv_index, read_puffin)
     from paimon_codec.dv.index_file import read_deletion_vector
     from paimon_codec.errors import ChecksumMismatchError, CorruptDataError
     assert (MAGIC_32, MAGIC_64) == (1581511300, 1681511300)
     dvs = {"a": DeletionVector.from_array([1, 5, 9]), "b": DeletionVector([3, 2**33 + 7], bitmap64=True),
            "c": DeletionVector(bitmap64=True)}
     (data, ranges), = encode_dv_files(dvs)
     a, b, c = ranges
     assert data[a.offset + 4:a.offset + 12] == (0x5E43F2D0).to_bytes(8, "big"), data[:16].hex()
     assert data[b.offset + 4:b.offset + 12] == (0xD1D33965).to_bytes(8, "big"), data[b.offset:b.offset + 16].hex()
     assert data[b.offset + 12:b.offset + 16] == (3).to_bytes(4, "little")          # buckets 0 .. 2
     assert a.offset + a.length + 4 + 8 == b.offset and b.offset + b.length == c.offset   # the 8-byte crc
     both("deletion-vectors", data)
     back = read_dv_index(data)
     assert [e.dv for e in back.entries] == list(dvs.values()) and [e.kind for e in back.entries] == ["32", "64", "64"]
     for r, dv in zip(ranges, dvs.values()):
         assert read_deletion_vector(data, r.offset, r.length) == dv
     assert read_deletion_vectors(data, ranges) == dvs
     for dv in dvs.values():
         assert DeletionVector.deserialize(dv.serialize()) == dv
     bad = bytearray(data)
     bad[b.offset + 4 + 8 + 4 + 8 + 9] ^= 1     # inside the first bucket's bitmap: the checksum names it
     try:
         read_dv_index(bytes(bad))
         raise AssertionError("a flipped bit was read")
     except ChecksumMismatchError:
         pass
     try:
         DeletionVector.deserialize(dvs["b"].serialize()[:8] + bytes(8))
         raise AssertionError("a 64-bit bin without its buckets was read")
     except CorruptDataError:
         pass
     pdata, _ = encode_puffin({"b": dvs["b"]})
     assert read_puffin(pdata)[0].dv == dvs["b"]
     mdata, _ = encode_delete_map({"a": dvs["a"]})
     assert read_delete_map(mdata) == {"a": dvs["a"]}
     """),
    ("deletion_vectors:version_wider_renumbered", "deletion_vectors",
     ("type: u1\n    -dtype-name: DELETION_VECTORS_VERSION_DTYPE", "  deletion_vectors_version:\n    1:"),
     ("type: u2\n    -dtype-name: DELETION_VECTORS_VERSION_DTYPE", "  deletion_vectors_version:\n    4:"),
     """
     from paimon_codec.dv import DeletionVector, encode_dv_files, read_dv_index
     from paimon_codec.dv.index_file import read_deletion_vector
     from paimon_codec.errors import PaimonCodecError, UnsupportedVersionError
     dvs = {"a": DeletionVector.from_array([1, 5, 9]), "b": DeletionVector([2**33], bitmap64=True)}
     (data, ranges), = encode_dv_files(dvs)
     assert data[:2] == (4).to_bytes(2, "big") and ranges[0].offset == 2, data[:8].hex()
     both("deletion-vectors", data)
     back = read_dv_index(data)
     assert back.version == 4 and [e.dv for e in back.entries] == list(dvs.values())
     assert [read_deletion_vector(data, r.offset, r.length) for r in ranges] == list(dvs.values())
     for other in (1, 5):
         try:
             read_dv_index(other.to_bytes(2, "big") + data[2:])
             raise AssertionError(f"version {other} was read")
         except UnsupportedVersionError as e:
             assert f"version {other}" in str(e), str(e)
     (empty, _), = encode_dv_files({})
     assert empty == (4).to_bytes(2, "big") and read_dv_index(empty).entries == []
     try:
         read_dv_index(data[:1])
         raise AssertionError("half a version was read")
     except PaimonCodecError:
         pass
     """),
    ("puffin:numbers_wider_flag_renumbered_magic_longer", "puffin",
     # the tail's payload size and flags eight bytes, the compressed flag 2, every magic PFA10 (five bytes)
     ("type: s4\n", "type: u4\n", "    1:\n      id: payload_compressed", "contents: PFA1\n"),
     ("type: s8\n", "type: u8\n", "    2:\n      id: payload_compressed", "contents: PFA10\n"),
     """
     import json
     from paimon_codec.dv import DeletionVector, encode_puffin, read_puffin
     from paimon_codec.errors import UnsupportedVersionError
     from paimon_codec.generated.construct import puffin as P
     from paimon_codec.generated.kaitai.puffin import Puffin as KaitaiPuffin
     assert (P.PUFFIN_FOOTER_TAIL_SIZE, P.PUFFIN_FOOTER_MAGIC_SIZE, P.PUFFIN_FOOTER_FLAGS_AT) == (21, 5, 8)
     dv = DeletionVector([3, 2**33 + 7], bitmap64=True)
     data, blobs = encode_puffin({"f.parquet": dv})
     assert data[:5] == b"PFA10" and data[-5:] == b"PFA10", (data[:5], data[-5:])
     payload = KaitaiPuffin.from_bytes(data).footer.payload
     assert json.loads(payload)["blobs"][0]["offset"] == 5 == blobs[0].offset
     back = read_puffin(data)
     assert back[0].referenced_data_file == "f.parquet" and back[0].dv == dv
     tail = len(data) - 21
     def flagged(flags):
         return data[:tail + 8] + flags.to_bytes(8, "little") + data[tail + 16:]
     assert read_puffin(flagged(1))[0].dv == dv              # bit 0 is no flag now
     try:
         read_puffin(flagged(2))
         raise AssertionError("a compressed footer was read")
     except UnsupportedVersionError as e:
         assert e.offset == tail + 8, (e.offset, tail)
     """),
]


FIELD_EDITS += [
    ("bitmap_index:v1_renumbered", "bitmap_index",
     # v1 stored as 0 (below v2: a reader refuses versions above its newest)
     "  bitmap_index_version:\n    1:\n      id: v1", "  bitmap_index_version:\n    0:\n      id: v1",
     """
     from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
     for version in ("1", "2"):
         w = BitmapIndexWriter("INT", {"version": version})
         w.write_array([4, None, 4, 9])
         data = w.serialize()
         assert data[0] == (0 if version == "1" else 2), (version, data[0])
         both("bitmap", data, key_kind="int32")
         r = BitmapIndexReader(data, "INT")
         assert sorted(r.lookup(4)) == [0, 2] and sorted(r.lookup(9)) == [3] and sorted(r.null_bitmap()) == [1]
     """),
    ("blob_descriptor:version_renumbered", "blob_descriptor",
     "  blob_descriptor_version:\n    2:\n      id: v2", "  blob_descriptor_version:\n    6:\n      id: v2",
     """
     from paimon_codec.errors import PaimonCodecError
     from paimon_codec.reading.blob_file import blob_descriptor, parse_blob_descriptor
     d = blob_descriptor("file:/t/x.blob", 4, 5)
     assert d[0] == 6, d[:4]
     assert parse_blob_descriptor(d) == ("file:/t/x.blob", 4, 5)
     try:
         parse_blob_descriptor(bytes([2]) + d[1:])
         raise AssertionError("a version-2 descriptor was read")
     except PaimonCodecError:
         pass
     """),
    ("blob_file:version_renumbered", "blob_file",
     "  blob_file_version:\n    1:\n      id: v1", "  blob_file_version:\n    3:\n      id: v1",
     """
     import tempfile, zlib, os
     from pyroaring import BitMap
     from paimon_codec.errors import PaimonCodecError
     from paimon_codec.generated.construct import blob_file as B
     from paimon_codec.reading.blob_file import describe_blob_file, read_blobs
     from paimon_codec.fileio import ByteSource
     body = b"hello"
     n = len(B.BLOB_RECORD_MAGIC) + len(body) + B.BLOB_RECORD_TAIL_SIZE
     rec = B.BLOB_RECORD_MAGIC + body + n.to_bytes(8, "little")
     rec += (zlib.crc32(rec) & 0xFFFFFFFF).to_bytes(4, "little")
     index = B.BlobIndex.build({"entries": [2 * n]})
     def file(version):
         path = os.path.join(tempfile.mkdtemp(), "x.blob")
         open(path, "wb").write(bytes(rec) + index + B.BlobFooter.build({"index_length": len(index),
                                                                          "version": B.BLOB_FILE_VERSION_V1})[:-1]
                                + bytes([version]))   # the footer's last byte is its version
         return path
     assert read_blobs(file(3), BitMap([0])).to_pylist() == [body]
     with ByteSource(file(3)) as src:
         assert describe_blob_file(src)["version"] == 3
     try:
         read_blobs(file(1), BitMap([0]))
         raise AssertionError("a version-1 file was read")
     except PaimonCodecError:
         pass
     """),
]


FIELD_EDITS.append(
    ("binary_row:wide_timestamp_reserves_24", "binary_row",
     # a TIMESTAMP(p > 3) reserves 24 variable-part bytes, its millis at their front
     "    8:\n      id: timestamp", "    24:\n      id: timestamp",
     """
     from paimon_codec.binary_row import serialize_binary_row, decode_serialized_row
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     from paimon_codec.values import Timestamp
     types = ["TIMESTAMP(6)", "INT", "TIMESTAMP(9)"]
     row = (Timestamp(-1_234_567, 999_999), 7, None)
     data = serialize_binary_row(types, list(row))
     assert len(data) == 4 + 8 + 3 * 8 + 24 + 24, len(data)    # a null wide timestamp reserves its 24 bytes too
     var = 4 + 8 + 3 * 8
     assert data[var:var + 8] == (-1_234_567).to_bytes(8, "little", signed=True) and data[var + 8:var + 24] == bytes(16)
     assert decode_serialized_row(data, types) == row
     assert K.from_bytes(data).row.fixed_size == 8 + 3 * 8
     """))


FIELD_EDITS.append(
    ("file_index:version_and_head_length_wider", "file_index",
     # the container's version and head length eight bytes (the prefix before the column count is 24 bytes)
     ("    -orig-id: version\n    type: s4", "    -orig-id: headLength\n    type: s4"),
     ("    -orig-id: version\n    type: s8", "    -orig-id: headLength\n    type: s8"),
     """
     import os, tempfile
     from paimon_codec.expressions import parse_where
     from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
     from paimon_codec.generated.construct import file_index as FI
     assert FI.FILE_INDEX_PREFIX_SIZE == 24, FI.FILE_INDEX_PREFIX_SIZE
     schema = parse_row_type("a INT, b STRING")
     w = FileIndexWriter(schema, {"file-index.bitmap.columns": "a", "file-index.bloom-filter.columns": "b"})
     w.write_table(pa.table({"a": pa.array([1, 2, 1], pa.int32()), "b": ["x", "y", "z"]}))
     data = w.serialize()
     assert int.from_bytes(data[8:16], "big") == 1 and int.from_bytes(data[16:24], "big") < len(data), data[:24].hex()
     both("file-index", data)
     path = os.path.join(tempfile.mkdtemp(), "x.index")
     open(path, "wb").write(data)
     for src in (data, path):   # in memory, and read lazily from the file (the prefix first)
         r = FileIndexContainerReader(src)
         assert sorted(evaluate(parse_where("a = 1"), r, schema).bitmap) == [0, 2]
         assert r.to_dict()["version"] == 1
     """))



FIELD_EDITS += [
    ("roaring64:bucket_key_wider", "roaring64",
     # each bucket's high key eight bytes: the runs of a 64-bit bitmap (DVs' positions) follow
     "      - id: key\n        type: u4\n", "      - id: key\n        type: u8\n",
     """
     from pyroaring import BitMap
     from paimon_codec import runs
     from paimon_codec.generated.construct import roaring64 as R
     assert R.BUCKET_KEY_DTYPE.itemsize == 8, R.BUCKET_KEY_DTYPE
     low, high = BitMap([1, 5, 6, 7]), BitMap([0, 2**32 - 1])
     data = R.Roaring64.build({"bucket_count": 2, "buckets": [{"key": 0, "bitmap": low.serialize()},
                                                              {"key": 3, "bitmap": high.serialize()}]})
     assert data[8:16] == bytes(8) and len(data) == 8 + 2 * 8 + len(low.serialize()) + len(high.serialize())
     both("roaring64", data)
     r = runs.roaring64_runs(data)
     assert list(zip(r.starts.tolist(), r.lasts.tolist())) == [(1, 1), (5, 7), (3 << 32, 3 << 32),
                                                               ((3 << 32) + 2**32 - 1, (3 << 32) + 2**32 - 1)], r
     """),
    ("roaring32:run_type_renamed", "roaring32",
     # the run type renamed: the Kaitai-to-plain conversion finds the new class through the generated LAYOUT,
     # standalone and for a Roaring32 embedded in another format (a bitmap index's bitmaps)
     ("  run:\n    doc: one run of consecutive values", "        type: run\n"),
     ("  run_range:\n    doc: one run of consecutive values", "        type: run_range\n"),
     """
     from pyroaring import BitMap
     from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
     from paimon_codec.generated.construct import roaring32 as R
     assert {"RunRange": "run_range"} in [f.get("types") for f in R.LAYOUT["container"]["fields"]], R.LAYOUT
     bm = BitMap(range(10, 3000))
     bm.add(70000)
     bm.run_optimize()
     data = bm.serialize()
     assert F.plain(F.get("roaring32").parse_kaitai(data)) == F.plain(F.get("roaring32").decode(data))
     w = BitmapIndexWriter("INT")
     w.write_array([1] * 3000 + [2])
     idx = w.serialize()
     assert F.plain(F.get("bitmap").parse_kaitai(idx, key_kind="int32")) == \\
         F.plain(F.get("bitmap").decode(idx, key_kind="int32"))
     assert sorted(BitmapIndexReader(idx, "INT").lookup(2)) == [3000]
     """),
    ("paimon_key:kinds_reordered", "paimon_key",
     # the key kinds listed in another order (string first, int8 last): nothing takes a kind by its position
     "        '\"int8\"': s1\n        '\"int16\"': s2\n        '\"int32\"': s4\n        '\"int64\"': s8\n"
     "        '\"float32\"': f4\n        '\"float64\"': f8\n        '\"bool\"': u1\n        '\"string\"': binary_string\n",
     "        '\"string\"': binary_string\n        '\"bool\"': u1\n        '\"float64\"': f8\n        '\"float32\"': f4\n"
     "        '\"int64\"': s8\n        '\"int32\"': s4\n        '\"int16\"': s2\n        '\"int8\"': s1\n",
     """
     from paimon_codec import codec_runtime
     from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
     from paimon_codec.fileindex.keys import KEY_KINDS as STORED
     from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
     from paimon_codec.generated.construct.constants import KEY_KINDS
     assert KEY_KINDS[0] == "string" and KEY_KINDS[-1] == "int8", KEY_KINDS
     assert F.KEY_KINDS == codec_runtime.KEY_KINDS == KEY_KINDS
     assert F.key_kind_for("bool") == "bool" and F.key_kind_for("TINYINT") == "int8"
     assert STORED["int8"][0] == 1 and STORED["float64"][0] == 8 and STORED["string"] == (None, None), STORED
     for ty, rows, kind in (("TINYINT", [1, -2, 1], "int8"), ("BOOLEAN", [True, False, True], "bool"),
                            ("DOUBLE", [1.5, -2.0, 1.5], "float64"), ("STRING", ["x", "y", "x"], "string")):
         w = BitmapIndexWriter(ty)
         w.write_array(rows)
         data = w.serialize()
         both("bitmap", data, key_kind=kind)
         assert sorted(BitmapIndexReader(data, ty).lookup(rows[0])) == [0, 2], ty
         if ty != "BOOLEAN":
             w = RangeBitmapWriter(ty)
             w.write_batch(rows)
             data = w.serialize()
             both("range-bitmap", data, key_kind=kind)
             assert sorted(RangeBitmapReader(data, ty).visit_equal(rows[0]).bitmap) == [0, 2], ty
     """),
    ("blob_file:record_crc_wider", "blob_file",
     # a record's CRC eight bytes: its tail is 16 bytes, its data ends 16 bytes before the record's end, and
     # the CRC still covers every byte before it
     "        type: u4\n        -dtype-name: BLOB_RECORD_CRC_DTYPE", "        type: u8\n        -dtype-name: BLOB_RECORD_CRC_DTYPE",
     """
     import tempfile, zlib, os
     from pyroaring import BitMap
     from paimon_codec.errors import ChecksumMismatchError
     from paimon_codec.generated.construct import blob_file as B
     from paimon_codec.generated.kaitai.blob_file import BlobFile as KaitaiBlobFile
     from paimon_codec.reading.blob_file import RECORD_OVERHEAD, read_blob_index, read_blobs
     from paimon_codec.fileio import ByteSource
     assert B.BLOB_RECORD_TAIL_SIZE == 16 and RECORD_OVERHEAD == 20, B.BLOB_RECORD_TAIL_SIZE
     def record(body, crc_delta=0):
         n = len(B.BLOB_RECORD_MAGIC) + len(body) + 16
         rec = B.BLOB_RECORD_MAGIC + body + n.to_bytes(8, "little")
         return rec + ((zlib.crc32(rec) ^ crc_delta) & 0xFFFFFFFF).to_bytes(8, "little")
     bodies = [b"hello", b"", b"a longer blob of bytes"]
     recs = [record(b) for b in bodies]
     assert bytes(B.BlobRecord.parse(recs[0])["data"]) == b"hello"
     def file(recs):
         lengths = [len(r) for r in recs]
         deltas = [lengths[0]] + [b - a for a, b in zip(lengths, lengths[1:])]
         index = B.BlobIndex.build({"entries": [(d << 1) ^ (d >> 63) for d in deltas]})
         data = b"".join(recs) + index + B.BlobFooter.build({"index_length": len(index), "version": 1})
         path = os.path.join(tempfile.mkdtemp(), "x.blob")
         open(path, "wb").write(data)
         return path, data
     path, data = file(recs)
     assert KaitaiBlobFile.from_bytes(data).footer.index_length > 0
     with ByteSource(path) as src:
         assert read_blob_index(src).lengths.tolist() == [len(r) for r in recs]
     assert read_blobs(path, BitMap([0, 1, 2])).to_pylist() == bodies
     try:
         read_blobs(file([recs[0], record(b"", crc_delta=1), recs[2]])[0], BitMap([1]))
         raise AssertionError("a record with a wrong CRC was read")
     except ChecksumMismatchError:
         pass
     """),
    ("binary_row:row_kind_wider", "binary_row",
     # the row kind two bytes (the null bits, and the header words' size, after it)
     ("  - id: row_kind\n    type: u1\n", "value: ((arity + 63 + 8) / 64) * 8 - 1", "value: 1 + null_bits_size"),
     ("  - id: row_kind\n    type: u2\n", "value: ((arity + 63 + 16) / 64) * 8 - 2", "value: 2 + null_bits_size"),
     """
     from paimon_codec.binary_row import BinaryRowCodec, null_bits_size, serialize_binary_row, decode_serialized_row
     from paimon_codec.bucket import KeyEncoder
     from paimon_codec.generated.construct import binary_row as R
     from paimon_codec.generated.construct.serialized_binary_row import SerializedBinaryRow
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     assert R.BINARY_ROW_KIND_SIZE == 2 and (null_bits_size(1), null_bits_size(48), null_bits_size(49)) == (8, 8, 16)
     types, row = ["INT", "STRING", "BIGINT"], [7, None, 2**40]
     data = serialize_binary_row(types, row)
     assert data[4:8] == bytes([0, 0, 0b10, 0]), data.hex()   # field 1's null bit after the two row-kind bytes
     assert decode_serialized_row(data, types) == tuple(row)
     assert K.from_bytes(data).row.fixed_size == 8 + 3 * 8 and SerializedBinaryRow.parse(data)["row"]["slots"][0] == 7
     for arity, null_at in ((48, (0, 7, 8, 47)), (60, (0, 47, 48, 59))):   # one header word, two
         types = ["INT"] * arity
         row = [None if i in null_at else i for i in range(arity)]
         data = serialize_binary_row(types, row)
         assert decode_serialized_row(data, types) == tuple(row)
         assert K.from_bytes(data).row.fixed_size == null_bits_size(arity) + 8 * arity
         cols = BinaryRowCodec(", ".join(types)).encode_columns(
             [np.array([v or 0]) for v in row], [np.array([v is None]) for v in row])
         assert bytes(cols[0]) == data[4:], (arity, bytes(cols[0]).hex(), data[4:].hex())
     key = KeyEncoder("INT, BIGINT")
     assert key.hash_columns([np.array([1]), np.array([3])])[0] == key.hash([1, 3])
     """),
    ("binary_row:wide_timestamp_millis_big_endian", "binary_row",
     # a wide timestamp's millis stored big-endian in the variable part
     "      - id: millis\n        type: s8\n", "      - id: millis\n        type: s8be\n",
     """
     from paimon_codec.binary_row import serialize_binary_row, decode_serialized_row
     from paimon_codec.generated.construct import binary_row as R
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     from paimon_codec.values import Timestamp
     assert R.WIDE_TIMESTAMP_STRUCT.format == ">q", R.WIDE_TIMESTAMP_STRUCT.format
     types = ["TIMESTAMP(6)", "INT", "TIMESTAMP(9)"]
     row = (Timestamp(-1_234_567, 999_999), 7, Timestamp(2**40 + 5, 1))
     data = serialize_binary_row(types, list(row))
     var = 4 + 8 + 3 * 8
     assert data[var:var + 8] == (-1_234_567).to_bytes(8, "big", signed=True), data[var:].hex()
     assert data[var + 8:var + 16] == (2**40 + 5).to_bytes(8, "big"), data[var:].hex()
     assert decode_serialized_row(data, types) == row
     assert K.from_bytes(data).row.fixed_size == 8 + 3 * 8
     """),
    ("varint:six_bit_groups", "varint",
     # six value bits per byte and the continuation bit 0x40: the embedded varints of every codec (the
     # runtime's VarUInt and fast paths take the schema's constants), the runtime's vectorized decoders, the
     # Kaitai parser's value and the B-tree / blob readers follow
     ("    0x80:\n      id: continuation", "    0x7f:\n      id: payload", "    7:\n      id: bits"),
     ("    0x40:\n      id: continuation", "    0x3f:\n      id: payload", "    6:\n      id: bits"),
     """
     import os, tempfile, zlib
     import zstandard
     from pyroaring import BitMap
     from paimon_codec import codec_runtime
     from paimon_codec.fileio import ByteSource
     from paimon_codec.generated.construct import blob_file as BF
     from paimon_codec.generated.construct import btree_global_index as B
     from paimon_codec.generated.construct.constants import VARINT_GROUP_BITS, VARINT_GROUP_CONTINUATION
     from paimon_codec.generated.kaitai.btree_global_index import BtreeGlobalIndex as KaitaiBtree
     from paimon_codec.generated.kaitai.varint import Varint as KaitaiVarint
     from paimon_codec.globalindex.btree import BTreeGlobalIndexReader
     from paimon_codec.globalindex.keys import global_key_codec
     from paimon_codec.reading.blob_file import read_blobs
     assert (VARINT_GROUP_BITS, VARINT_GROUP_CONTINUATION) == (6, 0x40)
     # 100 = 1 * 64 + 36: the low group 36 with the continuation bit, then 1
     assert B.fast_build_block_handle({"offset": 100, "size": 5}) == bytes([0x64, 0x01, 0x05])
     assert B.BlockHandle.build({"offset": 100, "size": 5}) == bytes([0x64, 0x01, 0x05])
     assert B.fast_parse_block_handle(bytes([0x64, 0x01, 0x05]))[0] == {"offset": {"value": 100}, "size": {"value": 5}}
     assert KaitaiVarint.from_bytes(bytes([0x64, 0x01])).value == 100
     u8 = np.frombuffer(bytes([0x64, 0x01, 0x05]), np.uint8)
     assert codec_runtime.varints_at(u8, np.array([0, 2]), 3)[0].tolist() == [100, 5]
     assert codec_runtime.varint_runs(u8, np.array([0]), np.array([3]))[0].tolist() == [100, 5]
     codec = global_key_codec("INT")
     def block(entries):
         body = b"".join(entries)
         offs = np.cumsum([0] + [len(e) for e in entries[:-1]]).astype(B.ENTRY_OFFSET_DTYPE["offset"])
         return body + offs.tobytes() + B.BlockTail.build({"record_size_or_count": len(entries), "aligned_type": 1})
     def stored(b, compression=B.BLOCK_COMPRESSION_NONE):
         return b + B.BlockTrailer.build({"compression": compression, "crc32": zlib.crc32(b + bytes([compression]))})
     rows = {k: [k * 70 + j for j in range(3)] for k in range(1, 40)}   # row ids of one and two groups
     entries = [B.Entry.build({"key": codec.encode(k), "value": B.RowIds.build({"row_ids": r})}) for k, r in rows.items()]
     data_block = block(entries)
     packed = B.CompressedBlock.build({"uncompressed_size": len(data_block),
                                       "payload": zstandard.ZstdCompressor().compress(data_block)})
     assert B.CompressedBlock.parse(packed)["uncompressed_size"]["value"] == len(data_block)
     head = stored(packed, B.BLOCK_COMPRESSION_ZSTD)
     index_block = block([B.Entry.build({"key": codec.encode(39),
                                         "value": B.BlockHandle.build({"offset": 0, "size": len(packed)})})])
     data = head + stored(index_block) + B.BtreeFooter.build({
         "bloom_filter_offset": 0, "bloom_filter_size": 0, "bloom_filter_expected_entries": 0,
         "index_block_offset": len(head), "index_block_size": len(index_block), "null_bitmap_offset": 0,
         "null_bitmap_size": 0, "version": 1})
     assert KaitaiBtree.from_bytes(data).footer.index_block_offset == len(head)
     r = BTreeGlobalIndexReader(ByteSource(data), codec)
     assert sorted(r.equal(7)) == rows[7] and sorted(r.equal(38)) == rows[38]
     assert sorted(r.range(30, True, None, True)) == sorted(x for k in range(30, 40) for x in rows[k])
     # a blob file's index: record lengths of one and two groups
     bodies = [b"x" * 10, b"y" * 200]
     recs = []
     for body in bodies:
         n = len(BF.BLOB_RECORD_MAGIC) + len(body) + BF.BLOB_RECORD_TAIL_SIZE
         rec = BF.BLOB_RECORD_MAGIC + body + n.to_bytes(8, "little")
         recs.append(rec + zlib.crc32(rec).to_bytes(4, "little"))
     deltas = [len(recs[0]), len(recs[1]) - len(recs[0])]
     index = BF.BlobIndex.build({"entries": [2 * d for d in deltas]})
     assert index == bytes([52, 0x40 | 60, 5]), index.hex()   # ZigZag 2 * 26 (one group), 2 * 190 = 5 * 64 + 60
     path = os.path.join(tempfile.mkdtemp(), "x.blob")
     open(path, "wb").write(b"".join(recs) + index + BF.BlobFooter.build({"index_length": len(index), "version": 1}))
     assert read_blobs(path, BitMap([0, 1])).to_pylist() == bodies
     """),
    ("binary_row:big_endian", "binary_row",
     # the whole row big-endian: every slot (a value at its slot's front), reference and wide timestamp, and the
     # slot words; the columnar encoder (bucket hashing) writes each value in its slot struct's byte order
     "  endian: le\n", "  endian: be\n",
     """
     import decimal
     from paimon_codec.binary_row import BinaryRowCodec, serialize_binary_row, decode_serialized_row
     from paimon_codec.bucket import KeyEncoder
     from paimon_codec.generated.construct import binary_row as R
     from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as K
     from paimon_codec.values import Timestamp
     assert R.SLOTS_DTYPE.str == ">u8" and R.SLOT_STRUCTS[R.SLOT_KIND_INT].format == ">i4x", R.SLOTS_DTYPE
     types = ["INT", "STRING", "STRING", "BIGINT", "DOUBLE", "TIMESTAMP(6)", "DECIMAL(30, 2)", "BOOLEAN"]
     row = (7, "ab", "hello world!", -2**40, 1.5, Timestamp(123_456_789, 5), decimal.Decimal("-12.34"), True)
     data = serialize_binary_row(types, list(row))
     assert data[4 + 8:4 + 16] == (7 << 32).to_bytes(8, "big"), data.hex()   # the INT at its slot's front
     assert decode_serialized_row(data, types) == row
     k = K.from_bytes(data)
     assert k.row.fixed_size == 8 + 8 * 8 and k.row.slots[0] == 7 << 32 and k.row.slots[3] == (-2**40) % 2**64
     fixed = ["INT", "BIGINT", "DOUBLE", "BOOLEAN", "SMALLINT", "FLOAT", "TINYINT", "DECIMAL(10, 2)"]
     cols = [np.array([1, -2]), np.array([3, 2**40]), np.array([1.5, -0.25]), np.array([True, False]),
             np.array([300, -3]), np.array([2.5, -1.0]), np.array([-7, 8]), np.array([1234, -5])]
     nulls = [np.array([False, True])] + [None] * 6 + [np.array([True, False])]
     codec = BinaryRowCodec(fixed)
     m = codec.encode_columns(cols, nulls)
     for r in range(2):
         vals = [None if nulls[i] is not None and nulls[i][r] else col[r].item() for i, col in enumerate(cols)]
         vals[7] = None if vals[7] is None else decimal.Decimal(vals[7]).scaleb(-2)
         assert bytes(m[r]) == codec.encode(vals), (r, bytes(m[r]).hex(), codec.encode(vals).hex())
     enc = KeyEncoder("INT, BIGINT, BOOLEAN")
     assert enc.hash_columns([np.array([1]), np.array([3]), np.array([True])])[0] == enc.hash([1, 3, True])
     """),
]


def _edited(sid: str, text: str, old: str | tuple[str, ...], new: str | tuple[str, ...]) -> str:
    """``text`` with every occurrence of ``old`` replaced by ``new`` (Puffin: both magics); a tuple of olds
    and news is several replacements, one after the other."""
    pairs = zip(old, new, strict=True) if isinstance(old, tuple) else [(old, new)]
    for o, n in pairs:
        assert text.count(o) >= 1, f"{sid}: the edit's anchor {o!r} is gone from the schema"
        text = text.replace(o, n)
    return text


def _kaitai_subset(schemas: Path, sid: str, out: Path) -> Path:
    """A folder holding the Kaitai parsers an edit of ``sid`` can change - ``sid`` and the schemas importing it,
    transitively - and the schemas those import (the compiler resolves them): compiling only these is the
    quick part of regenerating; every other parser is the committed one, byte for byte."""
    return _schema_subset(schemas, sid, out)[0]


def _schema_subset(schemas: Path, sid: str, out: Path) -> tuple[Path, set[str]]:
    """``(folder, changed)``: ``out`` holding the schemas an edit of ``sid`` can change (``changed``: ``sid`` and
    the schemas importing it, transitively) and the schemas those import."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: the same objects, ~10x faster
    imports = {p.stem: set((yaml.load(p.read_text(), Loader=loader).get("meta") or {}).get("imports") or ())
               for p in schemas.glob("*.ksy")}
    changed = {sid}
    while grown := {s for s, deps in imports.items() if deps & changed} - changed:
        changed |= grown
    needed, todo = set(changed), list(changed)
    while todo:
        for dep in imports[todo.pop()] - needed:
            needed.add(dep)
            todo.append(dep)
    out.mkdir()
    for name in needed:
        shutil.copy(schemas / f"{name}.ksy", out / f"{name}.ksy")
    return out, changed


def _regenerated_copy(tmp_path: Path, sid: str, old, new) -> Path:
    root = tmp_path / "repo"
    # the copy takes the installed wheel's shape (schemas and generated code inside the package), so the
    # edited codecs are the ones imported from it, ahead of the editable install's mapping of generated/
    shutil.copytree(REPO / "paimon_codec", root / "paimon_codec", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "schemas", root / "paimon_codec" / "schemas")
    (root / "paimon_codec" / "generated").mkdir()
    shutil.copy(REPO / "generated" / "__init__.py", root / "paimon_codec" / "generated" / "__init__.py")
    schemas = root / "paimon_codec" / "schemas"
    schema = schemas / f"{sid}.ksy"
    schema.write_text(_edited(sid, schema.read_text(), old, new))
    tools = str(REPO / "tools")
    before = list(sys.path)
    sys.path.insert(0, tools)
    try:
        import generate  # noqa: PLC0415

        generate.gen_construct(schemas, root / "paimon_codec" / "generated" / "construct")
        problem = generate.have_node()
        assert problem is None, problem  # the Kaitai half cannot be checked without node: fail, never skip
        kaitai = root / "paimon_codec" / "generated" / "kaitai"
        kaitai.mkdir()
        for path in (REPO / "generated" / "kaitai").glob("*.py"):  # the parsers the edit cannot change ...
            shutil.copy(path, kaitai / path.name)
        generate.gen_kaitai(_kaitai_subset(schemas, sid, tmp_path / "kaitai_schemas"), kaitai)  # ... and the rest
    finally:
        sys.path[:] = before  # generate.py puts tools/ on the path itself: its fuzz.py would shadow tests' fuzz
    return root


@pytest.mark.node  # the Kaitai compiler regenerates the parsers
@pytest.mark.parametrize("sid", sorted(EDITS))
def test_schema_edit_flows_through_both_codecs_and_the_semantic_layer(sid, tmp_path):
    old, new, probe = EDITS[sid]
    sample = ""
    if sid == "roaring32":
        from pyroaring import BitMap

        bm = BitMap(range(0, 3000, 1))
        bm.run_optimize()
        sample = f"SAMPLE = {bm.serialize()!r}\n"
    root = _regenerated_copy(tmp_path, sid, old, new)
    script = _PRELUDE + sample + textwrap.dedent(probe)
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, f"{sid}: {out.stderr[-3000:]}"


@pytest.mark.node  # the Kaitai compiler regenerates the parsers
@pytest.mark.parametrize("edit", FIELD_EDITS, ids=[e[0] for e in FIELD_EDITS])
def test_field_edit_is_seen_by_the_semantic_layer(edit, tmp_path):
    _name, sid, old, new, probe = edit
    root = _regenerated_copy(tmp_path, sid, old, new)
    script = _PRELUDE + textwrap.dedent(probe)
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, f"{_name}: {out.stderr[-3000:]}"


def test_every_schema_has_an_edit():
    assert set(EDITS) | {e[1] for e in FIELD_EDITS} == {p.stem for p in (REPO / "schemas").glob("*.ksy")}


# ---------------------------------------------------------------------------------------------
# Which generated names the semantic layer depends on, and which edit above moves each one.


def _generated_uses() -> dict[tuple[str, str], set[str]]:
    """``(generated module, name)`` -> the hand-written modules of ``paimon_codec/`` that use it: a name
    imported from ``paimon_codec.generated.construct.<module>``, or an attribute of such a module imported
    whole (``from ..generated.construct import blob_file as _codec`` ... ``_codec.BLOB_FOOTER_SIZE``)."""
    uses: dict[tuple[str, str], set[str]] = {}
    package = REPO / "paimon_codec"
    for path in sorted(package.rglob("*.py")):
        rel = str(path.relative_to(package))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        whole: dict[str, str] = {}  # local alias -> generated module
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.module and "generated" in node.module.split(".")):
                continue
            tail = node.module.split("generated", 1)[1].strip(".")
            for alias in node.names:
                if tail == "construct":
                    whole[alias.asname or alias.name] = alias.name
                elif tail.startswith("construct."):
                    uses.setdefault((tail.split(".", 1)[1], alias.name), set()).add(rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in whole:
                uses.setdefault((whole[node.value.id], node.attr), set()).add(rel)
    return uses


def _fingerprints(construct_dir: Path):
    """A function ``(module, name) -> text`` that changes whenever the generated definition of ``name``
    changes, or the definition of any module-level name it refers to (a Struct's nested types, a
    constant re-exported from ``constants.py``)."""
    modules: dict[str, dict[str, object]] = {}
    for path in construct_dir.glob("*.py"):
        defs: dict[str, object] = {}
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module == "constants":
                for alias in node.names:
                    defs[alias.asname or alias.name] = ("constants", alias.name)
                continue
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in names:
                defs[name] = node
        modules[path.stem] = defs
    memo: dict[tuple[str, str], str] = {}

    def fingerprint(module: str, name: str, seen: frozenset = frozenset()) -> str:
        key = (module, name)
        if key not in memo:
            d = modules[module].get(name)
            if d is None:
                return f"<{module}.{name} is not defined>"
            if isinstance(d, tuple):
                memo[key] = fingerprint(*d)
            else:
                refs = sorted({n.id for n in ast.walk(d) if isinstance(n, ast.Name)} - {name})
                memo[key] = "\n".join([ast.dump(d)] + [fingerprint(module, r, seen | {key}) for r in refs
                                                       if r in modules[module] and (module, r) not in seen])
        return memo[key]

    return fingerprint


def _all_edits() -> list[tuple[str, Any, Any]]:
    return [(sid, old, new) for sid, (old, new, _) in EDITS.items()] + [(e[1], e[2], e[3]) for e in FIELD_EDITS]


def test_every_generated_name_the_semantic_layer_uses_is_moved_by_an_edit(tmp_path):
    """Each generated name a hand-written module uses changes under at least one edit above, whose probe then
    shows the semantic layer following it: a layout restated by hand beside such a name would drift there."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import generate  # noqa: PLC0415
    finally:
        sys.path.remove(str(REPO / "tools"))
    uses = _generated_uses()
    assert ("deletion_vector", "DV_MAGIC_DTYPE") in uses and len(uses) > 100, "the walk is blind"
    base = _fingerprints(REPO / "generated" / "construct")
    moved: set[tuple[str, str]] = set()
    for i, (sid, old, new) in enumerate(_all_edits()):
        # only the codecs the edit can change are regenerated: the edited schema, the schemas importing it and
        # what they import (the constants module then holds theirs only); every other name is unmoved
        schemas, out = _schema_subset(REPO / "schemas", sid, tmp_path / f"s{i}")
        schema = schemas / f"{sid}.ksy"
        schema.write_text(_edited(sid, schema.read_text(), old, new))
        generate.gen_construct(schemas, tmp_path / f"c{i}")
        edited = _fingerprints(tmp_path / f"c{i}")
        moved |= {key for key in uses if (key[0] in out or key[0] == "constants" and not edited(*key).startswith("<"))
                  and edited(*key) != base(*key)}
    unmoved = {key: sorted(uses[key]) for key in sorted(set(uses) - moved)}
    assert not unmoved, f"no schema edit moves these generated names the semantic layer uses: {unmoved}"
