"""Malformed input to the shared core (row schemas, position sets) raises the PaimonCodecError family."""

from __future__ import annotations

import pytest

from paimon_codec.errors import PaimonCodecError, UnsupportedTypeError
from paimon_codec.types import parse_row_type


@pytest.mark.parametrize("spec", [
    "[ROW<",                      # not JSON
    "[1]",                        # entry not an object
    '[{"name": "a"}]',            # entry without a type
    '[{"type": "INT"}]',          # entry without a name
    "`a INT",                     # unclosed backtick
    "[" * 100_000,                # nested too deeply for the JSON decoder
])
def test_bad_row_schema_is_an_unsupported_type(spec: str) -> None:
    with pytest.raises(UnsupportedTypeError):
        parse_row_type(spec)


def test_good_row_schemas_still_parse() -> None:
    a = parse_row_type('[{"name": "a", "type": "INT", "id": 3}, {"name": "b c", "type": "STRING"}]')
    b = parse_row_type("a INT, `b c` STRING")
    assert [(f.name, str(f.type)) for f in a.fields] == [("a", "INT"), ("b c", "STRING")]
    assert [(f.name, str(f.type)) for f in b.fields] == [("a", "INT"), ("b c", "STRING")]
    assert a.fields[0].id == 3
    assert issubclass(UnsupportedTypeError, PaimonCodecError)
