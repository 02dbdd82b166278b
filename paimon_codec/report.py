"""One ``to_json`` for the flat report dataclasses (what a write, a rewrite or an audit found).

A report's JSON form is its fields, by name, in declaration order - the CLI prints it with ``--json``
(:func:`paimon_codec.cli.common.emit`) and the Python API returns the dataclass itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["JsonReport"]


class JsonReport:
    """Mixin for a ``@dataclass`` of JSON values: ``to_json()`` is ``{field: value}`` in field order."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}
