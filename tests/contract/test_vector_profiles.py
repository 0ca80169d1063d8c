"""Profile hygiene on every adapter (services/profiles.py), through the tool dispatcher: a
profile's dimension is fixed by its first vector — another dimension under it is refused on
insert, update and search, naming the field, in German; a vector without a profile hash is
refused, or stored under the server's profile when the server embeds with that dimension."""

from __future__ import annotations

from typing import Any

from shared.config import Settings
from shared.embedding.hashed import HashedEmbedder
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.test_retry_safe_tools import CALLER, PRINCIPAL, insert, memory

PROFILE = "eigenes-modell"


def entry(text: str, vector: list[float] | None, profile: str | None = PROFILE) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if vector is not None:
        extra["embedding"] = vector
    if profile is not None:
        extra["embedding_profil_hash"] = profile
    return memory(text, **extra)


def errors_of(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """The call's errors (a batch repeats its entries' errors at the top)."""
    return [(e["feld"], e["meldung"]) for e in answer.get("fehler", [])]


def test_the_first_vector_fixes_the_profiles_dimension(storage: StoragePort) -> None:
    ctx = ServiceContext(storage, Settings())
    # Given a first memory of the profile with 3 values, and in the same batch one with 2
    answer = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(entry("erste", [1.0, 0.0, 0.0]), entry("zweite", [1.0, 0.0])),
    )
    # Then the first is stored, the second refused naming its embedding
    assert [r["erfolg"] for r in answer["daten"]] == [True, False]
    ((field, message),) = errors_of(answer)
    assert field == "inhalt.memories[1].embedding"
    assert "Dimension passt nicht" in message and "3 Werte" in message
    assert storage.profile_dimensions("acme", [PROFILE, "fremd"]) == {PROFILE: 3}
    # And a later insert of another dimension is refused as well
    later = call_tool(
        ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(entry("dritte", [1.0] * 4))
    )
    assert errors_of(later)[0][0] == "inhalt.memories[0].embedding"
    # And an update of the first memory to 2 values is refused, its vector kept
    first_id = answer["daten"][0]["ID"]
    update = {
        "inhalt": {"memories": [{"ID": first_id, "embedding": [0.0, 1.0]}], **CALLER},
    }
    updated = call_tool(ctx, PRINCIPAL, "update_brain_memories", update)
    ((field, message),) = errors_of(updated)
    assert field == "inhalt.memories[0].embedding" and "Dimension passt nicht" in message
    # And a search with 2 values names the dimension
    search = {"query": "erste", "embedding": [1.0, 0.0], "embedding_profil_hash": PROFILE}
    found = call_tool(ctx, PRINCIPAL, "search_memory", search)
    ((field, message),) = errors_of(found)
    assert field == "embedding" and "Dimension passt nicht" in message


def test_a_vector_without_profile_is_refused_without_a_matching_embedder(
    storage: StoragePort,
) -> None:
    ctx = ServiceContext(storage, Settings())
    answer = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(entry("ohne", [1.0, 0.0, 0.0], profile=None)),
    )
    ((field, message),) = errors_of(answer)
    assert field == "inhalt.memories[0].embedding_profil_hash"
    assert "Pflichtfeld" in message
    found = call_tool(ctx, PRINCIPAL, "search_memory", {"query": "x", "embedding": [1.0, 0.0]})
    assert errors_of(found)[0][0] == "embedding_profil_hash"


def test_a_vector_without_profile_goes_under_the_servers_profile(storage: StoragePort) -> None:
    dimension = 16
    # Given a server that embeds with 16 dimensions
    embedder = HashedEmbedder(dimension)
    ctx = ServiceContext(storage, Settings(), embedder=embedder)
    vector = [1.0] + [0.0] * (dimension - 1)
    # When a memory comes with a 16-value vector but no profile hash
    answer = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(entry("server", vector, profile=None)),
    )
    assert answer["daten"][0]["erfolg"], answer
    # Then it is stored under the server's profile, and found by a search alike
    assert storage.profile_dimensions("acme", [embedder.profile.hash]) == {
        embedder.profile.hash: dimension
    }
    found = call_tool(ctx, PRINCIPAL, "search_memory", {"query": "nichts", "embedding": vector})
    hits = found["daten"]["treffer"]
    assert hits[0]["kurzbeschreibung"] == "server"
    assert hits[0]["embedding_profil_hash"] == embedder.profile.hash
    # But a vector of another size without profile is still refused, naming the server's
    refused = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(entry("falsch", [1.0, 0.0], profile=None)),
    )
    ((field, message),) = errors_of(refused)
    assert field == "inhalt.memories[0].embedding_profil_hash"
    assert embedder.profile.hash in message
