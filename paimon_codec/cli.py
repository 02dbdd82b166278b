"""The ``paimon-codec`` command line.

Each feature module owns its subcommands and exposes ``register(subparsers)``; this module only
collects them.  Every subcommand handler returns an exit status.  Input errors
(:class:`~paimon_codec.errors.PaimonCodecError`) become a one-line message on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import PaimonCodecError

# Modules that contribute subcommands (each has ``register(subparsers)``).
COMMAND_MODULES = [
    "paimon_codec.inspect",         # formats, inspect
    "paimon_codec.fileindex.cli",   # index build / query / topn
    "paimon_codec.dv.cli",          # dv read / write / to-puffin / from-puffin
    "paimon_codec.bucket.cli",      # bucket read / hash / assign
    "paimon_codec.spark.cli",       # scan, audit, demo
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paimon-codec",
        description="Read, write, verify and use Apache Paimon index files.",
    )
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
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"paimon-codec: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
