"""The console's parts without a browser: the sealed session, the words of both languages,
the merge patch of the edit form, the ledger sums per area, and the vendored htmx pin."""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from shared.config import Settings
from shared.console import i18n
from shared.console.memory_pages import merge_patch
from shared.console.people_pages import per_area
from shared.console.session import Session, SessionCipher, same_origin, session_cipher

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "shared" / "console"
PINS = ROOT / "tests" / "console" / "package.json"
INSTALLED = ROOT / ".tools" / "console" / "node_modules"


def test_a_sealed_session_opens_only_unchanged_with_its_key_and_in_time() -> None:
    cipher = SessionCipher(b"k" * 32)
    session = Session.fresh().signed_in_with("geheimes-token", "alice")
    sealed = cipher.seal(session)
    # The cookie does not show the token, and opens to the same session
    assert "geheimes-token" not in sealed
    assert cipher.open(sealed) == session
    # A changed cookie, another key, an expired session or garbage open to nothing
    flipped = sealed[:-2] + ("A" if sealed[-2] != "A" else "B") + sealed[-1]
    assert cipher.open(flipped) is None
    assert SessionCipher(b"x" * 32).open(sealed) is None
    assert cipher.open(cipher.seal(replace(session, expires=int(time.time()) - 1))) is None
    assert cipher.open("kein-cookie") is None
    assert cipher.open(None) is None
    # And signing in starts a new session: a new CSRF token, nothing carried over
    assert Session.fresh().csrf != session.csrf
    assert session.signed_in_with("anderes", "bob").csrf != session.csrf


def test_the_session_key_is_configured_or_local_and_absent_on_aws_without_one(
    tmp_path: Path,
) -> None:
    local = session_cipher(Settings(data_dir=tmp_path))
    assert local is not None and (tmp_path / "console-session.key").stat().st_mode & 0o077 == 0
    again = session_cipher(Settings(data_dir=tmp_path))
    assert again is not None and again.open(local.seal(Session.fresh())) is not None
    configured = Settings(backend="aws", console_session_key="s" * 32)
    assert session_cipher(configured) is not None
    assert session_cipher(Settings(backend="aws")) is None
    with pytest.raises(ValueError, match="at least 32"):
        Settings(console_session_key="zu-kurz")


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        ({}, True),
        ({"origin": "http://127.0.0.1:8787", "sec-fetch-site": "same-origin"}, True),
        ({"origin": "http://evil.example", "sec-fetch-site": "cross-site"}, False),
        ({"origin": "null"}, False),
        ({"sec-fetch-site": "same-site"}, False),
    ],
)
def test_only_requests_from_the_console_itself_may_write(
    headers: dict[str, str], allowed: bool
) -> None:
    scope = {
        "type": "http",
        "scheme": "http",
        "headers": [(b"host", b"127.0.0.1:8787")]
        + [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    assert same_origin(scope) is allowed


def used_texts() -> set[str]:
    """Every text the templates and pages pass to t()."""
    found: set[str] = set()
    for template in (CONSOLE / "templates").glob("*.html"):
        text = template.read_text()
        found |= set(re.findall(r'\bt\("([^"]+)"', text))
        found |= set(re.findall(r"\bt\('([^']+)'", text))
        # The navigation's labels are a list in base.html
        found |= set(re.findall(r'\("[a-z]+", "/[a-z]+", "([^"]+)"\)', text))
    for module in CONSOLE.glob("*.py"):
        found |= set(re.findall(r'\.t\(\s*"([^"]+)"', module.read_text()))
    return found


def test_every_text_of_the_console_has_its_english_words() -> None:
    used = used_texts()
    assert len(used) > 100  # the scan found the templates' texts
    missing = sorted(text for text in used if text not in i18n.EN)
    assert missing == []
    assert i18n.translate("Suchen", "en") == "Search"
    assert i18n.translate("{n} Treffer für „{q}“", "de", n=2, q="x") == "2 Treffer für „x“"
    assert i18n.translate("woerter", "de") == "Wörter"


def test_the_edit_form_sends_only_what_changed_and_null_for_an_emptied_field() -> None:
    original = {
        "kurzbeschreibung": "Rückruf",
        "memory": "Zeile 1\nZeile 2",
        "tags": "a, b",
        "scope": "kunde",
        "scope_vk": "K-1",
    }
    unchanged = {**original, "memory": "Zeile 1\r\nZeile 2"}  # browsers send CRLF
    assert merge_patch(unchanged, original) == {}
    edited = {**original, "tags": "a, b, c", "scope_vk": " ", "kurzbeschreibung": "Neu"}
    assert merge_patch(edited, original) == {
        "tags": ["a", "b", "c"],
        "scope_vk": None,
        "kurzbeschreibung": "Neu",
    }
    assert merge_patch({**original, "tags": ""}, original) == {"tags": None}


def test_ledger_sums_per_area_and_currency_are_exact() -> None:
    months = [
        {"bereich": "teams/a", "waehrung": "EUR", "saldo": "-49.90", "anzahl": 1},
        {"bereich": "teams/a", "waehrung": "EUR", "saldo": "0.10", "anzahl": 2},
        {"bereich": "teams/a", "waehrung": "USD", "saldo": "5", "anzahl": 1},
        {"bereich": "users/x", "waehrung": "EUR", "saldo": "-1200.00", "anzahl": 1},
    ]
    assert per_area(months) == [
        {"bereich": "teams/a", "waehrung": "EUR", "saldo": "-49.80", "anzahl": 3},
        {"bereich": "teams/a", "waehrung": "USD", "saldo": "5", "anzahl": 1},
        {"bereich": "users/x", "waehrung": "EUR", "saldo": "-1200.00", "anzahl": 1},
    ]


def test_the_vendored_htmx_is_the_pinned_release() -> None:
    pinned = json.loads(PINS.read_text())["dependencies"]["htmx.org"]
    installed = INSTALLED / "htmx.org"
    assert json.loads((installed / "package.json").read_text())["version"] == pinned
    vendored = (CONSOLE / "static" / "htmx.min.js").read_bytes()
    assert vendored == (installed / "dist" / "htmx.min.js").read_bytes()
