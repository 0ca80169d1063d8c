"""The console's memory pages: find (search and filters), look (a memory with its ratings
and linked brain entries), correct (edit as a merge patch) and remove (one, after a
confirmation; many, after a preview) — each a sequence of REST calls as the signed-in person.

After a deletion the page asks the REST search again and shows that the memory is no longer
found (the "Gegenprobe"): what the person sees is what Brain answers, not what the console
assumes."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any, Final

from fastapi import APIRouter, Request
from starlette.responses import Response

from shared.console.rest import RestClient
from shared.console.visit import Visit

PAGE_SIZE: Final = 20
FILTER_NAMES: Final = (
    "bereich",
    "team",
    "projekt",
    "agent",
    "bucket",
    "tag",
    "quelle",
    "von",
    "bis",
)
EDIT_FIELDS: Final = ("kurzbeschreibung", "memory", "tags", "scope", "scope_vk")
REMOVABLE: Final = ("tags", "scope", "scope_vk")  # an emptied field is removed (null)
CHECK_QUERY_MAX: Final = 200

router = APIRouter()


# --- filters: the form's fields as the REST API's query parameters ------------------------


def form_values(values: Mapping[str, str]) -> dict[str, Any]:
    form: dict[str, Any] = {name: values.get(name, "").strip() for name in ("q", *FILTER_NAMES)}
    active = sum(1 for name in FILTER_NAMES if form[name])
    form["aktiv"] = active
    form["offen"] = active > 0
    return form


def _day(text: str, field: str, errors: list[tuple[str, str]]) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors.append((field, "Muss ein Datum JJJJ-MM-TT sein."))
        return None


def rest_filters(form: Mapping[str, Any], errors: list[tuple[str, str]]) -> dict[str, Any]:
    """The listing's query parameters: a whole day range for von/bis (bis inclusive)."""
    start = _day(form["von"], "von", errors)
    end = _day(form["bis"], "bis", errors)
    tags = [tag.strip() for tag in form["tag"].split(",") if tag.strip()]
    return {
        "pfad": form["bereich"] or None,
        "team": form["team"] or None,
        "projekt": form["projekt"] or None,
        "agent": form["agent"] or None,
        "bucket": form["bucket"] or None,
        "tag": tags or None,
        "quelle": form["quelle"] or None,
        "erstellt_ab": f"{start.isoformat()}T00:00:00" if start else None,
        "erstellt_bis": f"{(end + timedelta(days=1)).isoformat()}T00:00:00" if end else None,
    }


async def _me(visit: Visit, rest: RestClient) -> dict[str, Any]:
    me: dict[str, Any] = visit.expect(await rest.get("/api/identitaet")).body
    return me


# --- find ---------------------------------------------------------------------------------


@router.get("/suche")
async def search(request: Request) -> Response:
    visit = Visit.of(request)
    rest = visit.rest()
    form = form_values(request.query_params)
    errors: list[tuple[str, str]] = []
    params = rest_filters(form, errors)
    cursor = request.query_params.get("cursor") or None
    items: list[dict[str, Any]] = []
    following = None
    if not errors:
        if form["q"]:
            answer = await rest.get(
                "/api/memory/suche", q=form["q"], **params, cursor=cursor, limit=PAGE_SIZE
            )
            key = "treffer"
        else:
            answer = await rest.get("/api/memory", **params, cursor=cursor, limit=PAGE_SIZE)
            key = "eintraege"
        visit.expect(answer)
        if answer.ok:
            items = answer.body[key]
            following = answer.body["naechster_cursor"]
        else:
            errors = answer.field_errors()
    shown = {name: form[name] for name in ("q", *FILTER_NAMES)}
    return visit.page(
        "suche.html",
        section="suche",
        form=form,
        me=await _me(visit, rest),
        items=items,
        fehler=errors,
        next_url=visit.url("/suche", **shown, cursor=following) if following else "",
        bulk_url=visit.url("/massenloeschung", **shown, vorschau=1),
    )


# --- look ---------------------------------------------------------------------------------


async def _memory(visit: Visit, rest: RestClient, memory_id: str) -> dict[str, Any]:
    memory: dict[str, Any] = visit.one(await rest.get(f"/api/memory/{memory_id}"), memory_id)
    return memory


@router.get("/erinnerungen/{memory_id}")
async def look(request: Request, memory_id: str) -> Response:
    visit = Visit.of(request)
    rest = visit.rest()
    memory = await _memory(visit, rest, memory_id)
    ratings = visit.expect(await rest.get(f"/api/memory/{memory_id}/bewertungen")).body
    linked = await rest.get(f"/api/memory/{memory_id}/brain")
    brain = None if linked.status == 403 else visit.expect(linked).body
    notice = {"gespeichert": visit.t("Gespeichert."), "unveraendert": visit.t("Nichts geändert.")}
    return visit.page(
        "erinnerung.html",
        section="suche",
        m=memory,
        r=ratings,
        brain=brain,
        notice=notice.get(request.query_params.get("hinweis", ""), ""),
    )


# --- correct ------------------------------------------------------------------------------


def _edit_values(memory: Mapping[str, Any]) -> dict[str, str]:
    return {
        "kurzbeschreibung": memory["kurzbeschreibung"],
        "memory": memory["memory"],
        "tags": ", ".join(memory["tags"]),
        "scope": str(memory["scope"] or ""),
        "scope_vk": str(memory["scope_vk"] or ""),
    }


