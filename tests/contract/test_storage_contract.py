"""The storage contract: every adapter of `StoragePort` must pass this suite unchanged.

Only the port's methods are used here, never adapter internals, so the same tests run
against SQLite and DynamoDB + S3 (see `conftest.STORAGE_FACTORIES`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from shared.domain import (
    BrainWrite,
    CorpusStats,
    CounterName,
    EntryFailure,
    EntryFailureCode,
    MemoryId,
    NewMemory,
    Posting,
    RatingOutcome,
    VkTyp,
)
from shared.storage.port import StoragePort
from tests.contract.builders import (
    OTHER_TENANT,
    T0,
    TENANT,
    at,
    embedding,
    lt,
    make_entry,
    make_memory,
    make_rating,
    new_memory,
    st,
)

# --- helpers ----------------------------------------------------------------------------


def posting(
    entry_id: int, tf: int, doc_len: int, vk_typ: str = "kunde", ref: str = "K-1"
) -> Posting:
    """A posting of an entry built by make_entry (vk defaults kunde / K-1)."""
    return Posting(entry_id, tf, doc_len, vk_typ, ref)


def postings_of(storage: StoragePort, tenant: str, terms: list[str]) -> dict[str, list[Posting]]:
    return storage.lookup_terms(tenant, terms).postings


def assert_failure(result: object, code: EntryFailureCode) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code == code


def assert_utc(value: datetime | None) -> None:
    assert value is not None
    assert value.tzinfo is not None
    assert value.utcoffset() == timedelta(0)


def outcome(result: RatingOutcome | EntryFailure) -> RatingOutcome:
    assert isinstance(result, RatingOutcome), result
    return result


def put_ok(storage: StoragePort, *ids: MemoryId, tenant: str = TENANT) -> None:
    results = storage.put_memories([new_memory(i, tenant=tenant) for i in ids])
    assert results == [None] * len(ids)


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
    found = storage.find_memories_by_scope(TENANT, "kunde", "K-1", now=T0, limit=10)
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
    found = storage.find_memories_by_scope(TENANT, "kunde", "K-1", now=at(9), limit=10)
    assert [m.id for m in found] == [lt(2), lt(1)]
    # Then at the expiry instant and later it is absent from reads
    for now in (expiry, at(days=1)):
        assert set(storage.get_memories(TENANT, [lt(1), lt(2)], now=now)) == {lt(2)}
        found = storage.find_memories_by_scope(TENANT, "kunde", "K-1", now=now, limit=10)
        assert [m.id for m in found] == [lt(2)]
    # And rating it at the expiry gives NOT_FOUND and writes nothing
    result = storage.record_ratings([make_rating(1, lt(1), 8)], now=expiry)[0]
    assert_failure(result, EntryFailureCode.NOT_FOUND)
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert storage.get_memories(TENANT, [lt(1)], now=at(9))[lt(1)].score_count == 0


def test_find_memories_by_scope_filters_orders_and_limits(storage: StoragePort) -> None:
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
    found = storage.find_memories_by_scope(TENANT, "kunde", "K-1", now=T0, limit=10)
    # Then only its long-term memories come back, newest first
    assert [m.id for m in found] == [lt(6), lt(2), lt(1)]
    assert found[0] == make_memory(lt(6), created_at=at(6), updated_at=at(6))
    # And the limit keeps the newest
    limited = storage.find_memories_by_scope(TENANT, "kunde", "K-1", now=T0, limit=2)
    assert [m.id for m in limited] == [lt(6), lt(2)]
    assert storage.find_memories_by_scope(TENANT, "kunde", "K-9", now=T0, limit=10) == []


# --- ratings ----------------------------------------------------------------------------


def test_rating_aggregates_are_exact(storage: StoragePort) -> None:
    # Given a memory without ratings
    put_ok(storage, lt(1))
    before = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)].version
    # When five ratings arrive, one at a time, the third older than the second
    scores = ["7.5", "3", "10", "0.1", "0.2"]
    datums = [at(5), at(20), at(10), at(15), at(1)]
    outcomes = [
        outcome(storage.record_ratings([make_rating(i, lt(1), s, datum=d)], now=T0)[0])
        for i, (s, d) in enumerate(zip(scores, datums, strict=True), start=1)
    ]
    # Then each outcome reports the running count, exact average and latest call
    assert [o.insert_id for o in outcomes] == [1, 2, 3, 4, 5]
    assert [o.memory_id for o in outcomes] == [lt(1)] * 5
    assert [o.score_count for o in outcomes] == [1, 2, 3, 4, 5]
    assert [o.score_avg for o in outcomes] == [
        Decimal("7.5"),
        Decimal("10.5") / 2,
        Decimal("20.5") / 3,
        Decimal("20.6") / 4,
        Decimal("20.8") / 5,
    ]
    assert [o.last_call for o in outcomes] == [at(5), at(20), at(20), at(20), at(20)]
    for o in outcomes:
        assert_utc(o.last_call)
    # And the memory carries the exact aggregate (no float rounding: 0.1 + 0.2 == 0.3)
    memory = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert memory.score_count == 5
    assert memory.score_sum == Decimal("20.8")
    assert memory.score_avg == Decimal("4.16")
    assert memory.last_call == at(20)
    assert memory.version > before


def test_rating_sums_keep_every_decimal_digit(storage: StoragePort) -> None:
    # Given a memory
    put_ok(storage, lt(1))
    # When it gets scores with more digits than a float can hold
    scores = [Decimal("1.00000000000000000001"), Decimal("2.5"), Decimal("0.00000000000000000002")]
    results = storage.record_ratings(
        [make_rating(i, lt(1), s) for i, s in enumerate(scores, start=1)], now=T0
    )
    # Then the sum, the average and the stored scores keep every digit
    assert outcome(results[-1]).score_avg == Decimal("3.50000000000000000003") / 3
    memory = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert memory.score_sum == Decimal("3.50000000000000000003")
    assert [r.score for r in storage.get_ratings(TENANT, lt(1))] == scores


def test_rating_of_missing_memory_is_not_found_and_writes_nothing(
    storage: StoragePort,
) -> None:
    # Given longterm_1 exists, longterm_42 does not
    put_ok(storage, lt(1))
    # When longterm_42 is rated
    result = storage.record_ratings([make_rating(7, lt(42), 5)], now=T0)[0]
    # Then the rating fails with NOT_FOUND and no rating record exists
    assert_failure(result, EntryFailureCode.NOT_FOUND)
    assert storage.get_ratings(TENANT, lt(42)) == []
    # And its insert_ID was not used up: the same ID can rate an existing memory
    assert outcome(storage.record_ratings([make_rating(7, lt(1), 5)], now=T0)[0]).score_count == 1


def test_rating_record_is_stored_with_all_fields(storage: StoragePort) -> None:
    # Given a memory and three ratings with out-of-order insert_IDs
    put_ok(storage, lt(1))
    cest = timezone(timedelta(hours=2))
    ratings = [
        make_rating(
            5,
            lt(1),
            Decimal("8.25"),
            agent="agent-x",
            nutzer="bob",
            datum=datetime(2025, 3, 2, 10, 0, 0, 42, tzinfo=cest),
            referenzfelder={"ticket": "T-9", "quelle": {"x": 1, "y": [True, None]}},
        ),
        make_rating(2, lt(1), 3, datum=at(3)),
        make_rating(9, lt(1), "10", datum=at(9)),
    ]
    # When they are recorded in one batch
    results = storage.record_ratings(ratings, now=T0)
    assert [outcome(r).score_count for r in results] == [1, 2, 3]
    # Then get_ratings returns every field, ordered by insert_ID
    stored = storage.get_ratings(TENANT, lt(1))
    assert stored == [ratings[1], ratings[0], ratings[2]]
    assert stored[1].score == Decimal("8.25")
    assert stored[1].datum == datetime(2025, 3, 2, 8, 0, 0, 42, tzinfo=UTC)
    for rating in stored:
        assert_utc(rating.datum)
        assert isinstance(rating.score, Decimal)


def test_ratings_in_one_batch_are_independent(storage: StoragePort) -> None:
    # Given two memories
    put_ok(storage, lt(1), lt(2))
    # When one batch rates lt(1), a missing memory, lt(2), and lt(1) with a used insert_ID
    results = storage.record_ratings(
        [
            make_rating(1, lt(1), "7.5", datum=at(1)),
            make_rating(2, lt(99), 5),
            make_rating(3, lt(2), 3, datum=at(3)),
            make_rating(1, lt(1), 10, datum=at(30)),
        ],
        now=T0,
    )
    # Then the good ratings apply, each to its own memory, and the bad ones fail alone
    first, missing, second, duplicate = results
    assert outcome(first) == RatingOutcome(1, lt(1), 1, Decimal("7.5"), at(1))
    assert_failure(missing, EntryFailureCode.NOT_FOUND)
    assert outcome(second) == RatingOutcome(3, lt(2), 1, Decimal(3), at(3))
    assert_failure(duplicate, EntryFailureCode.STORAGE)
    # And the failed duplicate changed neither the aggregate nor the stored record
    got = storage.get_memories(TENANT, [lt(1), lt(2)], now=T0)
    assert (got[lt(1)].score_count, got[lt(1)].score_sum) == (1, Decimal("7.5"))
    assert got[lt(1)].last_call == at(1)
    assert (got[lt(2)].score_count, got[lt(2)].score_sum) == (1, Decimal(3))
    assert [r.score for r in storage.get_ratings(TENANT, lt(1))] == [Decimal("7.5")]


# --- brain entries ----------------------------------------------------------------------


def test_brain_entry_create_and_get(storage: StoragePort) -> None:
    # Given two new entries with every field set
    one = make_entry(
        1,
        titel="Vertrag Muster GmbH",
        inhalt="Laufzeit 24 Monate.\nKündigung schriftlich.",
        vk_typ=VkTyp.PRODUKT,
        vk_referenz_id="P-7",
        tags=["Vertrag", "Laufzeit"],
        stammdaten={"name": "Müller", "umsatz": 1234.5, "aktiv": True, "ids": [1, 2]},
        nutzer="anna",
        agent="crm-bot",
        created_at=at(1),
        updated_at=at(2),
        referenzfelder={"crm": {"id": "X-1"}},
        terms={"vertrag": 2, "laufzeit": 1, "kundigung": 1},
        doc_len=4,
    )
    two = make_entry(2)
    # When they are created
    assert storage.put_brain_entries([BrainWrite(one), BrainWrite(two)]) == [None, None]
    # Then they read back unchanged; missing IDs are absent
    got = storage.get_brain_entries(TENANT, [1, 2, 3])
    assert got == {1: one, 2: two}
    assert_utc(got[1].created_at)
    assert_utc(got[1].updated_at)
    assert got[1].vk_typ == VkTyp.PRODUKT
    assert storage.get_brain_entries(TENANT, []) == {}


def test_brain_create_of_existing_id_fails_and_keeps_the_original(
    storage: StoragePort,
) -> None:
    # Given entry 1
    assert storage.put_brain_entries([BrainWrite(make_entry(1))]) == [None]
    # When entry 1 is created again with other content, next to a new entry 2
    results = storage.put_brain_entries(
        [
            BrainWrite(make_entry(1, titel="anders", terms={"anders": 1}, doc_len=1)),
            BrainWrite(make_entry(2)),
        ]
    )
    # Then the duplicate fails with STORAGE and changes nothing, entry 2 is created
    assert_failure(results[0], EntryFailureCode.STORAGE)
    assert results[1] is None
    assert storage.get_brain_entries(TENANT, [1])[1] == make_entry(1)
    assert postings_of(storage, TENANT, ["anders"]) == {}
    assert storage.brain_stats(TENANT) == CorpusStats(documents=2, total_len=6)


def _reference_fixture(storage: StoragePort) -> None:
    entries = [
        make_entry(1, vk_typ=VkTyp.KUNDE, vk_referenz_id="K-1"),
        make_entry(2, vk_typ=VkTyp.KUNDE, vk_referenz_id="K-2"),
        make_entry(3, vk_typ=VkTyp.PRODUKT, vk_referenz_id="K-1"),
        make_entry(4, vk_typ=VkTyp.KUNDE, vk_referenz_id="K-1"),
        make_entry(5, vk_typ=VkTyp.KUNDE, vk_referenz_id="K-1"),
        make_entry(6, tenant=OTHER_TENANT, vk_typ=VkTyp.KUNDE, vk_referenz_id="K-1"),
    ]
    # Created out of ID order on purpose: "newest" means highest ID.
    order = [4, 1, 6, 3, 5, 2]
    by_id = {e.id: e for e in entries}
    results = storage.put_brain_entries([BrainWrite(by_id[i]) for i in order])
    assert results == [None] * len(order)


def test_find_brain_by_reference(storage: StoragePort) -> None:
    # Given entries about customers K-1 and K-2, a product with the same reference ID,
    # and an entry of another tenant
    _reference_fixture(storage)

    def ids(vk_typ: str, ref: str | None, limit: int) -> list[int]:
        return [e.id for e in storage.find_brain_by_reference(TENANT, vk_typ, ref, limit)]

    # When one entity is queried, Then its entries come back newest ID first
    assert ids("kunde", "K-1", 10) == [5, 4, 1]
    assert ids("kunde", "K-1", 2) == [5, 4]
    assert ids("produkt", "K-1", 10) == [3]
    assert ids("kunde", "K-3", 10) == []
    # When only the type is given, Then all entries of that type come back, newest first
    assert ids("kunde", None, 10) == [5, 4, 2, 1]
    assert ids(VkTyp.KUNDE, None, 3) == [5, 4, 2]
    assert ids("mitarbeiter", None, 10) == []
    # And full entries are returned
    found = storage.find_brain_by_reference(TENANT, "produkt", "K-1", 1)
    assert found == [make_entry(3, vk_typ=VkTyp.PRODUKT, vk_referenz_id="K-1")]


def test_list_brain_entries_newest_first(storage: StoragePort) -> None:
    # Given five entries of tenant A and one of tenant B
    _reference_fixture(storage)
    # When A lists its entries
    listed = storage.list_brain_entries(TENANT, 3)
    # Then the highest IDs come first, limited, and B's entry never appears
    assert [e.id for e in listed] == [5, 4, 3]
    assert [e.id for e in storage.list_brain_entries(TENANT, 100)] == [5, 4, 3, 2, 1]
    assert [e.id for e in storage.list_brain_entries(OTHER_TENANT, 100)] == [6]
    assert storage.list_brain_entries("tenant-leer", 10) == []


def test_postings_are_written_for_each_term(storage: StoragePort) -> None:
    # Given two entries sharing the term "vertrag"
    assert storage.put_brain_entries(
        [
            BrainWrite(make_entry(1, terms={"vertrag": 2, "muster": 1}, doc_len=3)),
            BrainWrite(make_entry(2, terms={"vertrag": 1, "laufzeit": 3}, doc_len=4)),
        ]
    ) == [None, None]
    # When postings are fetched for known and unknown terms
    postings = postings_of(storage, TENANT, ["vertrag", "muster", "laufzeit", "fehlt"])
    # Then every term lists its entries with tf and doc_len; unknown terms are omitted
    assert set(postings) == {"vertrag", "muster", "laufzeit"}
    assert sorted(postings["vertrag"], key=lambda p: p.entry_id) == [
        posting(1, 2, 3),
        posting(2, 1, 4),
    ]
    assert postings["muster"] == [posting(1, 1, 3)]
    assert postings["laufzeit"] == [posting(2, 3, 4)]
    assert postings_of(storage, TENANT, []) == {}
    # And the corpus stats count both documents and their lengths, also in the lookup
    assert storage.brain_stats(TENANT) == CorpusStats(documents=2, total_len=7)
    assert storage.lookup_terms(TENANT, ["vertrag"]).stats == CorpusStats(2, 7)


def test_replace_updates_entry_postings_and_stats(storage: StoragePort) -> None:
    # Given entries 1 and 2
    old = make_entry(1, terms={"vertrag": 2, "muster": 1}, doc_len=3)
    other = make_entry(2, terms={"vertrag": 1}, doc_len=4)
    assert storage.put_brain_entries([BrainWrite(old), BrainWrite(other)]) == [None, None]
    assert storage.brain_stats(TENANT) == CorpusStats(documents=2, total_len=7)
    # When entry 1 is replaced by a version without "muster" but with "neu"
    new = make_entry(
        1,
        titel="Neu",
        inhalt="geändert",
        vk_referenz_id="K-9",
        tags=["Neu"],
        stammdaten={"name": "Neu AG"},
        updated_at=at(60),
        referenzfelder={"v": 2},
        terms={"vertrag": 1, "neu": 4},
        doc_len=5,
    )
    assert storage.put_brain_entries([BrainWrite(new, previous=old)]) == [None]
    # Then the entry reads back as the new version
    assert storage.get_brain_entries(TENANT, [1]) == {1: new}
    assert [e.id for e in storage.find_brain_by_reference(TENANT, "kunde", "K-9", 10)] == [1]
    assert [e.id for e in storage.find_brain_by_reference(TENANT, "kunde", "K-1", 10)] == [2]
    # And a term only in the old version no longer finds it, the new terms do
    postings = postings_of(storage, TENANT, ["muster", "neu", "vertrag"])
    assert "muster" not in postings
    assert postings["neu"] == [posting(1, 4, 5, ref="K-9")]
    assert sorted(postings["vertrag"], key=lambda p: p.entry_id) == [
        posting(1, 1, 5, ref="K-9"),
        posting(2, 1, 4),
    ]
    # And the stats keep the document count and adjust the total length
    assert storage.brain_stats(TENANT) == CorpusStats(documents=2, total_len=9)


def test_replace_keeps_the_stored_created_at(storage: StoragePort) -> None:
    # Given entry 1 created at T0+1min
    old = make_entry(1, created_at=at(1), updated_at=at(1))
    assert storage.put_brain_entries([BrainWrite(old)]) == [None]
    # When a replace carries another created_at
    new = make_entry(1, titel="neu", created_at=at(50), updated_at=at(50))
    assert storage.put_brain_entries([BrainWrite(new, previous=old)]) == [None]
    # Then the creation time stays, the update time moves
    got = storage.get_brain_entries(TENANT, [1])[1]
    assert (got.titel, got.created_at, got.updated_at) == ("neu", at(1), at(50))


def test_replace_of_missing_entry_is_not_found_and_writes_nothing(
    storage: StoragePort,
) -> None:
    # Given entry 1 only
    assert storage.put_brain_entries([BrainWrite(make_entry(1))]) == [None]
    stats = storage.brain_stats(TENANT)
    # When a batch replaces missing entry 7 between two creates
    ghost = make_entry(7, terms={"geist": 1}, doc_len=1)
    results = storage.put_brain_entries(
        [
            BrainWrite(make_entry(2, terms={"zwei": 1}, doc_len=1)),
            BrainWrite(ghost, previous=ghost),
            BrainWrite(make_entry(3, terms={"drei": 1}, doc_len=1)),
        ]
    )
    # Then only the replace fails, with NOT_FOUND, and leaves no entry, posting or stat
    assert results[0] is None
    assert_failure(results[1], EntryFailureCode.NOT_FOUND)
    assert results[2] is None
    assert set(storage.get_brain_entries(TENANT, [1, 2, 3, 7])) == {1, 2, 3}
    assert set(postings_of(storage, TENANT, ["geist", "zwei", "drei"])) == {"zwei", "drei"}
    assert storage.brain_stats(TENANT) == CorpusStats(
        documents=stats.documents + 2, total_len=stats.total_len + 2
    )


def test_brain_is_isolated_per_tenant(storage: StoragePort) -> None:
    # Given entry 1 in both tenants with different terms
    a = make_entry(1, titel="A", terms={"apfel": 1, "gemeinsam": 1}, doc_len=2)
    b = make_entry(1, tenant=OTHER_TENANT, titel="B", terms={"birne": 5, "gemeinsam": 2}, doc_len=7)
    assert storage.put_brain_entries([BrainWrite(a), BrainWrite(b)]) == [None, None]
    # Then each tenant sees its own entry, postings and stats
    assert storage.get_brain_entries(TENANT, [1]) == {1: a}
    assert storage.get_brain_entries(OTHER_TENANT, [1]) == {1: b}
    terms = ["apfel", "birne", "gemeinsam"]
    assert postings_of(storage, TENANT, terms) == {
        "apfel": [posting(1, 1, 2)],
        "gemeinsam": [posting(1, 1, 2)],
    }
    assert postings_of(storage, OTHER_TENANT, terms) == {
        "birne": [posting(1, 5, 7)],
        "gemeinsam": [posting(1, 2, 7)],
    }
    assert storage.brain_stats(TENANT) == CorpusStats(1, 2)
    assert storage.brain_stats(OTHER_TENANT) == CorpusStats(1, 7)
    assert storage.brain_stats("tenant-leer") == CorpusStats(0, 0)
    # When tenant B's entry is replaced, Then tenant A's index is untouched
    b2 = make_entry(1, tenant=OTHER_TENANT, titel="B2", terms={"kirsche": 1}, doc_len=1)
    assert storage.put_brain_entries([BrainWrite(b2, previous=b)]) == [None]
    assert postings_of(storage, TENANT, terms) == {
        "apfel": [posting(1, 1, 2)],
        "gemeinsam": [posting(1, 1, 2)],
    }
    assert postings_of(storage, OTHER_TENANT, [*terms, "kirsche"]) == {
        "kirsche": [posting(1, 1, 1)]
    }
    assert storage.brain_stats(TENANT) == CorpusStats(1, 2)
    assert storage.brain_stats(OTHER_TENANT) == CorpusStats(1, 1)
    # And a replace in tenant A of an entry only B has is NOT_FOUND
    only_b = make_entry(2, tenant=OTHER_TENANT)
    assert storage.put_brain_entries([BrainWrite(only_b)]) == [None]
    a2 = make_entry(2)
    assert_failure(
        storage.put_brain_entries([BrainWrite(a2, previous=a2)])[0], EntryFailureCode.NOT_FOUND
    )
    assert storage.get_brain_entries(TENANT, [2]) == {}
