"""A package face whose names are bound on first use (PEP 562 module ``__getattr__``).

A Spark Python worker unpickling a task imports the task's package, and so the package's ``__init__``; a face
that imported every exported function eagerly would make every worker pay for the planner, the writers and the
audit it never runs.  The face lists where each name lives; the first access imports that submodule and binds
the name in the package's namespace, so later accesses are plain attribute lookups.  Type checkers read the
package's ``TYPE_CHECKING`` imports instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, namespace: dict[str, Any], homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``homes`` is imported from ``package.<homes[name]>`` and
    bound in ``namespace`` (the package's ``globals()``); any other name is an ``AttributeError``."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return __getattr__
