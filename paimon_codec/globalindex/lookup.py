"""One predicate leaf answered by global-index files: the operators Paimon's B-tree and bitmap global
indexes answer exactly (``BTreeIndexReader`` / pypaimon's ``BitmapIndexReader``), by name, and the
absolute row ids of a leaf over every file of its column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyroaring import BitMap64

from ..errors import InvalidPredicateError
from .bitmap import BitmapGlobalIndexReader
from .btree import BTreeGlobalIndexReader
from .java_bitmap import JavaBitmapGlobalIndexReader

__all__ = ["OPS", "answer", "in_rows", "shifted"]

Reader = BTreeGlobalIndexReader | BitmapGlobalIndexReader | JavaBitmapGlobalIndexReader

#: operator names (Paimon's ``FunctionVisitor`` ``visit*``, snake case) -> literal count (None: one or more)
OPS: dict[str, int | None] = {
    "equal": 1, "not_equal": 1, "less_than": 1, "less_or_equal": 1, "greater_than": 1, "greater_or_equal": 1,
    "between": 2, "in": None, "not_in": None, "is_null": 0, "is_not_null": 0,
}


def answer(reader: Reader, op: str, literals: Sequence[Any]) -> BitMap64:
    """The rows (relative to the file's range) the file says satisfy ``op``; literals are already keys of the
    column (``GlobalKeyCodec.literal``)."""
    n = OPS.get(op, -1)
    if n == -1 or (n is not None and len(literals) != n) or (n is None and not literals):
        raise InvalidPredicateError(f"global-index operator {op!r} with {len(literals)} literal(s)")
    if op == "equal":
        return reader.equal(literals[0])
    if op == "not_equal":
        return reader.not_equal(literals[0])
    if op == "less_than":
        return reader.range(None, True, literals[0], False)
    if op == "less_or_equal":
        return reader.range(None, True, literals[0], True)
    if op == "greater_than":
        return reader.range(literals[0], False, None, True)
    if op == "greater_or_equal":
        return reader.range(literals[0], True, None, True)
    if op == "between":
        return reader.range(literals[0], True, literals[1], True)
    if op == "in":
        return in_rows(reader, literals)
    if op == "not_in":
        if isinstance(reader, JavaBitmapGlobalIndexReader):
            return reader.not_in(literals)
        return reader.not_null_rows() - in_rows(reader, literals)
    if op == "is_null":
        return reader.null_rows()
    return reader.not_null_rows()


def in_rows(reader: Reader, literals: Sequence[Any]) -> BitMap64:
    """IN: Java 1.4.2's bitmap index answers it itself; the B-tree and pypaimon's bitmap readers as the union
    of EQUAL over the non-null literals (``BTreeIndexReader.visitIn``)."""
    if isinstance(reader, JavaBitmapGlobalIndexReader):
        return reader.in_(literals)
    out = BitMap64()
    for lit in literals:
        if lit is not None:
            out |= reader.equal(lit)
    return out


def shifted(rows: BitMap64, start: int) -> BitMap64:
    """Relative row ids as absolute ones (the file's range starts at ``start``)."""
    return rows.shift(start) if start else rows
