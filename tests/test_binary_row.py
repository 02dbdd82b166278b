"""paimon_codec.binary_row: one layout, both ways - round trips for every type, Java's rows, bad bytes."""

from __future__ import annotations

import decimal
import io
import math
import struct

import numpy as np
import pytest
from conftest import GOLDEN_09, latest_cases, load_json
from hypothesis import given, settings
from hypothesis import strategies as st

from paimon_codec.binary_row import (
    EMPTY_ROW,
    BinaryRowCodec,
    decode_binary_row,
    decode_serialized_row,
    encode_binary_row,
    null_bits_size,
    serialize_binary_row,
)
from paimon_codec.errors import CorruptDataError, PaimonCodecError, TruncatedDataError, UnsupportedTypeError
from paimon_codec.values import Timestamp, decimal_unscaled, from_json

BINROW_09 = sorted((GOLDEN_09 / "binary_row").glob("*.json"))
HASH_LATEST = latest_cases("hash-index")

I64 = st.integers(-(1 << 63), (1 << 63) - 1)
MILLIS = st.integers(-(1 << 50), 1 << 50)


def _decimals(precision: int, scale: int) -> st.SearchStrategy:
    bound = 10 ** precision - 1
    return st.integers(-bound, bound).map(lambda u: decimal.Decimal(u).scaleb(-scale, decimal.Context(prec=60)))


# (type, strategy of its Python values) - every atomic type, compact and non-compact variants
FIELD_TYPES: list[tuple[str, st.SearchStrategy]] = [
    ("BOOLEAN", st.booleans()),
    ("TINYINT", st.integers(-128, 127)),
    ("SMALLINT", st.integers(-(1 << 15), (1 << 15) - 1)),
    ("INT", st.integers(-(1 << 31), (1 << 31) - 1)),
    ("BIGINT", I64),
    ("FLOAT", st.floats(width=32, allow_nan=False)),
    ("DOUBLE", st.floats(allow_nan=False)),
    ("DATE", st.integers(-(1 << 31), (1 << 31) - 1)),
    ("TIME", st.integers(0, 86_399_999)),
    ("TIMESTAMP(3)", MILLIS.map(lambda m: Timestamp(m, 0))),
    ("TIMESTAMP(6)", st.builds(Timestamp, MILLIS, st.integers(0, 999).map(lambda u: u * 1000))),
    ("TIMESTAMP(9)", st.builds(Timestamp, MILLIS, st.integers(0, 999_999))),
    ("TIMESTAMP_LTZ(3)", MILLIS.map(lambda m: Timestamp(m, 0))),
    ("TIMESTAMP_LTZ(9)", st.builds(Timestamp, MILLIS, st.integers(0, 999_999))),
    ("DECIMAL(10, 2)", _decimals(10, 2)),
    ("DECIMAL(18, 0)", _decimals(18, 0)),
    ("DECIMAL(19, 4)", _decimals(19, 4)),
    ("DECIMAL(38, 10)", _decimals(38, 10)),
    ("CHAR(5)", st.text(max_size=5)),
    ("VARCHAR(40)", st.text(max_size=40)),
    ("STRING", st.text(max_size=30)),
    ("BINARY(7)", st.binary(min_size=7, max_size=7)),
    ("BINARY(12)", st.binary(min_size=12, max_size=12)),
    ("BYTES", st.binary(max_size=24)),
]


@st.composite
def rows(draw, min_fields: int = 1, max_fields: int = 12):
    picks = draw(st.lists(st.sampled_from(FIELD_TYPES), min_size=min_fields, max_size=max_fields))
    values = [draw(st.one_of(st.none(), strategy)) for _, strategy in picks]
    return [t for t, _ in picks], values


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        return a == b
    return type(a) is type(b) and a == b


def _assert_row(got: tuple, want: list) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert _same(g, w), (g, w)


@settings(max_examples=300, deadline=None)
@given(rows())
def test_every_type_round_trips(row):
    types, values = row
    codec = BinaryRowCodec(types)
    data = codec.encode(values)
    assert len(data) % 8 == 0 and len(data) >= codec.fixed_size
    _assert_row(codec.decode(data), values)
    _assert_row(codec.decode_serialized(codec.serialize(values)), values)
    assert codec.encode(list(codec.decode(data))) == data  # decode -> encode gives the same bytes


@settings(max_examples=25, deadline=None)
@given(rows(min_fields=70, max_fields=90))
def test_wide_rows_use_more_null_words(row):
    types, values = row
    codec = BinaryRowCodec(types)
    assert codec.header == null_bits_size(len(types)) == 16  # 8 header bits + 70..90 null bits
    data = codec.encode(values)
    for i, v in enumerate(values):
        bit = i + 8
        assert bool(data[bit >> 3] & (1 << (bit & 7))) == (v is None)
    _assert_row(decode_binary_row(data, types), values)


