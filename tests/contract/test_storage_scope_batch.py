"""Storage contract: `find_memories_by_scopes`, the batched scope lookup behind
`select_brain` with `detailgrad=erinnerungen`. Runs unchanged on every adapter in
STORAGE_FACTORIES."""

from __future__ import annotations

from datetime import datetime

from shared.domain import Memory, MemoryId, NewMemory
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, TENANT, at, lt, make_memory, new_memory, st

NOW = at(0)
Pair = tuple[str, str]

K1: Pair = ("kunde", "K-1")
K2: Pair = ("kunde", "K-2")
P1: Pair = ("produkt", "K-1")  # same scope_vk, other scope
NONE: Pair = ("kunde", "K-9")  # no memories at all


def store(storage: StoragePort, *memories: NewMemory) -> None:
    assert storage.put_memories(list(memories)) == [None] * len(memories)


def scoped(number: int, pair: Pair, **overrides: object) -> NewMemory:
    """A long-term memory about `pair`, created at(number) so creation follows the ID."""
    scope, scope_vk = pair
    return new_memory(
        lt(number),
        scope=scope,
        scope_vk=scope_vk,
        created_at=at(number),
        updated_at=at(number),
        **overrides,
    )


def ids(found: dict[Pair, list[Memory]]) -> dict[Pair, list[MemoryId]]:
    """{pair: IDs in returned order}; pairs without memories dropped (they may be absent)."""
    return {pair: [m.id for m in memories] for pair, memories in found.items() if memories}


def batch(
    storage: StoragePort, pairs: list[Pair], *, now: datetime = NOW, limit: int = 10
) -> dict[Pair, list[MemoryId]]:
    return ids(storage.find_memories_by_scopes(TENANT, pairs, now, limit))


def three_scopes(storage: StoragePort) -> None:
    """K1: lt 1, 4, 7 · K2: lt 2, 5 · P1: lt 3, 6 (IDs interleaved across the scopes)."""
    store(
        storage,
        scoped(1, K1),
        scoped(2, K2),
        scoped(3, P1),
        scoped(4, K1),
        scoped(5, K2),
        scoped(6, P1),
        scoped(7, K1),
    )


def test_several_pairs_come_back_separately_newest_first(storage: StoragePort) -> None:
    # Given long-term memories about three entities, IDs interleaved
    three_scopes(storage)
    # When all three pairs and one without memories are looked up at once
    found = storage.find_memories_by_scopes(TENANT, [K2, K1, NONE, P1], NOW, 10)
    # Then each pair has exactly its own memories, newest first, and the empty pair nothing
    assert ids(found) == {K1: [lt(7), lt(4), lt(1)], K2: [lt(5), lt(2)], P1: [lt(6), lt(3)]}
    assert found.get(NONE, []) == []
    # And the memories are complete, as stored
    assert found[K2][0] == make_memory(
        lt(5), scope="kunde", scope_vk="K-2", created_at=at(5), updated_at=at(5)
    )
    assert {(m.scope, m.scope_vk) for pair in (K1, K2, P1) for m in found[pair]} == {K1, K2, P1}


def test_the_limit_applies_per_pair_and_keeps_the_newest(storage: StoragePort) -> None:
    # Given three memories about K1, two about K2 and two about P1
    three_scopes(storage)
    # When looked up with limit 2, then 1
    two = batch(storage, [K1, K2, P1], limit=2)
    one = batch(storage, [K1, K2, P1], limit=1)
    # Then every pair is cut to the limit on its own, keeping its newest
    assert two == {K1: [lt(7), lt(4)], K2: [lt(5), lt(2)], P1: [lt(6), lt(3)]}
    assert one == {K1: [lt(7)], K2: [lt(5)], P1: [lt(6)]}
    # And limit 0 finds nothing
    assert batch(storage, [K1, K2], limit=0) == {}


def test_expired_memories_are_excluded_and_do_not_use_up_the_limit(
    storage: StoragePort,
) -> None:
    # Given in K1 two live memories under three newer ones that expire at(10), and in K2
    # one memory that expires at(10) and one that never does
    store(
        storage,
        scoped(1, K1),
        scoped(2, K1),
        scoped(3, K1, expires_at=at(10)),
        scoped(4, K1, expires_at=at(10)),
        scoped(5, K1, expires_at=at(10)),
        scoped(6, K2, expires_at=at(10)),
        scoped(7, K2),
    )
    # When looked up just before the expiry, everything is there
    assert batch(storage, [K1, K2], now=at(9), limit=2) == {K1: [lt(5), lt(4)], K2: [lt(7), lt(6)]}
    # Then at the expiry instant and later the expired ones are absent, and the limit is
    # filled from the live memories behind them
    for now in (at(10), at(days=1)):
        assert batch(storage, [K1, K2], now=now, limit=2) == {K1: [lt(2), lt(1)], K2: [lt(7)]}
        assert batch(storage, [K1, K2], now=now, limit=10) == {K1: [lt(2), lt(1)], K2: [lt(7)]}


def test_a_pair_with_only_expired_memories_finds_nothing(storage: StoragePort) -> None:
    # Given a scope whose memories have all expired
    store(storage, scoped(1, K1, expires_at=at(1)), scoped(2, K1, expires_at=at(1)))
    # When it is looked up after the expiry
    found = storage.find_memories_by_scopes(TENANT, [K1], at(5), 1)
    # Then it has no memories
    assert found.get(K1, []) == []


