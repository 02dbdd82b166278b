"""Helpers shared by the subcommand modules: command groups, ``--json`` output and JSON input files."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..errors import CorruptDataError

__all__ = ["add_command_group", "add_action", "emit", "read_json_file"]


def add_command_group(subparsers: argparse._SubParsersAction, name: str, help: str) -> argparse._SubParsersAction:
    """``paimon-codec NAME ACTION ...``: a subcommand whose ACTION is required."""
    group = subparsers.add_parser(name, help=help)
    actions = group.add_subparsers(dest=f"{name.replace('-', '_')}_command", metavar="ACTION")
    actions.required = True
    return actions


def add_action(group: argparse._SubParsersAction, name: str, help: str,
               func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """One ACTION of a group, with ``--json`` and its handler set; the caller adds its own arguments."""
    p = group.add_parser(name, help=help)
    p.add_argument("--json", action="store_true", help="print JSON (one line)")
    p.set_defaults(func=func)
    return p


def emit(obj: Any, as_json: bool, text: str) -> None:
    """Print ``obj`` as one compact JSON line with ``--json``, else the human-readable ``text``."""
    if as_json:
        json.dump(obj, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        print(text)


def read_json_file(path: str) -> Any:
    """The JSON value in the file at ``path``; malformed input is a :class:`CorruptDataError`."""
    try:
        from .. import storage

        return json.loads(storage.read_text(path))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptDataError(f"invalid JSON: {exc}", path=path) from None
    except RecursionError:
        raise CorruptDataError("JSON is nested too deeply", path=path) from None
