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

from .. import __version__
from ..errors import InvalidOptionError, PaimonCodecError

#: exit statuses of every subcommand
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2, 3

# Modules that contribute subcommands (each has ``register(subparsers)``).
COMMAND_MODULES = [
    "paimon_codec.cli.inspect",     # formats, inspect
    "paimon_codec.cli.index",       # index build / query / topn (rewrite: cli.write)
    "paimon_codec.cli.dv",          # dv read / write / to-puffin / from-puffin
    "paimon_codec.cli.bucket",      # bucket read / hash / assign
    "paimon_codec.cli.scan",        # scan, audit, demo (Spark)
    "paimon_codec.cli.write",       # write (Spark; index rewrite registers under index)
    "paimon_codec.cli.plan",        # plan (no Spark)
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
    parser.add_argument("--storage-option", action="append", default=[], metavar="K=V",
                        help="option of the object store every URI argument lives on (repeatable; anywhere on "
                             "the line): endpoint, access_key, secret_key, session_token, region, path_style, "
                             "or Paimon's s3.* / Hadoop's fs.s3a.* names; AWS_* environment variables apply too")
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


def _storage_options(argv: list[str]) -> tuple[list[str], dict[str, str]]:
    """``--storage-option K=V`` (or ``--storage-option=K=V``) taken out of ``argv`` wherever it stands."""
    rest: list[str] = []
    pairs: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--storage-option":
            pairs.append(next(it, ""))
        elif arg.startswith("--storage-option="):
            pairs.append(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError("--storage-option needs KEY=VALUE", expected="e.g. --storage-option "
                                                                               "endpoint=http://localhost:9000")
        options[key.strip()] = value
    return rest, options


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv, options = _storage_options(argv)
    except PaimonCodecError as exc:  # a malformed --storage-option is a usage error
        print(f"paimon-codec: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(argv)
    if options:
        from ..storage import GLOBAL, set_storage_options

        set_storage_options(GLOBAL, options)
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
