"""Ratings and recency shape `search_memory`, `recall` and `recall_context` on every adapter,
through the tool dispatcher: of two equally relevant memories the one rated 9 comes before
the one rated 2, and the newer before the older; with the signals off the order is the
relevance order (ties by ID)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool

PRINCIPAL = Principal(
    tenant="signals",
    subject="signals:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
# The same words in another order: the same BM25 relevance.
TEXTS = ("Inventur im Lager am Freitag", "Am Freitag Inventur im Lager")
TOOLS = ("search_memory", "recall", "recall_context")
# The twins are near-duplicates on purpose: stored both (issue 25's flag).
TWINS = {"referenzfelder": {"duplikat_erlaubt": True}}


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def context(storage: StoragePort, clock: Clock, **settings: Any) -> ServiceContext:
    return ServiceContext(storage, Settings(**settings), clock=clock)


def insert(ctx: ServiceContext, text: str) -> str:
    entry = {"kurzbeschreibung": "Lager", "memory": text, "tags": [], "scope": "", **CALLER}
    entry["scope_vk"] = ""
    answer = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        {"inhalt": {"memories": [entry], **CALLER}, **TWINS},
    )
    assert answer["erfolg"] is True, answer
    return str(answer["daten"][0]["ID"])


def rate(ctx: ServiceContext, memory_id: str, score: int) -> None:
    entry = {
        "typ": "longterm",
        "parameter": {"memory_ID": memory_id, "score": score, "agent": "bot"},
    }
    answer = call_tool(
        ctx, PRINCIPAL, "rate_brain_memories", {"inhalt": {"memories": [entry], **CALLER}}
    )
    assert answer["erfolg"] is True, answer


def order(ctx: ServiceContext) -> dict[str, list[str]]:
    search = call_tool(ctx, PRINCIPAL, "search_memory", {"query": "Inventur Lager", "limit": 5})
    recall = call_tool(ctx, PRINCIPAL, "recall", {"query": "Inventur Lager", "limit": 5})
    context = call_tool(ctx, PRINCIPAL, "recall_context", {"task": "Inventur Lager", "limit": 5})
    return {
        "search_memory": [h["ID"] for h in search["daten"]["treffer"]],
        "recall": [h["ID"] for h in recall["daten"]["erinnerungen"]],
        "recall_context": [h["ID"] for h in context["daten"]["erinnerungen"]],
    }


def test_of_two_equally_relevant_memories_the_9_rated_comes_first(storage: StoragePort) -> None:
    clock = Clock()
    ctx = context(storage, clock)
    low, high = insert(ctx, TEXTS[0]), insert(ctx, TEXTS[1])
    rate(ctx, low, 2)
    rate(ctx, high, 9)
    assert order(ctx) == {tool: [high, low] for tool in TOOLS}
    # With the signals off: relevance, ties by ID
    off = context(storage, clock, rank_signals=False)
    assert order(off) == {tool: [low, high] for tool in TOOLS}
    hit = call_tool(ctx, PRINCIPAL, "search_memory", {"query": "Inventur Lager"})["daten"]
    first = hit["treffer"][0]
    assert first["rangwert"] > first["relevanz"] > 0  # the rating lifts the rank value


def test_of_two_equally_relevant_unrated_memories_the_newer_comes_first(
    storage: StoragePort,
) -> None:
    clock = Clock()
    clock.now = NOW - timedelta(days=400)
    old = insert(context(storage, clock), TEXTS[1])
    clock.now = NOW
    new = insert(context(storage, clock), TEXTS[0])
    assert order(context(storage, clock))["search_memory"] == [new, old]
    assert order(context(storage, clock, rank_signals=False))["search_memory"] == [old, new]


@pytest.mark.parametrize("query", ["Zitronenfalter", "Inventur"])
def test_a_high_rating_does_not_lift_a_memory_the_query_does_not_match(
    storage: StoragePort, query: str
) -> None:
    clock = Clock()
    ctx = context(storage, clock)
    relevant = insert(ctx, "Inventur im Lager am Freitag")
    other = insert(ctx, "Zitronenfalter im Garten gesehen")
    rate(ctx, other, 10)
    found = [
        h["ID"]
        for h in call_tool(ctx, PRINCIPAL, "search_memory", {"query": query})["daten"]["treffer"]
    ]
    assert found == ([other] if query == "Zitronenfalter" else [relevant])
