"""The console in a real browser: one headless Chromium drives every flow against one running
`brain serve` — sign in with a pasted token, search with filters (also live, by htmx), open
a memory, edit it, delete it after a confirmation, bulk delete after a preview, add and
remove a project member, read the ledger — as a person would, through the page's own forms.
Refused actions (another nutzer's memory, a team or project the person is not in) show the
same "not found" page as missing ones. axe-core checks every main page (WCAG 2.x A/AA) at
1280 px and at a phone's width; screenshots of each are kept in test-artifacts/.

The module shares one server and one browser (module fixtures); the tests run in file order
and each builds on the sign-in of the first."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.console_driver import DESKTOP, PHONE, Driver, chromium_driver
from tests.e2e.console_world import World, rest, seed
from tests.e2e.test_local_server import serve

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRAIN_TEST_ARTIFACTS", ROOT / "test-artifacts")) / "console"
# One worker runs the whole module, in file order: make unit uses --dist loadfile.


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data_dir = tmp_path_factory.mktemp("console") / "data"
    with serve(data_dir) as server:
        yield seed(server, data_dir)


@pytest.fixture(scope="module")
def page(world: World, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Driver]:
    with chromium_driver(tmp_path_factory.mktemp("chromium-profile")) as driver:
        driver.viewport(DESKTOP)
        yield driver


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def shoot(page: Driver, name: str) -> None:
    page.screenshot(ARTIFACTS / f"{name}.png")


def test_sign_in_with_a_pasted_token_keeps_the_token_out_of_the_page(
    world: World, page: Driver
) -> None:
    # Given the start page, which leads to the sign-in
    page.open(world.base + "/")
    assert page.url() == world.console("/anmelden")
    shoot(page, "anmelden")
    # When a wrong token is pasted, the page says so and stays on the sign-in
    page.fill("#token", "kein-gueltiges-token")
    page.click_and_load("form[action$='/anmelden'] button")
    assert "Token ungültig oder abgelaufen." in page.text()
    page.problems.clear()  # the refused sign-in's 401, expected
    # When alice pastes her token
    page.fill("#token", world.alice)
    page.click_and_load("form[action$='/anmelden'] button")
    # Then she is signed in on the search page
    assert page.url() == world.console("/suche")
    assert "Angemeldet als alice" in page.text("header")
    # And the token is nowhere the page's scripts reach: not in the page, its URL or cookies
    html = page.run("return document.documentElement.outerHTML + location.href;")
    assert world.alice not in html
    assert page.run("return document.cookie;") == ""
    cookies = page.send("Network.getCookies")["cookies"]
    (session,) = [c for c in cookies if c["name"] == "brain_console"]
    assert (session["httpOnly"], session["sameSite"]) == (True, "Lax")
    assert world.alice not in session["value"]
    assert page.problems == []


def search(page: Driver, **fields: str) -> None:
    """Fill the search form's fields (by id) and submit it; htmx swaps the results in."""
    page.run("window.__swaps = 0; return 1;")
    for field, value in fields.items():
        page.fill(f"#{field}", value)
    page.run("document.querySelector('form[role=search] button[type=submit]').click(); return 1;")
    page.until("window.__swaps > 0 && !document.querySelector('.htmx-request')")
    page.run("await new Promise((r) => setTimeout(r, 700)); return 1;")  # a live search due
    page.until("!document.querySelector('.htmx-request')")


