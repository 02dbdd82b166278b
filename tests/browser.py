"""A real browser for the tests: Debian's headless Chromium, driven over the DevTools protocol.

One Chromium per test session (``chromium`` fixture in tests/conftest.py); a test calls :meth:`Browser.goto`
and :meth:`Browser.evaluate` (JavaScript in the page, the result as JSON) and :meth:`Browser.screenshot`.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from typing import Any

import websocket
from oracles.quick_guard import refuse_in_quick_run

__all__ = ["Browser", "chromium_binary"]


def chromium_binary() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    def __init__(self, binary: str) -> None:
        refuse_in_quick_run("browser", "headless Chromium")
        self.profile = tempfile.mkdtemp(prefix="paimon-codec-chromium-")
        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "--window-size=1400,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 60
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("headless Chromium did not start")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = next(p for p in pages if p.get("type") == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self._ids = itertools.count(1)
        self.console: list[str] = []
        self.call("Runtime.enable")
        self.call("Page.enable")

    def call(self, method: str, **params: Any) -> dict:
        msg_id = next(self._ids)
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("method") == "Runtime.exceptionThrown":
                self.console.append(json.dumps(msg["params"]["exceptionDetails"])[:500])
            if msg.get("id") == msg_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def evaluate(self, expression: str, *, await_promise: bool = True) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, awaitPromise=await_promise, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"page error: {res['exceptionDetails'].get('text')} "
                               f"{res['exceptionDetails'].get('exception', {}).get('description', '')}")
        return res.get("result", {}).get("value")

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        self.wait_state()

    def wait_state(self, timeout: float = 60) -> str:
        """Wait until the page says it is done (``body[data-state]`` ready or error) and return the state."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.evaluate("document.body ? document.body.dataset.state : 'loading'")
            if state in ("ready", "error"):
                return state
            time.sleep(0.05)
        raise TimeoutError("the page did not finish loading")

    def set_hash(self, fragment: str) -> str:
        self.evaluate(f"document.body.dataset.state = 'loading'; location.hash = {json.dumps(fragment)}; true")
        return self.wait_state()

    def result(self) -> Any:
        """The page's findings (the JSON it writes for tests)."""
        text = self.evaluate("(document.getElementById('explorer-result') || {}).textContent || 'null'")
        return json.loads(text)

    def screenshot(self, path: str) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        try:
            if getattr(self, "ws", None) is not None:
                self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