def test_layout_details_of_inline_long_and_non_compact_fields():
    types = ["STRING", "STRING", "BINARY(3)", "TIMESTAMP(6)", "DECIMAL(20, 2)", "DECIMAL(20, 2)", "INT"]
    values = ["1234567", "12345678", b"\x00\xff\x01", Timestamp(-5, 999_999), decimal.Decimal("-1.28"), None, -1]
    data = encode_binary_row(types, values)
    header, fixed = 8, 8 + 7 * 8
    slot = [data[header + 8 * i:header + 8 * i + 8] for i in range(7)]
    assert slot[0] == b"1234567" + bytes([0x87])  # 7 bytes still inline
    assert int.from_bytes(slot[1], "little") == (fixed << 32) | 8
    assert data[fixed:fixed + 8] == b"12345678"
    assert slot[2] == b"\x00\xff\x01" + bytes(4) + bytes([0x83])
    assert int.from_bytes(slot[3], "little") == ((fixed + 8) << 32) | 999_999
    assert data[fixed + 8:fixed + 16] == struct.pack("<q", -5)
    assert int.from_bytes(slot[4], "little") == ((fixed + 16) << 32) | 1
    assert data[fixed + 16:fixed + 32] == b"\x80" + bytes(15)
    assert int.from_bytes(slot[5], "little") == (fixed + 32) << 32  # null, bytes still reserved
    assert data[1] == 1 << (5 + 8 - 8)
    assert slot[6] == struct.pack("<i", -1) + bytes(4)
    assert len(data) == fixed + 8 + 8 + 16 + 16
    _assert_row(decode_binary_row(data, types), values)


def test_decimal_38_digits_is_exact():
    v = decimal.Decimal("-1234567890123456789012345678.9012345678")
    data = encode_binary_row(["DECIMAL(38, 10)"], [v])
    assert decode_binary_row(data, ["DECIMAL(38, 10)"]) == (v,)
    assert decimal_unscaled(v, 10) == -12345678901234567890123456789012345678
    with pytest.raises(PaimonCodecError):
        encode_binary_row(["DECIMAL(38, 0)"], [decimal.Decimal(10) ** 40])


def test_empty_row_and_serialized_form():
    assert encode_binary_row([], []) == EMPTY_ROW == bytes(8)
    assert decode_binary_row(EMPTY_ROW, "") == ()
    assert serialize_binary_row("INT, STRING", [1, "x"])[:4] == b"\x00\x00\x00\x02"
    assert decode_serialized_row(serialize_binary_row("INT, DECIMAL(20, 2)", [1, None]),
                                 "INT, DECIMAL(20, 2)") == (1, None)


@pytest.mark.parametrize("path", BINROW_09, ids=lambda p: p.stem)
def test_java_09_rows_decode_to_their_keys(path):
    side = load_json(path)
    codec = BinaryRowCodec(side["key_types"])
    for r in side["rows"]:
        want = [from_json(t, v) for t, v in zip(codec.types, r["key"], strict=True)]
        data = bytes.fromhex(r["binary_row_hex"])
        _assert_row(codec.decode(data), want)
        assert codec.encode(want) == data


@pytest.mark.parametrize("case", HASH_LATEST, ids=[c["case"] for c in HASH_LATEST])
def test_java_latest_key_rows_decode_to_their_keys(case):
    side = load_json(case["json"])
    codec = BinaryRowCodec(side["key_types"])
    assert BinaryRowCodec([]).decode(bytes.fromhex(side["empty_partition_row_hex"])) == ()
    for key, hexrow in zip(side["keys"], side["binary_rows_hex"], strict=True):
        want = [from_json(t, v) for t, v in zip(codec.types, key, strict=True)]
        data = bytes.fromhex(hexrow)
        _assert_row(codec.decode(data), want)
        assert codec.encode(want) == data


