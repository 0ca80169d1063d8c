"""Issue 20, REST input paths: `/api/memory` checks every stored string as the tools do
(secrets in provenance, reference keys and the path refuse; in reference values they are
redacted), refusals never repeat a refused value, nothing a client sends is a 5xx, and a token
for several nutzer acts as the nutzer the Memory OS tools act as. On both adapters."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES
from shared.domain import MemoryId, MemoryType
from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.helpers import call
from tests.security.conftest import TENANT_A, Tokens, stored_state

pytestmark = pytest.mark.anyio

SECRET = "ghp_" + "R8x2Lq9ZkT4vWm7NcY3pHd6sJf1GbA5eQu0K"  # a fake GitHub token
PIECES = [SECRET[i : i + 8] for i in range(4, len(SECRET) - 7, 4)]


def body(**overrides: Any) -> dict[str, Any]:
    return {"kurzbeschreibung": "Rückruf", "memory": "Kunde will Rückrufe."} | overrides


def leaked(text: str) -> bool:
    return any(piece in text for piece in PIECES)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def all_memories(storage: StoragePort) -> list[Any]:
    ids = [MemoryId(typ, n) for typ in MemoryType for n in range(1, 21)]
    return list(storage.get_memories(TENANT_A, ids, datetime.now(UTC)).values())


@pytest.mark.parametrize(
    ("field", "overrides"),
    [
        ("quelle.system", {"quelle": {"system": SECRET}}),
        ("quelle.referenz", {"quelle": {"system": "crm", "referenz": f"ticket {SECRET}"}}),
        ("referenzfelder", {"referenzfelder": {SECRET: "x"}}),
        ("pfad", {"pfad": f"users/anna/{SECRET.lower()}"}),
    ],
)
async def test_a_secret_in_a_stored_identifier_refuses_the_write(
    secure_server: InProcessServer,
    backend: StoragePort,
    tokens: Tokens,
    field: str,
    overrides: dict[str, Any],
) -> None:
    before = stored_state(backend)
    async with secure_server.http() as http:
        response = await http.post(
            "/api/memory", json=body(**overrides), headers=bearer(tokens.make())
        )
    # Then 422 naming the field and the rule, nothing stored, the secret not repeated
    assert response.status_code == 422, response.text
    fehler = response.json()["fehler"]
    assert [e["feld"] for e in fehler] == [field]
    assert fehler[0]["meldung"].startswith("Sicherheitsablehnung")
    assert not leaked(response.text)
    assert stored_state(backend) == before


async def test_a_secret_in_a_reference_value_is_redacted(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    headers = bearer(tokens.make())
    async with secure_server.http() as http:
        created = await http.post(
            "/api/memory", json=body(referenzfelder={"ticket": SECRET}), headers=headers
        )
        assert created.status_code == 201, created.text
        read = await http.get(f"/api/memory/{created.json()['ID']}", headers=headers)
    assert read.json()["referenzfelder"] == {"ticket": "[ENTFERNT:github_pat]"}
    # And the answer says so, naming the kind, never the value (contract §8)
    note = created.json()["hinweis"]
    assert note.startswith("Geheimnisse in referenzfelder entfernt") and "github_pat" in note
    assert not leaked(created.text)
    assert not any(leaked(repr(m.referenzfelder)) for m in all_memories(backend))


REFUSED_BODIES = [
    {SECRET: 1},
    body(bucket=SECRET),
    body(quelle={"system": "crm", "art": SECRET}),
    body(quelle={"system": "crm", SECRET: 1}),
    body(scope=SECRET),
    body(scope_vk=SECRET),
    body(embedding_profil_hash=SECRET),
    body(ttl_sekunden=SECRET),
    body(tags=SECRET),
    body(agent=SECRET),
    body(pfad=SECRET),
    body(pfad=f"projects/{SECRET.lower()}"),
    body(referenzfelder={"pfad": SECRET}),
]


@pytest.mark.parametrize("sent", REFUSED_BODIES)
async def test_refusals_never_repeat_the_refused_value(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, sent: dict[str, Any]
) -> None:
    before = stored_state(backend)
    async with secure_server.http() as http:
        response = await http.post("/api/memory", json=sent, headers=bearer(tokens.make()))
    assert 400 <= response.status_code < 500, response.text
    assert not leaked(response.text), response.text
    assert stored_state(backend) == before


@pytest.mark.parametrize(
    ("method", "where"),
    [
        ("POST", "agent"),
        ("POST", "nutzer"),
        ("PATCH", "nutzer"),
        ("DELETE", "nutzer"),
        ("GET", "nutzer"),
    ],
)
async def test_a_secret_as_identity_is_a_refusal_not_a_server_error(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, method: str, where: str
) -> None:
    # Given a token that may act as any nutzer and agent
    token = tokens.make(nutzer=("*",), agents=("*",))
    before = stored_state(backend)
    params = {"nutzer": SECRET} if where == "nutzer" else {}
    payload = {"POST": body(agent=SECRET) if where == "agent" else body(), "PATCH": {"x": 1}}
    path = "/api/memory" if method in ("POST", "GET") else "/api/memory/longterm_1"
    async with secure_server.http() as http:
        response = await http.request(
            method, path, params=params, json=payload.get(method), headers=bearer(token)
        )
    # Then a 422 naming the field (was a 500 with a traceback), nothing stored
    assert response.status_code == 422, response.text
    assert response.json()["fehler"][0]["feld"] == where
    assert not leaked(response.text)
    assert stored_state(backend) == before


@pytest.mark.parametrize("path", ["/api/memory", "/api/ledger", "/api/projects/x/mitglieder"])
async def test_two_authorization_headers_are_401_as_on_mcp(
    secure_server: InProcessServer, tokens: Tokens, path: str
) -> None:
    token = tokens.make()
    headers = [("Authorization", f"Bearer {token}"), ("Authorization", f"Bearer {token}")]
    async with secure_server.http() as http:
        response = await http.get(path, headers=headers)
        mcp = await http.post("/mcp", json={}, headers=headers)
    assert response.status_code == 401, response.text
    assert response.headers["www-authenticate"].startswith("Bearer ")
    assert mcp.status_code == 401


async def test_a_token_for_several_nutzer_acts_as_the_memory_os_nutzer(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given a token that may act as two nutzer (no ?nutzer parameter in any call)
    token = tokens.make(nutzer=("anna", "ben"), scopes=ALL_SCOPES)
    async with secure_server.http() as http:
        created = await http.post("/api/memory", json=body(), headers=bearer(token))
        listed = await http.get("/api/memory", headers=bearer(token))
    async with secure_server.client(token) as client:
        found = await call(client, "search_memory", {"query": "Rückrufe"})
    # Then REST stores and lists (was 403 on every call) as the nutzer the Memory OS tools
    # act as: search_memory with the same token finds the memory in that nutzer's area
    assert created.status_code == 201, created.text
    assert listed.status_code == 200, listed.text
    assert [m["ID"] for m in listed.json()["eintraege"]] == [created.json()["ID"]]
    assert created.json()["ID"] in str(found)
