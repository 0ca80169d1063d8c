"""Contract: a removed memory cannot be found by any path, on every adapter (issue 25).

One walk over every way a memory can come back — the fetch tool, the word search
(`search_memory`, `recall`), the vector search, `recall_context` (its memories, its recent
short-term memories and the brain entries they link to), `select_brain`'s `erinnerungen`,
REST (list, search and by ID; the console reads through these), the export, and
underneath: ratings, the stored vector, the word postings and the corpus stats — after
each kind of removal: the delete tool, REST delete, the console's bulk delete, the expiry
sweep, consolidation into an older near-duplicate, and a delete cut off in the middle (a
crash, then the client's resend).

The walk first runs before the removal and must find the victims on every path, so that a
path which cannot find anything never passes for one that forgets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.types import Scope

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId
from shared.rest.app import build_rest_app
from shared.services.consolidate import consolidate
from shared.services.context import ServiceContext
from shared.services.expiry import sweep_expired
from shared.services.export import MEMORY_LINE, export_lines
from shared.storage.dynamo import DynamoStorage
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from tests.contract.builders import T0

TENANT = "walk"
PRINCIPAL = Principal(
    tenant=TENANT,
    subject="walk:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}
PROFILE = "walk-3"
WORD = "Zitronenfalter"  # only the victims hold it
VICTIM_VECTOR = [1.0, 0.0, 0.0]
KEEPER_VECTOR = [0.0, 1.0, 0.0]
# The victims are about entities no keeper is about: long-term K-7, short-term K-8.
ENTITY = {"longterm": "K-7", "shortterm": "K-8"}
KEEPER_ENTITY = "K-1"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class World:
    """The store under test, its services' context and the REST app over the same store."""

    storage: StoragePort
    clock: Clock
    settings: Settings = field(default_factory=Settings)

    @property
    def ctx(self) -> ServiceContext:
        return ServiceContext(self.storage, self.settings, clock=self.clock)

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return call_tool(self.ctx, PRINCIPAL, tool, arguments)

    def rest(self) -> TestClient:
        return TestClient(build_rest_app(self.ctx, _Caller()))


class _Caller:
    def resolve(self, scope: Scope) -> Principal:
        return PRINCIPAL


def _entry(text: str, entity: str, vector: list[float], **extra: Any) -> dict[str, Any]:
    return {
        "kurzbeschreibung": text.split(":")[0],
        "memory": text,
        "tags": ["walk"],
        "scope": "kunde",
        "scope_vk": entity,
        "embedding": vector,
        "embedding_profil_hash": PROFILE,
        **CALLER,
        **extra,
    }


def _inhalt(**inhalt: Any) -> dict[str, Any]:
    return {"inhalt": {**inhalt, **CALLER}}


def seed(world: World, copies: bool = False) -> list[str]:
    """Two victims (one long-term, one short-term) and two keepers; both rated; one brain
    entry per entity (`copies`: stored even as near-duplicates). Returns the victims' IDs."""
    flag = {"referenzfelder": {"duplikat_erlaubt": True}} if copies else {}
    brain = [
        {"titel": "Falter AG", "inhalt": "Kunde", "vk_typ": "kunde", "vk_referenz_id": e}
        for e in (*ENTITY.values(), KEEPER_ENTITY)
    ]
    assert world.call("upsert_brain", _inhalt(eintraege=brain))["erfolg"] is True
    long = world.call(
        "insert_brain_longterm_memory",
        _inhalt(
            memories=[
                _entry(f"Falter: {WORD} im Lager gesehen.", ENTITY["longterm"], VICTIM_VECTOR),
                _entry("Lager: Inventur am Freitag.", KEEPER_ENTITY, KEEPER_VECTOR),
            ]
        )
        | flag,
    )
    short = world.call(
        "insert_brain_shortterm_memory",
        _inhalt(
            memories=[
                _entry(
                    f"Notiz: {WORD} wieder im Lager.",
                    ENTITY["shortterm"],
                    VICTIM_VECTOR,
                    ttl_sekunden=600,
                ),
                _entry("Notiz: Lager morgen offen.", KEEPER_ENTITY, KEEPER_VECTOR),
            ]
        )
        | flag,
    )
    assert long["erfolg"] is True and short["erfolg"] is True, (long, short)
    victims = [long["daten"][0]["ID"], short["daten"][0]["ID"]]
    keepers = [long["daten"][1]["ID"], short["daten"][1]["ID"]]
    ratings = [
        {"typ": m.split("_")[0], "parameter": {"memory_ID": m, "score": 8, "agent": "bot"}}
        for m in victims + keepers
    ]
    assert world.call("rate_brain_memories", _inhalt(memories=ratings))["erfolg"] is True
    return victims


def _ids(items: list[dict[str, Any]]) -> set[str]:
    return {str(item["ID"]) for item in items}


