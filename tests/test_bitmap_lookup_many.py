"""``BitmapIndexReader.lookup_many``: many equality lookups in one call answer exactly what one lookup at a
time answers, and what a scan of the raw values answers - V1 and V2, fixed-width and string keys, small
and large dictionaries, repeated, absent, out-of-range and null literals."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.quick_guard import examples
from pyroaring import BitMap

from paimon_codec.errors import PaimonCodecError
from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter

_INT = st.integers(-(2**31), 2**31 - 1)
_BIGINT = st.integers(-(2**63), 2**63 - 1)
_STRING = st.text(alphabet="ab\x00é", max_size=3)


@st.composite
def _case(draw):
    type_name = draw(st.sampled_from(["INT", "BIGINT", "STRING"]))
    pool_values = {"INT": st.integers(-40, 40) | _INT, "BIGINT": st.integers(-40, 40) | _BIGINT,
                   "STRING": _STRING}[type_name]
    size = draw(st.sampled_from([3, 40, 300]))  # 300: past the small-dictionary limit (128 keys)
    pool = draw(st.lists(pool_values, min_size=size, max_size=size, unique=True))
    extra = draw(st.lists(st.one_of(st.none(), st.sampled_from(pool)), max_size=300))
    rows = draw(st.permutations(pool + extra))  # every pool value present
    outside = {"INT": st.integers(2**31, 2**40), "BIGINT": st.integers(2**63, 2**70), "STRING": _STRING}
    literal = st.one_of(st.sampled_from(pool), pool_values, st.none(), outside[type_name] if type_name != "STRING"
                        else _STRING)
    literals = draw(st.lists(literal, max_size=60))
    return type_name, draw(st.sampled_from(["1", "2"])), rows, literals


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_lookup_many_equals_single_lookups_and_a_scan(case):
    type_name, version, rows, literals = case
    w = BitmapIndexWriter(type_name, {"version": version})
    w.write_array(rows)
    payload = w.serialize()
    many = BitmapIndexReader(payload, type_name).lookup_many(literals)
    one_by_one = BitmapIndexReader(payload, type_name)
    assert len(many) == len(literals)
    for lit, got in zip(literals, many, strict=True):
        assert got == one_by_one.lookup(lit) == BitMap(i for i, v in enumerate(rows) if v == lit), lit
    # a reader that answered some literals one at a time first (its cache) answers the rest the same
    mixed = BitmapIndexReader(payload, type_name)
    for lit in literals[::3]:
        mixed.lookup(lit)
    assert mixed.lookup_many(literals) == many
    # IN is the union of the lookups
    assert BitmapIndexReader(payload, type_name).visit_in(literals).bitmap == BitMap.union(BitMap(), *many)


def test_lookup_many_tells_keys_apart_that_share_their_low_bits():
    """The vectorised search narrows by low bits first: keys equal in their low 20 bits (and a literal
    sharing them with no key at all) must still be told apart, each first entry kept."""
    step = 1 << 20
    keys = [k * step + 7 for k in range(-80, 80)] + [5, 5 + step, 5 + 2 * step]
    rows = keys + keys[::-1] + [None]
    w = BitmapIndexWriter("BIGINT", {"version": "1"})
    w.write_array(rows)
    payload = w.serialize()
    literals = [7, 7 + step, 5 + step, 5 + 3 * step, 7 - 200 * step, None, 5]
    got = BitmapIndexReader(payload, "BIGINT").lookup_many(literals)
    for lit, bm in zip(literals, got, strict=True):
        assert bm == BitMap(i for i, v in enumerate(rows) if v == lit), lit


def _outcome(fn):
    try:
        return ("answer", fn())
    except PaimonCodecError:
        return ("refused", None)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_lookup_many_on_mutated_bytes_answers_or_refuses_as_single_lookups(data):
    """Flipped bits in a V1 index (large fixed-width dictionary, string dictionary) or a V2 one: where every
    single lookup answers, ``lookup_many`` gives the same answers; where one of them refuses (our error
    family - a row past the row count, say), so does ``lookup_many``."""
    type_name, version = data.draw(st.sampled_from([("BIGINT", "1"), ("STRING", "1"), ("INT", "2")]))
    keys = [f"k{i}" for i in range(200)] if type_name == "STRING" else list(range(-100, 100))
    rows = [keys[(i * 7) % len(keys)] if i % 13 else None for i in range(600)]
    w = BitmapIndexWriter(type_name, {"version": version})
    w.write_array(rows)
    payload = bytearray(w.serialize())
    start = data.draw(st.sampled_from([0, len(payload) // 3]))  # anywhere, or in the bitmaps
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(start, len(payload) - 1))
        payload[pos] ^= 1 << data.draw(st.integers(0, 7))
    literals = [*keys, None, keys[3]]
    opened = _outcome(lambda: BitmapIndexReader(bytes(payload), type_name))
    if opened[0] == "refused":
        return
    singles = [_outcome(lambda lit=lit: BitmapIndexReader(bytes(payload), type_name).lookup(lit))
               for lit in literals]  # a fresh reader each: one refusal cannot hide another answer
    many = _outcome(lambda: BitmapIndexReader(bytes(payload), type_name).lookup_many(literals))
    if all(kind == "answer" for kind, _ in singles):
        assert many == ("answer", [bm for _, bm in singles])
    else:
        assert many[0] == "refused"
