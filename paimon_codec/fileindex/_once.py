"""``once``: :func:`functools.cached_property` without Python 3.11's lock.

3.11's ``cached_property`` takes a class-wide ``RLock`` on every first access; a planner builds one reader per
file of a scan and reaches five cached parts of each (directory, BSI header, slices, EBM, comparisons), so the
lock is a measurable share of planning hundreds of files.  The readers are not shared between threads while
they fill these caches (each judging thread opens its own), and a race would only compute a value twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

__all__ = ["once"]


class once(Generic[T]):  # noqa: N801 - used as a decorator, like cached_property
    """The value of the decorated method, computed on first access and stored in the instance's ``__dict__``."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, cls: type | None = None) -> once[T]: ...

    @overload
    def __get__(self, obj: object, cls: type | None = None) -> T: ...

    def __get__(self, obj: object | None, cls: type | None = None) -> T | once[T]:
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value