def walk(world: World, victims: list[str]) -> dict[str, set[str]]:
    """Per path, which of `victims` (IDs; for brain links the victims' entity) it finds."""
    wanted = set(victims)
    found: dict[str, set[str]] = {}
    fetched = world.call(
        "fetch_brain_memories",
        _inhalt(memories={t: [v for v in victims if v.startswith(t)] for t in _types(victims)}),
    )["daten"]
    found["fetch"] = _ids(fetched.get("shortterm", []) + fetched.get("longterm", []))
    words = world.call("search_memory", {"query": WORD, "limit": 10})["daten"]["treffer"]
    found["search_memory words"] = _ids(words)
    vector_args = {
        "query": "Eichhörnchen",  # no stored memory holds it: only the vector can find
        "limit": 10,
        "embedding": VICTIM_VECTOR,
        "embedding_profil_hash": PROFILE,
    }
    vectors = world.call("search_memory", vector_args)["daten"]["treffer"]
    found["search_memory vectors"] = _ids(vectors)
    found["recall"] = _ids(
        world.call("recall", {"query": WORD, "limit": 10})["daten"]["erinnerungen"]
    )
    context = world.call("recall_context", {"task": WORD, "limit": 10})["daten"]
    found["recall_context memories"] = _ids(context["erinnerungen"])
    found["recall_context recent"] = _ids(context["kurzzeit"])
    linked = {e["vk_referenz_id"] for e in context["brain"]}
    found["recall_context brain links"] = {v for v in victims if _entity(v) in linked}
    found["select_brain erinnerungen"] = set()
    for entity in {_entity(v) for v in victims}:
        brain = world.call(
            "select_brain",
            {"vk_typ": "kunde", "vk_referenz_id": entity, "detailgrad": "erinnerungen", **CALLER},
        )["daten"]["treffer"]
        found["select_brain erinnerungen"] |= {
            str(m["ID"]) for hit in brain for m in hit.get("erinnerungen", [])
        }
    with world.rest() as rest:
        listing = rest.get("/api/memory?limit=100")
        assert listing.status_code == 200, listing.text
        found["REST list"] = _ids(listing.json()["eintraege"])
        search = rest.get("/api/memory/suche", params={"q": WORD, "limit": 50})
        assert search.status_code == 200, search.text
        found["REST search"] = _ids(search.json()["treffer"])
        by_id = {v: rest.get(f"/api/memory/{v}").status_code for v in victims}
        found["REST by ID"] = {v for v, status in by_id.items() if status == 200}
    # Export lines carry no IDs: a victim is there when a memory line of its type holds WORD.
    by_type = {v.split("_")[0]: v for v in victims}
    found["export"] = {
        by_type[line["typ"]]
        for line in export_lines(world.ctx, TENANT)
        if line.get("art") == MEMORY_LINE
        and WORD in line["eintrag"]["memory"]
        and line["typ"] in by_type
    }
    storage, now = world.storage, world.clock()
    ids = [_parse(v) for v in victims]
    found["ratings"] = {str(i) for i in ids if storage.get_ratings(TENANT, i)}
    found["stored vector"] = {str(i) for i in ids if storage.get_embedding(TENANT, i) is not None}
    postings = storage.lookup_memory_terms(TENANT, _terms(WORD), ["users/anna"], now=now)
    found["word postings"] = {
        str(p.entry_id) for term in postings.postings.values() for p in term
    } & wanted
    return {path: hits & wanted for path, hits in found.items()}


def _entity(victim: str) -> str:
    return ENTITY[victim.split("_")[0]]


def _types(victims: list[str]) -> list[str]:
    return sorted({v.split("_")[0] for v in victims})


def _parse(raw: str) -> MemoryId:
    memory_id = MemoryId.parse(raw)
    assert memory_id is not None
    return memory_id


def _terms(word: str) -> list[str]:
    from shared.search.analyzer import query_terms

    return sorted({term for group in query_terms(word) for term in group})


# --- the kinds of removal --------------------------------------------------------------


def _delete_args(victims: list[str]) -> dict[str, Any]:
    return _inhalt(memories={t: [v for v in victims if v.startswith(t)] for t in _types(victims)})


def remove_by_tool(world: World, victims: list[str]) -> None:
    answer = world.call("delete_brain_memories", _delete_args(victims))
    assert sorted(answer["daten"]["geloescht"]) == sorted(victims), answer


def remove_by_rest(world: World, victims: list[str]) -> None:
    with world.rest() as rest:
        for victim in victims:
            answer = rest.delete(f"/api/memory/{victim}")
            assert answer.status_code in (200, 204), answer.text


