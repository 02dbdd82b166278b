"""``BitmapIndexReader.lookup_many``: many equality lookups in one call answer exactly what one lookup at a
time answers, and what a scan of the raw values answers - V1 and V2, fixed-width and string keys, small
and large dictionaries, repeated, absent, out-of-range and null literals."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyroaring import BitMap

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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
