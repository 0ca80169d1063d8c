"""Secrets written through the MCP server never reach storage or logs (contract §8).

Every tool that stores text is fed credentials; afterwards the raw storage is searched byte
for byte: the SQLite file with its WAL, or every DynamoDB item and S3 object on moto.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.storage.dynamo.adapter import DynamoStorage
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer, running_app
from tests.e2e.helpers import brain_entry, call, insert_args, memory_entry, upsert_args

pytestmark = pytest.mark.anyio

# Fake credentials in real formats, assembled at run time (no token-shaped literals in git).
AWS_KEY = "AKIA" + "Q7Z3K9X2M4N8P6R1"
STRIPE = "sk_" + "live_" + "51HxQ2eR9tYuIoPaSdFgHjKl"
PASSWORD = "Sommer" + "2024!Xq"
PG_PASSWORD = "pg" + "Secr3t!42"
PEM_BODY = "MIIEow" + "IBAAKCAQEAx7Qm3nR8kL2pW5sT9vY1zB4cF6hJ0dN3gE7iK"
SECRETS = [AWS_KEY, STRIPE, PASSWORD, PG_PASSWORD, PEM_BODY]
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"


def stored_bytes(storage: StoragePort) -> bytes:
    """Everything the adapter has written, raw."""
    if isinstance(storage, SqliteStorage):
        files = [storage.path, Path(f"{storage.path}-wal")]
        return b"".join(path.read_bytes() for path in files if path.exists())
    assert isinstance(storage, DynamoStorage)
    dynamodb = storage._calls.client  # the test inspects the physical storage
    vectors = storage._vectors._client
    chunks = [repr(dynamodb.scan(TableName=storage._calls.table)["Items"]).encode()]
    for index in vectors.list_indexes(vectorBucketName=storage._bucket).get("indexes", []):
        listed = vectors.list_vectors(
            vectorBucketName=storage._bucket,
            indexName=index["indexName"],
            returnData=True,
            returnMetadata=True,
        )
        chunks.append(repr(listed.get("vectors", [])).encode())
    return b"".join(chunks)


async def write_secrets_everywhere(client: Any) -> dict[str, Any]:
    """One call per text-storing tool, each carrying credentials."""
    secret_ref = {"notiz": f"Passwort: {PASSWORD}", "ticket": "T-1"}
    inserted = await call(
        client,
        "insert_brain_longterm_memory",
        {
            **insert_args(
                memory_entry(
                    kurzbeschreibung=f"AWS Zugang {AWS_KEY}",
                    memory=f"API-Key für das Portal ist {STRIPE}. DB: "
                    f"postgres://app:{PG_PASSWORD}@db.intern:5432/crm\n{PEM}",
                    tags=["zugang", f"pw={PASSWORD}"],
                )
            ),
            "referenzfelder": secret_ref,
        },
    )
    short = await call(
        client,
        "insert_brain_shortterm_memory",
        insert_args(memory_entry(memory=f"Das Passwort lautet {PASSWORD}.")),
    )
    updated = await call(
        client,
        "update_brain_memories",
        {
            "inhalt": {
                "memories": [{"ID": "longterm_1", "memory": f"Neuer Key {STRIPE}"}],
                "nutzer": 42,
                "agent": "support-agent",
            }
        },
    )
    upserted = await call(
        client,
        "upsert_brain",
        upsert_args(
            brain_entry(
                titel=f"Kunde mit Key {AWS_KEY}",
                inhalt=f"Login: admin, Kennwort: {PASSWORD}",
                stammdaten={"notiz": f"stripe {STRIPE}"},
            )
        ),
    )
    return {
        "insert": inserted,
        "short": short,
        "update": updated,
        "upsert": upserted,
        "echo": inserted["referenzfelder"],
    }


async def test_redact_policy_stores_no_secret_and_says_which_kinds(
    secure_server: InProcessServer,
    backend: StoragePort,
    dev_token: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with secure_server.client(dev_token) as client:
        answers = await write_secrets_everywhere(client)
        fetched = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": 42, "agent": "a"}},
        )
    # Then every write succeeded with a hinweis naming the kinds, never a value
    for name in ("insert", "short", "update", "upsert"):
        entry = answers[name]["daten"][0]
        assert entry["erfolg"] is True, (name, entry)
        assert entry["hinweis"].startswith("Geheimnisse entfernt"), name
    assert "aws_access_key" in answers["insert"]["daten"][0]["hinweis"]
    # And what is stored and answered carries markers instead of secrets
    memory = fetched["daten"]["longterm"][0]["memory"]
    assert "[ENTFERNT:" in memory
    assert "[ENTFERNT:" in answers["echo"]["notiz"]
    # And no secret is anywhere in the raw storage, the answers or the server logs
    raw = stored_bytes(backend)
    texts = [str(answers), str(fetched)] + [
        r.getMessage() + str(r.__dict__)
        for r in caplog.records
        if not r.name.startswith(("mcp.client", "fastmcp.client", "httpx"))
    ]
    for secret in SECRETS:
        assert secret.encode() not in raw, secret[:6]
        assert all(secret not in text for text in texts), secret[:6]


async def test_reject_policy_fails_the_entry_and_stores_nothing_of_it(
    tmp_path: Path, backend: StoragePort, issuer: LocalTokenIssuer, dev_token: str
) -> None:
    settings = Settings(data_dir=tmp_path / "data", scrub_policy="reject")
    running = running_app(backend, settings, issuer)
    async with running as server, server.client(dev_token) as client:
        envelope = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(
                memory_entry(memory="harmlos"),
                memory_entry(memory=f"Passwort: {PASSWORD}"),
            ),
        )
    assert [entry["erfolg"] for entry in envelope["daten"]] == [True, False]
    error = envelope["daten"][1]["fehler"][0]
    assert error["feld"] == "inhalt.memories[1]"
    assert "Sicherheitsablehnung" in error["meldung"] and "password" in error["meldung"]
    assert PASSWORD not in str(envelope)
    assert PASSWORD.encode() not in stored_bytes(backend)


async def test_remember_rejects_secrets_by_default(
    secure_server: InProcessServer, backend: StoragePort, dev_token: str
) -> None:
    async with secure_server.client(dev_token) as client:
        refused = await call(
            client,
            "remember",
            {"content": f"Deploy-Key: {AWS_KEY}", "path": "users/dev/notizen"},
        )
    assert refused["erfolg"] is False
    assert refused["fehler"][0]["feld"] == "content"
    assert "aws_access_key" in refused["fehler"][0]["meldung"]
    assert AWS_KEY.encode() not in stored_bytes(backend)
