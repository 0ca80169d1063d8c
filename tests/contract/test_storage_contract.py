"""The storage contract: every adapter of `StoragePort` must pass this suite unchanged.

Only the port's methods are used here, never adapter internals, so the same tests run
against SQLite and DynamoDB + S3 (see `conftest.STORAGE_FACTORIES`). This file: counters,
tags and memories; ratings and brain entries in test_storage_contract_brain.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from shared.domain import (
    CounterName,
    EntryFailureCode,
    Memory,
    NewMemory,
)
from shared.storage.port import StoragePort
from tests.contract.builders import (
    OTHER_TENANT,
    T0,
    TENANT,
    at,
    embedding,
    lt,
    make_memory,
    make_rating,
    new_memory,
    st,
)
from tests.contract.storage_checks import assert_failure, assert_utc


def in_scope(
    storage: StoragePort, pair: tuple[str, str], now: datetime, limit: int
) -> list[Memory]:
    """The memories of one (scope, scope_vk) pair: a lookup of that pair alone."""
    return storage.find_memories_by_scopes(TENANT, [pair], now, limit).get(pair, [])


# --- counters ---------------------------------------------------------------------------


def test_counter_starts_at_one_and_continues(storage: StoragePort) -> None:
    # Given a fresh storage
    # When a tenant reserves one ID and then three more
    first = storage.reserve_ids(TENANT, CounterName.LONGTERM, 1)
    second = storage.reserve_ids(TENANT, CounterName.LONGTERM, 3)
    # Then the sequence starts at 1 and the second range follows on directly
    assert first == range(1, 2)
    assert second == range(2, 5)


def test_reserved_ranges_are_consecutive_and_never_reused(storage: StoragePort) -> None:
    # Given several reservations of different sizes
    sizes = [1, 5, 2, 10, 1]
    # When they are made one after the other
    ranges = [storage.reserve_ids(TENANT, CounterName.RATING, n) for n in sizes]
    # Then each has the requested size and together they cover 1..N without gap or overlap
    assert [len(r) for r in ranges] == sizes
    assert [i for r in ranges for i in r] == list(range(1, sum(sizes) + 1))


def test_counters_are_separate_per_tenant_and_name(storage: StoragePort) -> None:
    # Given tenant A has used its long-term sequence
    assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 3) == range(1, 4)
    # When other sequences of A and the same sequence of B are used
    # Then each of them starts at 1 on its own
    assert storage.reserve_ids(TENANT, CounterName.SHORTTERM, 2) == range(1, 3)
    assert storage.reserve_ids(TENANT, CounterName.RATING, 1) == range(1, 2)
    assert storage.reserve_ids(TENANT, CounterName.BRAIN, 1) == range(1, 2)
    assert storage.reserve_ids(OTHER_TENANT, CounterName.LONGTERM, 2) == range(1, 3)
    # And A's long-term sequence continues where it stopped
    assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(4, 5)


@pytest.mark.parametrize("count", [0, -1])
def test_reserving_less_than_one_id_is_rejected(storage: StoragePort, count: int) -> None:
    # Given a fresh storage
    # When a caller asks for fewer than one ID
    with pytest.raises(ValueError):
        storage.reserve_ids(TENANT, CounterName.LONGTERM, count)
    # Then nothing was consumed: the sequence still starts at 1
    assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(1, 2)


# --- tags -------------------------------------------------------------------------------


def test_tags_are_created_on_demand(storage: StoragePort) -> None:
    # Given no tags
    # When two tags are ensured
    result = storage.ensure_tags(TENANT, ["Rechnung", "Vertrag"])
    # Then both exist under their casefolded names, spelled as given
    assert result == {"rechnung": "Rechnung", "vertrag": "Vertrag"}
    # And ensuring nothing returns nothing
    assert storage.ensure_tags(TENANT, []) == {}


def test_tags_are_unique_case_insensitively_and_first_spelling_wins(
    storage: StoragePort,
) -> None:
    # Given a tag "Rechnung"
    storage.ensure_tags(TENANT, ["Rechnung"])
    # When it is ensured again in another spelling, together with a new tag
    result = storage.ensure_tags(TENANT, ["RECHNUNG", "neu"])
    # Then the stored spelling is kept and the new tag is created
    assert result == {"rechnung": "Rechnung", "neu": "neu"}
    # And within one call, the first of two spellings wins (casefold: "ß" == "ss")
    assert storage.ensure_tags(TENANT, ["Straße", "STRASSE"]) == {"strasse": "Straße"}
    assert storage.ensure_tags(TENANT, ["strasse"]) == {"strasse": "Straße"}


def test_tags_are_per_tenant(storage: StoragePort) -> None:
    # Given tenant A has the tag "Rechnung"
    storage.ensure_tags(TENANT, ["Rechnung"])
    # When tenant B ensures "RECHNUNG"
    result = storage.ensure_tags(OTHER_TENANT, ["RECHNUNG"])
    # Then B gets its own spelling, and A's is unchanged
    assert result == {"rechnung": "RECHNUNG"}
    assert storage.ensure_tags(TENANT, ["rechnung"]) == {"rechnung": "Rechnung"}


# --- memories ---------------------------------------------------------------------------


def test_memory_round_trips_every_field(storage: StoragePort) -> None:
    # Given a memory with every field set, some times in a non-UTC zone
    cest = timezone(timedelta(hours=2))
    memory = make_memory(
        lt(7),
        kurzbeschreibung="Kündigungsfrist",
        memory="Kunde möchte zum Quartalsende kündigen.\nZweite Zeile.",
        tags=["Vertrag", "Kündigung"],
        scope="kunde",
        scope_vk="K-4711",
        nutzer="anna",
        agent="support-bot",
        created_at=datetime(2025, 3, 1, 11, 0, 0, 1, tzinfo=cest),
        updated_at=at(1),
        referenzfelder={"ticket": "T-1", "n": 3, "x": {"a": [1, 2.5, None, True]}},
        expires_at=at(days=30),
        embedding_dim=3,
        embedding_profil_hash="profil-abc",
        score_count=2,
        score_sum=Decimal("17.25"),
        last_call=at(2),
        version=4,
    )
    vector = embedding(0.5, -1.25, 3.0)
    # When it is stored and read back
    assert storage.put_memories([NewMemory(memory, vector)]) == [None]
    got = storage.get_memories(TENANT, [lt(7)], now=T0)
    # Then every field is equal, times are UTC-aware and the score sum is an exact Decimal
    assert got == {lt(7): memory}
    stored = got[lt(7)]
    for value in (stored.created_at, stored.updated_at, stored.expires_at, stored.last_call):
        assert_utc(value)
    assert stored.created_at == datetime(2025, 3, 1, 9, 0, 0, 1, tzinfo=UTC)
    assert isinstance(stored.score_sum, Decimal)
    assert stored.score_sum == Decimal("17.25")
    # And the embedding comes back byte for byte
    assert storage.get_embedding(TENANT, lt(7)) == vector


def test_memory_without_embedding_and_defaults(storage: StoragePort) -> None:
    # Given a short-term memory with default aggregates and no embedding
    # When it is stored
    assert storage.put_memories([new_memory(st(1))]) == [None]
    # Then it reads back unchanged, with no embedding and no score
    got = storage.get_memories(TENANT, [st(1)], now=T0)[st(1)]
    assert got == make_memory(st(1))
    assert got.tags == ["Alpha", "beta"]
    assert got.score_count == 0
    assert got.score_sum == Decimal(0)
    assert got.last_call is None
    assert got.expires_at is None
    assert got.embedding_dim is None
    assert storage.get_embedding(TENANT, st(1)) is None


def test_get_memories_returns_only_existing_ids_and_keeps_types_apart(
    storage: StoragePort,
) -> None:
    # Given longterm_1 and shortterm_1, which share a number but not a type
    assert storage.put_memories(
        [new_memory(lt(1), memory="lang"), new_memory(st(1), memory="kurz")]
    ) == [None, None]
    # When existing and missing IDs are requested together (one of them twice)
    got = storage.get_memories(TENANT, [lt(1), lt(99), st(1), st(2), lt(1)], now=T0)
    # Then only the existing ones come back, each under its own ID
    assert set(got) == {lt(1), st(1)}
    assert got[lt(1)].memory == "lang"
    assert got[st(1)].memory == "kurz"
    assert storage.get_memories(TENANT, [], now=T0) == {}


def test_duplicate_memory_id_fails_only_that_entry(storage: StoragePort) -> None:
    # Given longterm_1 is stored with an embedding
    original = embedding(1.0, 2.0)
    assert storage.put_memories([new_memory(lt(1), memory="alt", vector=original)]) == [None]
    # When a batch contains a new memory, longterm_1 again, and another new memory
    results = storage.put_memories(
        [
            new_memory(lt(2)),
            new_memory(lt(1), memory="neu", vector=embedding(9.0, 9.0)),
            new_memory(lt(3)),
        ]
    )
    # Then only the duplicate fails, with a storage failure
    assert results[0] is None
    assert_failure(results[1], EntryFailureCode.STORAGE)
    assert results[2] is None
    # And the existing memory and its embedding are not overwritten
    got = storage.get_memories(TENANT, [lt(1), lt(2), lt(3)], now=T0)
    assert set(got) == {lt(1), lt(2), lt(3)}
    assert got[lt(1)].memory == "alt"
    assert storage.get_embedding(TENANT, lt(1)) == original


def test_duplicate_within_one_batch_stores_the_first(storage: StoragePort) -> None:
    # Given an empty storage
    # When one batch holds the same ID twice
    results = storage.put_memories(
        [new_memory(lt(5), memory="erste"), new_memory(lt(5), memory="zweite")]
    )
    # Then the first is stored and the second fails
    assert results[0] is None
    assert_failure(results[1], EntryFailureCode.STORAGE)
    assert storage.get_memories(TENANT, [lt(5)], now=T0)[lt(5)].memory == "erste"


def test_memories_are_isolated_per_tenant(storage: StoragePort) -> None:
    # Given longterm_1 in both tenants, and longterm_2 only in tenant B, same scope
    assert storage.put_memories(
        [
            new_memory(lt(1), memory="von A", vector=embedding(1.0)),
            new_memory(lt(1), tenant=OTHER_TENANT, memory="von B", vector=embedding(2.0)),
            new_memory(lt(2), tenant=OTHER_TENANT, memory="nur B", vector=embedding(3.0)),
        ]
    ) == [None, None, None]
    # When each tenant reads
    got_a = storage.get_memories(TENANT, [lt(1), lt(2)], now=T0)
    got_b = storage.get_memories(OTHER_TENANT, [lt(1), lt(2)], now=T0)
    # Then each sees only its own memories
    assert {k: v.memory for k, v in got_a.items()} == {lt(1): "von A"}
    assert {k: v.memory for k, v in got_b.items()} == {lt(1): "von B", lt(2): "nur B"}
    assert storage.get_embedding(TENANT, lt(1)) == embedding(1.0)
    assert storage.get_embedding(OTHER_TENANT, lt(1)) == embedding(2.0)
    assert storage.get_embedding(TENANT, lt(2)) is None
    found = in_scope(storage, ("kunde", "K-1"), T0, 10)
    assert [(m.tenant, m.id) for m in found] == [(TENANT, lt(1))]
    # And a rating in tenant A of B-only memory is not found and does not touch B
    result = storage.record_ratings([make_rating(1, lt(2), 5)], now=T0)[0]
    assert_failure(result, EntryFailureCode.NOT_FOUND)
    assert storage.get_memories(OTHER_TENANT, [lt(2)], now=T0)[lt(2)].score_count == 0
    assert storage.get_ratings(OTHER_TENANT, lt(2)) == []


def test_expired_memory_is_absent_and_cannot_be_rated(storage: StoragePort) -> None:
    # Given a long-term memory that expires at T0+10min, and one that never expires
    expiry = at(10)
    assert storage.put_memories([new_memory(lt(1), expires_at=expiry), new_memory(lt(2))]) == [
        None,
        None,
    ]
    # When read just before the expiry, it is there
    assert set(storage.get_memories(TENANT, [lt(1), lt(2)], now=at(9))) == {lt(1), lt(2)}
    found = in_scope(storage, ("kunde", "K-1"), at(9), 10)
    assert [m.id for m in found] == [lt(2), lt(1)]
    # Then at the expiry instant and later it is absent from reads
    for now in (expiry, at(days=1)):
        assert set(storage.get_memories(TENANT, [lt(1), lt(2)], now=now)) == {lt(2)}
        found = in_scope(storage, ("kunde", "K-1"), now, 10)
        assert [m.id for m in found] == [lt(2)]
    # And rating it at the expiry gives NOT_FOUND and writes nothing
    result = storage.record_ratings([make_rating(1, lt(1), 8)], now=expiry)[0]
    assert_failure(result, EntryFailureCode.NOT_FOUND)
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert storage.get_memories(TENANT, [lt(1)], now=at(9))[lt(1)].score_count == 0


def test_find_memories_by_scopes_filters_orders_and_limits(storage: StoragePort) -> None:
    # Given long-term memories in one scope (created in ID order), plus distractors
    assert (
        storage.put_memories(
            [
                new_memory(lt(1), created_at=at(1), updated_at=at(1)),
                new_memory(lt(2), created_at=at(2), updated_at=at(2)),
                new_memory(lt(3), scope_vk="K-2"),
                new_memory(lt(4), scope="produkt"),
                new_memory(st(5), created_at=at(5), updated_at=at(5)),
                new_memory(lt(6), created_at=at(6), updated_at=at(6)),
            ]
        )
        == [None] * 6
    )
    # When the scope kunde/K-1 is queried
    found = in_scope(storage, ("kunde", "K-1"), T0, 10)
    # Then only its long-term memories come back, newest first
    assert [m.id for m in found] == [lt(6), lt(2), lt(1)]
    assert found[0] == make_memory(lt(6), created_at=at(6), updated_at=at(6))
    # And the limit keeps the newest
    limited = in_scope(storage, ("kunde", "K-1"), T0, 2)
    assert [m.id for m in limited] == [lt(6), lt(2)]
    assert in_scope(storage, ("kunde", "K-9"), T0, 10) == []
