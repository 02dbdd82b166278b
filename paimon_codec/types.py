"""Paimon SQL data types and row schemas.

Parses the type strings Paimon writes in its schema files and golden sidecars
(``INT``, ``VARCHAR(20)``, ``TIMESTAMP(6)``, ``TIMESTAMP(3) WITH LOCAL TIME ZONE``,
``TIMESTAMP_LTZ(3)``, ``DECIMAL(10, 2)``, ``TIME(0)``, ``INT NOT NULL``, ``ARRAY<INT>`` ...) and
row schemas given as ``"a INT, b STRING"`` or a JSON list of ``{"name", "type"}``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .errors import InvalidSchemaError, UnsupportedTypeError

__all__ = ["DataType", "Field", "RowType", "parse_type", "parse_row_type"]

# Root names as Paimon's DataTypeRoot spells them.
_ALIASES = {
    "TINYINT": "TINYINT", "SMALLINT": "SMALLINT", "INT": "INTEGER", "INTEGER": "INTEGER",
    "BIGINT": "BIGINT", "FLOAT": "FLOAT", "DOUBLE": "DOUBLE", "BOOLEAN": "BOOLEAN",
    "DATE": "DATE", "TIME": "TIME_WITHOUT_TIME_ZONE", "TIMESTAMP": "TIMESTAMP_WITHOUT_TIME_ZONE",
    "TIMESTAMP_LTZ": "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "CHAR": "CHAR", "VARCHAR": "VARCHAR",
    "STRING": "VARCHAR", "BINARY": "BINARY", "VARBINARY": "VARBINARY", "BYTES": "VARBINARY",
    "DECIMAL": "DECIMAL", "NUMERIC": "DECIMAL", "DEC": "DECIMAL", "ARRAY": "ARRAY", "MAP": "MAP",
    "MULTISET": "MULTISET", "ROW": "ROW", "VARIANT": "VARIANT", "BLOB": "BLOB",
}
_MAX_LEN = 2147483647


@dataclass(frozen=True)
class DataType:
    """A Paimon data type. ``root`` is the DataTypeRoot name (e.g. ``INTEGER``, ``VARCHAR``)."""

    root: str
    nullable: bool = True
    precision: int | None = None  # TIME/TIMESTAMP precision, DECIMAL precision
    scale: int | None = None  # DECIMAL scale
    length: int | None = None  # CHAR/VARCHAR/BINARY/VARBINARY length
    children: tuple[DataType, ...] = field(default=())
    field_names: tuple[str, ...] = field(default=())

    @property
    def is_string(self) -> bool:
        return self.root in ("CHAR", "VARCHAR")

    @property
    def is_binary(self) -> bool:
        return self.root in ("BINARY", "VARBINARY")

    @property
    def is_timestamp(self) -> bool:
        return self.root in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE")

    @property
    def is_integer(self) -> bool:
        return self.root in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT")

    def not_null(self) -> DataType:
        return DataType(self.root, False, self.precision, self.scale, self.length, self.children, self.field_names)

    def __str__(self) -> str:
        r = self.root
        if r == "INTEGER":
            s = "INT"
        elif r == "VARCHAR":
            s = "STRING" if self.length in (None, _MAX_LEN) else f"VARCHAR({self.length})"
        elif r == "VARBINARY":
            s = "BYTES" if self.length in (None, _MAX_LEN) else f"VARBINARY({self.length})"
        elif r in ("CHAR", "BINARY"):
            s = f"{r}({self.length})"
        elif r == "DECIMAL":
            s = f"DECIMAL({self.precision}, {self.scale})"
        elif r == "TIME_WITHOUT_TIME_ZONE":
            s = f"TIME({self.precision})"
        elif r == "TIMESTAMP_WITHOUT_TIME_ZONE":
            s = f"TIMESTAMP({self.precision})"
        elif r == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
            s = f"TIMESTAMP({self.precision}) WITH LOCAL TIME ZONE"
        elif r == "ARRAY":
            s = f"ARRAY<{self.children[0]}>"
        elif r == "MULTISET":
            s = f"MULTISET<{self.children[0]}>"
        elif r == "MAP":
            s = f"MAP<{self.children[0]}, {self.children[1]}>"
        elif r == "ROW":
            s = "ROW<" + ", ".join(f"{n} {t}" for n, t in zip(self.field_names, self.children, strict=True)) + ">"
        else:
            s = r
        return s if self.nullable else s + " NOT NULL"


@dataclass(frozen=True)
class Field:
    name: str
    type: DataType
    id: int | None = None


@dataclass(frozen=True)
class RowType:
    fields: tuple[Field, ...]

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def index_of(self, name: str) -> int:
        for i, f in enumerate(self.fields):
            if f.name == name:
                return i
        raise UnsupportedTypeError(f"unknown column {name!r}", expected="one of " + ", ".join(self.names))

    def field(self, name: str) -> Field:
        return self.fields[self.index_of(name)]

    def __iter__(self):
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __str__(self) -> str:
        return ", ".join(f"{f.name} {f.type}" for f in self.fields)


#: Bounds on a type text (types come from untrusted schema files and command lines): the deepest
#: nesting Paimon tables use is a handful of levels; 64 keeps recursion far from Python's limit.
MAX_TYPE_DEPTH = 64
MAX_TYPE_TEXT = 1 << 20


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 200 else repr(text[:200]) + f"... ({len(text)} characters)"


class _Parser:
    _token = re.compile(r"\s*(?:(?P<word>[A-Za-z_][A-Za-z_0-9]*)|(?P<num>\d+)|(?P<q>`(?:[^`]|``)*`)|(?P<p>[(),<>]))")

    def __init__(self, text: str) -> None:
        if len(text) > MAX_TYPE_TEXT:
            raise UnsupportedTypeError(f"type text of {len(text)} characters", expected=f"at most {MAX_TYPE_TEXT}")
        self.text = text
        self.shown = _shown(text)
        self.tokens: list[str] = []
        pos, end = 0, len(text.rstrip())  # one pass: no re-scan of the rest per token
        while pos < end:
            m = self._token.match(text, pos)
            if not m or m.end() == pos or m.lastgroup is None:
                raise InvalidSchemaError(f"cannot parse type {self.shown} at character {pos}")
            self.tokens.append(m.group(m.lastgroup))
            pos = m.end()
        self.i = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def peek_word(self) -> str:
        """The next token upper-cased, "" at the end (for keyword look-ahead)."""
        tok = self.peek()
        return tok.upper() if tok is not None else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok.upper() != expected):
            raise InvalidSchemaError(f"cannot parse type {self.shown}", expected=expected or "more input")
        self.i += 1
        return tok

    def number(self) -> int:
        tok = self.take()
        if not (tok.isascii() and tok.isdigit()) or len(tok) > 10:
            raise InvalidSchemaError(f"cannot parse type {self.shown}", expected="a number below 2**31")
        return int(tok)

    def args(self) -> list[int]:
        out: list[int] = []
        if self.peek() == "(":
            self.take()
            out.append(self.number())
            while self.peek() == ",":
                self.take()
                out.append(self.number())
            self.take(")")
        return out

    def parse_type(self) -> DataType:
        self.depth += 1
        if self.depth > MAX_TYPE_DEPTH:
            raise UnsupportedTypeError(f"type nested deeper than {MAX_TYPE_DEPTH} levels in {self.shown}",
                                       expected=f"at most {MAX_TYPE_DEPTH} levels")
        try:
            return self._parse_type()
        finally:
            self.depth -= 1

    def _parse_type(self) -> DataType:
        word = self.take().upper()
        if word not in _ALIASES:
            raise UnsupportedTypeError(f"unknown type {word[:100]!r} in {self.shown}",
                                       expected="a Paimon type name (INT, STRING, DECIMAL(p, s), ARRAY<...>, ...)")
        root = _ALIASES[word]
        kw: dict = {}
        if root in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
            a = self.args()
            if word in ("STRING", "BYTES"):
                kw["length"] = _MAX_LEN
            else:
                kw["length"] = a[0] if a else (1 if root in ("CHAR", "BINARY") else _MAX_LEN)
        elif root == "DECIMAL":
            a = self.args()
            kw["precision"] = a[0] if a else 10
            kw["scale"] = a[1] if len(a) > 1 else 0
        elif root == "TIME_WITHOUT_TIME_ZONE":
            a = self.args()
            kw["precision"] = a[0] if a else 0
        elif root in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
            a = self.args()
            kw["precision"] = a[0] if a else 6
            if root == "TIMESTAMP_WITHOUT_TIME_ZONE" and self.peek_word() == "WITH":
                self.take()
                self.take("LOCAL")
                self.take("TIME")
                self.take("ZONE")
                root = "TIMESTAMP_WITH_LOCAL_TIME_ZONE"
            elif self.peek_word() == "WITHOUT":
                self.take()
                self.take("TIME")
                self.take("ZONE")
        elif root in ("ARRAY", "MULTISET"):
            self.take("<")
            kw["children"] = (self.parse_type(),)
            self.take(">")
        elif root == "MAP":
            self.take("<")
            k = self.parse_type()
            self.take(",")
            v = self.parse_type()
            self.take(">")
            kw["children"] = (k, v)
        elif root == "ROW":
            self.take("<")
            names, kids = [], []
            while True:
                name = self.take()
                names.append(name.strip("`").replace("``", "`"))
                kids.append(self.parse_type())
                if self.peek() == ",":
                    self.take()
                    continue
                break
            self.take(">")
            kw["children"], kw["field_names"] = tuple(kids), tuple(names)
        nullable = True
        if self.peek_word() == "NOT":
            self.take()
            self.take("NULL")
            nullable = False
        elif self.peek_word() == "NULL":
            self.take()
        return DataType(root, nullable, **kw)


def parse_type(text: str | DataType) -> DataType:
    """Parse a Paimon SQL type string (``DataType`` values pass through)."""
    if isinstance(text, DataType):
        return text
    p = _Parser(str(text))
    t = p.parse_type()
    if p.peek() is not None:
        raise InvalidSchemaError(f"trailing input in type {p.shown}", expected="end of type")
    return t


def _field_of(d: object) -> Field:
    """One ``{"name", "type"[, "id"]}`` entry of a JSON row schema."""
    if not isinstance(d, dict) or "name" not in d or "type" not in d:
        raise InvalidSchemaError(f"row schema entry {_shown(repr(d))} is not an object with 'name' and 'type'")
    return Field(str(d["name"]), parse_type(d["type"]), d.get("id"))


def parse_row_type(spec: str | list | RowType) -> RowType:
    """Parse ``"a INT, b STRING"``, a JSON list of ``{"name", "type"}`` (text or list), or pass through."""
    if isinstance(spec, RowType):
        return spec
    if isinstance(spec, str) and spec.lstrip().startswith("["):
        try:
            spec = json.loads(spec)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise InvalidSchemaError(f"row schema is not valid JSON: {exc}") from None
    if isinstance(spec, list):
        return RowType(tuple(_field_of(d) for d in spec))
    if not isinstance(spec, str):
        raise InvalidSchemaError(f"row schema {_shown(repr(spec))} is not text, a JSON list or a RowType")
    fields = []
    depth, start = 0, 0
    parts = []
    for i, ch in enumerate(spec):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(spec[start:i])
            start = i + 1
    parts.append(spec[start:])
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if part.startswith("`"):
            end = part.find("`", 1)
            if end < 0:
                raise InvalidSchemaError(f"unclosed backtick in column {part!r}", expected="`name`")
            name, rest = part[1:end], part[end + 1:]
        else:
            name, _, rest = part.partition(" ")
        if not rest.strip():
            raise InvalidSchemaError(f"column {name!r} has no type in schema {_shown(spec)}")
        fields.append(Field(name, parse_type(rest.strip())))
    return RowType(tuple(fields))
