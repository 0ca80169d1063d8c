"""The console's session safety through the real app, in-process (the flows themselves are
driven in a real browser by test_console_browser.py): `/` leads to the console, assets are
Brain's own, the session cookie is sealed and HttpOnly, writes need the session's CSRF token
and the console's own origin, the token never shows in a page, a header or the logs, and a
session whose token expired leads back to the sign-in."""

from __future__ import annotations

import logging
import re
from typing import Any

import httpx2
import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.console.visit import CONTENT_SECURITY_POLICY
from tests.conftest import InProcessServer
from tests.e2e.test_rest_api import bearer, body, token

pytestmark = pytest.mark.anyio

ORIGIN = "http://127.0.0.1"


def csrf_of(page: httpx2.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text[:500]
    return found.group(1)


async def signed_in(http: httpx2.AsyncClient, value: str) -> str:
    """Sign in with `value` through the form; the new session's CSRF token."""
    form = await http.get("/console/anmelden")
    answer = await http.post(
        "/console/anmelden",
        data={"csrf": csrf_of(form), "token": value, "zurueck": ""},
        headers={"Origin": ORIGIN},
    )
    assert answer.status_code == 303, answer.text
    return csrf_of(await http.get("/console/suche"))


def client(server: InProcessServer, origin: str = ORIGIN, **kwargs: Any) -> httpx2.AsyncClient:
    transport = httpx2.ASGITransport(app=server.app)
    return httpx2.AsyncClient(transport=transport, base_url=origin, **kwargs)


async def test_root_leads_to_the_console_whose_assets_are_brains_own(
    server: InProcessServer,
) -> None:
    async with client(server) as http:
        root = await http.get("/")
        start = await http.get("/console/", follow_redirects=True)
        script = await http.get("/console/static/htmx.min.js")
        missing = await http.get("/console/static/../../pyproject.toml")
        unknown = await http.get("/console/static/nope.js")
    assert (root.status_code, root.headers["location"]) == (303, "/console/")
    assert str(start.url).endswith("/console/anmelden")
    assert start.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert start.headers["cache-control"] == "no-store"
    # Every script and style of the page is served by Brain (relative to the console)
    sources = re.findall(r'(?:src|href)="([^"]+)"', start.text)
    assert [s for s in sources if s.startswith("http") or s.startswith("//")] == []
    assert script.status_code == 200 and script.headers["content-type"].startswith(
        "text/javascript"
    )
    assert missing.status_code == 404 and unknown.status_code == 404


async def test_the_session_is_sealed_and_writes_need_its_csrf_token_and_origin(
    server: InProcessServer, issuer: LocalTokenIssuer, caplog: pytest.LogCaptureFixture
) -> None:
    value = token(issuer)
    caplog.set_level(logging.DEBUG)
    async with client(server) as rest, client(server) as http:
        created = await rest.post("/api/memory", json=body(), headers=bearer(value))
        memory_id = created.json()["ID"]
        form = await http.get("/console/anmelden")
        cookie = form.headers["set-cookie"]
        # The cookie is HttpOnly, SameSite=Lax, scoped to the console
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
        assert "path=/console/" in cookie.lower()
        # A sign-in without the form's CSRF token, or from another origin, is refused
        for data, origin in (({"token": value}, ORIGIN), ({"csrf": csrf_of(form)}, "http://x.y")):
            refused = await http.post(
                "/console/anmelden", data={**data, "token": value}, headers={"Origin": origin}
            )
            assert refused.status_code == 403
        csrf = await signed_in(http, value)
        sealed = http.cookies["brain_console"]
        assert value not in sealed
        # A delete without the CSRF token (a forged form) is refused, and nothing is deleted
        forged = await http.post(f"/console/erinnerungen/{memory_id}/loeschen", data={})
        assert forged.status_code == 403
        assert (
            await rest.get(f"/api/memory/{memory_id}", headers=bearer(value))
        ).status_code == 200
        # With it, from the console's origin, the delete goes through
        deleted = await http.post(
            f"/console/erinnerungen/{memory_id}/loeschen",
            data={"csrf": csrf},
            headers={"Origin": ORIGIN},
        )
        assert deleted.status_code == 200, deleted.text
        assert (
            await rest.get(f"/api/memory/{memory_id}", headers=bearer(value))
        ).status_code == 404
        # And the token showed in no page and no log line
        pages = [
            await http.get(p) for p in ("/console/suche", "/console/teams", "/console/projekte")
        ]
    assert all(value not in page.text for page in pages)
    assert value not in caplog.text


async def test_over_https_the_cookie_is_secure(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    # (a forwarded X-Forwarded-Proto counts only from a trusted proxy: security.md)
    async with client(server, origin="https://127.0.0.1") as http:
        form = await http.get("/console/anmelden")
    assert "secure" in form.headers["set-cookie"].lower()


async def test_an_expired_token_leads_back_to_the_sign_in(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    short = issuer.issue(
        tenant="acme",
        subject="anna",
        nutzer=["42"],
        agents=["a"],
        scopes=["memory:read"],
        ttl_seconds=-10,
    )
    async with client(server) as http:
        form = await http.get("/console/anmelden")
        refused = await http.post(
            "/console/anmelden",
            data={"csrf": csrf_of(form), "token": short},
            headers={"Origin": ORIGIN},
        )
        assert refused.status_code == 401
        assert "Token ungültig oder abgelaufen." in refused.text
        # When a valid session's token is no longer accepted by the API
        await signed_in(http, token(issuer))
        issuer._key = b"rotated-key-rotated-key-rotated!"  # the signing key changed
        after = await http.get("/console/suche")
    assert after.status_code == 303
    assert after.headers["location"] == "/console/anmelden?hinweis=abgelaufen"


async def test_docs_lists_every_api_reference_and_the_console(server: InProcessServer) -> None:
    async with client(server) as http:
        index = await http.get("/docs")
        links = re.findall(r'href="([^"]+)"', index.text)
        # Relative to /docs (whose base is the root): they work under a stage prefix too
        answers = {link: (await http.get(f"/{link}")).status_code for link in links}
    assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
    assert "script" not in index.headers["content-security-policy"]
    for page in ("memory", "projects", "ledger", "teams"):
        assert f"docs/api/{page}" in links and f"api/{page}/openapi.json" in links
    assert "console/" in links
    assert {link: code for link, code in answers.items() if code >= 400} == {}
