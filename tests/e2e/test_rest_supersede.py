"""Superseded memories over REST through the real app (issue 25): `POST /api/memory` and
`PATCH /api/memory/{id}` take `ersetzt`; the replaced memory leaves the default list and
search, stays readable by ID (with `gueltig_bis`, `ersetzt_durch`) and comes back with
`?verlauf=true`; refusals are German, name `ersetzt` and map to their status."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from tests.conftest import InProcessServer
from tests.e2e.test_rest_api import bearer, body, token

pytestmark = pytest.mark.anyio

OLD = "Die Kantine öffnet um 11:30 Uhr."
NEW = "Die Kantine öffnet ab Januar um 11 Uhr."


async def post(http: Any, headers: dict[str, str], **fields: Any) -> dict[str, Any]:
    answer = await http.post("/api/memory", json=body(**fields), headers=headers)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


async def ids(http: Any, headers: dict[str, str], query: str) -> list[str]:
    answer = await http.get(query, headers=headers)
    assert answer.status_code == 200, answer.text
    page = answer.json()
    return [m["ID"] for m in page.get("eintraege", page.get("treffer", []))]


async def test_post_with_ersetzt_hides_the_old_one_until_verlauf(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        old = await post(http, headers, memory=OLD)
        created = await http.post(
            "/api/memory", json=body(memory=NEW, ersetzt=old["ID"]), headers=headers
        )
        assert created.status_code == 201, created.text
        new = created.json()
        assert new["ersetzt"] == [old["ID"]]
        assert new["gueltig_bis"] is None and new["ersetzt_durch"] is None
        # Default list and search: the successor only
        assert await ids(http, headers, "/api/memory") == [new["ID"]]
        assert await ids(http, headers, "/api/memory/suche?q=Kantine") == [new["ID"]]
        # History: both
        assert await ids(http, headers, "/api/memory?verlauf=true") == [new["ID"], old["ID"]]
        found = await ids(http, headers, "/api/memory/suche?q=Kantine&verlauf=true")
        assert sorted(found) == sorted([new["ID"], old["ID"]])
        # By ID: readable, with when and by what it was replaced
        replaced = (await http.get(f"/api/memory/{old['ID']}", headers=headers)).json()
        assert replaced["ersetzt_durch"] == new["ID"]
        assert datetime.fromisoformat(replaced["gueltig_bis"]).utcoffset() is not None


async def test_patch_with_ersetzt_and_the_refusals(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        old, new = await post(http, headers, memory=OLD), await post(http, headers, memory=NEW)
        patched = await http.patch(
            f"/api/memory/{new['ID']}",
            json={"ersetzt": [old["ID"]]},
            headers={**headers, "Content-Type": "application/merge-patch+json"},
        )
        assert patched.status_code == 200, patched.text
        assert patched.json()["ersetzt"] == [old["ID"]]
        assert await ids(http, headers, "/api/memory") == [new["ID"]]
        # Replacing it again: 409, naming ersetzt; an unknown ID: 404 naming ersetzt
        again = await http.post(
            "/api/memory", json=body(memory="Kantine zu", ersetzt=old["ID"]), headers=headers
        )
        assert again.status_code == 409, again.text
        assert again.json()["fehler"][0]["feld"] == "ersetzt"
        unknown = await http.patch(
            f"/api/memory/{new['ID']}",
            json={"ersetzt": "longterm_999"},
            headers={**headers, "Content-Type": "application/merge-patch+json"},
        )
        assert unknown.status_code == 404, unknown.text
        assert unknown.json()["fehler"][0]["feld"] == "ersetzt"
        # Breaking the rule: 400 (or 422), German, naming the field, not echoing the value
        bad = await http.post(
            "/api/memory", json=body(memory="x", ersetzt=["kein-id"]), headers=headers
        )
        assert bad.status_code in (400, 422), bad.text
        assert "kein-id" not in bad.text
        # Another nutzer's memory: not found alike
        other = bearer(token(issuer, nutzer=("77",)))
        foreign = await http.post(
            "/api/memory", json=body(memory="fremd", ersetzt=new["ID"]), headers=other
        )
        assert foreign.status_code == 404, foreign.text
