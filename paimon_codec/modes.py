"""The modes of the public API as enums: what a ``kind=`` / ``mode=`` / ``semantics=`` argument may say.

Each is a ``str``-valued :class:`enum.Enum`, so a member *is* its string (``CommitKind.OVERWRITE ==
"OVERWRITE"``, ``json.dumps`` writes ``"OVERWRITE"``) and the spelled-out strings the API took before keep
working.  Signatures take ``<Enum> | <Literal of its values>`` (the ``...Like`` aliases): a type checker
accepts either and rejects a misspelt string.  :func:`mode_value` turns either into the plain string a
report or a file records.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal, TypeVar

from .errors import InvalidOptionError

__all__ = [
    "CommitKind", "CommitKindLike", "ChangeKind", "ChangeKindLike", "Semantics", "SemanticsLike",
    "DistributedPlanning", "DistributedPlanningLike", "WriteMode", "WriteModeLike", "PredicateJsonStyle",
    "PredicateJsonStyleLike", "MetadataLayout", "MetadataLayoutLike", "mode_value",
]


class _Mode(str, Enum):
    """A string-valued mode: ``str()`` and ``format()`` give the value (not ``Class.MEMBER``)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class CommitKind(_Mode):
    """What a commit does (``commit_changes(kind=...)``, a snapshot's ``commitKind``)."""

    APPEND = "APPEND"
    """Add / delete exactly the given files."""
    OVERWRITE = "OVERWRITE"
    """Also delete every live file and index file of the overwritten partitions."""
    COMPACT = "COMPACT"
    """A rewrite of existing files (no new rows)."""


class ChangeKind(_Mode):
    """Whether a :class:`~paimon_codec.writing.commit.FileChange` / ``IndexChange`` adds or deletes its file."""

    ADD = "ADD"
    DELETE = "DELETE"


class Semantics(_Mode):
    """Whose comparison of FLOAT / DOUBLE values a read follows (:mod:`paimon_codec.expressions.semantics`)."""

    PAIMON = "paimon"
    """Paimon's own read: ``Double.compare``, ``-0.0 < 0.0``."""
    SPARK = "spark"
    """Spark SQL's filter: ``-0.0 = 0.0``."""


class DistributedPlanning(_Mode):
    """Where :func:`paimon_codec.spark.scan` judges files, when not given as a file-count threshold."""

    ALWAYS = "always"
    """In Spark tasks, whatever the number of files."""
    NEVER = "never"
    """On the driver."""


class WriteMode(_Mode):
    """What :func:`paimon_codec.spark.write` does with the rows already in the table."""

    APPEND = "append"
    OVERWRITE = "overwrite"
    """Replace the partitions the DataFrame writes to (the whole table when it is unpartitioned)."""


class PredicateJsonStyle(_Mode):
    """The JSON form of a predicate (``Predicate.to_dict(style=...)``)."""

    LATEST = "latest"
    PAIMON_0_9 = "paimon-0.9"


class MetadataLayout(_Mode):
    """The manifest layout a commit writes to a table that has no manifests yet."""

    PAIMON_0_9 = "0.9"
    NEWEST = "newest"


CommitKindLike = CommitKind | Literal["APPEND", "OVERWRITE", "COMPACT"]
ChangeKindLike = ChangeKind | Literal["ADD", "DELETE"]
SemanticsLike = Semantics | Literal["paimon", "spark"]
DistributedPlanningLike = int | DistributedPlanning | Literal["always", "never"]
WriteModeLike = WriteMode | Literal["append", "overwrite"]
PredicateJsonStyleLike = PredicateJsonStyle | Literal["latest", "paimon-0.9"]
MetadataLayoutLike = MetadataLayout | Literal["0.9", "newest"]

_E = TypeVar("_E", bound=_Mode)


def mode_value(enum: type[_E], value: object, what: str, *, fold_case: bool = False) -> str:
    """The plain string of ``value`` (a member of ``enum`` or its value spelled out), else an
    :class:`~paimon_codec.errors.InvalidOptionError` naming the choices."""
    text = value.value if isinstance(value, Enum) else value
    if isinstance(text, str):
        key = text.strip()
        for member in enum:
            if member.value == key or (fold_case and member.value.lower() == key.lower()):
                return str(member.value)
    raise InvalidOptionError(f"unknown {what} {value!r}", expected=" or ".join(repr(m.value) for m in enum))
