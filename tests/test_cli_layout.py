"""The command line's structure: every command is declared through the one command-group helper.

``paimon_codec/cli/common.py`` (:class:`CommandGroup`) is the only place that creates argparse parsers,
so every command gets the same usage-error exit status, ``--json`` flag and handler wiring; the other
modules of ``paimon_codec/cli/`` declare commands with it, and nothing outside ``cli/`` parses arguments.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

from paimon_codec.cli import build_parser
from paimon_codec.cli.common import Parser

PKG = Path(__file__).resolve().parents[1] / "paimon_codec"
PARSER_CALLS = {"add_parser", "add_subparsers", "ArgumentParser"}


def _calls(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


def test_only_the_helper_creates_parsers():
    offenders = {}
    for path in PKG.rglob("*.py"):
        if "generated" in path.parts or path == PKG / "cli" / "common.py":
            continue
        found = _calls(path) & PARSER_CALLS
        if found:
            offenders[str(path.relative_to(PKG))] = sorted(found)
    assert not offenders, offenders
    assert _calls(PKG / "cli" / "common.py") >= {"add_parser", "add_subparsers"}  # the checker is not blind


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    (sub,) = subs
    assert sub.required, f"{' '.join(path) or 'paimon-codec'}: a COMMAND / ACTION must be required"
    for name, child in sub.choices.items():
        yield from _leaves(child, (*path, name))


def test_every_command_has_a_handler_and_exits_3_on_usage_errors():
    leaves = dict(_leaves(build_parser()))
    assert {("plan",), ("scan",), ("index", "query"), ("dv", "read"), ("bucket", "assign")} <= set(leaves)
    for path, parser in leaves.items():
        assert callable(parser.get_default("func")), path
        assert isinstance(parser, Parser), path  # usage errors exit 3, not argparse's 2


def test_plan_and_scan_share_their_table_and_query_options():
    leaves = dict(_leaves(build_parser()))

    def options(path):
        return {a.dest: (a.help, a.metavar) for a in leaves[path]._actions}

    plan, scan = options(("plan",)), options(("scan",))
    for dest in ("table", "predicate_json", "snapshot", "tag", "branch"):
        assert plan[dest] == scan[dest], dest
