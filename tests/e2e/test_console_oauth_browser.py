"""Signing in to the console with a Brain account in a real browser: headless Chromium against
a running `brain serve` with a local user (`brain user add`) — console → the authorization
server's /authorize → its login page (user name and password) → /console/callback (no
consent page: the console is the first-party client `brain-console`) → signed in → a search
finds the person's memory → sign out. The refusals (state, iss, PKCE) are in-process tests
(test_console_oauth.py)."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.console_driver import DESKTOP, PHONE, Driver, chromium_driver
from tests.e2e.test_console_browser import ARTIFACTS, serious
from tests.e2e.test_console_oauth import PASSWORD, alice_token
from tests.e2e.test_local_server import RunningServer, brain, serve


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, str]]:
    data_dir = tmp_path_factory.mktemp("console-oauth") / "data"
    added = subprocess.run(
        brain("user", "add", "alice", "--data-dir", str(data_dir), "--password-stdin"),
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert added.returncode == 0, added.stderr
    with serve(data_dir) as server:
        base = server.url.removesuffix("/mcp")
        token = alice_token(data_dir)
        body = {"kurzbeschreibung": "Rückruf nur vormittags", "memory": "Kundin K-1001: 9-12 Uhr."}
        request = urllib.request.Request(
            base + "/api/memory",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        yield server, base


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Driver]:
    with chromium_driver(tmp_path_factory.mktemp("chromium-oauth")) as driver:
        driver.viewport(DESKTOP)
        yield driver


def check_axe(page: Driver) -> list[dict[str, Any]]:
    """axe's violations of the page at desktop and at phone width (then desktop again)."""
    found: list[dict[str, Any]] = []
    for size, mobile in ((PHONE, True), (DESKTOP, False)):
        page.viewport(size, mobile=mobile)
        found += page.axe()
    return found


def click_through(page: Driver, selector: str, lands_at: str) -> None:
    """Click and wait for the page at the end of the redirects (a load event of the page
    before, arriving late, is waited past)."""
    page.click_and_load(selector)
    if not page.url().startswith(lands_at):
        page.wait_for("Page.loadEventFired", timeout=30)
    assert page.url().startswith(lands_at), (page.url(), page.text("body")[:400])


def test_a_person_signs_in_with_a_brain_account_and_searches(
    running: tuple[RunningServer, str], page: Driver
) -> None:
    _, base = running
    # Given the console's sign-in page, which offers the Brain account first
    page.open(base + "/console/")
    assert page.url() == base + "/console/anmelden"
    checked = {"anmelden": check_axe(page)}
    # When alice follows it, she is at the authorization server's login page
    click_through(page, "#konto-anmelden", base + "/oauth/login?")
    page.screenshot(ARTIFACTS / "oauth-login.png")
    checked["oauth-login"] = check_axe(page)
    (ARTIFACTS / "axe-oauth.json").write_text(json.dumps(checked, indent=1))
    # Both pages of the sign-in pass axe (WCAG 2.x A/AA) at 1280 px and a phone's width
    assert {name: serious(found) for name, found in checked.items()} == {
        "anmelden": [],
        "oauth-login": [],
    }
    # And signs in with her user name and password
    page.fill("#username", "alice")
    page.fill("#password", PASSWORD)
    click_through(page, "#password-login button[type=submit]", base + "/console/suche")
    # Then the callback signed her in (no consent page for the console) on the search page
    assert "Angemeldet als alice" in page.text("header")
    cookies = page.send("Network.getCookies")["cookies"]
    (session,) = [c for c in cookies if c["name"] == "brain_console"]
    assert session["httpOnly"] and page.run("return document.cookie;") == ""
    # And a search finds her memory
    page.open(base + "/console/suche?q=vormittags")
    assert "Rückruf nur vormittags" in page.texts(".treffer h3")
    # When she signs out, she is back at the sign-in page
    page.click_and_load("form[action$='/abmelden'] button")
    assert page.url() == base + "/console/anmelden"
    page.open(base + "/console/suche")
    assert page.url().startswith(base + "/console/anmelden")
    assert page.problems == []