def test_search_finds_by_words_with_filters_and_names_area_path_and_signal(
    world: World, page: Driver
) -> None:
    # Given the search page, whose results htmx swaps in place (no page load)
    page.open(world.console("/suche"))
    page.run(
        "window.__loaded = true; document.body.addEventListener('htmx:afterSettle',"
        " () => { window.__swaps += 1; }); return 1;"
    )
    # When alice searches for "Rückruf"
    search(page, q="Rückruf")
    # Then her own and her team's callbacks are found, bob's is not
    titles = page.texts(".treffer h3")
    assert set(titles) == {
        "Rückruf nur vormittags",
        "Rückruf über die Hotline",
        "Veraltete Notiz zum Rückruf",
    }
    results = page.text("#ergebnisse")
    assert "Bobs" not in results
    # And each hit names its area, path and what found it
    assert "teams/support" in results and "users/alice" in results
    assert "teams/support/prozesse" in results
    assert "Gefunden durch: Wörter" in results
    # And the address is the search's, so it can be bookmarked and the back button works
    assert "q=R%C3%BCckruf" in page.url()
    shoot(page, "suche")
    # When the team filter is chosen
    page.run("document.querySelector('details.filter').open = true; return 1;")
    search(page, **{"f-team": "support"})
    # Then only the team's memory remains
    assert page.texts(".treffer h3") == ["Rückruf über die Hotline"]
    # When the tag filter replaces it
    search(page, **{"f-team": "", "f-tag": "telefon"})
    assert page.texts(".treffer h3") == ["Rückruf nur vormittags"]
    # When she types another word: the live search updates the results while she types
    page.run("window.__swaps = 0; return 1;")
    page.fill("#f-tag", "")
    page.fill("#q", "Hotline")
    page.until("document.querySelector('#ergebnisse h2').innerText.includes('Hotline')")
    assert page.texts(".treffer h3") == ["Rückruf über die Hotline"]
    # And all this happened in one page load, without a script or style from elsewhere
    assert page.run("return window.__loaded === true;")
    assert page.problems == []
    # And an area filter by the address works as well, with the form reflecting it
    page.open(world.console("/suche?q=Rückruf&bereich=users/alice"))
    assert set(page.texts(".treffer h3")) == {
        "Rückruf nur vormittags",
        "Veraltete Notiz zum Rückruf",
    }
    assert page.run("return document.querySelector('#f-bereich').value;") == "users/alice"


def test_a_memory_shows_text_provenance_tags_ratings_and_linked_entries(
    world: World, page: Driver
) -> None:
    # When alice opens her callback memory
    page.open(world.console(f"/erinnerungen/{world.ids['rueckruf']}"))
    text = page.text()
    # Then the page shows its full text, provenance and tags
    assert "Kundin K-1001 möchte zwischen 9 und 12 Uhr angerufen werden." in text
    for shown in ("alice", "support-bot", "acme", "laptop-7", "crm (konversation): ticket-4711"):
        assert shown in text, shown
    assert page.texts(".tags li") == ["kunde", "telefon"]
    # And its ratings with the running average, newest first, and the linked brain entry
    assert "Durchschnitt: 8" in text and "Anzahl: 2" in text
    assert [row.split("\t")[1] for row in page.texts("#bewertung-titel ~ div tbody tr")] == [
        "7",
        "9",
    ]
    assert "Beispiel GmbH" in page.text("#brain-titel ~ ul")
    shoot(page, "erinnerung")


def test_edit_sends_only_the_changed_field(world: World, page: Driver) -> None:
    memory_id = world.ids["rueckruf"]
    # When alice corrects the tags of the memory in its edit form
    page.open(world.console(f"/erinnerungen/{memory_id}/bearbeiten"))
    shoot(page, "bearbeiten")
    page.fill("#e-tags", "kunde, telefon, vormittags")
    page.click_and_load("form.formular button[type=submit]")
    # Then the memory page says it was saved and shows the new tags, the text unchanged
    assert page.url().endswith(f"/erinnerungen/{memory_id}?hinweis=gespeichert")
    assert "Gespeichert." in page.text()
    assert page.texts(".tags li") == ["kunde", "telefon", "vormittags"]
    stored = rest(world.base, world.alice, "GET", f"/api/memory/{memory_id}")
    assert stored["tags"] == ["kunde", "telefon", "vormittags"]
    assert stored["memory"].startswith("Rückruf nur vormittags.")
    # And an invalid change is refused with the API's German reason, nothing changed
    page.open(world.console(f"/erinnerungen/{memory_id}/bearbeiten"))
    page.fill("#e-kurz", " ")
    page.click_and_load("form.formular button[type=submit]")
    assert "kurzbeschreibung" in page.text("#fehler")
    assert rest(world.base, world.alice, "GET", f"/api/memory/{memory_id}")["kurzbeschreibung"] == (
        "Rückruf nur vormittags"
    )


