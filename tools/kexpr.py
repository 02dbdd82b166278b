"""A small translator from the Kaitai Struct expression language to Python source.

Only the subset the schemas in ``schemas/`` use is supported: literals, names, ``_root``,
``_parent``, ``_index``, ``_io`` (``.size``, ``.pos``, ``.eof``), ``_`` (the current value in
``valid: expr`` / ``repeat-until``), attribute and index access, ``.length``/``.size`` of lists and
byte arrays, arithmetic, bitwise and comparison operators, ``not``/``and``/``or`` and the ternary
``c ? a : b``, enum members ``enum::member`` (``.to_i``), which become the generated constants
``ENUM_MEMBER`` (see ``enum_constant``), and ``sizeof<type>`` (resolved as the name ``"sizeof<type>"``: the
generator answers with the fixed byte size of a type of plain numbers).  Integer ``/`` becomes ``//``.  Name resolution is delegated to a callback so the
same parser serves the Construct backend (context lookups) and the dtype analysis.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(
    r"\s*(?:(?P<num>0[xX][0-9a-fA-F_]+|0[bB][01_]+|\d[\d_]*(?:\.\d+)?)"
    r"|(?P<str>\"(?:[^\"\\]|\\.)*\"|'[^']*')"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>::|==|!=|<=|>=|<<|>>|[-+*/%<>&|^~?:()\[\].,]))"
)


class ExprError(ValueError):
    pass


def tokenize(src: str) -> list[tuple[str, str]]:
    pos, out = 0, []
    src = str(src)
    while pos < len(src):
        if src[pos:].strip() == "":
            break
        m = _TOKEN.match(src, pos)
        if not m or m.end() == pos:
            raise ExprError(f"cannot tokenize {src!r} at {pos}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    out.append(("end", ""))
    return out


@dataclass
class Node:
    kind: str  # num str bool name attr index call bin un tern sizeof
    a: object = None
    b: object = None
    c: object = None


_BIN = [
    ("or",), ("and",), ("==", "!=", "<", "<=", ">", ">="), ("|",), ("^",), ("&",), ("<<", ">>"),
    ("+", "-"), ("*", "/", "%"),
]


class Parser:
    def __init__(self, src: str) -> None:
        self.toks = tokenize(src)
        self.i = 0
        self.src = src

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i]

    def take(self, val: str | None = None) -> tuple[str, str]:
        t = self.toks[self.i]
        if val is not None and t[1] != val:
            raise ExprError(f"expected {val!r} in {self.src!r}, got {t[1]!r}")
        self.i += 1
        return t

    def parse(self) -> Node:
        n = self.ternary()
        if self.peek()[0] != "end":
            raise ExprError(f"trailing input in {self.src!r}: {self.peek()[1]!r}")
        return n

    def ternary(self) -> Node:
        c = self.binary(0)
        if self.peek()[1] == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return Node("tern", c, a, b)
        return c

    def binary(self, level: int) -> Node:
        if level == len(_BIN):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek()[1] in _BIN[level]:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = Node("bin", op, left, right)
        return left

    def unary(self) -> Node:
        t = self.peek()
        if t[1] in ("-", "~", "not"):
            self.take()
            return Node("un", t[1], self.unary())
        return self.postfix()

    def postfix(self) -> Node:
        n = self.primary()
        while True:
            t = self.peek()
            if t[1] == ".":
                self.take()
                name = self.take()[1]
                n = Node("attr", n, name)
            elif t[1] == "[":
                self.take()
                idx = self.ternary()
                self.take("]")
                n = Node("index", n, idx)
            else:
                return n

    def primary(self) -> Node:
        kind, val = self.take()
        if kind == "num":
            return Node("num", val.replace("_", ""))
        if kind == "str":
            return Node("str", val)
        if kind == "name":
            if val in ("true", "false"):
                return Node("bool", val == "true")
            if val == "sizeof" and self.peek()[1] == "<":
                self.take("<")
                name = self.take()[1]
                self.take(">")
                return Node("sizeof", name)
            if self.peek()[1] == "::":
                self.take("::")
                return Node("enum", val, self.take()[1])
            return Node("name", val)
        if val == "(":
            n = self.ternary()
            self.take(")")
            return n
        raise ExprError(f"unexpected {val!r} in {self.src!r}")


def parse(src: object) -> Node:
    if isinstance(src, bool):
        return Node("bool", src)
    if isinstance(src, int):
        return Node("num", str(src))
    return Parser(str(src)).parse()


def emit(node: Node, resolve: Callable[[str], str], parent_step: Callable[[int], str] | None = None) -> str:
    """Python source for ``node``; ``resolve(name)`` gives the code of a bare name."""

    def go(n: Node) -> str:
        k = n.kind
        if k == "num":
            return n.a  # type: ignore[return-value]
        if k == "str":
            s = n.a[1:-1]  # type: ignore[index]
            return repr(s)
        if k == "bool":
            return "True" if n.a else "False"
        if k == "name":
            return resolve(n.a)  # type: ignore[arg-type]
        if k == "enum":
            return enum_constant(n.a, n.b)  # type: ignore[arg-type]
        if k == "sizeof":
            return resolve(f"sizeof<{n.a}>")  # the resolver knows the schema's types and their sizes
        if k == "attr":
            base, name = n.a, n.b
            if isinstance(base, Node) and base.kind == "name" and base.a == "_io" or (
                    isinstance(base, Node) and base.kind == "attr" and base.b == "_io"):
                b = go(base)
                if name == "size":
                    return f"_rt.io_size({b})"
                if name == "pos":
                    return f"{b}.tell()"
                if name == "eof":
                    return f"_rt.io_eof({b})"
                raise ExprError(f"unsupported _io.{name}")
            if name == "to_i" and isinstance(base, Node) and base.kind == "enum":
                return go(base)  # the generated constant is already an int
            b = go(base)
            if name in ("length", "size"):
                return f"len({b})"
            if name == "to_i":
                return f"int({b})"
            if name == "_parent":
                return f"{b}['_']"
            if name == "_io":
                return f"{b}['_io']"
            return f"{b}[{name!r}]"
        if k == "index":
            return f"{go(n.a)}[{go(n.b)}]"
        if k == "un":
            op = n.a
            return f"({'not ' if op == 'not' else op}{go(n.b)})"
        if k == "bin":
            op = n.a
            if op == "/":
                op = "//"
            return f"({go(n.b)} {op} {go(n.c)})"
        if k == "tern":
            return f"({go(n.b)} if {go(n.a)} else {go(n.c)})"
        raise ExprError(k)

    return go(node)


def enum_constant(enum: str, member: str) -> str:
    """Name of the generated constant for the schema enum member ``enum::member`` (``ENUM_MEMBER``)."""
    return f"{enum}_{member}".upper()


_ENUM_REF = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)(?:\.to_i)?\s*")


def enum_ref(src: object) -> str | None:
    """The generated constant's name if ``src`` is ``enum::member`` (optionally ``.to_i``), else None."""
    m = _ENUM_REF.fullmatch(src) if isinstance(src, str) else None
    return enum_constant(m.group(1), m.group(2)) if m else None


def bare_name(src: object) -> str | None:
    """The name if ``src`` is a plain identifier or a dotted path of identifiers, else None."""
    if not isinstance(src, str):
        return None
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", src.strip()):
        return src.strip()
    return None
