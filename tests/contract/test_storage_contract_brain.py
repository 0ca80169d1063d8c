"""The storage contract (see test_storage_contract.py), continued: ratings and brain entries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

from shared.domain import (
    BrainWrite,
    CorpusStats,
    EntryFailureCode,
    RatingOutcome,
    VkTyp,
)
from shared.storage.port import StoragePort
from tests.contract.builders import (
    OTHER_TENANT,
    T0,
    TENANT,
    at,
    lt,
    make_entry,
    make_rating,
)
from tests.contract.storage_checks import (
    assert_failure,
    assert_utc,
    outcome,
    posting,
    postings_of,
    put_ok,
)

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