def test_shortterm_memories_are_excluded(storage: StoragePort) -> None:
    # Given short-term memories in the same scope as a long-term one (the newest is short)
    store(
        storage,
        scoped(1, K1),
        new_memory(st(2), expires_at=at(days=7)),
        new_memory(st(3), scope="kunde", scope_vk="K-2", expires_at=at(days=7)),
    )
    # When both pairs are looked up
    # Then only the long-term memory comes back
    assert batch(storage, [K1, K2]) == {K1: [lt(1)]}


def test_tenants_are_isolated(storage: StoragePort) -> None:
    # Given the same IDs and scopes in two tenants, and a scope only the other tenant has
    store(
        storage,
        scoped(1, K1, memory="von A"),
        new_memory(lt(1), tenant=OTHER_TENANT, memory="von B"),
        new_memory(lt(2), tenant=OTHER_TENANT, scope="kunde", scope_vk="K-2"),
    )
    # When each tenant looks up both pairs
    mine = storage.find_memories_by_scopes(TENANT, [K1, K2], NOW, 10)
    theirs = storage.find_memories_by_scopes(OTHER_TENANT, [K1, K2], NOW, 10)
    # Then each sees only its own memories
    assert ids(mine) == {K1: [lt(1)]}
    assert [(m.tenant, m.memory) for m in mine[K1]] == [(TENANT, "von A")]
    assert ids(theirs) == {K1: [lt(1)], K2: [lt(2)]}
    assert [(m.tenant, m.memory) for m in theirs[K1]] == [(OTHER_TENANT, "von B")]


def test_duplicate_pairs_are_looked_up_once(storage: StoragePort) -> None:
    # Given memories about two entities
    three_scopes(storage)
    # When the input names a pair several times (as hits about one entity do)
    found = batch(storage, [K1, K2, K1, K1, K2], limit=2)
    # Then the result is the same as without duplicates, each pair once
    assert found == batch(storage, [K1, K2], limit=2) == {K1: [lt(7), lt(4)], K2: [lt(5), lt(2)]}


def test_no_pairs_give_an_empty_result(storage: StoragePort) -> None:
    # Given stored memories
    three_scopes(storage)
    # When no pairs are asked for
    # Then the result is empty
    assert storage.find_memories_by_scopes(TENANT, [], NOW, 10) == {}


def test_key_components_cannot_be_confused(storage: StoragePort) -> None:
    # Given two scopes whose concatenation with a separator would look the same
    store(
        storage,
        scoped(1, ("a#b", "c")),
        scoped(2, ("a", "b#c")),
        scoped(3, ("a%23b", "c")),
    )
    # When all three are looked up
    found = batch(storage, [("a#b", "c"), ("a", "b#c"), ("a%23b", "c")])
    # Then each finds only its own memory
    assert found == {("a#b", "c"): [lt(1)], ("a", "b#c"): [lt(2)], ("a%23b", "c"): [lt(3)]}


def test_the_batch_equals_each_pair_looked_up_alone(storage: StoragePort) -> None:
    # Given memories about three entities, some expiring, and a short-term distractor
    three_scopes(storage)
    store(
        storage,
        scoped(8, K1, expires_at=at(10)),
        scoped(9, K2, expires_at=at(10)),
        new_memory(st(10), expires_at=at(days=7)),
    )
    pairs = [K1, K2, P1, NONE]
    for now in (NOW, at(10)):
        for limit in (1, 2, 3, 10):
            # When the batch looks up the pairs together, and each pair alone
            found = storage.find_memories_by_scopes(TENANT, pairs, now, limit)
            # Then both return the same memories per pair
            for pair in pairs:
                alone = storage.find_memories_by_scopes(TENANT, [pair], now, limit)
                assert found.get(pair, []) == alone.get(pair, []), (pair, now, limit)


def test_an_areas_filter_comes_before_the_limit(storage: StoragePort) -> None:
    # Given one visible memory about K1 and five newer ones in an area the caller cannot read
    store(storage, scoped(1, K1, area="users/anna"))
    store(storage, *(scoped(n, K1, area="users/bob") for n in range(2, 7)))
    store(storage, scoped(7, K2, area="teams/core"))
    # When the lookup is limited to 2 per pair and to anna's and her team's areas
    found = storage.find_memories_by_scopes(
        TENANT, [K1, K2], NOW, 2, areas=["users/anna", "teams/core"]
    )
    # Then the filter came first: her memory is found, none of bob's
    assert ids(found) == {K1: [lt(1)], K2: [lt(7)]}
    # And no areas at all find nothing, None means no filter
    assert storage.find_memories_by_scopes(TENANT, [K1], NOW, 2, areas=[]) == {}
    assert ids(storage.find_memories_by_scopes(TENANT, [K1], NOW, 2)) == {K1: [lt(6), lt(5)]}


def test_an_areas_filter_of_more_than_a_hundred_areas_finds_every_one(
    storage: StoragePort,
) -> None:
    # Given memories about K1 in the 1st, the 101st and the 250th of 250 readable areas
    areas = [f"projects/p{n:03d}" for n in range(250)]
    store(storage, *(scoped(n + 1, K1, area=areas[a]) for n, a in enumerate([0, 100, 249])))
    # When the lookup is limited to those areas (DynamoDB's IN takes 100 at a time)
    found = storage.find_memories_by_scopes(TENANT, [K1], NOW, 10, areas=areas)
    # Then every one of them is found, newest first
    assert ids(found) == {K1: [lt(3), lt(2), lt(1)]}