def test_vectorised_columns_decode_back():
    types = ["TINYINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "BOOLEAN", "TIMESTAMP(3)", "DECIMAL(12, 3)"]
    codec = BinaryRowCodec(types)
    rng = np.random.default_rng(3)
    n = 64
    cols = [rng.integers(-128, 128, n), rng.integers(-2**31, 2**31, n), rng.integers(-2**62, 2**62, n),
            rng.standard_normal(n).astype(np.float32), rng.standard_normal(n), rng.integers(0, 2, n).astype(bool),
            rng.integers(-2**40, 2**40, n), rng.integers(-10**11, 10**11, n)]
    nulls = [rng.random(n) < 0.25 for _ in types]
    matrix = codec.encode_columns(cols, nulls)
    for r in range(n):
        got = codec.decode(bytes(matrix[r]))
        for i, t in enumerate(types):
            if nulls[i][r]:
                assert got[i] is None
            elif t == "TIMESTAMP(3)":
                assert got[i] == Timestamp(int(cols[i][r]), 0)
            elif t.startswith("DECIMAL"):
                assert got[i] == decimal.Decimal(int(cols[i][r])).scaleb(-3)
            elif t == "BOOLEAN":
                assert got[i] is bool(cols[i][r])
            else:
                assert got[i] == cols[i][r].item()


def test_bad_values_are_refused_when_encoding():
    codec = BinaryRowCodec("TINYINT, INT, FLOAT, STRING, TIMESTAMP(6)")
    for bad in ([128, 0, 0.0, "", None], [0, True, 0.0, "", None], [0, 0, "x", "", None],
                [0, 0, 1e300, "", None], [0, 0, 0.0, 5, None], [0, 0, 0.0, "", Timestamp(0, 1_000_000)],
                [0, 0, 0.0, "\ud800", None], [0, 0, 0.0]):
        with pytest.raises(PaimonCodecError):
            codec.encode(bad)
    with pytest.raises(UnsupportedTypeError):
        BinaryRowCodec(["ARRAY<INT>"])
    with pytest.raises(UnsupportedTypeError):
        decode_binary_row(bytes(16), ["MAP<INT, INT>"])


def test_corrupt_rows_are_refused_when_decoding():
    types = ["STRING", "TIMESTAMP(9)", "DECIMAL(30, 2)"]
    codec = BinaryRowCodec(types)
    good = bytearray(codec.encode(["a longer string", Timestamp(1, 2), decimal.Decimal("3.14")]))
    assert codec.decode(good)[0] == "a longer string"
    with pytest.raises(TruncatedDataError):
        codec.decode(good[:codec.fixed_size - 1])
    with pytest.raises(TruncatedDataError):  # variable part cut off
        codec.decode(good[:codec.fixed_size + 8])
    bad = bytearray(good)
    bad[8:16] = ((len(good) << 32) | 4).to_bytes(8, "little")  # string offset past the end
    with pytest.raises(TruncatedDataError):
        codec.decode(bad)
    bad = bytearray(good)
    bad[8:16] = b"abc" + bytes(4) + bytes([0x8F])  # inline length 15
    with pytest.raises(CorruptDataError):
        codec.decode(bad)
    bad = bytearray(good)
    bad[8:16] = b"\xff\xfe" + bytes(5) + bytes([0x82])  # not UTF-8
    with pytest.raises(CorruptDataError):
        codec.decode(bad)
    bad = bytearray(good)
    word = int.from_bytes(bad[16:24], "little")
    bad[16:24] = ((word >> 32 << 32) | 1_000_000).to_bytes(8, "little")  # nanos of milli too large
    with pytest.raises(CorruptDataError):
        codec.decode(bad)
    bad = bytearray(good)
    bad[24:32] = ((1 << 31 << 32) | 16).to_bytes(8, "little")  # decimal bytes far past the end
    with pytest.raises(TruncatedDataError):
        codec.decode(bad)
    serialized = codec.serialize([None, None, None])
    with pytest.raises(CorruptDataError):
        decode_serialized_row(b"\x00\x00\x00\x02" + serialized[4:], types)
    with pytest.raises(TruncatedDataError):
        decode_serialized_row(b"\x00\x00", types)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["INT", "BIGINT", "STRING", "BYTES", "DOUBLE", "BOOLEAN", "DECIMAL(30, 2)",
                                 "TIMESTAMP(6)", "SMALLINT"]), min_size=0, max_size=70), st.randoms())
def test_rows_we_write_parse_with_both_generated_codecs(types, rnd):
    """binary_row.ksy is the layout our encoder writes: the generated Construct codec parses and rebuilds
    every row byte for byte, the Kaitai parser finds the same fixed size, null bits and slot words."""
    from kaitaistruct import KaitaiStream

    from paimon_codec.generated.construct.serialized_binary_row import SerializedBinaryRow
    from paimon_codec.generated.kaitai.serialized_binary_row import SerializedBinaryRow as KaitaiRow

    samples = {"INT": 7, "BIGINT": -2**40, "STRING": "a string longer than seven bytes", "BYTES": b"ab",
               "DOUBLE": 0.5, "BOOLEAN": True, "DECIMAL(30, 2)": decimal.Decimal("-12.34"),
               "TIMESTAMP(6)": Timestamp(10**12, 999), "SMALLINT": -3}
    values = [None if rnd.random() < 0.3 else samples[t] for t in types]
    data = serialize_binary_row(types, values)
    parsed = SerializedBinaryRow.parse(data)
    assert parsed["head"]["arity"] == len(types)
    assert SerializedBinaryRow.build(parsed) == data
    k = KaitaiRow(KaitaiStream(io.BytesIO(data)))
    codec = BinaryRowCodec(types)
    assert k.row.fixed_size == codec.fixed_size == 1 + len(parsed["row"]["null_bits"]) + 8 * len(types)
    assert list(k.row.slots) == [int(w) for w in parsed["row"]["slots"]]
    nulls = bytes(parsed["row"]["null_bits"])
    assert [bool(nulls[i >> 3] >> (i & 7) & 1) for i in range(len(types))] == [v is None for v in values]
    assert decode_serialized_row(data, types) == tuple(values)
