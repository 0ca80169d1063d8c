"""Issue 20's retry-layer findings over REST (the real app on each storage adapter; the
dispatcher's side is tests/contract/test_retry_layer_findings.py): a replay never answers
another caller, random keys never collapse two writes, the same key with a changed body is
a German 409, and a deleted memory is stored anew when it is created again."""

from __future__ import annotations

import secrets
import uuid

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.test_rest_api import bearer, body, stored, token
from tests.e2e.test_rest_ledger import booking
from tests.e2e.test_rest_ledger import token as ledger_token

pytestmark = pytest.mark.anyio

LEDGER = "/api/ledger/buchungen"


async def test_a_replay_never_answers_another_nutzer(
    secure_server: InProcessServer, issuer: LocalTokenIssuer, backend: StoragePort
) -> None:
    u1, u2 = bearer(token(issuer, nutzer=("u1",))), bearer(token(issuer, nutzer=("u2",)))
    async with secure_server.http() as http:
        # Given u1's memory
        first = await http.post("/api/memory", json=body(), headers=u1)
        assert first.status_code == 201
        # When u2 sends exactly u1's call, acting as u1 (which its token may not)
        replay = await http.post("/api/memory?nutzer=u1", json=body(), headers=u2)
        # Then it is refused without u1's answer, and as itself it stores its own memory
        assert replay.status_code == 403
        assert first.json()["ID"] not in replay.text
        own = await http.post("/api/memory", json=body(), headers=u2)
        assert own.status_code == 201 and own.json()["ID"] != first.json()["ID"]
    assert stored(backend) == ["longterm_1", "longterm_2"]


async def test_random_keys_never_collapse_two_bookings(
    secure_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna = ledger_token(issuer)
    async with secure_server.http() as http:
        # When two different bookings carry two random keys, in the header and in the body
        answers = [
            await http.post(
                LEDGER,
                json={"eintraege": [booking(betrag=betrag)]},
                headers={**anna, "Idempotency-Key": key},
            )
            for betrag, key in (("3.50", uuid.uuid4().hex), ("120.00", secrets.token_urlsafe()))
        ]
        answers += [
            await http.post(
                LEDGER,
                json={
                    "eintraege": [
                        booking(betrag=betrag, referenzfelder={"idempotenz_schluessel": key})
                    ]
                },
                headers=anna,
            )
            for betrag, key in (("7.00", uuid.uuid4().hex), ("9.00", secrets.token_urlsafe()))
        ]
        # Then each is booked under its own ID
        assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
        ids = [a.json()["ergebnisse"][0]["ID"] for a in answers]
        assert len(set(ids)) == 4
        assert "Bereits ausgeführt" not in "".join(a.text for a in answers)
        listed = (await http.get("/api/ledger?path=teams/finanzen", headers=anna)).json()
        assert sorted(e["betrag"] for e in listed["eintraege"]) == [
            "120.00",
            "3.50",
            "7.00",
            "9.00",
        ]


@pytest.mark.parametrize(
    "changed",
    [
        {"pfad": "users/42/andere"},
        {"quelle": {"system": "crm", "referenz": "T-2"}},
        {"referenzfelder": {"ticket": "T-2"}},
    ],
    ids=["pfad", "quelle", "referenzfelder"],
)
async def test_the_same_key_with_a_changed_rest_field_is_a_german_409(
    secure_server: InProcessServer,
    issuer: LocalTokenIssuer,
    backend: StoragePort,
    changed: dict[str, object],
) -> None:
    headers = {**bearer(token(issuer)), "Idempotency-Key": "schreibvorgang-1"}
    original = body(
        pfad="users/42/notizen",
        quelle={"system": "crm", "referenz": "T-1"},
        referenzfelder={"ticket": "T-1"},
    )
    async with secure_server.http() as http:
        first = await http.post("/api/memory", json=original, headers=headers)
        again = await http.post("/api/memory", json={**original, **changed}, headers=headers)
    assert first.status_code == 201
    assert again.status_code == 409
    assert again.headers["content-type"].startswith("application/problem+json")
    assert "Konflikt: Dieser idempotenz_schluessel benennt schon einen anderen" in again.text
    assert stored(backend) == ["longterm_1"]


async def test_a_deleted_memory_is_stored_anew_when_created_again(
    secure_server: InProcessServer, issuer: LocalTokenIssuer, backend: StoragePort
) -> None:
    headers = bearer(token(issuer))
    async with secure_server.http() as http:
        # Given a memory that was deleted
        first = await http.post("/api/memory", json=body(), headers=headers)
        deleted = await http.delete(f"/api/memory/{first.json()['ID']}", headers=headers)
        assert deleted.status_code == 200
        # When the same text is stored again within the window
        again = await http.post("/api/memory", json=body(), headers=headers)
        # Then it is stored anew, under a new ID, and can be read
        assert again.status_code == 201 and again.json()["ID"] != first.json()["ID"]
        read = await http.get(f"/api/memory/{again.json()['ID']}", headers=headers)
        assert read.status_code == 200
    assert stored(backend) == ["longterm_2"]
