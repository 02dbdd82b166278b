"""Partition pruning: whether a partition's values alone prove that none of its rows matches a predicate.

Partition values are known per file from the manifest, so this check needs no index and no data read.
It only ever answers "may match" when unsure (an operator or a comparison it cannot decide).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["may_match"]


def _compare(value: Any, op: str, literals: tuple) -> bool:
    if op == "is_null":
        return value is None
    if op == "is_not_null":
        return value is not None
    if value is None:
        return False
    try:
        if op == "eq":
            return value == literals[0]
        if op == "neq":
            return value != literals[0]
        if op == "lt":
            return value < literals[0]
        if op == "lte":
            return value <= literals[0]
        if op == "gt":
            return value > literals[0]
        if op == "gte":
            return value >= literals[0]
        if op == "between":
            return literals[0] <= value <= literals[1]
        if op == "in":
            return value in literals
        if op == "not_in":
            return value not in literals and None not in literals
        if op == "starts_with":
            return str(value).startswith(str(literals[0]))
    except TypeError:
        return True
    return True  # operators we do not evaluate here never prune


def may_match(pred: Any, values: Mapping[str, Any]) -> bool:
    """False only when the partition values alone prove that no row of the partition matches."""
    children = getattr(pred, "children", None)
    if children is not None:
        results = [may_match(c, values) for c in children]
        if type(pred).__name__ == "And":
            return all(results)
        return any(results) if results else True
    column = getattr(pred, "column", None)
    if column is None or column not in values:
        return True
    return _compare(values[column], pred.op, tuple(pred.literals))


