"""Headless Chromium over the DevTools protocol for the browser tests (Debian's `chromium`,
`make browser`): the launcher, and a small driver that navigates, fills and submits forms as
a person would (events, not DOM shortcuts), waits for page loads, reads the page, takes
screenshots at a viewport size and runs axe-core in the page. Console errors and CSP
violations are recorded while it waits, so a test can assert there were none."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--window-size=1280,1800",
)
AXE = ROOT / ".tools" / "console" / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = (1280, 900)
PHONE = (390, 844)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium fehlt: `make browser` installiert Debians Paket chromium")
    return found


class Driver:
    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.ids = count(1)
        self.events: list[dict[str, Any]] = []
        self.problems: list[str] = []

    # --- protocol ---------------------------------------------------------------------------

    def _receive(self, timeout: float = 60) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        method = message.get("method", "")
        if method == "Runtime.consoleAPICalled" and message["params"]["type"] == "error":
            self.problems.append(json.dumps(message["params"]["args"])[:300])
        if method == "Log.entryAdded" and message["params"]["entry"]["level"] == "error":
            self.problems.append(message["params"]["entry"]["text"][:300])
        if method == "Runtime.exceptionThrown":
            self.problems.append(json.dumps(message["params"]["exceptionDetails"])[:300])
        if method:
            self.events.append(message)
        return message

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        message_id = next(self.ids)
        self.socket.send(json.dumps({"id": message_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == message_id:
                assert "error" not in reply, reply
                result: dict[str, Any] = reply["result"]
                return result

    def wait_for(self, method: str, timeout: float = 60) -> dict[str, Any]:
        """The next event `method` (also one that arrived while waiting for a reply)."""
        for index, event in enumerate(self.events):
            if event["method"] == method:
                del self.events[: index + 1]
                return event
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self._receive(timeout=max(0.1, deadline - time.monotonic()))
            if message.get("method") == method:
                self.events.clear()
                return message
        raise AssertionError(f"no {method} within {timeout} s")

    def start(self) -> None:
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    # --- pages ------------------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def run(self, script: str) -> Any:
        """Evaluate an async function body in the page; its return value (JSON)."""
        result = self.send(
            "Runtime.evaluate",
            expression=f"(async () => {{ {script} }})()",
            awaitPromise=True,
            returnByValue=True,
        )
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def fill(self, selector: str, value: str) -> None:
        """Type `value` into a field the way a person does: focus, set, input/change events."""
        ok = self.run(
            f"const e = document.querySelector({json.dumps(selector)}); if (!e) return false;"
            f"e.focus(); e.value = {json.dumps(value)};"
            "e.dispatchEvent(new Event('input', {bubbles: true}));"
            "e.dispatchEvent(new Event('change', {bubbles: true})); return true;"
        )
        assert ok, f"kein Feld {selector}"

    def click_and_load(self, selector: str) -> None:
        """Click (after this call returned) and wait for the page it loads."""
        self.events.clear()
        ok = self.run(
            f"const e = document.querySelector({json.dumps(selector)}); if (!e) return false;"
            "setTimeout(() => e.click(), 30); return true;"
        )
        assert ok, f"kein Element {selector}"
        self.wait_for("Page.loadEventFired")

    def text(self, selector: str = "main") -> str:
        value = self.run(
            f"const e = document.querySelector({json.dumps(selector)});"
            "return e ? e.innerText : null;"
        )
        assert value is not None, f"kein Element {selector}"
        return str(value)

    def texts(self, selector: str) -> list[str]:
        found = self.run(
            f"return [...document.querySelectorAll({json.dumps(selector)})]"
            ".map((e) => e.innerText.trim());"
        )
        return [str(item) for item in found]

    def url(self) -> str:
        return str(self.run("return location.href;"))

    def until(self, condition: str, timeout_ms: int = 15000) -> Any:
        """Wait in the page until the JS expression `condition` is truthy; its value."""
        return self.run(
            "const start = Date.now();"
            f"while (Date.now() - start < {timeout_ms}) {{"
            f"  const v = ({condition}); if (v) return v;"
            "  await new Promise((r) => setTimeout(r, 50)); }"
            f"throw new Error('timeout: ' + {json.dumps(condition)});"
        )

    # --- viewport, screenshots, accessibility ---------------------------------------------

    def viewport(self, size: tuple[int, int], mobile: bool = False) -> None:
        width, height = size
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    def screenshot(self, path: Path) -> None:
        shot = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def overflows_horizontally(self) -> bool:
        return bool(
            self.run("return document.documentElement.scrollWidth > window.innerWidth + 1;")
        )

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's violations of the page (WCAG 2.x A/AA and best practices)."""
        self.run(AXE.read_text() + "\nreturn true;")
        options = json.dumps({"runOnly": {"type": "tag", "values": AXE_TAGS}})
        result = self.run(
            f"const r = await axe.run(document, {options});"
            "return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5)}));"
        )
        return list(result)


@contextmanager
def devtools(profile: Path) -> Iterator[ClientConnection]:
    """One headless Chromium with a fresh profile: the DevTools socket of its first page."""
    process = subprocess.Popen(
        [chromium(), *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        endpoint = ""
        deadline = time.monotonic() + 60
        while not endpoint and time.monotonic() < deadline:
            line = process.stderr.readline()
            match = re.search(r"DevTools listening on (ws://[^\s]+)", line)
            endpoint = match.group(1) if match else ""
        assert endpoint, "Chromium nannte keinen DevTools-Endpunkt"
        # Keep reading its log, so that a full pipe never stalls the browser.
        threading.Thread(target=process.stderr.read, daemon=True).start()
        port = re.search(r":(\d+)/", endpoint)
        assert port is not None
        with urllib.request.urlopen(f"http://127.0.0.1:{port.group(1)}/json/list") as answer:
            targets = json.load(answer)
        (target,) = [t for t in targets if t["type"] == "page"]
        with connect(target["webSocketDebuggerUrl"], max_size=None) as socket:
            yield socket
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def chromium_driver(profile: Path) -> Iterator[Driver]:
    """A driver on the first page of a fresh headless Chromium."""
    with devtools(profile) as socket:
        driver = Driver(socket)
        driver.start()
        yield driver
