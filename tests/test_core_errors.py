"""Malformed input to the shared core (row schemas, position sets) raises the PaimonCodecError family."""

from __future__ import annotations

import pytest

from paimon_codec.errors import (
    CorruptDataError,
    InvalidSchemaError,
    PaimonCodecError,
    UnsupportedFeatureError,
    UnsupportedTypeError,
)
from paimon_codec.positions import positions_from_json
from paimon_codec.types import parse_row_type


@pytest.mark.parametrize("spec", [
    "[ROW<",                      # not JSON
    "[1]",                        # entry not an object
    '[{"name": "a"}]',            # entry without a type
    '[{"type": "INT"}]',          # entry without a name
    "`a INT",                     # unclosed backtick
    "[" * 100_000,                # nested too deeply for the JSON decoder
])
def test_bad_row_schema_is_an_invalid_schema(spec: str) -> None:
    with pytest.raises(InvalidSchemaError) as info:
        parse_row_type(spec)
    assert isinstance(info.value, ValueError) and not isinstance(info.value, UnsupportedFeatureError)


def test_good_row_schemas_still_parse() -> None:
    a = parse_row_type('[{"name": "a", "type": "INT", "id": 3}, {"name": "b c", "type": "STRING"}]')
    b = parse_row_type("a INT, `b c` STRING")
    assert [(f.name, str(f.type)) for f in a.fields] == [("a", "INT"), ("b c", "STRING")]
    assert [(f.name, str(f.type)) for f in b.fields] == [("a", "INT"), ("b c", "STRING")]
    assert a.fields[0].id == 3
    assert issubclass(UnsupportedTypeError, PaimonCodecError)


@pytest.mark.parametrize("obj", [
    {"ranges": [[-1, 3]]},                           # negative position
    {"ranges": [1]},                                 # not [start, end) pairs
    {"bitset_hex": "zz"},                            # bad hex
    {},                                              # neither form
    {"ranges": [[0, 2]], "cardinality": "x"},        # cardinality not an int
    {"ranges": [[0, 2]], "cardinality": 3},          # cardinality does not match
])
def test_bad_position_set_is_corrupt_data(obj: dict) -> None:
    with pytest.raises(CorruptDataError):
        positions_from_json(obj)


def test_position_set_forms_agree() -> None:
    by_ranges = positions_from_json({"cardinality": 5, "ranges": [[0, 4], [9, 10]]})
    by_bits = positions_from_json({"cardinality": 5, "bitset_len": 12, "bitset_hex": "0f02"})
    wide = positions_from_json({"bitset_len": 12, "bitset_hex": "0f02"}, wide=True)
    assert list(by_ranges) == list(by_bits) == list(wide) == [0, 1, 2, 3, 9]


@pytest.mark.parametrize("where", ['{"op": ', "[" * 100_000])
def test_bad_where_json_is_an_invalid_predicate(where: str) -> None:
    from paimon_codec.errors import InvalidPredicateError
    from paimon_codec.planning.plan import as_predicate

    with pytest.raises(InvalidPredicateError):
        as_predicate(where, parse_row_type("a INT"))
