"""Storage contract, part 2: memory search index, replace (update), delete, recent memories
and the expiry sweep. Runs unchanged on every adapter in STORAGE_FACTORIES."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from shared.domain import (
    CorpusStats,
    CounterName,
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    ExpiredMemory,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryReplace,
    MemoryType,
    NewMemory,
)
from shared.storage.port import StoragePort
from tests.contract.builders import (
    OTHER_TENANT,
    TENANT,
    at,
    embedding,
    lt,
    make_memory,
    make_rating,
    st,
)

NOW = at(0)


def indexed(
    memory_id: MemoryId, terms: dict[str, int], doc_len: int, **overrides: object
) -> Memory:
    return make_memory(memory_id, terms=terms, doc_len=doc_len, **overrides)


def store(
    storage: StoragePort, *memories: Memory, vectors: dict[MemoryId, bytes] | None = None
) -> None:
    vectors = vectors or {}
    results = storage.put_memories([NewMemory(m, vectors.get(m.id)) for m in memories])
    assert results == [None] * len(memories)


# The areas of every nutzer these tests store memories for.
AREAS = ["users/anna", "users/bruno", "users/nutzer-1"]


def postings(storage: StoragePort, tenant: str, *terms: str) -> dict[str, list[MemoryPosting]]:
    found = storage.lookup_memory_terms(tenant, list(terms), AREAS).postings
    return {term: sorted(items, key=lambda p: p.entry_id) for term, items in found.items()}


def assert_failure(result: object, code: EntryFailureCode) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code is code


# --- search index -------------------------------------------------------------------------


def test_put_memories_writes_postings_and_stats(storage: StoragePort) -> None:
    # Given two memories with index terms, one short-term with an expiry
    expires = at(60)
    store(
        storage,
        indexed(lt(1), {"vertrag": 2, "kund": 1}, 3, nutzer="anna"),
        indexed(st(1), {"vertrag": 1}, 4, nutzer="bruno", expires_at=expires),
    )
    # When the terms are looked up
    lookup = storage.lookup_memory_terms(TENANT, ["vertrag", "kund", "fehlt"], AREAS)
    # Then each term lists its memories with tf, doc_len, nutzer and expiry
    found = {t: sorted(p, key=lambda x: x.entry_id) for t, p in lookup.postings.items()}
    assert found == {
        "vertrag": [
            MemoryPosting(lt(1), 2, 3, "anna", None, "users/anna"),
            MemoryPosting(st(1), 1, 4, "bruno", expires, "users/bruno"),
        ],
        "kund": [MemoryPosting(lt(1), 1, 3, "anna", None, "users/anna")],
    }
    # And the memory corpus stats count both, also in the lookup
    assert lookup.stats == CorpusStats(documents=2, total_len=7)
    assert storage.memory_stats(TENANT) == CorpusStats(2, 7)
    # And the terms read back with the memory
    got = storage.get_memories(TENANT, [lt(1)], NOW)[lt(1)]
    assert (got.terms, got.doc_len) == ({"vertrag": 2, "kund": 1}, 3)


def test_reserved_memories_are_stored_and_a_duplicate_id_never_overwrites(
    storage: StoragePort,
) -> None:
    # Given two IDs just reserved from the counter
    first, second = (lt(n) for n in storage.reserve_ids(TENANT, CounterName.LONGTERM, 2))
    # When they are stored, one with an embedding, with a second entry for the first ID in
    # the same batch
    results = storage.put_memories(
        [
            NewMemory(indexed(first, {"frisch": 2}, 2), embedding(1.0, 2.0)),
            NewMemory(indexed(second, {"frisch": 1}, 1, nutzer="anna")),
            NewMemory(indexed(first, {"doppelt": 1}, 1)),
        ]
    )
    # Then the first two are stored, indexed and counted; the duplicate fails
    assert results[:2] == [None, None]
    assert_failure(results[2], EntryFailureCode.STORAGE)
    assert [p.entry_id for p in postings(storage, TENANT, "frisch", "doppelt")["frisch"]] == [
        first,
        second,
    ]
    assert postings(storage, TENANT, "doppelt") == {}
    assert storage.memory_stats(TENANT) == CorpusStats(2, 3)
    assert storage.get_embedding(TENANT, first) == embedding(1.0, 2.0)
    # And a later write of a stored ID fails and overwrites nothing
    assert_failure(
        storage.put_memories([NewMemory(indexed(second, {"neu": 1}, 1))])[0],
        EntryFailureCode.STORAGE,
    )
    assert storage.get_memories(TENANT, [second], NOW)[second].terms == {"frisch": 1}
    assert postings(storage, TENANT, "neu") == {}
    assert storage.memory_stats(TENANT) == CorpusStats(2, 3)


def test_memory_index_is_per_tenant_and_separate_from_the_brain(storage: StoragePort) -> None:
    store(storage, indexed(lt(1), {"geheim": 1}, 1))
    assert postings(storage, OTHER_TENANT, "geheim") == {}
    assert storage.memory_stats(OTHER_TENANT) == CorpusStats(0, 0)
    assert storage.lookup_terms(TENANT, ["geheim"]).postings == {}
    assert storage.lookup_memory_terms(TENANT, [], AREAS).postings == {}


# --- replace ------------------------------------------------------------------------------


def test_replace_updates_fields_index_and_version(storage: StoragePort) -> None:
    # Given a rated memory with terms
    old = indexed(lt(1), {"alt": 1, "bleibt": 1}, 2, nutzer="anna")
    store(storage, old)
    storage.record_ratings([make_rating(1, lt(1), 8, datum=at(5))], NOW)
    stored = storage.get_memories(TENANT, [lt(1)], NOW)[lt(1)]
    # When it is replaced by a new text with other terms
    new = replace(
        stored,
        kurzbeschreibung="Neu",
        memory="Neuer Inhalt",
        tags=["Neu"],
        scope="projekt",
        scope_vk="P-9",
        updated_at=at(10),
        terms={"neu": 2, "bleibt": 1},
        doc_len=3,
    )
    assert storage.replace_memories([MemoryReplace(new, stored)], at(10)) == [None]
    # Then it reads back new, with scores kept and the version bumped
    got = storage.get_memories(TENANT, [lt(1)], at(10))[lt(1)]
    assert (got.kurzbeschreibung, got.memory, got.tags) == ("Neu", "Neuer Inhalt", ["Neu"])
    assert (got.scope, got.scope_vk, got.updated_at) == ("projekt", "P-9", at(10))
    assert (got.score_count, got.score_sum, got.created_at) == (1, Decimal(8), old.created_at)
    assert got.version == stored.version + 1
    # And the index follows: old-only term gone, new term there, stats adjusted
    assert postings(storage, TENANT, "alt", "neu", "bleibt") == {
        "neu": [MemoryPosting(lt(1), 2, 3, "anna", None, "users/anna")],
        "bleibt": [MemoryPosting(lt(1), 1, 3, "anna", None, "users/anna")],
    }
    assert storage.memory_stats(TENANT) == CorpusStats(1, 3)
    # And the scope index follows too
    found = storage.find_memories_by_scopes(TENANT, [("projekt", "P-9"), ("kunde", "K-1")], NOW, 5)
    assert [m.id for m in found[("projekt", "P-9")]] == [lt(1)]
    assert found.get(("kunde", "K-1"), []) == []


def test_replace_with_a_stale_version_is_a_conflict_and_writes_nothing(
    storage: StoragePort,
) -> None:
    # Given a memory that was rated after the caller read it
    store(storage, indexed(lt(1), {"alt": 1}, 1))
    read = storage.get_memories(TENANT, [lt(1)], NOW)[lt(1)]
    storage.record_ratings([make_rating(1, lt(1), 4)], NOW)
    # When the caller replaces it from its stale read
    stale = replace(read, memory="überschrieben", terms={"neu": 1})
    result = storage.replace_memories([MemoryReplace(stale, read)], NOW)
    # Then that is a CONFLICT and the rating survives, the text is unchanged
    assert_failure(result[0], EntryFailureCode.CONFLICT)
    got = storage.get_memories(TENANT, [lt(1)], NOW)[lt(1)]
    assert (got.memory, got.score_count) == (read.memory, 1)
    assert postings(storage, TENANT, "neu") == {}


def test_replace_of_missing_expired_or_foreign_memory_is_not_found(
    storage: StoragePort,
) -> None:
    expired = make_memory(st(1), expires_at=at(1))
    store(storage, expired, make_memory(lt(1), tenant=OTHER_TENANT))
    ghost = make_memory(lt(1))
    results = storage.replace_memories(
        [
            MemoryReplace(replace(ghost, memory="x"), ghost),
            MemoryReplace(replace(expired, memory="x"), expired),
        ],
        at(2),
    )
    assert_failure(results[0], EntryFailureCode.NOT_FOUND)
    assert_failure(results[1], EntryFailureCode.NOT_FOUND)
    assert storage.get_memories(OTHER_TENANT, [lt(1)], NOW)[lt(1)].memory == "Inhalt von longterm_1"


def test_replace_sets_keeps_and_removes_embeddings(storage: StoragePort) -> None:
    # Given three memories with embeddings
    vectors = {lt(n): embedding(float(n), 0.5) for n in (1, 2, 3)}
    memories = [make_memory(lt(n), embedding_dim=2, embedding_profil_hash="p1") for n in (1, 2, 3)]
    store(storage, *memories, vectors=vectors)
    read = storage.get_memories(TENANT, [lt(1), lt(2), lt(3)], NOW)
    # When one is kept, one replaced and one removed
    results = storage.replace_memories(
        [
            MemoryReplace(replace(read[lt(1)], memory="a"), read[lt(1)]),
            MemoryReplace(
                replace(read[lt(2)], embedding_dim=3, embedding_profil_hash="p2"),
                read[lt(2)],
                EmbeddingChange.SET,
                embedding(9.0, 8.0, 7.0),
            ),
            MemoryReplace(
                replace(read[lt(3)], embedding_dim=None, embedding_profil_hash=None),
                read[lt(3)],
                EmbeddingChange.REMOVE,
            ),
        ],
        NOW,
    )
    # Then each embedding is as asked, and the metadata follows
    assert results == [None, None, None]
    assert storage.get_embedding(TENANT, lt(1)) == vectors[lt(1)]
    assert storage.get_embedding(TENANT, lt(2)) == embedding(9.0, 8.0, 7.0)
    assert storage.get_embedding(TENANT, lt(3)) is None
    got = storage.get_memories(TENANT, [lt(2), lt(3)], NOW)
    assert (got[lt(2)].embedding_dim, got[lt(2)].embedding_profil_hash) == (3, "p2")
    assert (got[lt(3)].embedding_dim, got[lt(3)].embedding_profil_hash) == (None, None)


# --- delete -------------------------------------------------------------------------------


def test_delete_removes_memory_ratings_embedding_and_postings(storage: StoragePort) -> None:
    # Given two rated memories with embeddings and terms
    store(
        storage,
        indexed(lt(1), {"weg": 1, "gemeinsam": 1}, 2, embedding_dim=1),
        indexed(lt(2), {"gemeinsam": 2}, 2),
        vectors={lt(1): embedding(1.0)},
    )
    storage.record_ratings([make_rating(1, lt(1), 5), make_rating(2, lt(2), 7)], NOW)
    # When memory 1 and an unknown ID are deleted
    deleted = storage.delete_memories(TENANT, [lt(1), lt(9)], NOW)
    # Then only memory 1 is reported and gone, with everything that belonged to it
    assert deleted == [lt(1)]
    assert set(storage.get_memories(TENANT, [lt(1), lt(2)], NOW)) == {lt(2)}
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert storage.get_embedding(TENANT, lt(1)) is None
    assert postings(storage, TENANT, "weg", "gemeinsam") == {
        "gemeinsam": [MemoryPosting(lt(2), 2, 2, "nutzer-1", None, "users/nutzer-1")]
    }
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)
    # And the other memory keeps its rating; a second delete finds nothing
    assert len(storage.get_ratings(TENANT, lt(2))) == 1
    assert storage.delete_memories(TENANT, [lt(1)], NOW) == []


def test_delete_is_per_tenant(storage: StoragePort) -> None:
    store(storage, make_memory(lt(1), tenant=OTHER_TENANT))
    assert storage.delete_memories(TENANT, [lt(1)], NOW) == []
    assert lt(1) in storage.get_memories(OTHER_TENANT, [lt(1)], NOW)


def test_delete_of_an_expired_memory_removes_it_but_reports_it_missing(
    storage: StoragePort,
) -> None:
    store(storage, make_memory(st(1), expires_at=at(1)))
    assert storage.delete_memories(TENANT, [st(1)], at(2)) == []
    assert storage.get_memories(TENANT, [st(1)], at(0)) == {}


# --- recent memories ----------------------------------------------------------------------


def test_recent_memories_newest_first_without_expired(storage: StoragePort) -> None:
    store(
        storage,
        make_memory(st(1), expires_at=at(100)),
        make_memory(st(2), expires_at=at(1)),
        make_memory(st(3), expires_at=at(100)),
        make_memory(st(4), expires_at=at(100)),
        make_memory(lt(5)),
        make_memory(st(5), tenant=OTHER_TENANT, expires_at=at(100)),
    )
    recent = storage.recent_memories(TENANT, MemoryType.SHORTTERM, AREAS, at(2), 10)
    assert [m.id for m in recent] == [st(4), st(3), st(1)]
    newest = storage.recent_memories(TENANT, MemoryType.SHORTTERM, AREAS, at(2), 2)
    assert [m.id for m in newest] == [st(4), st(3)]
    longterm = storage.recent_memories(TENANT, MemoryType.LONGTERM, AREAS, at(2), 5)
    assert [m.id for m in longterm] == [lt(5)]
    assert storage.recent_memories(TENANT, MemoryType.SHORTTERM, [], at(2), 5) == []


def test_recent_memories_read_only_the_given_areas_newest_first(storage: StoragePort) -> None:
    # Given short-term memories in three areas, interleaved in time
    store(
        storage,
        make_memory(st(1), nutzer="anna", expires_at=at(100)),
        make_memory(st(2), nutzer="bruno", expires_at=at(100)),
        make_memory(st(3), nutzer="anna", area="teams/ops", expires_at=at(100)),
        make_memory(st(4), nutzer="carla", expires_at=at(100)),
        make_memory(st(5), nutzer="anna", expires_at=at(100)),
    )
    # When anna's own area and her team's are read
    areas = ["users/anna", "teams/ops"]
    recent = storage.recent_memories(TENANT, MemoryType.SHORTTERM, areas, at(2), 10)
    # Then only their memories come, newest first, across both areas
    assert [m.id for m in recent] == [st(5), st(3), st(1)]
    # And the lookup brings the same list along with the postings
    lookup = storage.lookup_memory_terms(TENANT, [], areas, recent=2, now=at(2))
    assert [m.id for m in lookup.recent] == [st(5), st(3)]


# --- expiry sweep -------------------------------------------------------------------------


def test_delete_expired_sweeps_across_tenants_bounded_and_rerunnable(
    storage: StoragePort,
) -> None:
    # Given expired short-term memories in two tenants (one rated, one with an embedding,
    # one indexed), a live one and a long-term one
    store(
        storage,
        indexed(st(1), {"alt": 1}, 1, expires_at=at(1)),
        make_memory(st(2), expires_at=at(2), embedding_dim=1),
        make_memory(st(3), expires_at=at(500)),
        make_memory(lt(1)),
        vectors={st(2): embedding(2.0)},
    )
    store(storage, make_memory(st(1), tenant=OTHER_TENANT, expires_at=at(3)))
    storage.record_ratings([make_rating(1, st(1), 3)], at(0))
    # When the sweep runs with a limit of 2, then again
    first = storage.delete_expired(at(10), 2)
    second = storage.delete_expired(at(10), 2)
    third = storage.delete_expired(at(10), 2)
    # Then all three expired memories go, at most 2 per run, and a re-run finds nothing
    swept = set(first) | set(second)
    assert len(first) == 2 and len(second) == 1 and third == []
    assert swept == {
        ExpiredMemory(TENANT, st(1)),
        ExpiredMemory(TENANT, st(2)),
        ExpiredMemory(OTHER_TENANT, st(1)),
    }
    # And with them their ratings, embeddings and postings; the others stay
    assert storage.get_ratings(TENANT, st(1)) == []
    assert storage.get_embedding(TENANT, st(2)) is None
    assert postings(storage, TENANT, "alt") == {}
    assert set(storage.get_memories(TENANT, [st(3), lt(1)], at(10))) == {st(3), lt(1)}
    # And the tenant's memory stats no longer count the swept ones
    assert storage.memory_stats(TENANT) == CorpusStats(documents=2, total_len=0)
