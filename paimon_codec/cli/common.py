"""What every subcommand shares: one way to declare commands, shared arguments, output and exit statuses.

* :class:`CommandGroup` declares commands: the top level (``paimon-codec COMMAND``) is one, and
  :meth:`CommandGroup.group` opens a group (``paimon-codec dv ACTION``); :meth:`CommandGroup.command`
  adds a command with its handler (and ``--json`` when it has a JSON form).  A handler returns an exit status.
* Shared arguments, declared once: the table (:func:`add_table_arg`), the predicate (:func:`add_predicate_args`,
  read back with :func:`predicate_arg`), the snapshot to read (:func:`add_snapshot_args`), Spark's master
  (:func:`add_master_arg`); ``--storage-option`` is global (taken out of the line by
  :func:`split_storage_options` wherever it stands).
* One exit path (:func:`run`): 0 ok, 1 findings (an audit or check that found problems), 2 bad input (a
  :class:`~paimon_codec.errors.PaimonCodecError` or an unreadable file: one line on stderr), 3 usage (an
  unknown command or option, a missing argument: :class:`Parser`).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..errors import CorruptDataError, InvalidOptionError, PaimonCodecError

__all__ = [
    "EXIT_OK", "EXIT_FINDINGS", "EXIT_BAD_INPUT", "EXIT_USAGE", "JSON_LINE", "Handler", "Parser", "CommandGroup", "run",
    "add_table_arg", "add_predicate_args", "predicate_arg", "add_snapshot_args", "add_master_arg",
    "split_storage_options", "as_of_ms", "emit", "print_json", "read_json_file",
]

#: exit statuses of every subcommand
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2, 3

#: the ``--json`` help of a command printing one compact JSON line (:func:`emit`)
JSON_LINE = "print JSON (one line)"

#: a command's handler: the parsed arguments -> exit status
Handler = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """argparse with usage errors exiting :data:`EXIT_USAGE` (argparse's own 2 is our "bad input")."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class CommandGroup:
    """The commands under one parser: the top level, or a group such as ``dv`` whose ACTION is required."""

    def __init__(self, subparsers: argparse._SubParsersAction, name: str | None = None) -> None:
        self.subparsers = subparsers
        self.name = name

    @classmethod
    def root(cls, parser: argparse.ArgumentParser) -> CommandGroup:
        """The top-level commands of ``parser`` (``paimon-codec COMMAND``); a COMMAND is required."""
        commands = parser.add_subparsers(dest="command", metavar="COMMAND")
        commands.required = True
        return cls(commands)

    @classmethod
    def of(cls, target: CommandGroup | argparse._SubParsersAction) -> CommandGroup:
        """``target`` as a group (a bare argparse subparsers object is wrapped)."""
        return target if isinstance(target, CommandGroup) else cls(target)

    def group(self, name: str, help: str, *, description: str | None = None,
              metavar: str = "ACTION") -> CommandGroup:
        """``... NAME ACTION ...``: a command whose ACTION is required."""
        parser = self.subparsers.add_parser(name, help=help, description=description)
        actions = parser.add_subparsers(dest=f"{name.replace('-', '_')}_command", metavar=metavar)
        actions.required = True
        return CommandGroup(actions, name)

    def command(self, name: str, func: Handler, help: str, *, json: str | None = None,
                description: str | None = None) -> argparse.ArgumentParser:
        """One command with its handler; ``json``: the help of its ``--json`` flag (no flag when None).

        The caller adds the command's own arguments to the returned parser.
        """
        parser = self.subparsers.add_parser(name, help=help, description=description)
        if json is not None:
            parser.add_argument("--json", action="store_true", help=json)
        parser.set_defaults(func=func)
        return parser


def run(func: Handler, args: argparse.Namespace) -> int:
    """Run a handler: its status, or :data:`EXIT_BAD_INPUT` with one line on stderr for bad input."""
    try:
        return int(func(args) or EXIT_OK)
    except PaimonCodecError as exc:
        print(f"paimon-codec: error: {exc}".replace("\n", " "), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"paimon-codec: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK


# -------------------------------------------------------------------------------------------- shared arguments
def add_table_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", help="table directory (<warehouse>/<db>.db/<table>) or URI")


def add_predicate_args(parser: argparse.ArgumentParser, *, required: bool = False,
                       example: str = "status = 'PAID' AND region IN ('EU','US')") -> Any:
    """``--where`` / ``--predicate-json`` (one of them); the group is returned for more alternatives."""
    g = parser.add_mutually_exclusive_group(required=required)
    g.add_argument("--where", help=f'SQL-like predicate, e.g. "{example}"')
    g.add_argument("--predicate-json", metavar="JSON_OR_PATH", help="one predicate as JSON (or a file of it)")
    return g


def add_semantics_arg(parser: argparse.ArgumentParser, default: str) -> None:
    """``--semantics paimon|spark``: whose FLOAT / DOUBLE comparison a table read follows
    (:mod:`paimon_codec.expressions.semantics`)."""
    parser.add_argument("--semantics", choices=["paimon", "spark"], default=default,
                        help="float comparison of every filter: paimon (Double.compare, -0.0 < 0.0: what Paimon's "
                             "read returns) or spark (-0.0 = 0.0: what Spark's filter keeps); default "
                             f"{default}; the plan report names it")


def add_time_zone_arg(parser: argparse.ArgumentParser) -> None:
    """``--time-zone ZONE``: the zone Paimon's JVM would run in, for evolved TIMESTAMP <-> TIMESTAMP_LTZ columns."""
    parser.add_argument("--time-zone", default=None, metavar="ZONE",
                        help="IANA zone (e.g. Asia/Shanghai) that casts of evolved columns between TIMESTAMP and "
                             "TIMESTAMP WITH LOCAL TIME ZONE convert in, as Paimon does in the JVM's default zone; "
                             "without it such reads are refused")


def predicate_arg(args: argparse.Namespace) -> Any:
    """The predicate of :func:`add_predicate_args`: the ``--where`` text, the JSON value, or None."""
    if args.predicate_json is not None:
        from ..expressions.json_form import load_predicate_json

        return load_predicate_json(args.predicate_json)
    return args.where


def add_snapshot_args(parser: argparse.ArgumentParser, *, as_of: bool = False) -> None:
    """Which snapshot to read: ``--snapshot`` / ``--tag`` (/ ``--as-of``), and ``--branch``."""
    travel = parser.add_mutually_exclusive_group()
    travel.add_argument("--snapshot", type=int, default=None, help="snapshot id (default: latest)")
    travel.add_argument("--tag", default=None, help="the snapshot of this tag")
    if as_of:
        travel.add_argument("--as-of", type=as_of_ms, default=None, metavar="TIME",
                            help="the latest snapshot committed at or before TIME (epoch millis, or ISO 8601; "
                                 "UTC unless it names an offset)")
    parser.add_argument("--branch", default=None, help="this branch (default: main)")


def add_master_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--master", default=None, help="Spark master URL (default: local)")


def as_of_ms(text: str) -> int:
    """``--as-of``: epoch milliseconds, or an ISO 8601 date-time (UTC unless it has an offset)."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        when = _dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not epoch millis or an ISO 8601 time: {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return (when - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)) // _dt.timedelta(milliseconds=1)


def split_storage_options(argv: list[str]) -> tuple[list[str], dict[str, str]]:
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


# -------------------------------------------------------------------------------------------- input and output
def print_json(obj: Any) -> None:
    """The one ``--json`` style of every command: ``obj`` as one compact line on stdout.

    Keys are snake_case and keep their order (no sorting); a value JSON has no type for (a Decimal or a
    timestamp in scanned rows) is written as its ``str``.  Errors never go here: with or without ``--json``
    they are one ``paimon-codec: error: ...`` line on stderr and exit status 2 (:func:`run`).
    """
    # json.dumps, not json.dump: dumps encodes in C in one go, dump walks the object in Python writing piece by
    # piece (a query answering 2 million positions: ~20 s -> ~1 s); the bytes are the same
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), default=str))
    sys.stdout.write("\n")
    sys.stdout.flush()


def emit(obj: Any, as_json: bool, text: str) -> None:
    """Print ``obj`` with :func:`print_json` for ``--json``, else the human-readable ``text``."""
    if as_json:
        print_json(obj)
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

