"""Hybrid search through a real MCP client: the caller's own query vectors, and server-side
embeddings (the deterministic test embedder) when an embedder is configured."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.embedding.hashed import HashedEmbedder
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer, running_app
from tests.e2e.helpers import call, insert_args, memory_entry

pytestmark = pytest.mark.anyio

PROFILE = "eigenes-modell-3"


def token_for(issuer: LocalTokenIssuer, nutzer: str) -> str:
    return issuer.issue(
        tenant="local",
        subject=f"local:{nutzer}",
        nutzer=[nutzer],
        agents=["bot"],
        scopes=["memory:read", "memory:write", "brain:read"],
        ttl_seconds=600,
    )


def entry(text: str, vector: list[float] | None, nutzer: int = 42) -> dict[str, Any]:
    extra: dict[str, Any] = {"nutzer": nutzer}
    if vector is not None:
        extra |= {"embedding": vector, "embedding_profil_hash": PROFILE}
    return memory_entry(kurzbeschreibung=text.split(".")[0], memory=text, **extra)


async def store(server: InProcessServer, dev_token: str) -> None:
    async with server.client(dev_token) as client:
        stored = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(
                entry("Rückruf nur vormittags. Kunde K-1 ruft zurück.", [1.0, 0.0, 0.0]),
                entry("Lieferung kommt per Spedition am Montag.", [0.0, 1.0, 0.0]),
                entry("Rückruf bitte per E-Mail bestätigen.", None),
                entry("Lieferung von nutzer 43: Spedition Müller.", [0.0, 1.0, 0.0], 43),
            ),
        )
        assert stored["erfolg"], stored


async def test_caller_vectors_are_fused_with_the_words(
    server: InProcessServer, dev_token: str, issuer: LocalTokenIssuer
) -> None:
    # Given memories of nutzer 42 with vectors of one profile, one without, and one of 43
    await store(server, dev_token)
    # When nutzer 42 searches "Rückruf" with a vector close to the delivery memory
    async with server.client(token_for(issuer, "42")) as client:
        found = await call(
            client,
            "search_memory",
            {"query": "Rückruf", "embedding": [0.1, 1.0, 0.0], "embedding_profil_hash": PROFILE},
        )
        recalled = await call(
            client,
            "recall",
            {"query": "Rückruf", "embedding": [0.1, 1.0, 0.0], "ebedding_profil_haash": PROFILE},
        )
        context = await call(
            client,
            "recall_context",
            {"task": "Rückruf", "embedding": [1.0, 0.1, 0.0], "embedding_profil_hash": PROFILE},
        )
    # Then words and vectors both contribute, each hit says which found it
    signals = {hit["ID"]: hit["treffer_durch"] for hit in found["daten"]["treffer"]}
    assert signals == {
        "longterm_1": ["woerter", "vektor"],  # both words and (second-best) vector
        "longterm_2": ["vektor"],  # no word of the query: found by its vector alone
        "longterm_3": ["woerter"],  # no embedding: still found by its words
    }
    # And the memory of nutzer 43 (same vector) stays invisible, as for words
    assert "longterm_4" not in signals
    assert all(0 < hit["relevanz"] <= 1 for hit in found["daten"]["treffer"])
    assert {h["ID"]: h["treffer_durch"] for h in recalled["daten"]["erinnerungen"]} == signals
    first = context["daten"]["erinnerungen"][0]
    assert (first["ID"], first["treffer_durch"]) == ("longterm_1", ["woerter", "vektor"])


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        ({"embedding": [1.0, 0.0], "embedding_profil_hash": PROFILE}, "embedding", "Dimension"),
        (
            {"embedding": [1.0, 0.0, 0.0], "embedding_profil_hash": "fremd"},
            "embedding_profil_hash",
            "unbekanntes Profil",
        ),
        ({"embedding": [1.0, 0.0, 0.0]}, "embedding_profil_hash", "Pflichtfeld"),
        ({"embedding_profil_hash": PROFILE}, "embedding", "embedding fehlt"),
        (
            {"embedding": [1.0, "x"], "embedding_profil_hash": PROFILE},
            "embedding[1]",
            "Zahl",
        ),
    ],
)
async def test_a_vector_that_matches_nothing_is_a_clear_error(
    server: InProcessServer,
    dev_token: str,
    issuer: LocalTokenIssuer,
    arguments: dict[str, Any],
    field: str,
    words: str,
) -> None:
    # Given stored memories with 3-dimensional vectors of PROFILE
    await store(server, dev_token)
    # When a search sends a vector of another dimension or profile, or half of the pair
    async with server.client(token_for(issuer, "42")) as client:
        answer = await call(client, "search_memory", {"query": "Rückruf", **arguments})
    # Then it fails naming the field, in German, and never silently mixes profiles
    assert answer["erfolg"] is False
    (error,) = answer["fehler"]
    assert error["feld"] == field
    assert words in error["meldung"]


@pytest.fixture
async def embedding_server(
    settings: Settings, sqlite_storage: SqliteStorage, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    async with running_app(sqlite_storage, settings, issuer, HashedEmbedder()) as running:
        yield running


async def test_server_side_embeddings_find_what_words_miss(
    embedding_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    # Given a server with an embedder, and memories stored without vectors
    token = token_for(issuer, "42")
    async with embedding_server.client(token) as client:
        for content in (
            "Die Kundendatenbank läuft auf PostgreSQL 16.",
            "Urlaubsplanung für das Team im August.",
        ):
            stored = await call(client, "remember", {"content": content, "path": "users/42/it"})
            assert stored["erfolg"], stored
        # When a query word only occurs inside a compound ("Datenbank" in "Kundendatenbank")
        found = await call(client, "search_memory", {"query": "Datenbank"})
    # Then the server embedded texts and query alike and finds it by its vector alone
    (hit,) = [h for h in found["daten"]["treffer"] if h["ID"] == "longterm_1"]
    assert hit["treffer_durch"] == ["vektor"]
    assert found["daten"]["treffer"][0]["ID"] == "longterm_1"
    # And the stored memory carries the embedder's profile and dimension
    fetched = await _fetch_profile(embedding_server, issuer)
    assert fetched == (HashedEmbedder().profile.hash, HashedEmbedder().profile.dimension)


async def _fetch_profile(server: InProcessServer, issuer: LocalTokenIssuer) -> tuple[str, int]:
    async with server.client(token_for(issuer, "42")) as client:
        fetched = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": 42, "agent": "bot"}},
        )
    (memory,) = fetched["daten"]["longterm"]
    return memory["embedding_profil_hash"], memory["embedding_dim"]
