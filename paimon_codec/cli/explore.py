"""``paimon-codec explore [PATH]``: serve the format explorer for a file, a table or a warehouse on loopback.

It prints the page's address (and ``--json``: one line with it) and serves until interrupted; ``--open`` also
starts the desktop's browser.  Nothing leaves the machine: the page and the parsers ship with the package.
"""

from __future__ import annotations

import argparse
import logging
import sys
import webbrowser

from .common import CommandGroup, emit

__all__ = ["register"]

log = logging.getLogger(__name__)


def cmd_explore(args: argparse.Namespace) -> int:
    from ..explore import ExplorerServer

    server = ExplorerServer(args.path, host=args.host, port=args.port)
    url = server.url
    emit({"url": url, "root": server.root}, args.json, f"paimon-codec explore: {url} (Ctrl-C stops)")
    sys.stdout.flush()
    if args.open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        log.info("explorer stopped")
    finally:
        server.server_close()
    return 0


def register(root: CommandGroup) -> None:
    p = root.command("explore", cmd_explore,
                     "a local page showing a file's bytes, structure and meaning, or a table and a query's plan",
                     json="print JSON (one line) with the page's address, then serve")
    p.add_argument("path", nargs="?", default=".", help="a file, table or warehouse directory (default: .)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument("--port", type=int, default=0, help="port (default: any free port)")
    p.add_argument("--open", action="store_true", help="open the page in the desktop's browser")
