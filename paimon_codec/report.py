"""``to_dict`` / ``to_json`` of every result and report object.

``to_dict()`` is the object's JSON form as Python values (what the CLI prints with ``--json``,
:func:`paimon_codec.cli.common.emit`); ``to_json()`` is that form as one compact line of JSON text,
values JSON has no type for (a ``Decimal``, a timestamp) written as their ``str`` - the CLI's style.
:class:`JsonReport` is the mixin of the flat report dataclasses (what a write, a rewrite or an audit
found): their JSON form is their fields, by name, in declaration order.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

__all__ = ["JsonForm", "JsonReport"]


class JsonForm:
    """Mixin: :meth:`to_json` renders what the class's :meth:`to_dict` returns."""

    def to_dict(self) -> Any:
        """The JSON form as Python values (dicts, lists, str, int, float, bool, None)."""
        raise NotImplementedError

    def to_json(self, **options: Any) -> str:
        """:meth:`to_dict` (given ``options``) as one compact line of JSON text."""
        return json.dumps(self.to_dict(**options), separators=(",", ":"), default=str)


class JsonReport(JsonForm):
    """Mixin for a ``@dataclass`` of JSON values: ``to_dict()`` is ``{field: value}`` in field order."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}