def test_delete_asks_first_and_then_the_memory_is_gone_from_search(
    world: World, page: Driver
) -> None:
    memory_id = world.ids["loeschen"]
    # When alice opens the memory and chooses to delete it
    page.open(world.console(f"/erinnerungen/{memory_id}"))
    page.click_and_load("a.gefahr")
    # Then she is asked first, and nothing is deleted yet
    assert "Erinnerung löschen?" in page.text()
    rest(world.base, world.alice, "GET", f"/api/memory/{memory_id}")
    # When she confirms
    page.click_and_load("form.aktionen button.gefahr")
    # Then the console shows it deleted and no longer found by the search
    assert memory_id in page.text()
    assert "Nicht mehr gefunden" in page.text("#gegenprobe")
    assert serious(page.axe()) == []
    page.open(world.console("/suche?q=Rückruf"))
    assert "Veraltete Notiz zum Rückruf" not in page.texts(".treffer h3")
    # And opening it again is the not-found page
    page.open(world.console(f"/erinnerungen/{memory_id}"))
    assert page.text("h1") == "Nicht gefunden"


def test_bulk_delete_previews_how_many_and_which_then_deletes_exactly_those(
    world: World, page: Driver
) -> None:
    previewed = {world.ids[k] for k in ("alt1", "alt2", "alt3")}
    # When alice previews deleting everything tagged "testlauf"
    page.open(world.console("/massenloeschung"))
    page.fill("#f-tag", "testlauf")
    page.click_and_load("form.formular button[type=submit]")
    # Then the preview says how many and lists which
    assert "3 Erinnerungen passen." in page.text("#vorschau-titel")
    assert {row.split("\t")[0] for row in page.texts("#vorschau tbody tr")} == previewed
    page.run("document.querySelector('#vorschau').scrollIntoView(); return 1;")
    shoot(page, "massenloeschung")
    # When she confirms
    page.click_and_load("#vorschau form button.gefahr")
    # Then exactly those are deleted, and the same filter now matches none
    assert "3 Erinnerung(en) gelöscht." in page.text()
    assert "Der Filter trifft jetzt 0 Erinnerungen." in page.text("#gegenprobe")
    assert serious(page.axe()) == []
    listed = rest(world.base, world.alice, "GET", "/api/memory?tag=testlauf")
    assert listed["eintraege"] == []


def test_the_owner_adds_and_removes_a_project_member(world: World, page: Driver) -> None:
    # When alice opens her project
    page.open(world.console("/projekte"))
    assert page.texts("tbody td a") == ["memory-os"]
    page.click_and_load("tbody td a")
    assert page.texts(".mitglieder li span:first-child") == ["alice"]
    # And adds bob
    page.fill("#neu", "bob")
    page.click_and_load("#hinzu-titel ~ form button")
    # Then bob is a member, also for the API
    assert "Mitglieder hinzugefügt." in page.text()
    assert page.texts(".mitglieder li span:first-child") == ["alice", "bob"]
    members = rest(world.base, world.bob, "GET", "/api/projects/memory-os/mitglieder")
    assert members["mitglieder"] == ["alice", "bob"]
    shoot(page, "projekt")
    # When she removes him again
    page.click_and_load("button[aria-label='bob entfernen']")
    assert "Mitglied entfernt." in page.text()
    assert page.texts(".mitglieder li span:first-child") == ["alice"]


def test_the_ledger_shows_bookings_sums_and_open_reminders(world: World, page: Driver) -> None:
    page.open(world.console("/hauptbuch"))
    text = page.text()
    # Then the sums per currency, per area, the open reminder and both bookings are shown
    assert "-1249.90" in page.text("#summen-titel ~ div")
    per_area = page.texts("#konten-titel ~ div tbody tr")
    assert any("teams/support" in row and "-49.90" in row for row in per_area), per_area
    assert any("users/alice" in row and "-1200.00" in row for row in per_area), per_area
    assert "Vermieter" in page.text("#offen-titel ~ div") and "2026-12-03" in text
    assert len(page.texts("#buchungen-titel ~ div tbody tr")) == 2
    shoot(page, "hauptbuch")


