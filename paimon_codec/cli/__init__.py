"""The ``paimon-codec`` command line.

One module per command group registers its commands on the top-level :class:`~.common.CommandGroup`
(``register(root)``); this module only collects them, and runs the chosen handler through the one exit
path of :func:`.common.run`.

Exit statuses: 0 ok, 1 findings (an audit or check that found problems), 2 bad input (a
:class:`~paimon_codec.errors.PaimonCodecError` or an unreadable file: one line on stderr), 3 usage (an
unknown command or option, a missing argument).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__
from ..errors import PaimonCodecError
from .common import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    CommandGroup,
    Parser,
    run,
    split_storage_options,
)

__all__ = ["main", "build_parser", "COMMAND_MODULES", "EXIT_OK", "EXIT_FINDINGS", "EXIT_BAD_INPUT", "EXIT_USAGE"]

# Modules that contribute commands (each has ``register(root)``).
COMMAND_MODULES = [
    "paimon_codec.cli.inspect",     # formats, inspect
    "paimon_codec.cli.index",       # index build / query / topn (rewrite: cli.write)
    "paimon_codec.cli.dv",          # dv read / write / to-puffin / from-puffin
    "paimon_codec.cli.bucket",      # bucket read / hash / assign
    "paimon_codec.cli.scan",        # scan, audit, demo (Spark)
    "paimon_codec.cli.write",       # write (Spark; index rewrite registers under index)
    "paimon_codec.cli.delete",      # delete (by deletion vectors; Spark or --local)
    "paimon_codec.cli.plan",        # plan (no Spark)
    "paimon_codec.cli.orphans",     # remove-orphans (no Spark)
    "paimon_codec.cli.explore",     # explore (a local page: bytes, structure, meaning, plans)
]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="paimon-codec",
        description="Read, write, verify and use Apache Paimon index files.",
        epilog="exit status: 0 ok, 1 findings, 2 bad input, 3 usage",
    )
    parser.add_argument("--version", action="version", version=f"paimon-codec {__version__}")
    parser.add_argument("--storage-option", action="append", default=[], metavar="K=V",
                        help="option of the object store every URI argument lives on (repeatable; anywhere on "
                             "the line): endpoint, access_key, secret_key, session_token, region, path_style, "
                             "or Paimon's s3.* / Hadoop's fs.s3a.* names; AWS_* environment variables apply too")
    root = CommandGroup.root(parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # feature not installed in this build
            raise
        module.register(root)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv, options = split_storage_options(argv)
    except PaimonCodecError as exc:  # a malformed --storage-option is a usage error
        print(f"paimon-codec: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(argv)
    if options:
        from ..storage import GLOBAL, set_storage_options

        set_storage_options(GLOBAL, options)
    return run(args.func, args)


if __name__ == "__main__":
    sys.exit(main())
