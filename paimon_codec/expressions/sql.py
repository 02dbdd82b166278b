"""The SQL-like text form of predicates: :func:`parse_where` and :func:`to_sql`.

Grammar (keywords are case-insensitive; AND binds tighter than OR; NOT binds tightest)::

    expr      := conj (OR conj)*
    conj      := factor (AND factor)*
    factor    := NOT factor | '(' expr ')' | condition
    condition := column cmp literal | literal cmp column
               | column [NOT] IN '(' literal (',' literal)* ')'
               | column [NOT] BETWEEN literal AND literal
               | column IS [NOT] NULL
               | column [NOT] LIKE 'prefix%'
    cmp       := '=' | '==' | '<>' | '!=' | '<' | '<=' | '>' | '>='
    column    := bare identifier (Unicode letters, digits, '_') | `back quoted` | "double quoted"
    literal   := 'string' ('' escapes) | [+-] number | TRUE | FALSE | NULL | NaN | Infinity
               | DATE 'yyyy-mm-dd' | TIME 'hh:mm:ss[.fff]' | TIMESTAMP 'yyyy-mm-dd hh:mm:ss[.f{1,9}]'
               | X'hex'

Numbers: ``12`` is an int, ``1.5`` a ``Decimal`` (exact; coerced to the column type on bind) and
``1.5e3`` a float.  Errors are :class:`InvalidPredicateError` carrying the character ``offset``.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import re
from typing import Any

from ..errors import InvalidPredicateError, PaimonCodecError, UnsupportedFeatureError
from ..types import parse_type
from ..values import parse_literal_text
from . import leaves
from ._sql_render import KEYWORDS, literal_to_sql, quote_identifier, render_sql
from .predicate import And, Or, Predicate
from .visitor import MAX_NESTING

__all__ = ["parse_where", "to_sql", "quote_identifier", "literal_to_sql", "MAX_NESTING"]


def to_sql(pred: Predicate) -> str:
    """Render a predicate as text that :func:`parse_where` parses back to an equal predicate."""
    return render_sql(pred)


_KEYWORDS = KEYWORDS
_CMP: dict[str, type[leaves.LiteralLeaf]] = {
    "=": leaves.EqualTo, "==": leaves.EqualTo, "<>": leaves.NotEqualTo, "!=": leaves.NotEqualTo,
    "<": leaves.LessThan, "<=": leaves.LessThanOrEqual, ">": leaves.GreaterThan, ">=": leaves.GreaterThanOrEqual}
#: ``literal OP column`` read as ``column FLIP(OP) literal``
_FLIP: dict[type[leaves.LiteralLeaf], type[leaves.LiteralLeaf]] = {
    leaves.EqualTo: leaves.EqualTo, leaves.NotEqualTo: leaves.NotEqualTo,
    leaves.LessThan: leaves.GreaterThan, leaves.LessThanOrEqual: leaves.GreaterThanOrEqual,
    leaves.GreaterThan: leaves.LessThan, leaves.GreaterThanOrEqual: leaves.LessThanOrEqual}
_TS9 = parse_type("TIMESTAMP(9)")
_DATE = parse_type("DATE")

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<str>'(?:[^']|'')*')
  | (?P<bq>`(?:[^`]|``)*`)
  | (?P<dq>"(?:[^"]|"")*")
  | (?P<word>[^\W\d]\w*)
  | (?P<op><>|!=|<=|>=|==|[=<>(),+\-])
    """,
    re.VERBOSE,
)


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int) -> None:
        self.kind, self.text, self.pos = kind, text, pos

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == "word" else ""

    def __repr__(self) -> str:
        return f"{self.kind}:{self.text}@{self.pos}"


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            ch = text[pos]
            if ch in "'`\"":
                raise InvalidPredicateError(f"unterminated quote {ch} in predicate", offset=pos)
            raise InvalidPredicateError(f"unexpected character {ch!r} in predicate", offset=pos)
        kind = m.lastgroup
        assert kind is not None  # every alternative of the token pattern is a named group
        if kind != "ws":
            toks.append(_Tok(kind, m.group(), pos))
        pos = m.end()
    toks.append(_Tok("end", "", n))
    return toks


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokenize(text)
        self.n = len(self.toks)
        self.i = 0
        self.depth = 0

    # -- token helpers ---------------------------------------------------------------------
    def peek(self, k: int = 0) -> _Tok:
        j = self.i + k
        return self.toks[j] if j < self.n else self.toks[-1]

    def next(self) -> _Tok:
        t = self.peek()
        self.i += 1
        return t

    def is_kw(self, word: str, k: int = 0) -> bool:
        return self.peek(k).upper == word

    def accept_kw(self, word: str) -> bool:
        if self.is_kw(word):
            self.i += 1
            return True
        return False

    def expect_kw(self, word: str) -> None:
        if not self.accept_kw(word):
            self.fail(f"expected {word}")

    def expect_op(self, op: str) -> None:
        t = self.peek()
        if t.kind != "op" or t.text != op:
            self.fail(f"expected {op!r}")
        self.i += 1

    def fail(self, message: str, tok: _Tok | None = None, *,
             error: type[PaimonCodecError] = InvalidPredicateError) -> None:
        tok = tok or self.peek()
        found = "end of input" if tok.kind == "end" else repr(tok.text)
        raise error(f"{message} at character {tok.pos}, found {found}", offset=tok.pos)

    # -- grammar ---------------------------------------------------------------------------
    def parse(self) -> Predicate:
        if self.peek().kind == "end":
            self.fail("empty predicate")
        p = self.expr()
        if self.peek().kind != "end":
            self.fail("unexpected input")
        return p

    def expr(self) -> Predicate:
        items = [self.conj()]
        while self.accept_kw("OR"):
            items.append(self.conj())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def conj(self) -> Predicate:
        items = [self.factor()]
        while self.accept_kw("AND"):
            items.append(self.factor())
        return items[0] if len(items) == 1 else And(tuple(items))

    def factor(self) -> Predicate:
        t = self.peek()
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.fail(f"predicate nested deeper than {MAX_NESTING} levels", t)
        try:
            if self.accept_kw("NOT"):
                return self.factor().negate()
            if t.kind == "op" and t.text == "(":
                self.i += 1
                p = self.expr()
                self.expect_op(")")
                return p
            return self.condition()
        finally:
            self.depth -= 1

    def _starts_column(self) -> bool:
        t = self.peek()
        if t.kind in ("bq", "dq"):
            return True
        if t.kind != "word" or t.upper in _KEYWORDS:
            return False
        # DATE '...' / TIME '...' / TIMESTAMP '...' / X'..' are literals, not columns
        return not (t.upper in ("DATE", "TIME", "TIMESTAMP", "X") and self.peek(1).kind == "str")

    def column(self) -> str:
        t = self.next()
        if t.kind == "bq":
            return t.text[1:-1].replace("``", "`")
        if t.kind == "dq":
            return t.text[1:-1].replace('""', '"')
        if t.kind == "word" and t.upper not in _KEYWORDS:
            return t.text
        self.i -= 1
        self.fail("expected a column name")
        raise AssertionError  # unreachable

    def condition(self) -> Predicate:
        if not self._starts_column():
            # literal cmp column
            start = self.peek()
            if start.kind in ("end", "bq", "dq") or (start.kind == "op" and start.text not in "+-") or (
                    start.kind == "word" and start.upper in _KEYWORDS - {"TRUE", "FALSE", "NULL"}):
                self.fail("expected a condition (column name)")
            lit = self.literal()
            t = self.next()
            if t.kind != "op" or t.text not in _CMP:
                self.i -= 1
                self.fail("expected a comparison operator")
            name = self.column()
            if lit is None:
                self.fail("NULL cannot be compared; use IS NULL", start)
            return _FLIP[_CMP[t.text]](name, lit)
        name = self.column()
        t = self.peek()
        if t.kind == "op" and t.text in _CMP:
            self.i += 1
            lit_tok = self.peek()
            lit = self.literal()
            if lit is None:
                self.fail("NULL cannot be compared; use IS NULL / IS NOT NULL", lit_tok)
            return _CMP[t.text](name, lit)
        if self.accept_kw("IS"):
            negated = self.accept_kw("NOT")
            self.expect_kw("NULL")
            return leaves.IsNotNull(name) if negated else leaves.IsNull(name)
        negated = self.accept_kw("NOT")
        if self.accept_kw("IN"):
            self.expect_op("(")
            lits = [self.literal()]
            while self.peek().kind == "op" and self.peek().text == ",":
                self.i += 1
                lits.append(self.literal())
            self.expect_op(")")
            return leaves.NotIn(name, lits) if negated else leaves.In(name, lits)
        if self.accept_kw("BETWEEN"):
            lo = self.literal()
            self.expect_kw("AND")
            hi = self.literal()
            leaf = leaves.Between(name, lo, hi)
            return leaf.negate() if negated else leaf
        if self.accept_kw("LIKE"):
            pt = self.peek()
            pattern = self.literal()
            if not isinstance(pattern, str):
                self.fail("LIKE needs a string pattern", pt)
            if "\\" in pattern:  # Paimon 1.4 reads 'a\%' as starts_with 'a\', SQL as = 'a%': refused
                self.fail("a backslash in a LIKE pattern is not supported", pt, error=UnsupportedFeatureError)
            body = pattern[:-1]
            if pattern.endswith("%") and "%" not in body and "_" not in body:
                match: Predicate = leaves.StartsWith(name, body)
            else:
                match = leaves.Like(name, pattern)
            if negated:
                self.fail("NOT LIKE is not supported", pt)
            return match
        self.fail("expected a comparison, IN, BETWEEN, IS [NOT] NULL or LIKE")
        raise AssertionError  # unreachable

    def literal(self) -> Any:
        t = self.next()
        if t.kind == "op" and t.text in "+-":
            sign = -1 if t.text == "-" else 1
            v = self.literal()
            if isinstance(v, bool) or not isinstance(v, (int, float, decimal.Decimal)):
                self.fail("a sign must be followed by a number", t)
            if sign > 0:
                return v
            # Decimal's unary minus rounds to the thread's context (28 digits by default): negate exactly
            return v.copy_negate() if isinstance(v, decimal.Decimal) else -v
        if t.kind == "num":
            s = t.text
            if "e" in s or "E" in s:
                return float(s)
            if "." in s:
                return decimal.Decimal(s)
            return int(s)
        if t.kind == "str":
            return t.text[1:-1].replace("''", "'")
        if t.kind == "word":
            u = t.upper
            if u == "NULL":
                return None
            if u in ("TRUE", "FALSE"):
                return u == "TRUE"
            if u == "NAN":
                return math.nan
            if u in ("INFINITY", "INF"):
                return math.inf
            if u in ("DATE", "TIME", "TIMESTAMP", "X") and self.peek().kind == "str":
                return self._typed(u, self.next())
        self.i -= 1
        self.fail("expected a literal")
        raise AssertionError  # unreachable

    def _typed(self, kind: str, tok: _Tok) -> Any:
        body = tok.text[1:-1].replace("''", "'").strip()
        try:
            if kind == "X":
                return bytes.fromhex(body)
            if kind == "DATE":
                return _dt.date.fromisoformat(body)
            if kind == "TIME":
                hms, _, frac = body.partition(".")
                hh, mm, ss = (int(x) for x in hms.split(":"))
                if frac and (not frac.isdigit() or len(frac) > 9):
                    raise ValueError(body)
                return _dt.time(hh, mm, ss, int((frac + "000000")[:6]))
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?", body):
                raise ValueError(body)
            return parse_literal_text(_TS9, body)
        except (ValueError, PaimonCodecError) as exc:
            raise InvalidPredicateError(
                f"invalid {kind} literal {tok.text} at character {tok.pos}", offset=tok.pos) from exc


def parse_where(text: str) -> Predicate:
    """Parse the SQL-like predicate ``text`` (unbound: literals keep their written types)."""
    if not isinstance(text, str):
        raise InvalidPredicateError(f"a predicate must be text, got {type(text).__name__}")
    return _Parser(text).parse()