def remove_by_bulk_delete(world: World, victims: list[str]) -> None:
    # The console's bulk delete: a preview by filter, then exactly the previewed IDs.
    with world.rest() as rest:
        preview = rest.get("/api/memory/loeschvorschau", params={"q": WORD})
        assert preview.status_code == 200, preview.text
        assert sorted(preview.json()["ids"]) == sorted(victims), preview.json()
        answer = rest.post("/api/memory/loeschungen", json={"ids": preview.json()["ids"]})
        assert answer.status_code == 200, answer.text
        assert sorted(answer.json()["geloescht"]) == sorted(victims), answer.json()


def remove_by_expiry(world: World, victims: list[str]) -> None:
    # Only short-term memories expire: the long-term victim goes by the tool, the
    # short-term one by the sweep once its time has passed.
    long = [v for v in victims if v.startswith("longterm")]
    remove_by_tool(world, long)
    world.clock.now += timedelta(seconds=601)
    swept = sweep_expired(world.storage, world.clock())
    assert {str(e.memory_id) for e in swept} >= {v for v in victims if v.startswith("short")}


def expire_without_sweep(world: World, victims: list[str]) -> None:
    # Past its time a short-term memory is absent to every read before any sweep ran.
    remove_by_tool(world, [v for v in victims if v.startswith("longterm")])
    world.clock.now += timedelta(seconds=601)


def twins(world: World) -> None:
    """Older near-duplicates of the victims (their vector, other words, no WORD, the
    keepers' entity): consolidation keeps these and removes the victims into them."""
    for tool, text, extra in (
        ("insert_brain_longterm_memory", "Falter: gelber Schmetterling gesehen.", {}),
        ("insert_brain_shortterm_memory", "Notiz: Schmetterling wieder da.", {"ttl_sekunden": 600}),
    ):
        memory = _entry(text, KEEPER_ENTITY, VICTIM_VECTOR, **extra)
        assert world.call(tool, _inhalt(memories=[memory]))["erfolg"] is True


def remove_by_consolidation(world: World, victims: list[str]) -> None:
    outcome = consolidate(world.ctx, TENANT)
    assert sorted(str(m) for m in outcome.removed) == sorted(victims), outcome.summary()


REMOVALS: dict[str, Callable[[World, list[str]], None]] = {
    "consolidation": remove_by_consolidation,
    "delete tool": remove_by_tool,
    "REST delete": remove_by_rest,
    "bulk delete": remove_by_bulk_delete,
    "expiry": remove_by_expiry,
    "expired, not yet swept": expire_without_sweep,
}
# Removals after which the stored side data may still wait (for the sweep).
LINGERING = {"expired, not yet swept": ("ratings", "stored vector", "word postings")}


@pytest.fixture
def world(storage: StoragePort) -> Iterator[World]:
    yield World(storage, Clock(T0 + timedelta(days=400)))


# What the walk finds of the stored victims: recall_context's memories and select_brain's
# are long-term, recall_context's recent list short-term; every other path finds both.
LONG_ONLY = ("recall_context memories", "select_brain erinnerungen")
SHORT_ONLY = ("recall_context recent",)


def expected_before(victims: list[str]) -> dict[str, set[str]]:
    long = {v for v in victims if v.startswith("longterm")}
    short = set(victims) - long
    paths = walk_path_names()
    return {
        p: long if p in LONG_ONLY else short if p in SHORT_ONLY else set(victims) for p in paths
    }


def walk_path_names() -> list[str]:
    return [
        "fetch", "search_memory words", "search_memory vectors", "recall",
        "recall_context memories", "recall_context recent", "recall_context brain links",
        "select_brain erinnerungen", "REST list", "REST search", "REST by ID", "export",
        "ratings", "stored vector", "word postings",
    ]  # fmt: skip


def nothing() -> dict[str, set[str]]:
    return {path: set() for path in walk_path_names()}


@pytest.mark.parametrize("removal", list(REMOVALS))
def test_a_removed_memory_is_found_by_no_path(world: World, removal: str) -> None:
    # Given two victims (one long-, one short-term) that every path finds (for
    # consolidation: stored after older near-duplicates, which survive)
    if removal == "consolidation":
        twins(world)
    victims = seed(world, copies=removal == "consolidation")
    assert walk(world, victims) == expected_before(victims)
    # When they are removed
    REMOVALS[removal](world, victims)
    # Then no path finds them, and the keepers are still found
    seen = walk(world, victims)
    lingering = LINGERING.get(removal, ())
    assert {p: hits for p, hits in seen.items() if p not in lingering} == {
        p: hits for p, hits in nothing().items() if p not in lingering
    }
    keeper = world.call("search_memory", {"query": "Lager", "limit": 10})["daten"]["treffer"]
    assert len(keeper) == 2
    if not lingering:
        survivors = 2 if removal == "consolidation" else 0
        documents = world.storage.memory_stats(TENANT).documents
        assert documents == 2 + survivors  # the keepers' (and survivors') index only
    # And writes to them find nothing either: a rating or an update is `nicht gefunden`
    refused(world, victims)
    if not lingering:
        assert all(not world.storage.get_ratings(TENANT, _parse(v)) for v in victims)


