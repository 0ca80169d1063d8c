"""Storage contract: `find_brain_by_references`, the batched entity lookup behind
`recall_context`. Runs unchanged on every adapter in STORAGE_FACTORIES."""

from __future__ import annotations

from shared.domain import BrainEntry, BrainWrite, VkTyp
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, TENANT, make_entry

Pair = tuple[str, str]

K1: Pair = ("kunde", "K-1")
K2: Pair = ("kunde", "K-2")
P1: Pair = ("produkt", "K-1")  # same vk_referenz_id, other vk_typ
NONE: Pair = ("kunde", "K-9")  # no entries at all


def store(storage: StoragePort, *entries: BrainEntry) -> None:
    assert storage.put_brain_entries([BrainWrite(e) for e in entries]) == [None] * len(entries)


def about(entry_id: int, pair: Pair, *, tenant: str = TENANT, **overrides: object) -> BrainEntry:
    vk_typ, vk_referenz_id = pair
    return make_entry(
        entry_id,
        tenant=tenant,
        vk_typ=VkTyp(vk_typ),
        vk_referenz_id=vk_referenz_id,
        **overrides,
    )


def ids(found: dict[Pair, list[BrainEntry]]) -> dict[Pair, list[int]]:
    """{pair: IDs in returned order}; pairs without entries dropped (they may be absent)."""
    return {pair: [e.id for e in entries] for pair, entries in found.items() if entries}


def batch(storage: StoragePort, pairs: list[Pair], limit: int = 10) -> dict[Pair, list[int]]:
    return ids(storage.find_brain_by_references(TENANT, pairs, limit))


def three_entities(storage: StoragePort) -> None:
    """K1: 1, 4, 7 · K2: 2, 5 · P1: 3, 6 — stored out of ID order ("newest" = highest ID)."""
    store(
        storage,
        about(4, K1),
        about(2, K2),
        about(7, K1),
        about(6, P1),
        about(1, K1),
        about(5, K2),
        about(3, P1),
    )


def test_several_pairs_come_back_separately_newest_first(storage: StoragePort) -> None:
    # Given entries about three entities, IDs interleaved and stored out of order
    three_entities(storage)
    # When all three pairs and one without entries are looked up at once
    found = storage.find_brain_by_references(TENANT, [K2, K1, NONE, P1], 10)
    # Then each pair has exactly its own entries, newest ID first, and the empty pair none
    assert ids(found) == {K1: [7, 4, 1], K2: [5, 2], P1: [6, 3]}
    assert found.get(NONE, []) == []
    # And the entries are complete, as stored
    assert found[P1][0] == about(6, P1)
    assert {(e.vk_typ.value, e.vk_referenz_id) for p in (K1, K2, P1) for e in found[p]} == {
        K1,
        K2,
        P1,
    }


def test_the_limit_applies_per_pair_and_keeps_the_newest(storage: StoragePort) -> None:
    # Given three entries about K1, two about K2 and two about P1
    three_entities(storage)
    # When looked up with limit 2, then 1
    two = batch(storage, [K1, K2, P1], limit=2)
    one = batch(storage, [K1, K2, P1], limit=1)
    # Then every pair is cut to the limit on its own, keeping its newest
    assert two == {K1: [7, 4], K2: [5, 2], P1: [6, 3]}
    assert one == {K1: [7], K2: [5], P1: [6]}


def test_limit_zero_finds_nothing(storage: StoragePort) -> None:
    # Given entries about two entities
    three_entities(storage)
    # When looked up with limit 0
    # Then the result is empty
    assert storage.find_brain_by_references(TENANT, [K1, K2], 0) == {}


def test_tenants_are_isolated(storage: StoragePort) -> None:
    # Given the same IDs and entities in two tenants, and an entity only the other one has
    store(
        storage,
        about(1, K1, titel="von A"),
        about(1, K1, tenant=OTHER_TENANT, titel="von B"),
        about(2, K2, tenant=OTHER_TENANT),
    )
    # When each tenant looks up both pairs
    mine = storage.find_brain_by_references(TENANT, [K1, K2], 10)
    theirs = storage.find_brain_by_references(OTHER_TENANT, [K1, K2], 10)
    # Then each sees only its own entries
    assert ids(mine) == {K1: [1]}
    assert [(e.tenant, e.titel) for e in mine[K1]] == [(TENANT, "von A")]
    assert ids(theirs) == {K1: [1], K2: [2]}
    assert [(e.tenant, e.titel) for e in theirs[K1]] == [(OTHER_TENANT, "von B")]
    # And a tenant without entries finds nothing
    assert ids(storage.find_brain_by_references("tenant-leer", [K1, K2], 10)) == {}


def test_duplicate_pairs_are_looked_up_once(storage: StoragePort) -> None:
    # Given entries about three entities
    three_entities(storage)
    # When the input names a pair several times (as memories about one entity do)
    found = storage.find_brain_by_references(TENANT, [K1, K2, K1, K1, K2], 2)
    # Then the result is the same as without duplicates, each pair once, none repeated
    assert ids(found) == batch(storage, [K1, K2], limit=2) == {K1: [7, 4], K2: [5, 2]}
    assert [e.id for e in found[K1]] == [7, 4]


def test_no_pairs_give_an_empty_result(storage: StoragePort) -> None:
    # Given stored entries
    three_entities(storage)
    # When no pairs are asked for
    # Then the result is empty
    assert storage.find_brain_by_references(TENANT, [], 10) == {}


def test_key_components_cannot_be_confused(storage: StoragePort) -> None:
    # Given references whose escaping or concatenation with a separator could collide
    a_hash_b: Pair = ("kunde", "a#b")
    escaped: Pair = ("kunde", "a%23b")
    plain: Pair = ("kunde", "a")
    store(storage, about(1, a_hash_b), about(2, escaped), about(3, plain))
    # When all three are looked up, and pairs that spell the same key with `#` moved
    forged: list[Pair] = [("kunde#a", "b"), ("kunde", "a#"), ("kunde", "a%"), ("kunde", "b")]
    found = batch(storage, [a_hash_b, escaped, plain, *forged])
    # Then each finds only its own entry, and the forged pairs find nothing
    assert found == {a_hash_b: [1], escaped: [2], plain: [3]}


def test_the_batch_equals_the_single_pair_method(storage: StoragePort) -> None:
    # Given entries about three entities and one of another tenant
    three_entities(storage)
    store(storage, about(8, K1, tenant=OTHER_TENANT))
    pairs = [K1, K2, P1, NONE]
    for limit in (1, 2, 3, 10):
        # When the batch and the single-pair method look up the same pairs
        found = storage.find_brain_by_references(TENANT, pairs, limit)
        # Then both return the same entries per pair
        for vk_typ, ref in pairs:
            single = storage.find_brain_by_reference(TENANT, vk_typ, ref, limit)
            assert found.get((vk_typ, ref), []) == single, (vk_typ, ref, limit)