def test_refused_things_look_exactly_like_missing_ones(world: World, page: Driver) -> None:
    pages = {
        "bobs memory": f"/erinnerungen/{world.ids['bobs']}",
        "a missing memory": "/erinnerungen/longterm_9999",
        "bobs team": "/teams/vertrieb",
        "a missing team": "/teams/gibtsnicht",
        "bobs project": "/projekte/bobs-projekt",
        "a missing project": "/projekte/gibtsnicht",
    }
    seen = {}
    for name, path in pages.items():
        page.open(world.console(path))
        status = page.run("return performance.getEntriesByType('navigation')[0].responseStatus;")
        seen[name] = (status, page.text("h1"), page.text("main p").split(" (")[0])
    assert set(seen.values()) == {
        (404, "Nicht gefunden", "Das gibt es nicht, oder Sie dürfen es nicht sehen.")
    }, seen
    # And a write from another site is refused before anything runs (CSRF, origin check)
    forged = page.run(
        "const r = await fetch('/console/erinnerungen/"
        + world.ids["hotline"]
        + "/loeschen', {method: 'POST', body: new URLSearchParams({csrf: 'geraten'})});"
        "return r.status;"
    )
    assert forged == 403
    assert rest(world.base, world.alice, "GET", f"/api/memory/{world.ids['hotline']}")


MAIN_PAGES = {
    "anmelden": None,
    "suche": "/suche?q=Rückruf",
    "erinnerung": "/erinnerungen/{rueckruf}",
    "bearbeiten": "/erinnerungen/{rueckruf}/bearbeiten",
    "massenloeschung": "/massenloeschung?vorschau=1&tag=kunde",
    "projekte": "/projekte",
    "projekt": "/projekte/memory-os",
    "teams": "/teams",
    "hauptbuch": "/hauptbuch",
    "nicht_gefunden": "/teams/gibtsnicht",
}


def test_every_main_page_passes_axe_at_desktop_and_phone_width_in_both_languages(
    world: World, page: Driver
) -> None:
    failing: dict[str, list[Any]] = {}
    report: dict[str, list[str]] = {}
    for lang in ("de", "en"):
        page.open(world.console(f"/sprache?zu={lang}&zurueck=/console/suche"))
        for size, mobile in ((DESKTOP, False), (PHONE, True)):
            page.viewport(size, mobile)
            for name, path in MAIN_PAGES.items():
                if path is None:
                    continue
                page.open(world.console(path.format(**world.ids)))
                violations = page.axe()
                report[f"{name} {lang} {size[0]}"] = [
                    f"{v['id']} ({v['impact']})" for v in violations
                ]
                bad = serious(violations)
                if bad:
                    failing[f"{name} {lang} {size[0]}"] = bad
                # And nothing is wider than the screen
                assert not page.overflows_horizontally(), (name, lang, size)
                if lang == "de" and mobile and name in ("suche", "erinnerung"):
                    shoot(page, f"{name}-telefon")
    page.viewport(DESKTOP)
    page.open(world.console("/sprache?zu=de&zurueck=/console/suche"))
    (ARTIFACTS / "axe.json").write_text(json.dumps({"violations": report}, indent=1))
    assert len(report) == 2 * 2 * (len(MAIN_PAGES) - 1)  # every page was checked
    assert failing == {}, json.dumps(failing, indent=1, ensure_ascii=False)
    (ARTIFACTS / "axe.json").write_text(json.dumps({"violations": report}, indent=1))


def test_english_is_one_click_away_and_every_text_switches(world: World, page: Driver) -> None:
    page.open(world.console("/suche"))
    page.click_and_load("a[hreflang=en]")
    assert page.url() == world.console("/suche")
    assert page.text("h1") == "Find memories"
    assert page.run("return document.documentElement.lang;") == "en"
    page.click_and_load("a[hreflang=de]")
    assert page.text("h1") == "Erinnerungen finden"


def test_sign_out_ends_the_session(world: World, page: Driver) -> None:
    page.open(world.console("/suche"))
    page.click_and_load("form[action$='/abmelden'] button")
    assert page.url() == world.console("/anmelden")
    page.open(world.console("/suche"))
    assert page.url().startswith(world.console("/anmelden"))
