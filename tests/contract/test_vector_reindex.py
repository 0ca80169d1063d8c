"""Server-side vectors over the storage port, on both adapters: `brain reindex` embeds the
memories stored without a vector; an update that changes a text re-embeds it when its
vector is the server's own, and never replaces a caller's vector of another profile."""

from __future__ import annotations

from datetime import timedelta

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.embedding.hashed import HashedEmbedder
from shared.embedding.port import Purpose
from shared.search.vectors import VectorQuery, encode
from shared.services.context import ServiceContext
from shared.services.memories import insert_memories
from shared.services.memory_admin import update_memories
from shared.services.reindex import reindex
from shared.storage.port import StoragePort
from shared.validation.memory_requests import parse_update
from shared.validation.requests import parse_insert
from tests.contract.builders import T0

EMBEDDER = HashedEmbedder(64)
PRINCIPAL = Principal(
    tenant="t-vec",
    subject="anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}


def context(storage: StoragePort, embedder: HashedEmbedder | None) -> ServiceContext:
    return ServiceContext(storage, Settings(), lambda: T0 + timedelta(minutes=1), embedder=embedder)


def insert(ctx: ServiceContext, *entries: dict[str, object]) -> list[str]:
    batch = parse_insert(
        {"inhalt": {**CALLER, "memories": [{**CALLER, "tags": [], **e} for e in entries]}},
        ctx.settings.parse_options(),
        shortterm=False,
    )
    answer = insert_memories(ctx, PRINCIPAL, batch, MemoryType.LONGTERM)
    assert answer["erfolg"], answer
    return [entry["ID"] for entry in answer["daten"]]


def nearest(storage: StoragePort, text: str) -> list[str]:
    (vector,) = EMBEDDER.embed([text], Purpose.QUERY)
    query = VectorQuery(
        PRINCIPAL.tenant,
        EMBEDDER.profile.hash,
        tuple(vector),
        frozenset({"users/anna"}),
        T0 + timedelta(minutes=1),
        3,
    )
    return [str(hit.memory_id) for hit in storage.search_vectors(query)]


def parse_id(text: str) -> MemoryId:
    memory_id = MemoryId.parse(text)
    assert memory_id is not None
    return memory_id


def entry(text: str, **extra: object) -> dict[str, object]:
    return {"kurzbeschreibung": text, "memory": text, "scope": "", "scope_vk": "", **extra}


def test_reindex_embeds_the_memories_stored_without_a_vector(storage: StoragePort) -> None:
    # Given memories stored before an embedder was configured, and one with its own vector
    plain = context(storage, None)
    ids = insert(
        plain,
        entry("Kundendatenbank auf PostgreSQL"),
        entry("Urlaubsplanung im August"),
        entry("eigener Vektor", embedding=[1.0, 0.0], embedding_profil_hash="eigen"),
    )
    # When the tenant is reindexed with the embedder
    done = reindex(context(storage, EMBEDDER), PRINCIPAL.tenant)
    # Then the two without a vector have the embedder's, the caller's vector stays
    assert done.reindexed == 3 and not done.failed
    assert nearest(storage, "Datenbank PostgreSQL")[0] == ids[0]
    assert set(nearest(storage, "Urlaub")) == {ids[0], ids[1]}
    own = storage.get_embedding(PRINCIPAL.tenant, parse_id(ids[2]))
    assert own is not None and len(own) == 8


def test_an_update_re_embeds_a_changed_text_with_a_server_vector(storage: StoragePort) -> None:
    # Given a memory embedded by the server and one with the caller's own vector
    ctx = context(storage, EMBEDDER)
    server, own = insert(
        ctx,
        entry("Kundendatenbank auf PostgreSQL"),
        entry("eigener Vektor", embedding=[1.0, 0.0], embedding_profil_hash="eigen"),
    )
    # When both texts change
    update = parse_update(
        {
            "inhalt": {
                **CALLER,
                "memories": [
                    {"ID": server, "memory": "Urlaubsplanung im August"},
                    {"ID": own, "memory": "Urlaubsplanung im Juli"},
                ],
            }
        }
    )
    assert update_memories(ctx, PRINCIPAL, update)["erfolg"]
    # Then the server's vector follows the new text; the caller's is kept as it was
    assert nearest(storage, "Urlaubsplanung August")[0] == server
    kept = storage.get_memories(PRINCIPAL.tenant, [parse_id(own)], T0 + timedelta(minutes=1))
    assert kept[parse_id(own)].embedding_profil_hash == "eigen"
    assert storage.get_embedding(PRINCIPAL.tenant, parse_id(own)) == encode([1.0, 0.0])
