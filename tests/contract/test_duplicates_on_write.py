"""Near-duplicates on write (issue 25), through the tool dispatcher and REST's service, on
every adapter: a memory the writer's target area already says is not stored again — the
entry's answer names the existing memory (`duplikat_von`), which gains the new tags and
provenance; `duplikat_erlaubt: true` stores the copy; an update with a changed value, a
memory of another area and a resend are not merged wrongly."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId
from shared.services.context import ServiceContext
from shared.services.duplicates import SOURCES_KEY
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool

PRINCIPAL = Principal(
    tenant="dups",
    subject="dups:anna",
    nutzer=frozenset({"anna", "ben"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
TEXT = "Produktions-Deployments laufen nur dienstags zwischen 10 und 12 Uhr."
PARAPHRASE = "Produktions-Deployments laufen nur dienstags, zwischen 10 und 12 Uhr!"
UPDATE = "Produktions-Deployments laufen nur donnerstags zwischen 14 und 16 Uhr."
PROFILE = "profil-dups"


def context(storage: StoragePort) -> ServiceContext:
    return ServiceContext(storage, Settings(), clock=lambda: NOW)


def entry(text: str, tags: list[str], nutzer: str = "anna", **extra: Any) -> dict[str, Any]:
    return {
        "kurzbeschreibung": "Deployments",
        "memory": text,
        "tags": tags,
        "scope": "",
        "scope_vk": "",
        "nutzer": nutzer,
        "agent": "bot",
        **extra,
    }


def insert(ctx: ServiceContext, *entries: dict[str, Any], **referenzfelder: Any) -> list[Any]:
    arguments: dict[str, Any] = {"inhalt": {"memories": list(entries), **CALLER}}
    if referenzfelder:
        arguments["referenzfelder"] = referenzfelder
    answer = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments)
    assert answer["erfolg"] is True, answer
    return list(answer["daten"])


def stored(ctx: ServiceContext, raw_id: str) -> Any:
    memory_id = MemoryId.parse(raw_id)
    assert memory_id is not None
    return ctx.storage.get_memories("dups", [memory_id], NOW)[memory_id]


def test_a_paraphrase_is_not_stored_again_and_merges_tags_and_provenance(
    storage: StoragePort,
) -> None:
    ctx = context(storage)
    (first,) = insert(ctx, entry(TEXT, ["deploy"]))
    second, update = insert(
        ctx, entry(PARAPHRASE, ["Deploy", "release"]), entry(UPDATE, []), quelle="ticket-7"
    )
    assert second["erfolg"] is True
    assert second["ID"] == first["ID"] and second["duplikat_von"] == first["ID"]
    assert "Duplikat" in second["hinweis"]
    assert "duplikat_von" not in update and update["ID"] != first["ID"]
    memory = stored(ctx, first["ID"])
    assert memory.tags == ["deploy", "release"]
    assert memory.referenzfelder[SOURCES_KEY] == [
        {"nutzer": "anna", "agent": "bot", "quelle": "ticket-7"}
    ]
    # sent again: nothing more to gain, nothing changes
    (again,) = insert(ctx, entry(PARAPHRASE, ["release"]), quelle="ticket-7")
    assert again["duplikat_von"] == first["ID"]
    assert stored(ctx, first["ID"]).referenzfelder == memory.referenzfelder


def test_duplikat_erlaubt_stores_the_copy(storage: StoragePort) -> None:
    ctx = context(storage)
    (first,) = insert(ctx, entry(TEXT, []))
    (copy,) = insert(ctx, entry(TEXT, []), duplikat_erlaubt=True)
    assert copy["ID"] != first["ID"] and "duplikat_von" not in copy
    assert "duplikat_erlaubt" not in stored(ctx, copy["ID"]).referenzfelder  # not provenance
    arguments = {
        "inhalt": {"memories": [entry(TEXT, [])], **CALLER},
        "referenzfelder": {"duplikat_erlaubt": "ja"},
    }
    refused = call_tool(ctx, PRINCIPAL, "insert_brain_shortterm_memory", arguments)
    assert refused["erfolg"] is False
    assert refused["fehler"][0]["feld"] == "referenzfelder.duplikat_erlaubt", refused


def test_only_the_writers_target_area_counts(storage: StoragePort) -> None:
    ctx = context(storage)
    (anna,) = insert(ctx, entry(TEXT, []))
    (ben,) = insert(ctx, entry(TEXT, [], nutzer="ben"))
    assert ben["ID"] != anna["ID"] and "duplikat_von" not in ben


def test_vectors_of_one_profile_decide(storage: StoragePort) -> None:
    ctx = context(storage)
    vector = {"embedding": [1.0, 0.0, 0.0], "embedding_profil_hash": PROFILE}
    near = {"embedding": [0.9, 0.1, 0.0], "embedding_profil_hash": PROFILE}
    far = {"embedding": [0.0, 0.0, 1.0], "embedding_profil_hash": PROFILE}
    (first,) = insert(ctx, entry(TEXT, [], **vector))
    (twin,) = insert(ctx, entry("Deployments: dienstags, 10 bis 12 Uhr.", [], **near))
    (other,) = insert(ctx, entry(PARAPHRASE, [], **far))
    assert twin["duplikat_von"] == first["ID"]
    assert "duplikat_von" not in other  # same words, but the vectors disagree


def test_remember_answers_duplikat_von(storage: StoragePort) -> None:
    ctx = context(storage)
    path = "users/anna/deployments"
    first = call_tool(ctx, PRINCIPAL, "remember", {"content": TEXT, "path": path})
    again = call_tool(ctx, PRINCIPAL, "remember", {"content": PARAPHRASE, "path": path})
    assert again["erfolg"] is True, again
    assert again["daten"]["ID"] == first["daten"]["ID"] == again["daten"]["duplikat_von"]
    allowed = {"content": PARAPHRASE, "path": path, "duplikat_erlaubt": True}
    copy = call_tool(ctx, PRINCIPAL, "remember", allowed)
    assert copy["daten"]["ID"] != first["daten"]["ID"]
    refused = call_tool(ctx, PRINCIPAL, "remember", {**allowed, "duplikat_erlaubt": "ja"})
    assert refused["erfolg"] is False
    assert "duplikat_erlaubt" in str(refused)


def test_rest_create_answers_the_existing_memory(storage: StoragePort) -> None:
    from shared.services.memory_api import create_memory

    ctx = context(storage)
    first = create_memory(ctx, PRINCIPAL, "anna", {"kurzbeschreibung": "D", "memory": TEXT})
    body = {"kurzbeschreibung": "D", "memory": PARAPHRASE, "tags": ["ops"]}
    again = create_memory(ctx, PRINCIPAL, "anna", body)
    assert again["ID"] == first["ID"] == again["duplikat_von"]
    assert again["tags"] == ["ops"]
    copy = create_memory(ctx, PRINCIPAL, "anna", {**body, "duplikat_erlaubt": True})
    assert copy["ID"] != first["ID"] and "duplikat_von" not in copy
