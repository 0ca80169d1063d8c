"""Vector search through the storage port, on both adapters: only the given areas, only
vectors of the query's profile and dimension, nothing expired, ranked by cosine; a profile
without vectors of that dimension is a VectorProfileError. A term lookup brings the vector
search of the areas it reads along (`lookup_memory_terms(vector=...)`)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shared.domain import MemoryId, MemoryType, Project
from shared.search.vectors import VectorProfileError, VectorQuery
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, T0, TENANT, embedding, lt, new_memory

PROFILE = "modell-a"
ANNA, TEAM = "users/anna", "teams/core"


def query(
    vector: tuple[float, ...],
    *,
    areas: frozenset[str] = frozenset({ANNA, TEAM}),
    profile: str = PROFILE,
    typ: MemoryType | None = None,
    limit: int = 10,
    tenant: str = TENANT,
) -> VectorQuery:
    return VectorQuery(tenant, profile, vector, areas, T0, limit, typ)


@pytest.fixture
def stored(storage: StoragePort) -> StoragePort:
    st = MemoryId(MemoryType.SHORTTERM, 1)
    memories = [
        new_memory(lt(1), area=ANNA, vector=embedding(1.0, 0.0, 0.0)),
        new_memory(lt(2), area=ANNA, vector=embedding(0.6, 0.8, 0.0)),
        new_memory(lt(3), area=TEAM, vector=embedding(0.0, 1.0, 0.0)),
        new_memory(lt(4), area="users/bruno", vector=embedding(1.0, 0.0, 0.0)),
        new_memory(lt(5), area=ANNA, vector=embedding(1.0, 0.0), embedding_profil_hash="b"),
        new_memory(lt(6), area=ANNA),  # no embedding
        new_memory(st, area=ANNA, vector=embedding(0.9, 0.1, 0.0), expires_at=T0),
        new_memory(
            MemoryId(MemoryType.SHORTTERM, 2),
            area=ANNA,
            vector=embedding(0.8, 0.0, 0.6),
            expires_at=T0 + timedelta(hours=1),
        ),
        new_memory(lt(1), tenant=OTHER_TENANT, area=ANNA, vector=embedding(1.0, 0.0, 0.0)),
    ]
    for new in memories:
        if new.embedding is not None and new.memory.embedding_profil_hash is None:
            new.memory.embedding_profil_hash = PROFILE
        if new.embedding is not None:
            new.memory.embedding_dim = len(new.embedding) // 4
    assert storage.put_memories(memories) == [None] * len(memories)
    return storage


def ids(storage: StoragePort, q: VectorQuery) -> list[str]:
    return [str(hit.memory_id) for hit in storage.search_vectors(q)]


def test_ranks_the_readable_live_vectors_of_the_profile_by_cosine(stored: StoragePort) -> None:
    # When anna (her area and her team's) searches near (1, 0, 0)
    hits = stored.search_vectors(query((1.0, 0.0, 0.0)))
    # Then her and her team's memories of the profile come by cosine similarity; bruno's,
    # the other tenant's, the other profile's, the expired and the vector-less ones do not
    assert [str(h.memory_id) for h in hits] == [
        "longterm_1",
        "shortterm_2",
        "longterm_2",
        "longterm_3",
    ]
    assert hits[0].score == pytest.approx(1.0, abs=1e-6)
    assert [round(h.score, 3) for h in hits[1:]] == [0.8, 0.6, 0.0]


def test_type_limit_and_areas_bound_the_search(stored: StoragePort) -> None:
    assert ids(stored, query((1.0, 0.0, 0.0), typ=MemoryType.LONGTERM, limit=2)) == [
        "longterm_1",
        "longterm_2",
    ]
    assert ids(stored, query((0.0, 1.0, 0.0), areas=frozenset({TEAM}))) == ["longterm_3"]
    assert ids(stored, query((0.0, 1.0, 0.0), areas=frozenset())) == []
    assert ids(stored, query((0.0, 1.0), profile="b")) == ["longterm_5"]


def test_unknown_profile_or_dimension_is_a_profile_error(stored: StoragePort) -> None:
    with pytest.raises(VectorProfileError) as unknown:
        stored.search_vectors(query((1.0, 0.0, 0.0), profile="nie-gesehen"))
    assert unknown.value.known_dimensions == []
    with pytest.raises(VectorProfileError) as wrong:
        stored.search_vectors(query((1.0, 0.0, 0.0, 0.0)))
    assert (wrong.value.dimension, wrong.value.known_dimensions) == (4, [3])


def test_deleted_vectors_are_not_found(stored: StoragePort) -> None:
    # When longterm_1 is deleted
    assert stored.delete_memories(TENANT, [lt(1)], T0) == [lt(1)]
    # Then its vector is not found any more; the others still are
    assert ids(stored, query((1.0, 0.0, 0.0), limit=2)) == ["shortterm_2", "longterm_2"]


def test_a_term_lookup_searches_the_vectors_of_the_areas_it_reads(stored: StoragePort) -> None:
    # Given anna's project with a memory near (0, 0, 1)
    assert stored.create_project(Project(TENANT, "p", "anna", T0))
    project = new_memory(lt(7), area="projects/p", vector=embedding(0.0, 0.0, 1.0))
    project.memory.embedding_profil_hash, project.memory.embedding_dim = PROFILE, 3
    assert stored.put_memories([project]) == [None]
    # When a term lookup of her area, as member anna, brings a vector query along (its own
    # areas are the lookup's)
    lookup = stored.lookup_memory_terms(
        TENANT, ["kurz"], [ANNA], "anna", now=T0, vector=query((0.0, 0.6, 0.8), areas=frozenset())
    )
    # Then the vector hits are those of her area and her project, as search_vectors ranks them
    assert lookup.projects == {"p"} and lookup.vectors is not None
    assert lookup.vectors.error is None
    areas = frozenset({ANNA, "projects/p"})
    assert lookup.vectors.hits == stored.search_vectors(query((0.0, 0.6, 0.8), areas=areas))
    assert [str(h.memory_id) for h in lookup.vectors.hits][:2] == ["longterm_7", "shortterm_2"]
    # And a vector of an unknown profile comes back as the error, with the postings
    unknown = query((1.0, 0.0, 0.0), profile="nie-gesehen")
    failed = stored.lookup_memory_terms(TENANT, ["kurz"], [ANNA], vector=unknown)
    assert failed.vectors is not None and failed.vectors.hits == []
    assert isinstance(failed.vectors.error, VectorProfileError)
    assert failed.postings == lookup.postings
    # And without a vector query there is no vector part
    assert stored.lookup_memory_terms(TENANT, ["kurz"], [ANNA]).vectors is None