def merge_patch(sent: Mapping[str, str], original: Mapping[str, str]) -> dict[str, Any]:
    """Only what the person changed (RFC 7396): an emptied removable field becomes null."""
    patch: dict[str, Any] = {}
    for name in EDIT_FIELDS:
        value = sent.get(name, "")
        if value.replace("\r\n", "\n") == original.get(name, "").replace("\r\n", "\n"):
            continue
        if name == "tags":
            tags = [tag.strip() for tag in value.split(",") if tag.strip()]
            patch[name] = tags or None
        elif name in REMOVABLE and not value.strip():
            patch[name] = None
        else:
            patch[name] = value.replace("\r\n", "\n")
    return patch


@router.get("/erinnerungen/{memory_id}/bearbeiten")
async def edit_form(request: Request, memory_id: str) -> Response:
    visit = Visit.of(request)
    values = _edit_values(await _memory(visit, visit.rest(), memory_id))
    return visit.page(
        "bearbeiten.html", section="suche", id=memory_id, orig=values, werte=values, fehler=[]
    )


@router.post("/erinnerungen/{memory_id}/bearbeiten")
async def edit(request: Request, memory_id: str) -> Response:
    visit = Visit.of(request)
    fields = await visit.form()
    rest = visit.rest()
    sent = {name: fields.get(name, [""])[0] for name in EDIT_FIELDS}
    original = {name: fields.get(f"orig_{name}", [""])[0] for name in EDIT_FIELDS}
    patch = merge_patch(sent, original)
    if not patch:
        return visit.redirect(f"/erinnerungen/{memory_id}", hinweis="unveraendert")
    answer = visit.expect(
        await rest.call(
            "PATCH",
            f"/api/memory/{memory_id}",
            json=patch,
            headers={"Content-Type": "application/merge-patch+json"},
        ),
        not_found=memory_id[:60],
    )
    if answer.ok:
        return visit.redirect(f"/erinnerungen/{memory_id}", hinweis="gespeichert")
    return visit.page(
        "bearbeiten.html",
        status=422,
        section="suche",
        id=memory_id,
        orig=original,
        werte=sent,
        fehler=answer.field_errors(),
    )


# --- remove one ---------------------------------------------------------------------------


@router.get("/erinnerungen/{memory_id}/loeschen")
async def delete_form(request: Request, memory_id: str) -> Response:
    visit = Visit.of(request)
    memory = await _memory(visit, visit.rest(), memory_id)
    return visit.page("loeschen.html", section="suche", m=memory)


async def _still_found(rest: RestClient, query: str, ids: set[str]) -> list[str]:
    """Which of `ids` the REST search for `query` still finds (first two pages)."""
    found: list[str] = []
    cursor = None
    for _ in range(2):
        answer = await rest.get("/api/memory/suche", q=query, cursor=cursor, limit=100)
        if not answer.ok:
            break
        found += [hit["ID"] for hit in answer.body["treffer"] if hit["ID"] in ids]
        cursor = answer.body["naechster_cursor"]
        if cursor is None:
            break
    return found


@router.post("/erinnerungen/{memory_id}/loeschen")
async def delete(request: Request, memory_id: str) -> Response:
    visit = Visit.of(request)
    await visit.form()
    rest = visit.rest()
    memory = await _memory(visit, rest, memory_id)
    visit.expect(await rest.call("DELETE", f"/api/memory/{memory_id}"), not_found=memory_id[:60])
    query = memory["kurzbeschreibung"][:CHECK_QUERY_MAX]
    return visit.page(
        "geloescht.html",
        section="suche",
        geloescht=[memory_id],
        nicht_gefunden=[],
        noch_da=await _still_found(rest, query, {memory_id}),
        pruefung_frage=visit.t("Suche nach „{q}“:", q=query),
        pruefung_url=visit.url("/suche", q=query),
    )


# --- remove many --------------------------------------------------------------------------


@router.get("/massenloeschung")
async def bulk_preview(request: Request) -> Response:
    visit = Visit.of(request)
    rest = visit.rest()
    form = form_values(request.query_params)
    errors: list[tuple[str, str]] = []
    params = rest_filters(form, errors)
    preview = None
    if request.query_params.get("vorschau") and not errors:
        answer = visit.expect(
            await rest.get("/api/memory/loeschvorschau", q=form["q"] or None, **params)
        )
        if answer.ok:
            preview = answer.body
        else:
            errors = answer.field_errors()
    return visit.page(
        "massenloeschung.html",
        section="massen",
        form={**form, "offen": True},
        me=await _me(visit, rest),
        vorschau=preview,
        fehler=errors,
        schluessel=secrets.token_urlsafe(16),
        filter_felder=[(name, form[name]) for name in ("q", *FILTER_NAMES) if form[name]],
    )


@router.post("/massenloeschung")
async def bulk_delete(request: Request) -> Response:
    visit = Visit.of(request)
    fields = await visit.form()
    rest = visit.rest()
    ids = fields.get("id", [])
    key = fields.get("schluessel", [""])[0]
    answer = visit.expect(
        await rest.call(
            "POST",
            "/api/memory/loeschungen",
            json={"ids": ids},
            headers={"Idempotency-Key": key} if key else None,
        )
    )
    if not answer.ok:
        return visit.page("verweigert.html", status=422, fehler=answer.field_errors())
    form = form_values({name: fields.get(f"f_{name}", [""])[0] for name in ("q", *FILTER_NAMES)})
    params = rest_filters(form, [])
    left = visit.expect(
        await rest.get("/api/memory/loeschvorschau", q=form["q"] or None, **params)
    ).body
    shown = {name: form[name] for name in ("q", *FILTER_NAMES)}
    return visit.page(
        "massen_ergebnis.html",
        section="massen",
        ergebnis=answer.body,
        rest=left,
        noch_da=[i for i in left["ids"] if i in set(answer.body["geloescht"])],
        wieder_url=visit.url("/massenloeschung", **shown, vorschau=1),
    )
