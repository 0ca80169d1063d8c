"""The console's pages around the person: sign in and out, the language, projects with their
members (owners add and remove), teams, and the ledger — REST calls as the signed-in person.

Sign-in with a Brain account (OAuth) is `oauth_pages`; sign-out revokes its refresh token.
Sign-in by token: the pasted token is checked by the REST API itself (`GET /api/identitaet`
answers 200 only for a valid token with `memory:read`) before it goes into the sealed
session; nothing of the token is ever shown or logged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Final

from fastapi import APIRouter, Request
from starlette.responses import Response

from shared.console import oauth_client
from shared.console.memory_pages import _me
from shared.console.session import Session
from shared.console.visit import Visit

TOKEN_MAX_LEN: Final = 8192
REMINDER_HORIZON_DAYS: Final = 3660  # open reminders due within ten years: all of them
LEDGER_LIMIT: Final = 100

router = APIRouter()


# --- start, language, sign in and out ------------------------------------------------------


@router.get("")
async def console_root(request: Request) -> Response:
    return Visit.of(request).redirect("/")


@router.get("/")
async def start(request: Request) -> Response:
    visit = Visit.of(request)
    return visit.redirect("/suche" if visit.session.signed_in else "/anmelden")


@router.get("/sprache")
async def language(request: Request) -> Response:
    visit = Visit.of(request)
    visit.set_language(request.query_params.get("zu", ""))
    return visit.redirect_to(request.query_params.get("zurueck", ""))


def sign_in_page(
    visit: Visit, errors: Sequence[tuple[str, str]], back: str, status: int = 200
) -> Response:
    notice = ""
    if visit.request.query_params.get("hinweis") == "abgelaufen":
        notice = visit.t("Ihre Anmeldung ist abgelaufen. Bitte erneut anmelden.")
    return visit.page(
        "anmelden.html",
        status=status,
        fehler=list(errors),
        zurueck=back,
        oauth_url=visit.url("/anmelden/konto", zurueck=back)
        if oauth_client.endpoint(visit.request)
        else "",
        notice=notice,
    )


@router.get("/anmelden")
async def sign_in_form(request: Request) -> Response:
    visit = Visit.of(request)
    if visit.session.signed_in:
        return visit.redirect("/suche")
    return sign_in_page(visit, [], visit.back_to(request.query_params.get("zurueck")))


@router.post("/anmelden")
async def sign_in(request: Request) -> Response:
    visit = Visit.of(request)
    fields = await visit.form()
    back = visit.back_to(fields.get("zurueck", [""])[0])
    token = fields.get("token", [""])[0].strip().removeprefix("Bearer ").strip()
    if not token or len(token) > TOKEN_MAX_LEN or any(c.isspace() for c in token):
        return sign_in_page(
            visit, [("token", visit.t("Bitte ein gültiges Token einfügen."))], back, 422
        )
    answer = await visit.client(token).get("/api/identitaet")
    if answer.status == 401:
        return sign_in_page(
            visit, [("token", visit.t("Token ungültig oder abgelaufen."))], back, 401
        )
    if answer.status == 403:
        return sign_in_page(
            visit, [("token", visit.t("Dem Token fehlt der Scope memory:read."))], back, 403
        )
    visit.expect(answer)
    visit.begin(visit.session.signed_in_with(token, str(answer.body["nutzer"])))
    return visit.redirect_to(back)


@router.post("/abmelden")
async def sign_out(request: Request) -> Response:
    visit = Visit.of(request)
    await visit.form()
    # Signed in with a Brain account: the connection ends at the authorization server too.
    await oauth_client.revoke(request, visit.session.refresh)
    visit.begin(Session.fresh(visit.session.lang))
    return visit.redirect("/anmelden")


# --- projects and teams --------------------------------------------------------------------


@router.get("/projekte")
async def projects(request: Request) -> Response:
    visit = Visit.of(request)
    answer = visit.expect(await visit.rest().get("/api/projects"))
    return visit.page("projekte.html", section="projekte", projekte=answer.body["projekte"])


def _project_page(
    visit: Visit, project: Mapping[str, Any], errors: Sequence[tuple[str, str]], status: int = 200
) -> Response:
    notice = {
        "hinzugefuegt": visit.t("Mitglieder hinzugefügt."),
        "entfernt": visit.t("Mitglied entfernt."),
    }.get(visit.request.query_params.get("hinweis", ""), "")
    return visit.page(
        "projekt.html",
        status=status,
        section="projekte",
        p=project,
        eigentuemer=project["eigentuemer"] == visit.session.nutzer,
        fehler=list(errors),
        notice=notice,
    )


@router.get("/projekte/{projekt}")
async def project(request: Request, projekt: str) -> Response:
    visit = Visit.of(request)
    found = visit.one(await visit.rest().get(f"/api/projects/{projekt}/mitglieder"), projekt)
    return _project_page(visit, found, [])


async def _after_change(visit: Visit, projekt: str, answer: Any, done: str) -> Response:
    if answer.ok:
        return visit.redirect(f"/projekte/{projekt}", hinweis=done)
    current = visit.expect(
        await visit.rest().get(f"/api/projects/{projekt}/mitglieder"), not_found=projekt[:60]
    )
    return _project_page(visit, current.body, answer.field_errors(), status=answer.status)


@router.post("/projekte/{projekt}/mitglieder")
async def add_members(request: Request, projekt: str) -> Response:
    visit = Visit.of(request)
    fields = await visit.form()
    names = [n.strip() for n in fields.get("mitglieder", [""])[0].split(",") if n.strip()]
    answer = await visit.rest().call(
        "POST", f"/api/projects/{projekt}/mitglieder", json={"mitglieder": names}
    )
    if answer.status == 401:
        visit.expect(answer)
    return await _after_change(visit, projekt, answer, "hinzugefuegt")


@router.post("/projekte/{projekt}/mitglieder/{mitglied}/entfernen")
async def remove_member(request: Request, projekt: str, mitglied: str) -> Response:
    visit = Visit.of(request)
    await visit.form()
    answer = await visit.rest().call("DELETE", f"/api/projects/{projekt}/mitglieder/{mitglied}")
    if answer.status == 401:
        visit.expect(answer)
    return await _after_change(visit, projekt, answer, "entfernt")


@router.get("/teams")
async def teams(request: Request) -> Response:
    visit = Visit.of(request)
    answer = visit.expect(await visit.rest().get("/api/teams"))
    return visit.page("teams.html", section="teams", teams=answer.body["teams"])


@router.get("/teams/{team}")
async def team(request: Request, team: str) -> Response:
    visit = Visit.of(request)
    found = visit.one(await visit.rest().get(f"/api/teams/{team}"), team)
    return visit.page("team.html", section="teams", team=found)


# --- ledger --------------------------------------------------------------------------------


def per_area(month_sums: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Sums per area and currency from the ledger's sums per month, category and area
    (exact decimals, as the ledger answers them)."""
    totals: dict[tuple[str, str], tuple[Decimal, int]] = {}
    for row in month_sums:
        key = (str(row["bereich"]), str(row["waehrung"]))
        saldo, count = totals.get(key, (Decimal(0), 0))
        totals[key] = (saldo + Decimal(str(row["saldo"])), count + int(row["anzahl"]))
    return [
        {"bereich": area, "waehrung": currency, "saldo": str(saldo), "anzahl": count}
        for (area, currency), (saldo, count) in sorted(totals.items())
    ]


@router.get("/hauptbuch")
async def ledger(request: Request) -> Response:
    visit = Visit.of(request)
    rest = visit.rest()
    form = {name: request.query_params.get(name, "").strip() for name in ("bereich", "von", "bis")}
    horizon = (date.today() + timedelta(days=REMINDER_HORIZON_DAYS)).isoformat()
    answer = visit.expect(
        await rest.get(
            "/api/ledger",
            path=form["bereich"] or None,
            von=form["von"] or None,
            bis=form["bis"] or None,
            faellig_bis=horizon,
            limit=LEDGER_LIMIT,
        )
    )
    book = answer.body if answer.ok else None
    return visit.page(
        "hauptbuch.html",
        section="hauptbuch",
        form=form,
        me=await _me(visit, rest),
        buch=book,
        je_bereich=per_area(book["summen_nach_monat"]) if book else [],
        fehler=[] if answer.ok else answer.field_errors(),
    )
