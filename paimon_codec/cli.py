"""The ``paimon-codec`` command line.

Each feature module owns its subcommands and exposes ``register(subparsers)``; this module only
collects them.  Every subcommand handler returns an exit status.

Exit statuses: 0 ok, 1 findings (an audit or check that found problems), 2 bad input (a
:class:`~paimon_codec.errors.PaimonCodecError` or an unreadable file: one line on stderr), 3 usage (an
unknown command or option, a missing argument).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .errors import PaimonCodecError

#: exit statuses of every subcommand
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2, 3

# Modules that contribute subcommands (each has ``register(subparsers)``).
COMMAND_MODULES = [
    "paimon_codec.inspect",         # formats, inspect
    "paimon_codec.fileindex.cli",   # index build / query / topn
    "paimon_codec.dv.cli",          # dv read / write / to-puffin / from-puffin
    "paimon_codec.bucket.cli",      # bucket read / hash / assign
    "paimon_codec.spark.cli",       # scan, audit, demo
]


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors exiting :data:`EXIT_USAGE` (argparse's own 2 is our "bad input")."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="paimon-codec",
        description="Read, write, verify and use Apache Paimon index files.",
        epilog="exit status: 0 ok, 1 findings, 2 bad input, 3 usage",
    )
    parser.add_argument("--version", action="version", version=f"paimon-codec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # feature not installed in this build
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except PaimonCodecError as exc:
        print(f"paimon-codec: error: {exc}".replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"paimon-codec: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
