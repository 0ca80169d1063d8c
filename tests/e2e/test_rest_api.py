"""The memory REST API through the real app (auth, Host checks, FastAPI) on SQLite, next to
the MCP endpoint: the same data, rules and answers."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import ALL_SCOPES, Scope
from shared.domain import MemoryId, MemoryType
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from shared.validation.json_body import MAX_BODY_BYTES
from tests.conftest import InProcessServer
from tests.e2e.helpers import call, fetch_args, insert_args, memory_entry

pytestmark = pytest.mark.anyio

PROBLEM = "application/problem+json"


def token(
    issuer: LocalTokenIssuer,
    *,
    nutzer: tuple[str, ...] = ("42",),
    agents: tuple[str, ...] = ("support-agent",),
    scopes: frozenset[str] = ALL_SCOPES,
    teams: tuple[str, ...] = (),
) -> str:
    return issuer.issue(
        tenant="acme",
        subject="anna",
        nutzer=nutzer,
        agents=agents,
        scopes=scopes,
        teams=teams,
        account="acme-konto",
        device="laptop-7",
        ttl_seconds=600,
    )


def bearer(value: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {value}"}


def body(**overrides: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "kurzbeschreibung": "Rückruf am Vormittag",
        "memory": "Kunde K-1001 möchte Rückrufe nur zwischen 9 und 12 Uhr.",
        "tags": ["kunde", "Kommunikation"],
        "scope": "kunde",
        "scope_vk": "K-1001",
    }
    payload.update(overrides)
    return payload


def stored(storage: StoragePort, tenant: str = "acme") -> list[str]:
    from datetime import UTC, datetime

    ids = [MemoryId(typ, n) for typ in MemoryType for n in range(1, 30)]
    return sorted(str(k) for k in storage.get_memories(tenant, ids, datetime.now(UTC)))


async def test_a_client_stores_reads_changes_and_deletes_a_memory(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # When a memory is stored with provenance
        created = await http.post(
            "/api/memory",
            json=body(quelle={"system": "crm", "art": "dokument", "referenz": "ADR-12"}),
            headers=headers,
        )
        # Then it is created, located, and shows identity from the token
        assert created.status_code == 201, created.text
        memory = created.json()
        assert created.headers["location"] == f"/api/memory/{memory['ID']}"
        assert memory["ID"] == "longterm_1"
        assert (memory["bucket"], memory["bereich"], memory["pfad"]) == (
            "langzeit",
            "users/42",
            "users/42",
        )
        assert memory["quelle"] == {"system": "crm", "art": "dokument", "referenz": "ADR-12"}
        assert (memory["nutzer"], memory["agent"]) == ("42", "support-agent")
        assert (memory["konto"], memory["geraet"]) == ("acme-konto", "laptop-7")
        assert memory["referenzfelder"] == {}
        # When it is read back
        read = await http.get("/api/memory/longterm_1", headers=headers)
        assert read.status_code == 200
        assert read.json() == {**memory, "hinweis": None}
        # When it is changed with a JSON Merge Patch (null removes, missing keeps)
        patched = await http.patch(
            "/api/memory/longterm_1",
            content=b'{"memory": "Nur zwischen 10 und 12 Uhr.", "tags": null}',
            headers={**headers, "Content-Type": "application/merge-patch+json"},
        )
        assert patched.status_code == 200, patched.text
        changed = patched.json()
        assert changed["memory"] == "Nur zwischen 10 und 12 Uhr."
        assert changed["tags"] == []
        assert changed["kurzbeschreibung"] == memory["kurzbeschreibung"]
        assert changed["quelle"] == memory["quelle"]
        assert (changed["bereich"], changed["handelnd_als"]) == ("users/42", "42")
        # When it is deleted, the answer says where it was and as whom the call acted
        deleted = await http.delete("/api/memory/longterm_1", headers=headers)
        assert deleted.status_code == 200
        where = {"bereich": "users/42", "pfad": "users/42", "handelnd_als": "42"}
        removed = {"entfernt": ["erinnerung", "bewertungen", "vektor", "suchindex"]}
        assert deleted.json() == {"ID": "longterm_1", "geloescht": True, **where, **removed}
        # Then it is gone; a resent delete (a retry) is answered like the first
        gone = await http.get("/api/memory/longterm_1", headers=headers)
        assert gone.status_code == 404
        assert gone.headers["content-type"] == PROBLEM
        again = await http.delete("/api/memory/longterm_1", headers=headers)
        assert again.status_code == 200 and again.json() == deleted.json()


async def test_mcp_tools_and_rest_see_the_same_memories(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    value = token(issuer)
    headers = bearer(value)
    async with server.client(value) as client, server.http() as http:
        # Given a memory inserted through MCP
        inserted = await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        mcp_id = inserted["daten"][0]["ID"]
        # When REST reads it
        read = await http.get(f"/api/memory/{mcp_id}", headers=headers)
        # Then it is the same memory
        assert read.status_code == 200
        assert read.json()["memory"] == memory_entry()["memory"]
        # Given a memory stored through REST
        created = await http.post("/api/memory", json=body(memory="per REST"), headers=headers)
        rest_id = created.json()["ID"]
        # When it is changed through REST, then MCP sees the change
        await http.patch(
            f"/api/memory/{rest_id}", json={"memory": "per REST geändert"}, headers=headers
        )
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=[rest_id]))
        assert [m["memory"] for m in fetched["daten"]["longterm"]] == ["per REST geändert"]
        # When MCP changes the MCP memory, REST sees it; when MCP deletes it, REST finds nothing
        update = {
            "inhalt": {
                "memories": [{"ID": mcp_id, "tags": ["neu"]}],
                "nutzer": 42,
                "agent": "support-agent",
            }
        }
        assert (await call(client, "update_brain_memories", update))["erfolg"] is True
        assert (await http.get(f"/api/memory/{mcp_id}", headers=headers)).json()["tags"] == ["neu"]
        delete = {
            "inhalt": {"memories": {"longterm": [mcp_id]}, "nutzer": 42, "agent": "support-agent"}
        }
        assert (await call(client, "delete_brain_memories", delete))["daten"]["geloescht"] == [
            mcp_id
        ]
        assert (await http.get(f"/api/memory/{mcp_id}", headers=headers)).status_code == 404


async def test_auth_answers_are_those_of_the_mcp_endpoint(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    read_only = token(issuer, scopes=frozenset({Scope.MEMORY_READ.value}))
    async with server.http() as http:
        # Given the MCP endpoint's 401 without a token
        mcp = await http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert mcp.status_code == 401
        # When REST is called without a token, then the same challenge comes back
        rest = await http.get("/api/memory/longterm_1")
        assert rest.status_code == 401
        assert rest.headers["www-authenticate"] == mcp.headers["www-authenticate"]
        assert rest.headers["content-type"] == PROBLEM
        # And a forged token is refused with invalid_token
        forged = await http.get("/api/memory/longterm_1", headers=bearer("x.y.z"))
        assert forged.status_code == 401
        assert 'error="invalid_token"' in forged.headers["www-authenticate"]
        # When a read-only token writes, then 403 with the insufficient_scope challenge
        refused = await http.post("/api/memory", json=body(), headers=bearer(read_only))
        assert refused.status_code == 403
        challenge = refused.headers["www-authenticate"]
        assert 'error="insufficient_scope", scope="memory:write"' in challenge
        assert refused.json()["fehler"][0]["feld"] == "Authorization"


async def test_bad_input_gets_german_problems_with_field_paths_and_stores_nothing(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    headers = bearer(token(issuer))
    cases: list[tuple[Any, int, str, str]] = [
        (body(memory=" "), 422, "memory", "Darf nicht leer sein."),
        (body(tags=["ok", 5]), 422, "tags[1]", "Muss eine Zeichenkette sein"),
        (body(embedding=[1.0, "x"]), 422, "embedding[1]", "Zahl"),
        (body(bucket="mittel"), 422, "bucket", "kurzzeit"),
        (body(ttl_sekunden=60), 422, "ttl_sekunden", "kurzzeit"),
        (body(bucket="kurzzeit", ttl_sekunden=0), 422, "ttl_sekunden", "zwischen 1"),
        (body(pfad="users/../x"), 422, "pfad", "Segment"),
        (body(farbe="rot"), 422, "farbe", "Unbekanntes Feld"),
        (body(referenzfelder={"pfad": "x"}), 422, "referenzfelder.pfad", "Reserviert"),
        (body(quelle={"art": "dokument"}), 422, "quelle.system", "Pflichtfeld fehlt."),
        ([1, 2], 422, "", "Objekt"),
    ]
    async with server.http() as http:
        for payload, status, field, words in cases:
            # When a bad body is posted
            answer = await http.post("/api/memory", json=payload, headers=headers)
            # Then it is refused with a German problem naming the field
            assert answer.status_code == status, (payload, answer.text)
            assert answer.headers["content-type"] == PROBLEM
            problem = answer.json()
            assert problem["status"] == status
            fields = {error["feld"]: error["meldung"] for error in problem["fehler"]}
            assert field in fields, (payload, problem)
            assert words.casefold() in fields[field].casefold(), (payload, fields[field])
        # And broken JSON and a foreign media type are refused as such
        broken = await http.post(
            "/api/memory", content=b"{", headers={**headers, "Content-Type": "application/json"}
        )
        assert broken.status_code == 400
        form = await http.post(
            "/api/memory", content=b"a=b", headers={**headers, "Content-Type": "text/plain"}
        )
        assert form.status_code == 415
        # And a body over the MCP endpoint's size limit is refused before it is read
        huge = await http.post(
            "/api/memory",
            content=b" " * (MAX_BODY_BYTES + 1),
            headers={**headers, "Content-Type": "application/json"},
        )
        assert (huge.status_code, huge.headers["content-type"]) == (413, PROBLEM)
    # And nothing was stored by any of them
    assert stored(sqlite_storage) == []


async def test_secrets_are_scrubbed_as_in_the_tools(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    headers = bearer(token(issuer))
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    async with server.http() as http:
        # When a memory and its referenzfelder carry a token
        answer = await http.post(
            "/api/memory",
            json=body(memory=f"Zugang: {secret}", referenzfelder={"ticket": secret}),
            headers=headers,
        )
    # Then it is stored without the secret and says so
    assert answer.status_code == 201, answer.text
    memory = answer.json()
    assert secret not in answer.text
    assert "[ENTFERNT:" in memory["memory"]
    assert memory["hinweis"]
    assert "[ENTFERNT:" in memory["referenzfelder"]["ticket"]
    (stored_memory,) = sqlite_storage.get_memories(
        "acme",
        [MemoryId(MemoryType.LONGTERM, 1)],
        __import__("datetime").datetime.now(__import__("datetime").UTC),
    ).values()
    assert secret not in repr(stored_memory)


async def test_identity_and_areas_bound_what_a_call_may_touch(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    anna = bearer(token(issuer, teams=("support",)))
    other = bearer(token(issuer, nutzer=("43",)))
    async with server.http() as http:
        # When a call wants to act as a nutzer its token does not allow
        foreign = await http.post("/api/memory?nutzer=43", json=body(), headers=anna)
        # Then it is refused, naming the parameter
        assert foreign.status_code == 403
        assert foreign.json()["fehler"][0]["feld"] == "nutzer"
        # When a team member writes into the team area
        team = await http.post("/api/memory", json=body(pfad="teams/support/faq"), headers=anna)
        assert team.status_code == 201, team.text
        assert (team.json()["bereich"], team.json()["pfad"]) == (
            "teams/support",
            "teams/support/faq",
        )
        # And a non-member tries the same
        outsider = await http.post("/api/memory", json=body(pfad="teams/support"), headers=other)
        assert outsider.status_code == 403
        assert outsider.json()["fehler"][0]["feld"] == "pfad"
        # When another nutzer asks for anna's memory, then it does not exist for them
        mine = await http.post("/api/memory", json=body(), headers=anna)
        hidden = await http.get(f"/api/memory/{mine.json()['ID']}", headers=other)
        assert hidden.status_code == 404
        assert (
            await http.delete(f"/api/memory/{mine.json()['ID']}", headers=other)
        ).status_code == 404
    assert stored(sqlite_storage) == ["longterm_1", "longterm_2"]


async def test_short_term_memories_expire_and_patch_validates_like_the_tool(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # When a short-term memory is stored with a lifetime
        created = await http.post(
            "/api/memory", json=body(bucket="kurzzeit", ttl_sekunden=3600), headers=headers
        )
        memory = created.json()
        # Then it is short-term with an expiry
        assert (memory["ID"], memory["bucket"]) == ("shortterm_1", "kurzzeit")
        assert memory["ablauf"] is not None
        # When a patch removes a text field, names the ID or changes nothing
        for patch, field in (
            ({"memory": None}, "memory"),
            ({"ID": "shortterm_2"}, "ID"),
            ({}, ""),
            ({"tags": "x"}, "tags"),
        ):
            answer = await http.patch("/api/memory/shortterm_1", json=patch, headers=headers)
            # Then it is refused with the field named
            assert answer.status_code == 422, (patch, answer.text)
            assert answer.json()["fehler"][0]["feld"] == field, answer.json()
        # And an ID of the wrong shape is a parameter error
        assert (await http.get("/api/memory/memory_1", headers=headers)).status_code == 422


async def test_the_openapi_document_and_page_are_served_without_a_token(
    server: InProcessServer,
) -> None:
    async with server.http() as http:
        document = (await http.get("/api/memory/openapi.json")).json()
        page = await http.get("/docs/api/memory")
        script = await http.get("/docs/api/assets/swagger-ui-bundle.js")
        missing = await http.get("/docs/api/assets/nope.js")
    # Then the document is OpenAPI 3.1 with every operation and the bearer scheme
    assert document["openapi"] == "3.1.0"
    operations = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
    }
    assert operations == {
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
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    create = document["paths"]["/api/memory"]["post"]["requestBody"]["content"]
    assert set(create["application/json"]["examples"]) == {"de", "en", "team"}
    # And the page loads Brain's own assets only
    assert page.status_code == 200
    assert "assets/swagger-ui-bundle.js" in page.text
    assert "http" not in page.text.split("<body>")[1].split("</script>")[0]
    assert script.status_code == 200 and len(script.content) > 100_000
    assert missing.status_code == 404


async def test_a_resent_post_stores_once_like_the_write_tools(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # When the same body is posted twice (a retry after a lost answer)
        first = await http.post("/api/memory", json=body(memory="einmal"), headers=headers)
        again = await http.post("/api/memory", json=body(memory="einmal"), headers=headers)
        # Then both answers name the one stored memory
        assert (first.status_code, again.status_code) == (201, 201)
        assert first.json()["ID"] == again.json()["ID"] == "longterm_1"
        # When two writes of the same text carry different Idempotency-Keys, both are stored
        # (as copies: `duplikat_erlaubt`, else the second is the first's near-duplicate);
        # the same key again stores nothing
        keyed = [
            await http.post(
                "/api/memory",
                json=body(memory="zweimal", duplikat_erlaubt=True),
                headers={**headers, "Idempotency-Key": key},
            )
            for key in ("k-1", "k-2", "k-1")
        ]
        assert [answer.json()["ID"] for answer in keyed] == [
            "longterm_2",
            "longterm_3",
            "longterm_2",
        ]
        # And a refused post stores nothing, however often it is sent
        for _ in range(2):
            refused = await http.post("/api/memory", json=body(pfad="teams/x"), headers=headers)
            assert refused.status_code == 403
    assert stored(sqlite_storage) == ["longterm_1", "longterm_2", "longterm_3"]
