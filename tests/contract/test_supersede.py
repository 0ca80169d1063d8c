"""Superseded facts with history (issue 25) on every adapter, through the tool dispatcher
(retry layer, authorization, scrubbing, storage): a write naming `ersetzt` gives the
replaced memory `gueltig_bis` and `ersetzt_durch`; it leaves default `search_memory`,
`recall` and `recall_context` and stays readable by ID and with `verlauf: true`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import EntryFailure, EntryFailureCode, MemoryId
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool

ANNA = Principal(
    tenant="supersede",
    subject="supersede:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
BOB = Principal(
    tenant="supersede",
    subject="supersede:bob",
    nutzer=frozenset({"bob"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
OLD = "Das Team-Standup findet montags um 9 Uhr im Raum Nord statt."
NEW = "Das Team-Standup findet ab Juni dienstags um 10 Uhr im Raum Süd statt."


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def context(storage: StoragePort) -> ServiceContext:
    return ServiceContext(storage, Settings(), clock=Clock())


def remember(
    ctx: ServiceContext, text: str, principal: Principal = ANNA, **extra: Any
) -> dict[str, Any]:
    user = next(iter(principal.nutzer))
    path = f"users/{user}/termine"
    return call_tool(ctx, principal, "remember", {"content": text, "path": path, **extra})


def found(ctx: ServiceContext, **extra: Any) -> dict[str, list[str]]:
    query = {"query": "Team-Standup Raum", **extra}
    search = call_tool(ctx, ANNA, "search_memory", query)["daten"]["treffer"]
    recall = call_tool(ctx, ANNA, "recall", query)["daten"]["erinnerungen"]
    result = {"search_memory": [h["ID"] for h in search], "recall": [h["ID"] for h in recall]}
    if not extra:
        task = {"task": "Team-Standup Raum"}
        context_hits = call_tool(ctx, ANNA, "recall_context", task)["daten"]["erinnerungen"]
        result["recall_context"] = [h["ID"] for h in context_hits]
    return result


def fetch(ctx: ServiceContext, memory_id: str) -> dict[str, Any]:
    arguments = {
        "inhalt": {"memories": {"longterm": [memory_id]}, "nutzer": "anna", "agent": "bot"}
    }
    answer = call_tool(ctx, ANNA, "fetch_brain_memories", arguments)
    assert answer["erfolg"] is True, answer
    (memory,) = answer["daten"]["longterm"]
    return dict(memory)


def test_remember_with_ersetzt_hides_the_old_one_from_default_search(
    storage: StoragePort,
) -> None:
    ctx = context(storage)
    old = remember(ctx, OLD)["daten"]["ID"]
    assert found(ctx) == {tool: [old] for tool in ("search_memory", "recall", "recall_context")}
    answer = remember(ctx, NEW, ersetzt=old)
    assert answer["erfolg"] is True, answer
    new = answer["daten"]["ID"]
    assert answer["daten"]["ersetzt"] == [old]
    # Default search, recall, recall_context: only the successor
    assert found(ctx) == {tool: [new] for tool in ("search_memory", "recall", "recall_context")}
    # The history finds both
    history = found(ctx, verlauf=True)
    assert {tool: sorted(ids) for tool, ids in history.items()} == {
        "search_memory": sorted([old, new]),
        "recall": sorted([old, new]),
    }
    # Readable by ID, with when it stopped being valid and what replaced it
    replaced = fetch(ctx, old)
    assert replaced["memory"] == OLD
    assert replaced["ersetzt_durch"] == new
    until = datetime.fromisoformat(replaced["gueltig_bis"])
    assert until.utcoffset() is not None
    assert NOW < until < NOW + timedelta(minutes=5)
    successor = fetch(ctx, new)
    assert "gueltig_bis" not in successor and "ersetzt_durch" not in successor


def test_search_memory_with_verlauf_shows_when_it_stopped_being_valid(
    storage: StoragePort,
) -> None:
    ctx = context(storage)
    old = remember(ctx, OLD)["daten"]["ID"]
    new = remember(ctx, NEW, ersetzt=[old])["daten"]["ID"]
    hits = call_tool(ctx, ANNA, "search_memory", {"query": "Raum Nord", "verlauf": True})
    by_id = {hit["ID"]: hit for hit in hits["daten"]["treffer"]}
    assert by_id[old]["ersetzt_durch"] == new
    assert "gueltig_bis" in by_id[old]


def test_replacing_refuses_unknown_foreign_and_already_replaced_memories(
    storage: StoragePort,
) -> None:
    ctx = context(storage)
    old = remember(ctx, OLD)["daten"]["ID"]
    # An ID nobody stored: not found, naming the field; nothing stored
    unknown = remember(ctx, NEW, ersetzt="longterm_999")
    assert unknown["erfolg"] is False
    (error,) = unknown["fehler"]
    assert (error["feld"], error["art"]) == ("ersetzt", "nicht_gefunden")
    # Another nutzer's memory: not found alike (names must not leak); his stays current
    foreign = remember(ctx, NEW, principal=BOB, ersetzt=old)
    assert foreign["erfolg"] is False
    assert (foreign["fehler"][0]["feld"], foreign["fehler"][0]["art"]) == (
        "ersetzt",
        "nicht_gefunden",
    )
    assert found(ctx)["search_memory"] == [old]
    # Replaced once; a second replacement of the same memory says so
    first = remember(ctx, NEW, ersetzt=old)
    assert first["erfolg"] is True, first
    again = remember(ctx, "Das Standup ist abgeschafft.", ersetzt=old)
    assert again["erfolg"] is False
    (error,) = again["fehler"]
    assert (error["feld"], error["art"]) == ("ersetzt", "konflikt")
    assert first["daten"]["ID"] in error["meldung"]
    assert "bereits" in error["meldung"]


def test_ersetzt_that_breaks_the_rule_is_refused_in_german(storage: StoragePort) -> None:
    ctx = context(storage)
    for value in (5, [], ["longterm_1"] * 11, ["kein-id"]):
        answer = remember(ctx, NEW, ersetzt=value)
        assert answer["erfolg"] is False, value
        (error,) = answer["fehler"]
        assert error["feld"] == "ersetzt"
        assert "ungültig" in error["meldung"]
        assert "kein-id" not in error["meldung"]
    bad = call_tool(ctx, ANNA, "search_memory", {"query": "Raum", "verlauf": "ja"})
    assert bad["erfolg"] is False
    assert bad["fehler"][0]["feld"] == "verlauf"


CALLER = {"nutzer": "anna", "agent": "bot"}


def insert(ctx: ServiceContext, texts: list[str], **referenzfelder: Any) -> dict[str, Any]:
    entries = [
        {
            "kurzbeschreibung": "Standup",
            "memory": text,
            "tags": ["team"],
            "scope": "",
            "scope_vk": "",
            **CALLER,
        }
        for text in texts
    ]
    arguments: dict[str, Any] = {"inhalt": {"memories": entries, **CALLER}}
    if referenzfelder:
        arguments["referenzfelder"] = referenzfelder
    return call_tool(ctx, ANNA, "insert_brain_longterm_memory", arguments)


def test_insert_tools_replace_through_referenzfelder_ersetzt(storage: StoragePort) -> None:
    ctx = context(storage)
    (old,) = [e["ID"] for e in insert(ctx, [OLD])["daten"]]
    answer = insert(ctx, [NEW], ersetzt=old, quelle="crm")
    assert answer["erfolg"] is True, answer
    (entry,) = answer["daten"]
    assert entry["ersetzt"] == [old]
    assert found(ctx)["search_memory"] == [entry["ID"]]
    assert fetch(ctx, old)["ersetzt_durch"] == entry["ID"]
    # `ersetzt` is an instruction, not provenance: not stored with the memory
    successor = MemoryId.parse(entry["ID"])
    assert successor is not None
    stored = storage.get_memories("supersede", [successor], ctx.clock())
    assert stored[successor].referenzfelder == {"quelle": "crm"}
    # A batch names per entry index what it replaces; the other entries replace nothing
    third = insert(ctx, ["Das Standup entfällt im August."])["daten"][0]["ID"]
    batch = insert(
        ctx,
        ["Urlaubsplan 2027", "Im August kein Standup, ab September wieder."],
        **{"ersetzt.1": third},
    )
    assert [e.get("ersetzt") for e in batch["daten"]] == [None, [third]]
    assert fetch(ctx, third)["ersetzt_durch"] == batch["daten"][1]["ID"]
    # An ID (not an object) for several entries is ambiguous: refused, naming the field
    refused = insert(ctx, ["a", "b"], ersetzt=third)
    assert refused["erfolg"] is False
    assert refused["fehler"][0]["feld"] == "referenzfelder.ersetzt"
    # An entry naming a replaced memory fails alone; the others are stored
    mixed = insert(ctx, ["Neu eins", "Neu zwei"], **{"ersetzt.0": old})
    outcomes = [(e["erfolg"], e.get("fehler", [{}])[0].get("art")) for e in mixed["daten"]]
    assert outcomes == [(False, "konflikt"), (True, None)]


def test_update_with_ersetzt_marks_the_other_memory(storage: StoragePort) -> None:
    ctx = context(storage)
    old = remember(ctx, OLD)["daten"]["ID"]
    new = remember(ctx, NEW)["daten"]["ID"]

    def update(entry: dict[str, Any]) -> dict[str, Any]:
        arguments = {"inhalt": {"memories": [entry], **CALLER}}
        return call_tool(ctx, ANNA, "update_brain_memories", arguments)

    # Only `ersetzt`: the successor stays as it is (not rewritten: same time of change,
    # same version), the other one is replaced
    new_id = MemoryId.parse(new)
    assert new_id is not None
    before = storage.get_memories(ANNA.tenant, [new_id], NOW)
    answer = update({"ID": new, "ersetzt": [old]})
    assert answer["erfolg"] is True, answer
    assert answer["daten"][0]["ersetzt"] == [old]
    assert fetch(ctx, old)["ersetzt_durch"] == new
    after = storage.get_memories(ANNA.tenant, [new_id], NOW)
    assert [(m.updated_at, m.version) for m in after.values()] == [
        (m.updated_at, m.version) for m in before.values()
    ]
    assert found(ctx)["search_memory"] == [new]
    # A memory cannot replace itself; an unknown ID is not found
    itself = update({"ID": new, "ersetzt": new})["daten"][0]
    assert (itself["erfolg"], itself["fehler"][0]["feld"]) == (
        False,
        "inhalt.memories[0].ersetzt",
    )
    unknown = update({"ID": new, "ersetzt": "longterm_4242"})["daten"][0]
    assert unknown["fehler"][0]["art"] == "nicht_gefunden"


def test_select_brain_lists_only_the_current_memories_of_an_entity(storage: StoragePort) -> None:
    ctx = context(storage)
    entry = {"titel": "Kantine", "inhalt": "Betriebskantine", "vk_typ": "kunde"}
    upsert = {"inhalt": {"eintraege": [{**entry, "vk_referenz_id": "K-9"}], **CALLER}}
    assert call_tool(ctx, ANNA, "upsert_brain", upsert)["erfolg"] is True

    def about(text: str, **referenzfelder: Any) -> str:
        memory = {"kurzbeschreibung": "Kantine", "memory": text, "tags": [], **CALLER}
        inhalt = {"memories": [{**memory, "scope": "kunde", "scope_vk": "K-9"}], **CALLER}
        arguments: dict[str, Any] = {"inhalt": inhalt, "referenzfelder": referenzfelder}
        answer = call_tool(ctx, ANNA, "insert_brain_longterm_memory", arguments)
        assert answer["erfolg"] is True, answer
        return str(answer["daten"][0]["ID"])

    old = about(OLD)
    new = about(NEW, ersetzt=old)
    select = {**CALLER, "vk_typ": "kunde", "vk_referenz_id": "K-9", "detailgrad": "erinnerungen"}
    (hit,) = call_tool(ctx, ANNA, "select_brain", select)["daten"]["treffer"]
    assert [memory["ID"] for memory in hit["erinnerungen"]] == [new]


class FailingPuts:
    """The adapter under test, except that storing a new memory fails (a storage error
    after the marks went out side by side): what the write then leaves behind."""

    def __init__(self, storage: StoragePort) -> None:
        self._storage = storage

    def put_memories(self, memories: Any) -> list[EntryFailure | None]:
        return [EntryFailure(EntryFailureCode.STORAGE, "injected") for _ in memories]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)


def test_a_successor_that_is_not_stored_takes_its_mark_back(storage: StoragePort) -> None:
    ctx = context(storage)
    old = remember(ctx, OLD)["daten"]["ID"]
    failing = ServiceContext(cast(StoragePort, FailingPuts(storage)), Settings(), clock=Clock())
    answer = remember(failing, NEW, ersetzt=old)
    assert answer["erfolg"] is False
    assert answer["fehler"][0]["art"] == "speicherfehler"
    # The old fact is current again: found by default, no successor named
    assert found(ctx)["search_memory"] == [old]
    replaced = fetch(ctx, old)
    assert "ersetzt_durch" not in replaced and "gueltig_bis" not in replaced
    # And the resend on a working store replaces it
    again = remember(ctx, NEW, ersetzt=old)
    assert again["erfolg"] is True, again
    assert fetch(ctx, old)["ersetzt_durch"] == again["daten"]["ID"]
