"""``paimon-codec explore``'s HTTP server: a page and a small JSON API on the loopback interface.

Only files below the root given on the command line are served (every path is resolved and checked against it),
nothing is fetched from the network: the page, its script and the generated parsers ship with the package.

Routes: ``/`` (the page), ``/static/<file>``, ``/parsers/<Class>.js`` (the generated JavaScript parsers and the
Kaitai runtime), and the API - ``/api/root``, ``/api/list?path=``, ``/api/open?path=&format=&type=``,
``/api/bytes?path=``, ``/api/schema?id=``, ``/api/table?path=&snapshot=``, ``/api/plan?path=&where=&snapshot=``.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from .. import formats
from ..errors import PaimonCodecError, UsageError
from ..table import is_table_dir
from .files import EXTRA_FORMATS, error_line, open_file
from .tables import deletion_vector_owners, describe_table, plan_table

__all__ = ["ExplorerServer", "serve", "parser_dir"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".json": "application/json", ".svg": "image/svg+xml"}


def parser_dir() -> Path:
    """``generated/javascript``: the parsers ``tools/generate.py`` made from ``schemas/*.ksy``."""
    return Path(str(resources.files("paimon_codec.generated") / "javascript"))


def _plain(obj: Any) -> Any:
    """JSON the browser's ``JSON.parse`` accepts: non-finite floats as strings, bytes as hex."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return bytes(obj).hex()
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


class ExplorerServer(ThreadingHTTPServer):
    """The server; ``root`` bounds what it serves, ``url`` is where the page is."""

    daemon_threads = True

    def __init__(self, root: str | os.PathLike, host: str = "127.0.0.1", port: int = 0) -> None:
        root_path = os.path.realpath(os.fspath(root))
        if not os.path.exists(root_path):
            raise UsageError(f"{root_path} does not exist", expected="a file or directory to explore")
        # a file: its directory is the root and the page opens the file first
        self.start = "" if os.path.isdir(root_path) else os.path.basename(root_path)
        self.root = root_path if os.path.isdir(root_path) else os.path.dirname(root_path)
        super().__init__((host, port), _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name}:{port}/"

    def resolve(self, rel: str | None) -> str:
        """The absolute path of ``rel`` below the root; anything outside it is a usage error."""
        path = os.path.realpath(os.path.join(self.root, rel or ""))
        if path != self.root and not path.startswith(self.root + os.sep):
            raise UsageError(f"{rel} is outside the explored directory", expected=f"a path below {self.root}")
        if not os.path.exists(path):
            raise UsageError(f"{rel} does not exist", expected=f"a path below {self.root}")
        return path

    def start_in_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, name="paimon-codec-explore", daemon=True)
        thread.start()
        return thread


def serve(root: str | os.PathLike, host: str = "127.0.0.1", port: int = 0) -> ExplorerServer:
    """Start an explorer for ``root`` in a background thread; ``server.url`` is the page, ``shutdown()`` stops it."""
    server = ExplorerServer(root, host, port)
    server.start_in_thread()
    return server


class _Handler(BaseHTTPRequestHandler):
    server: ExplorerServer
    server_version = "paimon-codec-explore"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        log.debug("%s - %s", self.address_string(), format % args)

    # ---------------------------------------------------------------- responses
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(_plain(obj), allow_nan=False).encode(), "application/json")

    def _file(self, path: Path) -> None:
        try:
            body = path.read_bytes()
        except OSError:
            self._json({"error": {"message": f"not found: {path.name}"}}, HTTPStatus.NOT_FOUND)
            return
        self._send(HTTPStatus.OK, body, _TYPES.get(path.suffix, "application/octet-stream"))

    # ---------------------------------------------------------------- routing
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            if url.path in ("/", "/index.html"):
                self._file(STATIC / "index.html")
            elif url.path.startswith("/static/"):
                self._file(_below(STATIC, url.path[len("/static/"):]))
            elif url.path == "/parsers/index.json":
                self._json(sorted(p.name for p in parser_dir().glob("*.js")))
            elif url.path.startswith("/parsers/"):
                self._file(_below(parser_dir(), url.path[len("/parsers/"):]))
            elif url.path.startswith("/api/"):
                route = _API.get(url.path[len("/api/"):])
                if route is None:
                    self._json({"error": {"message": f"no API {url.path}"}}, HTTPStatus.NOT_FOUND)
                else:
                    route(self, query)
            else:
                self._json({"error": {"message": f"not found: {url.path}"}}, HTTPStatus.NOT_FOUND)
        except PaimonCodecError as exc:
            self._json({"error": error_line(exc)}, HTTPStatus.BAD_REQUEST)
        except Exception as exc:  # noqa: BLE001 - the page shows a one-line error, never a blank screen
            log.exception("explorer request %s failed", self.path)
            self._json({"error": {"message": f"paimon-codec: error: {type(exc).__name__}: {exc}"}},
                       HTTPStatus.INTERNAL_SERVER_ERROR)

    # ---------------------------------------------------------------- API
    def api_root(self, q: dict[str, str]) -> None:
        srv = self.server
        self._json({"root": srv.root, "start": srv.start, "is_table": is_table_dir(srv.root),
                    "formats": sorted([*formats.FORMATS, *EXTRA_FORMATS]), "key_types": sorted(formats.KEY_KIND_BY_TYPE_ROOT)})

    def api_list(self, q: dict[str, str]) -> None:
        path = self.server.resolve(q.get("path"))
        if not os.path.isdir(path):
            raise UsageError(f"{q.get('path')} is not a directory")
        entries = []
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            is_dir = os.path.isdir(full)
            entries.append({"name": name, "dir": is_dir, "table": is_dir and is_table_dir(full),
                            "size": None if is_dir else os.path.getsize(full)})
        self._json({"path": os.path.relpath(path, self.server.root).replace(os.sep, "/"),
                    "is_table": is_table_dir(path), "entries": entries})

    def api_open(self, q: dict[str, str]) -> None:
        path = self.server.resolve(q.get("path"))
        opened = open_file(path, fmt=q.get("format") or None, data_type=q.get("type") or None)
        out = {**opened.to_dict(), "path": q.get("path")}
        meaning = out["meaning"]
        if q.get("table") is not None and meaning and "vectors" in meaning:
            # opened from a table: name the data file each vector belongs to (the index manifest's ranges)
            owners = deletion_vector_owners(self.server.resolve(q.get("table")), path)
            meaning["vectors"] = [{"data_file": owners.get(v["offset"]), **v} for v in meaning["vectors"]]
        self._json(out)

    def api_bytes(self, q: dict[str, str]) -> None:
        path = self.server.resolve(q.get("path"))
        with open(path, "rb") as f:
            self._send(HTTPStatus.OK, f.read(), "application/octet-stream")

    def api_schema(self, q: dict[str, str]) -> None:
        import yaml  # noqa: PLC0415 - only the schema view needs it

        sid = q.get("id", "")
        path = _below(formats.REPO_SCHEMAS, f"{sid}.ksy")
        self._json(yaml.safe_load(path.read_text()))

    def api_table(self, q: dict[str, str]) -> None:
        path = self.server.resolve(q.get("path"))
        snap = q.get("snapshot")
        self._json(describe_table(self.server.root, path, int(snap) if snap else None))

    def api_plan(self, q: dict[str, str]) -> None:
        path = self.server.resolve(q.get("path"))
        snap = q.get("snapshot")
        self._json(plan_table(self.server.root, path, q.get("where") or None, int(snap) if snap else None))


_API: dict[str, Callable[[_Handler, dict[str, str]], None]] = {
    "root": _Handler.api_root, "list": _Handler.api_list, "open": _Handler.api_open, "bytes": _Handler.api_bytes,
    "schema": _Handler.api_schema, "table": _Handler.api_table, "plan": _Handler.api_plan,
}


def _below(base: Path, name: str) -> Path:
    """``base / name`` when it stays inside ``base`` (no ``..``, no absolute path)."""
    path = (base / name).resolve()
    if base.resolve() not in path.parents:
        raise UsageError(f"{name} is outside {base.name}")
    return path