def refused(world: World, victims: list[str]) -> None:
    ratings = [
        {"typ": v.split("_")[0], "parameter": {"memory_ID": v, "score": 5, "agent": "bot"}}
        for v in victims
    ]
    rated = world.call("rate_brain_memories", _inhalt(memories=ratings))
    updated = world.call(
        "update_brain_memories", _inhalt(memories=[{"ID": v, "memory": "neu"} for v in victims])
    )
    assert [e["erfolg"] for e in rated["daten"] + updated["daten"]] == [False] * 4, (
        rated,
        updated,
    )


# --- a crash in the middle of a delete -------------------------------------------------


class _Killed(BaseException):
    """The process died here."""


class _CutConnection:
    """A sqlite3 connection whose statements fail from the n-th on (the process died)."""

    def __init__(self, conn: Any, cut: _Cut) -> None:
        self._conn, self._cut = conn, cut

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self._cut.step()
        return self._conn.execute(*args, **kwargs)

    def executemany(self, *args: Any, **kwargs: Any) -> Any:
        self._cut.step()
        return self._conn.executemany(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


class _Cut:
    def __init__(self, nth: int) -> None:
        self.nth, self.sent = nth, 0

    def step(self, **_: Any) -> None:
        self.sent += 1
        if self.sent >= self.nth:
            raise _Killed


def crash_during(world: World, nth: int, send: Callable[[], object]) -> int:
    """Run `send` with the storage dying at its n-th statement or AWS call; then what the
    platform does after such a death (SQLite: the process restarts on the same file, and
    the new server releases the dead calls; AWS: the invocation's deadline ends its
    in-progress record). A cut after the last step lets `send` finish. Returns the steps
    `send` took (up to the cut)."""
    cut = _Cut(nth)
    storage = world.storage
    with suppress(_Killed), _cut_off(storage, cut):
        send()
    if isinstance(storage, SqliteStorage):
        storage.close()  # the dead process: its open transaction is rolled back
        world.storage = SqliteStorage(storage._path)
        world.storage.release_calls()
    else:
        # A Lambda's running mark ends with its deadline: the resend comes after it
        world.clock.now += timedelta(seconds=world.settings.idempotency_in_progress_s + 1)
    return cut.sent


@contextmanager
def _cut_off(storage: StoragePort, cut: _Cut) -> Iterator[None]:
    """Every SQL statement (SQLite) or AWS call (DynamoDB, S3 Vectors) steps `cut` first."""
    if isinstance(storage, SqliteStorage):
        original = storage._conn
        storage._conn = lambda: _CutConnection(original(), cut)  # type: ignore[method-assign]
        try:
            yield
        finally:
            del storage._conn
        return
    assert isinstance(storage, DynamoStorage)
    events = [c.meta.events for c in (storage._clients.dynamodb, storage._clients.s3vectors)]
    for event in events:
        event.register("before-call", cut.step, unique_id="walk-cut")
    try:
        yield
    finally:
        for event in events:
            event.unregister("before-call", unique_id="walk-cut")


STORED_SIDE_DATA = ("ratings", "stored vector", "word postings")
CUTS = range(1, 40, 3)


def test_the_cut_points_cover_the_whole_delete(world: World) -> None:
    victims = seed(world)
    steps = crash_during(
        world, 10**6, lambda: world.call("delete_brain_memories", _delete_args(victims))
    )
    print(f"\ndelete of 2: {steps} storage steps")
    assert CUTS.stop > steps > CUTS.step, steps


@pytest.mark.parametrize("nth", CUTS)
def test_a_delete_cut_anywhere_shows_nothing_halfway_and_its_resend_removes_all(
    world: World, nth: int
) -> None:
    # Given two victims that every path finds
    victims = seed(world)
    args = _delete_args(victims)
    whole = expected_before(victims)
    # When the delete dies at its n-th storage step
    crash_during(world, nth, lambda: world.call("delete_brain_memories", args))
    # Then each victim is either still whole on every path, or no read path shows it; its
    # stored side data (ratings, vector, postings) may wait for the resend, no longer
    seen = walk(world, victims)
    present = seen["fetch"]
    for path, hits in seen.items():
        if path in STORED_SIDE_DATA:
            assert hits >= whole[path] & present, (nth, path, seen)
        else:
            assert hits == whole[path] & present, (nth, path, seen)
    # And the client's resend answers as the first send would have and removes everything
    again = world.call("delete_brain_memories", args)
    assert sorted(again["daten"]["geloescht"]) == sorted(victims), (nth, again)
    assert walk(world, victims) == nothing()
    assert world.storage.memory_stats(TENANT).documents == 2
