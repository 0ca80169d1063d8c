"""Round-trip budgets per tool, measured in waves through the real service functions.

The adapter runs on the production thread pool (`aws_max_parallel`) behind a `Network`
that delays every request by a fixed round-trip time; a botocore hook records every API
call with its stage and interval (`CallRecorder`). The waves of a tool call are the
longest chain of calls that do not overlap — the round trips a client waits for, pool
limits included (a stage of 200 calls on a pool of 16 is 13 waves, not one). The stages
(calls the adapter issues together) are asserted too: they say which calls make a wave.

Budgets (issue 15): insert 100 long-term memories ≤ 4 waves (the near-duplicate check's
lookup included, issue 25), rate 100 ≤ 4, fetch 200 = 1,
select_brain with a query ≤ 2, search_memory ≤ 2, recall_context ≤ 3.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import (
    CorpusStats,
    EmbeddingChange,
    EntryFailure,
    MemoryId,
    MemoryReplace,
    MemoryType,
    NewMemory,
)
from shared.search.analyzer import query_terms
from shared.search.duplicates import term_set
from shared.search.ranking import terms_of
from shared.services.brain import select_brain, upsert_brain
from shared.services.context import ServiceContext
from shared.services.memories import fetch_memories, insert_memories
from shared.services.memory_os import recall_context, search_memory
from shared.services.ratings import rate_memories
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import STATS_SHARDS, stats_shard
from shared.storage.dynamo.memory_items import EXPIRY_SHARDS
from shared.validation.memory_requests import parse_recall_context, parse_search
from shared.validation.requests import (
    parse_fetch,
    parse_insert,
    parse_rate,
    parse_select,
    parse_upsert,
)
from tests.contract.builders import TENANT, at, embedding, lt, make_memory, make_rating
from tests.integration.conftest import (
    BUCKET,
    POOL,
    TABLE,
    CallRecorder,
    Sleeps,
    make_storage,
)
from tests.integration.stages import Numbered

NOW = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SETTINGS = Settings()
PRINCIPAL = Principal(
    tenant="tenant-rt",
    subject="test",
    nutzer=frozenset({"*"}),
    agents=frozenset({"*"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}
# The Memory OS tools act as the token's own nutzer: anna, whose area holds the memories.
ANNA = replace(PRINCIPAL, nutzer=frozenset({"anna"}))


@pytest.fixture
def storage(pooled: DynamoStorage) -> DynamoStorage:
    """Every test here measures the adapter on the production pool (conftest `pooled`)."""
    return pooled


def context(storage: DynamoStorage) -> ServiceContext:
    return ServiceContext(storage, SETTINGS, lambda: NOW)


def memory_entries(count: int) -> list[dict[str, Any]]:
    return [
        {
            "kurzbeschreibung": f"Notiz {i}",
            "memory": f"Kunde K-{i} wünscht Rückruf am Vormittag.",
            "tags": ["Kunde", "Rückruf", f"gruppe-{i % 5}"],
            "scope": "kunde",
            "scope_vk": f"K-{i % 7}",
            "embedding": [0.5 * i, -1.25, 3.0, 0.0],
            "embedding_profil_hash": "profil-1",
            **CALLER,
        }
        for i in range(count)
    ]


def insert(
    storage: DynamoStorage, typ: MemoryType, count: int, *, copies: bool = False
) -> list[str]:
    """`count` memories through the service (`copies`: stored even where they repeat
    memories already there, referenzfelder.duplikat_erlaubt)."""
    arguments: dict[str, Any] = {"inhalt": {**CALLER, "memories": memory_entries(count)}}
    if copies:
        arguments["referenzfelder"] = {"duplikat_erlaubt": True}
    batch = parse_insert(
        arguments,
        SETTINGS.parse_options(),
        shortterm=typ is MemoryType.SHORTTERM,
    )
    response = insert_memories(context(storage), PRINCIPAL, batch, typ)
    assert response["erfolg"], response
    return [entry["ID"] for entry in response["daten"]]


def test_insert_of_100_memories_takes_at_most_4_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 100 long-term memories with tags, embeddings and (from the service) terms, and
    # the vector index of their profile (created by the first write of a profile)
    first = make_memory(lt(999), tenant=PRINCIPAL.tenant, embedding_profil_hash="profil-1")
    storage.put_memories([NewMemory(first, embedding(1.0, 2.0, 3.0, 4.0))])
    storage.delete_memories(PRINCIPAL.tenant, [lt(999)], NOW)
    recorder.reset()
    # When they are inserted through the service
    recorder.start()
    ids = insert(storage, MemoryType.LONGTERM, 100)
    stages, waves, calls = recorder.stages(), recorder.waves(), len(recorder.calls)
    # Then all are stored in 4 stages: tags (in parallel) and the near-duplicate check's
    # postings of the batch's terms in the area (one Query per distinct term, and the
    # stats; the area is empty, so nothing is loaded and no vector is queried) — side by
    # side on the pool (one wave: test_dynamo_insert_stage), one after the other on this
    # serial adapter —, counter, then the postings in BatchWriteItem chunks of 25, the
    # embeddings and per stats shard the items with the stats
    # side by side, each stage one wave
    assert len(ids) == 100
    wanted = [mid for raw in ids if (mid := MemoryId.parse(raw)) is not None]
    stored = storage.get_memories(PRINCIPAL.tenant, wanted, NOW)
    postings = sum(len(m.terms) for m in stored.values())
    assert postings > 100  # the service indexes every memory
    shards = {stats_shard(mid) for mid in wanted}
    terms = {t for e in memory_entries(100) for t in term_set(e["memory"])}
    assert sorted(stages[:2], key=sorted) == [
        Counter({"Query": len(terms) + 1}),
        Counter({"UpdateItem": 7}),
    ]
    assert stages[2:] == [
        Counter({"UpdateItem": 1}),
        Counter(
            {
                "BatchWriteItem": math.ceil(postings / 25),
                "PutVectors": 1,
                "TransactWriteItems": len(shards),  # items, stats
            }
        ),
    ]
    assert all(sum(stage.values()) <= POOL for stage in stages)  # one wave each
    assert waves <= 4
    # And it costs 49 AWS calls for the write (53 with the items in the postings' chunks,
    # 149 with one conditional PutItem per item) plus one Query per distinct term for the
    # check
    assert calls == sum(sum(stage.values()) for stage in stages) == 49 + len(terms) + 1


def test_fetch_of_200_ids_takes_1_round_trip(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 100 short-term and 100 long-term memories
    shortterm = insert(storage, MemoryType.SHORTTERM, 100)
    longterm = insert(storage, MemoryType.LONGTERM, 100)
    recorder.start()
    # When all 200 are fetched in one request
    request = parse_fetch(
        {"inhalt": {**CALLER, "memories": {"shortterm": shortterm, "longterm": longterm}}}
    )
    response = fetch_memories(context(storage), PRINCIPAL, request)
    # Then all are found, with two BatchGetItem calls side by side: one round trip
    assert response["erfolg"], response
    assert len(response["daten"]["shortterm"]) == len(response["daten"]["longterm"]) == 100
    assert response["daten"]["nicht_gefunden"] == []
    assert recorder.stages() == [Counter({"BatchGetItem": 2})]
    assert recorder.waves() == 1


def test_rating_of_100_memories_takes_3_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 100 memories (stored through the port without index terms: moto copies the
    # whole table for every transaction item, so a smaller table keeps the test fast)
    new = [
        NewMemory(make_memory(lt(i), tenant=PRINCIPAL.tenant, nutzer="anna")) for i in range(1, 101)
    ]
    assert storage.put_memories(new) == [None] * 100
    ids = [str(lt(i)) for i in range(1, 101)]
    recorder.start()
    # When each is rated once in one request
    batch = parse_rate(
        {
            "inhalt": {
                **CALLER,
                "memories": [
                    {"typ": "longterm", "parameter": {"memory_ID": i, "agent": "bot", "score": 7}}
                    for i in ids
                ],
            }
        },
        SETTINGS.parse_options(),
    )
    response = rate_memories(context(storage), PRINCIPAL, batch)
    # Then every rating counts, in 3 waves: read the memories, reserve the insert_IDs,
    # one transaction per rating (side by side on the pool, from the snapshots read)
    assert response["erfolg"], response
    assert {entry["score_count"] for entry in response["daten"]} == {1}
    assert recorder.stages() == [
        Counter({"BatchGetItem": 1}),
        Counter({"UpdateItem": 1}),
        Counter({"TransactWriteItems": 100}),
    ]
    assert recorder.waves() == 3


def _brain_fixture(storage: DynamoStorage) -> None:
    entries = [
        {
            "titel": f"Vertrag {i}",
            "inhalt": f"Rahmenvertrag mit Lieferung nach Stuttgart, Laufzeit {i} Monate.",
            "vk_typ": "kunde" if i % 2 else "produkt",
            "vk_referenz_id": f"K-{i % 3}",
            "tags": ["Vertrag"],
            "stammdaten": {"nummer": i},
        }
        for i in range(30)
    ]
    response = upsert_brain(
        context(storage), PRINCIPAL, parse_upsert({"inhalt": {**CALLER, "eintraege": entries}})
    )
    assert response["erfolg"], response


@pytest.mark.parametrize(
    "filters",
    [{}, {"vk_typ": "kunde"}, {"vk_typ": "kunde", "vk_referenz_id": "K-1"}],
    ids=["query", "query+vk_typ", "query+vk_referenz"],
)
def test_select_brain_with_a_query_takes_2_waves(
    storage: DynamoStorage, recorder: CallRecorder, filters: dict[str, str]
) -> None:
    # Given 30 brain entries
    _brain_fixture(storage)
    recorder.start()
    # When a two-word query (optionally with vk filters) is searched
    request = parse_select({**CALLER, "query": "Vertrag Lieferung", **filters})
    response = select_brain(context(storage), PRINCIPAL, request)
    # Then hits come back in 2 waves: one Query per term plus the stats
    # Query side by side, then one BatchGetItem of the ranked entries
    assert response["erfolg"], response
    hits = response["daten"]["treffer"]
    assert hits
    if "vk_referenz_id" in filters:
        assert {hit["vk_referenz_id"] for hit in hits} == {"K-1"}
    if "vk_typ" in filters:
        assert {hit["vk_typ"] for hit in hits} == {"kunde"}
    terms = terms_of(query_terms("Vertrag Lieferung"))
    assert len(terms) == 3  # vertrag, lieferung and the word form liefer
    assert recorder.stages() == [Counter({"Query": 4}), Counter({"BatchGetItem": 1})]
    assert recorder.waves() == 2


def test_search_memory_takes_2_waves(storage: DynamoStorage, recorder: CallRecorder) -> None:
    # Given 30 long-term memories of anna
    insert(storage, MemoryType.LONGTERM, 30)
    recorder.start()
    # When anna searches her memories with a two-word query
    response = search_memory(context(storage), ANNA, parse_search({"query": "Kunde Rückruf"}))
    # Then hits come back in 2 waves: the term, stats and membership Queries side by side,
    # then one BatchGetItem of the ranked memories
    assert response["erfolg"], response
    assert response["daten"]["anzahl"] > 0
    assert sum(recorder.stages()[0].values()) > 1
    assert [set(stage) for stage in recorder.stages()] == [{"Query"}, {"BatchGetItem"}]
    assert recorder.waves() == 2


def test_select_brain_with_erinnerungen_takes_4_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 7 brain entries about 6 customers (K-5 twice) and 2 long-term memories about
    # each of the customers K-0 .. K-6
    entries = [
        {
            "titel": f"Vertrag {i}",
            "inhalt": f"Rahmenvertrag mit Lieferung nach Stuttgart, Laufzeit {i} Monate.",
            "vk_typ": "kunde",
            "vk_referenz_id": f"K-{min(i, 5)}",
            "tags": ["Vertrag"],
            "stammdaten": {"nummer": i},
        }
        for i in range(7)
    ]
    upserted = upsert_brain(
        context(storage), PRINCIPAL, parse_upsert({"inhalt": {**CALLER, "eintraege": entries}})
    )
    assert upserted["erfolg"], upserted
    insert(storage, MemoryType.LONGTERM, 14)
    recorder.start()
    # When a query is searched with every detailgrad
    request = parse_select(
        {
            **CALLER,
            "query": "Vertrag Lieferung",
            "detailgrad": "stammdaten,texte,erinnerungen",
        }
    )
    response = select_brain(context(storage), PRINCIPAL, request)
    # Then every hit carries the memories about its own customer, newest first
    assert response["erfolg"], response
    hits = response["daten"]["treffer"]
    assert len(hits) == 7
    for hit in hits:
        assert hit["inhalt"].startswith("Rahmenvertrag")
        linked = hit["erinnerungen"]
        numbers = [MemoryId.parse(m["ID"]) for m in linked]
        assert len(linked) == 2 and numbers == sorted(numbers, key=_number, reverse=True)
        assert {m["scope_vk"] for m in linked} == {hit["vk_referenz_id"]}
    # And it takes 4 waves: the term and stats Queries, the BatchGetItem of the ranked
    # entries, the caller's project memberships (issue 20: the linked memories are filtered
    # by the readable areas before their limit, in the Query), then one by_reference Query
    # per distinct customer side by side
    assert recorder.stages() == [
        Counter({"Query": 4}),
        Counter({"BatchGetItem": 1}),
        Counter({"Query": 1}),
        Counter({"Query": 6}),
    ]
    assert recorder.waves() == 4


def test_recall_context_takes_3_waves(storage: DynamoStorage, recorder: CallRecorder) -> None:
    # Given brain entries about the customers K-0 .. K-4 (four about K-1, one each about
    # the others), 14 long-term memories about K-0 .. K-6 and 3 short-term ones about
    # K-0 .. K-2
    entries = [
        {
            "titel": f"Kunde {ref} ({i})",
            "inhalt": f"Stammdaten und Vereinbarungen mit {ref}.",
            "vk_typ": "kunde",
            "vk_referenz_id": ref,
        }
        for i, ref in enumerate(["K-0", "K-1", "K-1", "K-1", "K-1", "K-2", "K-3", "K-4"])
    ]
    upserted = upsert_brain(
        context(storage), PRINCIPAL, parse_upsert({"inhalt": {**CALLER, "eintraege": entries}})
    )
    assert upserted["erfolg"], upserted
    insert(storage, MemoryType.LONGTERM, 14)
    insert(storage, MemoryType.SHORTTERM, 3)
    recorder.start()
    # When the context of a task is recalled through the service
    request = parse_recall_context({"task": "Rückruf beim Kunden", "limit": 10})
    response = recall_context(context(storage), ANNA, request)
    # Then the memories are about all 7 customers, and the brain part holds the 3 newest
    # entries about K-1 and the one entry about each of the other customers that has one
    assert response["erfolg"], response
    daten = response["daten"]
    memories = [*daten["erinnerungen"], *daten["kurzzeit"]]
    assert len(daten["erinnerungen"]) == 10 and len(daten["kurzzeit"]) == 3
    entities = {(m["scope"], m["scope_vk"]) for m in memories}
    assert entities == {("kunde", f"K-{i}") for i in range(7)}
    brain: dict[str, list[int]] = {}
    for entry in daten["brain"]:
        brain.setdefault(entry["vk_referenz_id"], []).append(entry["ID"])
    assert brain == {"K-0": [1], "K-1": [5, 4, 3], "K-2": [6], "K-3": [7], "K-4": [8]}
    # And it takes 3 waves: the term Queries of anna's area, the stats Query, the Query of
    # her project memberships and the recent short-term Query of her area side by side;
    # the BatchGetItem of the ranked memories; then one by_reference Query per distinct
    # customer, all 7 side by side in one stage
    terms = terms_of(query_terms("Rückruf beim Kunden"))
    assert len(terms) == 4  # ruckruf, beim, kunden and the word form kund
    assert recorder.stages() == [
        Counter({"Query": 4 + 1 + 1 + 1}),
        Counter({"BatchGetItem": 1}),
        Counter({"Query": 7}),
    ]
    brain_calls = recorder.calls[-7:]
    assert len({call.stage.stage for call in brain_calls if call.stage}) == 1
    assert sorted(call.stage.task for call in brain_calls if call.stage) == list(range(7))
    assert recorder.waves() == 3


def _number(memory_id: MemoryId | None) -> int:
    assert memory_id is not None
    return memory_id.number


def test_upsert_of_30_new_entries_takes_3_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given an empty brain
    # When 30 entries with a tag are created in one request (outside the retry layer)
    recorder.start()
    _brain_fixture(storage)
    # Then: the tag (`ahead`), the counter, then one transaction per stats shard (the
    # entries' Puts with the shard's ADD; 30 consecutive IDs cover all 8 shards) and the
    # postings of every new entry (parallel chunks) side by side in one stage
    stages = recorder.stages()
    assert [set(stage) for stage in stages] == [
        {"UpdateItem"},
        {"UpdateItem"},
        {"TransactWriteItems", "BatchWriteItem"},
    ]
    assert stages[2]["TransactWriteItems"] == STATS_SHARDS
    assert recorder.waves() == 3


def test_pool_threads_carry_the_stage_into_botocore_hooks(
    clients: AwsClients, created: list[str], sleeps: Sleeps, recorder: CallRecorder
) -> None:
    # Given 150 memories, stored serially (moto loses concurrent writes)
    serial = make_storage(clients, sleeps)
    ids = insert(serial, MemoryType.LONGTERM, 100) + insert(
        serial, MemoryType.LONGTERM, 50, copies=True
    )
    serial.close()
    threads: set[str] = set()
    clients.dynamodb.meta.events.register(
        "before-call.dynamodb.BatchGetItem",
        lambda **_: threads.add(threading.current_thread().name),
    )
    recorder.reset()
    # When an adapter with a real thread pool reads them (reads only: safe on moto)
    pooled = DynamoStorage(
        clients,
        table_name=TABLE,
        bucket_name=BUCKET,
        round_trips=Numbered(SETTINGS.aws_max_parallel),
        sleep=sleeps,
    )
    wanted = [mid for raw in ids if (mid := MemoryId.parse(raw)) is not None]
    found = pooled.get_memories(PRINCIPAL.tenant, wanted, NOW)
    pooled.close()
    # Then both chunks ran on pool threads, marked as two tasks of one stage
    assert len(found) == 150
    assert len(threads) >= 1 and all(name.startswith("brain-aws") for name in threads)
    assert recorder.stages() == [Counter({"BatchGetItem": 2})]
    assert {call.stage.task for call in recorder.calls if call.stage} == {0, 1}
    assert recorder.sequential_round_trips() == 1


# --- the memory lifecycle methods, through the port ----------------------------------------


def indexed_memories(count: int, typ: MemoryType = MemoryType.LONGTERM) -> list[NewMemory]:
    """`count` memories with 3 terms each and an embedding (short-term: expiring at(1))."""
    expires = at(1) if typ is MemoryType.SHORTTERM else None
    return [
        NewMemory(
            make_memory(
                MemoryId(typ, i),
                terms={"kunde": 2, "ruckruf": 1, f"k{i}": 1},
                doc_len=4,
                embedding_dim=2,
                expires_at=expires,
            ),
            embedding(float(i), 0.5),
        )
        for i in range(1, count + 1)
    ]


def shard_count(ids: list[MemoryId]) -> int:
    return len({stats_shard(memory_id) for memory_id in ids})


@pytest.mark.parametrize("change", [EmbeddingChange.KEEP, EmbeddingChange.SET])
def test_replace_of_100_memories_takes_2_waves(
    storage: DynamoStorage, recorder: CallRecorder, change: EmbeddingChange
) -> None:
    # Given 100 indexed memories with embeddings, as the service reads them
    assert storage.put_memories(indexed_memories(100)) == [None] * 100
    ids = [lt(i) for i in range(1, 101)]
    read = storage.get_memories(TENANT, ids, at(0))
    recorder.start()
    # When all get a new text (two old-only terms, one new term, the kept term with another
    # weight) and maybe a new embedding
    replaces = [
        MemoryReplace(
            replace(m, memory="neu", terms={"kunde": 1, "neu": 2}, doc_len=3, updated_at=at(0)),
            m,
            change,
            embedding(1.0, 2.0) if change is EmbeddingChange.SET else None,
        )
        for m in read.values()
    ]
    assert storage.replace_memories(replaces, at(0)) == [None] * 100
    # Then: per stats shard one transaction of the items and the stats change, beside
    # the postings diff (3 deletes + 2 puts each: a posting's key sorts by its weight)
    # [and the new vectors: one PutVectors]; then, outside a tool
    # call's retry layer at once, the items' stale marks cleared (one UpdateItem each)
    # [and the replaced vectors deleted: one DeleteVectors]
    first = Counter({"TransactWriteItems": shard_count(ids), "BatchWriteItem": 100 * 5 // 25})
    cleanup = Counter({"UpdateItem": 100})
    if change is EmbeddingChange.SET:
        first["PutVectors"] = 1
        cleanup["DeleteVectors"] = 1
    assert recorder.stages() == [first, cleanup]
    assert recorder.waves() == 2


def test_delete_of_100_rated_memories_takes_3_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 100 indexed memories with embeddings, 10 of them rated
    assert storage.put_memories(indexed_memories(100)) == [None] * 100
    ids = [lt(i) for i in range(1, 101)]
    outcomes = storage.record_ratings([make_rating(i, lt(i), 5) for i in range(1, 11)], at(0))
    assert all(not isinstance(o, EntryFailure) for o in outcomes)
    recorder.start()
    # When all are deleted (a direct port call: no partitions read beforehand)
    assert storage.delete_memories(TENANT, ids, at(0)) == ids
    # Then: one Query per partition (item + ratings); per stats shard one
    # transaction (the items' Deletes on the versions read, their tombstones, the
    # decrement) beside the deletes of 10 ratings with their guards and the postings (3
    # per memory); last the tombstones (BatchWriteItem deletes) and the vectors (one
    # DeleteVectors)
    assert recorder.stages() == [
        Counter({"Query": 100}),
        Counter(
            {
                "TransactWriteItems": shard_count(ids),
                "BatchWriteItem": math.ceil((10 * 2 + 100 * 3) / 25),
            }
        ),
        Counter({"BatchWriteItem": 100 // 25, "DeleteVectors": 1}),
    ]
    assert recorder.waves() == 3
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def test_lookup_and_recent_memories_take_1_wave(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 30 indexed short-term memories
    assert storage.put_memories(indexed_memories(30, MemoryType.SHORTTERM)) == [None] * 30
    recorder.start()
    # When three terms are looked up in the nutzer's area and one other
    areas = ["users/nutzer-1", "teams/leer"]
    lookup = storage.lookup_memory_terms(TENANT, ["kunde", "k7", "fehlt"], areas)
    # Then: one Query per (area, term) plus the stats Query, side by side
    assert len(lookup.postings["kunde"]) == 30 and lookup.stats == CorpusStats(30, 120)
    assert recorder.stages() == [Counter({"Query": 3 * 2 + 1})]
    assert recorder.waves() == 1
    recorder.start()
    # And the 10 newest are one GSI Query per area, side by side
    recent = storage.recent_memories(TENANT, MemoryType.SHORTTERM, areas, at(0), 10)
    assert [m.id.number for m in recent] == list(range(30, 20, -1))
    assert recorder.stages() == [Counter({"Query": 2})]
    assert recorder.waves() == 1


def test_expiry_sweep_of_100_memories_takes_4_waves(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 100 expired short-term memories with terms and embeddings
    assert storage.put_memories(indexed_memories(100, MemoryType.SHORTTERM)) == [None] * 100
    recorder.start()
    # When the sweep deletes them
    assert len(storage.delete_expired(at(10), 100)) == 100
    # Then: one Query per expiry shard, then the delete's 3 stages
    ids = [MemoryId(MemoryType.SHORTTERM, i) for i in range(1, 101)]
    assert recorder.stages() == [
        Counter({"Query": EXPIRY_SHARDS}),
        Counter({"Query": 100}),
        Counter({"TransactWriteItems": shard_count(ids), "BatchWriteItem": 100 * 3 // 25}),
        Counter({"BatchWriteItem": 100 // 25, "DeleteVectors": 1}),
    ]
    assert recorder.waves() == 4
