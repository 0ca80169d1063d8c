"""The documentation page /docs/api/memory in a real browser (headless Chromium) against a
running `brain serve`: it renders every operation with no network but Brain's own, and a
client that knows only the page stores, lists, changes and deletes a memory through its
"Try it out" buttons with a bearer token (driven over the DevTools protocol).

Chromium comes from Debian's `chromium` package (`make browser`, part of `make test`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from tests.e2e.console_driver import FLAGS, chromium, devtools
from tests.e2e.test_local_server import serve

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRAIN_TEST_ARTIFACTS", ROOT / "test-artifacts"))
SCREENSHOT = ARTIFACTS / "docs-api-memory.png"
OPERATIONS = {
    ("POST", "/api/memory"),
    ("GET", "/api/memory"),
    ("GET", "/api/memory/{memory_id}"),
    ("PATCH", "/api/memory/{memory_id}"),
    ("DELETE", "/api/memory/{memory_id}"),
    ("GET", "/api/memory/suche"),
    ("GET", "/api/memory/loeschvorschau"),
    ("POST", "/api/memory/loeschungen"),
    ("GET", "/api/memory/{memory_id}/bewertungen"),
    ("GET", "/api/memory/{memory_id}/brain"),
}


def run_chromium(profile: Path, *args: str) -> str:
    done = subprocess.run(
        [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def rendered_operations(dom: str) -> set[tuple[str, str]]:
    blocks = re.findall(
        r'opblock-summary-method">([A-Z]+)<.*?data-path="([^"]+)"', dom, flags=re.DOTALL
    )
    return set(blocks)


def test_page_renders_every_operation_offline_and_is_kept_as_a_screenshot(
    tmp_path: Path,
) -> None:
    with serve(tmp_path / "data") as server:
        page = server.url.replace("/mcp", "/docs/api/memory")
        # When Chromium loads the page and lets its scripts run
        dom = run_chromium(
            tmp_path / "profile-dom", "--virtual-time-budget=15000", "--dump-dom", page
        )
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        run_chromium(
            tmp_path / "profile-shot",
            "--virtual-time-budget=15000",
            f"--screenshot={SCREENSHOT}",
            page,
        )
    # Then Swagger UI rendered every operation of the API, the auth button and the schemas
    assert rendered_operations(dom) == OPERATIONS
    assert 'class="btn authorize' in dom
    for schema in ("MemoryCreate", "MemoryOut", "MemoryPage", "Problem"):
        assert schema in dom, schema
    assert "OAS 3.1" in dom
    # And the screenshot is kept as a test artifact
    assert SCREENSHOT.stat().st_size > 20_000


def test_the_ledger_and_project_pages_render_every_operation(tmp_path: Path) -> None:
    from shared.rest.app import RESOURCES

    with serve(tmp_path / "data") as server:
        for resource, page, _ in RESOURCES:
            if page == "memory":
                continue  # above
            url = server.url.replace("/mcp", f"/docs/api/{page}")
            # When Chromium loads the resource's page
            dom = run_chromium(
                tmp_path / f"profile-{page}", "--virtual-time-budget=15000", "--dump-dom", url
            )
            # Then every operation of its document is rendered, with the auth button
            document = resource.document()
            expected = {
                (method.upper(), path)
                for path, item in document["paths"].items()
                for method in item
            }
            assert rendered_operations(dom) == expected, page
            assert 'class="btn authorize' in dom, page


# --- "Try it out" through the DevTools protocol ------------------------------------------


class Page:
    """One page of a headless Chromium, driven over the DevTools protocol."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.ids = count(1)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        message_id = next(self.ids)
        self.socket.send(json.dumps({"id": message_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.socket.recv(timeout=60))
            if reply.get("id") == message_id:
                assert "error" not in reply, reply
                result: dict[str, Any] = reply["result"]
                return result

    def open(self, url: str) -> None:
        """Navigate and wait until the page (and its scripts) loaded."""
        self.send("Page.enable")
        self.socket.send(
            json.dumps({"id": next(self.ids), "method": "Page.navigate", "params": {"url": url}})
        )
        while json.loads(self.socket.recv(timeout=60)).get("method") != "Page.loadEventFired":
            pass

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


@contextmanager
def browser_page(profile: Path, url: str) -> Iterator[Page]:
    """A Chromium page on `url`, loaded."""
    with devtools(profile) as socket:
        page = Page(socket)
        page.open(url)
        yield page


# Helpers installed in the page: wait for an element, set a React-controlled field, and run
# one operation through Swagger UI's own buttons, returning the status and body it shows.
PAGE_HELPERS = r"""
window.brainTest = {
  async until(find, ms = 20000) {
    const start = Date.now();
    while (Date.now() - start < ms) {
      const found = find();
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("timeout waiting for " + find);
  },
  setValue(element, value) {
    const proto = Object.getPrototypeOf(element);
    Object.getOwnPropertyDescriptor(proto, "value").set.call(element, value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
    element.dispatchEvent(new Event("change", { bubbles: true }));
  },
  async execute(method, path, params, body) {
    const summary = [...document.querySelectorAll(".opblock-summary")].find(
      (s) => s.querySelector(".opblock-summary-method").textContent === method &&
        s.querySelector(".opblock-summary-path").getAttribute("data-path") === path);
    const block = summary.closest(".opblock");
    if (!block.classList.contains("is-open")) summary.querySelector("button").click();
    const tryOut = await this.until(() => block.querySelector(".try-out__btn"));
    if (tryOut.textContent.trim() === "Try it out") tryOut.click();
    await this.until(() => block.querySelector(".execute"));
    for (const [name, value] of Object.entries(params)) {
      const row = `tr[data-param-name="${name}"]`;
      const input = await this.until(() =>
        block.querySelector(`${row} input, ${row} select`));
      this.setValue(input, value);
    }
    if (body !== null) {
      const editor = await this.until(() => block.querySelector("textarea.body-param__text"));
      this.setValue(editor, JSON.stringify(body));
    }
    // Swagger UI commits typed values after a debounce (300 ms): let them settle.
    await new Promise((r) => setTimeout(r, 800));
    const previous = block.querySelector(".live-responses-table");
    if (previous) block.querySelector(".btn-clear")?.click();
    block.querySelector(".execute").click();
    const cell = await this.until(() =>
      block.querySelector(".live-responses-table tr.response .response-col_status"));
    const shown = block.querySelector(".live-responses-table tr.response .microlight");
    return { status: cell.textContent.trim(), body: shown ? shown.textContent : "" };
  },
};
return true;
"""


def test_a_client_that_knows_only_the_page_manages_memories_with_a_token(
    tmp_path: Path,
) -> None:
    with serve(tmp_path / "data") as server:
        url = server.url.replace("/mcp", "/docs/api/memory")
        with browser_page(tmp_path / "profile-cdp", url) as page:
            assert page.run(PAGE_HELPERS) is True
            page.run(
                "await brainTest.until(() => window.ui && document.querySelector('.opblock'));"
            )
            # Given the token entered through the page's own Authorize dialog
            page.run(
                "ui.preauthorizeApiKey('HTTPBearer', " + json.dumps(server.token) + "); return 1;"
            )

            def execute(method: str, path: str, params: dict[str, str], body: Any) -> Any:
                script = (
                    f"return await brainTest.execute({json.dumps(method)}, {json.dumps(path)}, "
                    f"{json.dumps(params)}, {json.dumps(body)});"
                )
                return page.run(script)

            # When a memory is stored with Try it out
            created = execute(
                "POST",
                "/api/memory",
                {},
                {
                    "kurzbeschreibung": "Aus dem Browser",
                    "memory": "Seite ausprobiert.",
                    "tags": ["browser"],
                },
            )
            assert created["status"] == "201", created
            memory_id = json.loads(created["body"])["ID"]
            # And listed with a filter
            listed = execute("GET", "/api/memory", {"q": "ausprobiert", "limit": "10"}, None)
            assert listed["status"] == "200", listed
            assert [m["ID"] for m in json.loads(listed["body"])["eintraege"]] == [memory_id]
            # And changed
            patched = execute(
                "PATCH",
                "/api/memory/{memory_id}",
                {"memory_id": memory_id},
                {"memory": "Im Browser geändert."},
            )
            assert patched["status"] == "200", patched
            assert json.loads(patched["body"])["memory"] == "Im Browser geändert."
            # And deleted
            deleted = execute("DELETE", "/api/memory/{memory_id}", {"memory_id": memory_id}, None)
            assert deleted["status"] == "200", deleted
            # Then reading it answers 404 with a German problem document
            missing = execute("GET", "/api/memory/{memory_id}", {"memory_id": memory_id}, None)
            assert missing["status"] == "404", missing
            assert "nicht_gefunden" in missing["body"]
