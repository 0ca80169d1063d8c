"""`POST /api/memory` accepts `remember`'s names (issue 26: it refused `content` and `path`
with "Unbekanntes Feld", though seed 004 calls the REST API broader than the MCP tool):
`content` = `memory`, `path` = `pfad`, `create_project`, and a missing `kurzbeschreibung`
is derived from the text as `remember` derives it."""

from __future__ import annotations

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.services.summary import summary_of
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer
from tests.e2e.test_rest_api import bearer, stored, token

pytestmark = pytest.mark.anyio

TEXT = "Die Müller GmbH möchte Rückrufe nur zwischen 9 und 12 Uhr.\nSeit dem Vertrag 2026."


async def test_content_and_path_store_like_memory_and_pfad(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        created = await http.post(
            "/api/memory", json={"content": TEXT, "path": "users/42/kunden"}, headers=headers
        )
        assert created.status_code == 201, created.text
        memory = created.json()
        assert memory["memory"] == TEXT
        assert memory["kurzbeschreibung"] == summary_of(TEXT)
        assert (memory["pfad"], memory["bereich"]) == ("users/42/kunden", "users/42")
        # And it is found like any other memory
        found = await http.get("/api/memory", params={"q": "Rückrufe"}, headers=headers)
        assert [m["ID"] for m in found.json()["eintraege"]] == [memory["ID"]]


async def test_both_names_of_one_field_are_refused_under_the_name_sent(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        both = await http.post(
            "/api/memory", json={"memory": TEXT, "content": TEXT}, headers=headers
        )
        paths = await http.post(
            "/api/memory",
            json={"content": TEXT, "pfad": "users/42", "path": "users/42/x"},
            headers=headers,
        )
        too_long = await http.post(
            "/api/memory", json={"content": "x" * 100_001, "kurzbeschreibung": "k"}, headers=headers
        )
        not_bool = await http.post(
            "/api/memory", json={"content": TEXT, "create_project": "ja"}, headers=headers
        )
    fields = [
        [e["feld"] for e in answer.json()["fehler"]] for answer in (both, paths, too_long, not_bool)
    ]
    assert [a.status_code for a in (both, paths, too_long, not_bool)] == [422] * 4
    assert fields[0] == ["content"] and fields[1] == ["path"]
    assert "content" in fields[2] and fields[3] == ["create_project"]
    assert stored(sqlite_storage) == []


async def test_create_project_makes_the_caller_its_owner(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # Without create_project a missing project is refused, nothing stored
        refused = await http.post(
            "/api/memory", json={"content": TEXT, "path": "projects/neu/notizen"}, headers=headers
        )
        assert refused.status_code in (403, 404), refused.text
        assert stored(sqlite_storage) == []
        # With it, the project is created and the memory stored in it
        created = await http.post(
            "/api/memory",
            json={"content": TEXT, "path": "projects/neu/notizen", "create_project": True},
            headers=headers,
        )
        assert created.status_code == 201, created.text
        assert created.json()["bereich"] == "projects/neu"
        projects = await http.get("/api/projects", headers=headers)
    assert projects.status_code == 200, projects.text
    assert "neu" in projects.text
