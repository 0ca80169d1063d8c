"""Consolidation (issue 25), on every adapter: the near-duplicate clusters an area already
holds (stored as copies) are merged into their oldest memory with the write's rule —
tags and provenance merged, ratings merged exactly (counts and sums add, average
recomputed, `last_call` the latest), the others removed as delete removes them; a dry run
lists the clusters and writes nothing; other areas and updates are left alone; a second
run finds nothing."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from shared.domain import MemoryId, MemoryType
from shared.services import consolidate as consolidation
from shared.services.consolidate import consolidate
from shared.services.context import ServiceContext
from shared.services.duplicates import SOURCES_KEY
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.test_duplicates_on_write import (
    NOW,
    PARAPHRASE,
    PRINCIPAL,
    TEXT,
    UPDATE,
    context,
    entry,
    insert,
    stored,
)

OTHER = "Das Lager schließt freitags um 15 Uhr."


def rate(ctx: ServiceContext, memory_id: str, score: int) -> None:
    rating = {
        "typ": "longterm",
        "parameter": {"memory_ID": memory_id, "agent": "bot", "score": score},
    }
    arguments = {"inhalt": {"memories": [rating], "nutzer": "anna", "agent": "bot"}}
    answer = call_tool(ctx, PRINCIPAL, "rate_brain_memories", arguments)
    assert answer["erfolg"] is True, answer


def copies(ctx: ServiceContext, *entries: dict[str, Any]) -> list[str]:
    return [r["ID"] for r in insert(ctx, *entries, duplikat_erlaubt=True)]


def later(ctx: ServiceContext, minutes: int) -> ServiceContext:
    moment = NOW + timedelta(minutes=minutes)
    return ServiceContext(ctx.storage, ctx.settings, clock=lambda: moment)


def test_a_dry_run_lists_the_clusters_and_writes_nothing(storage: StoragePort) -> None:
    # Given a memory, its paraphrase and an update stored as copies, and ben's same text
    ctx = context(storage)
    first, second, update = copies(
        ctx, entry(TEXT, ["deploy"]), entry(PARAPHRASE, ["release"]), entry(UPDATE, [])
    )
    (bens,) = copies(ctx, entry(TEXT, [], nutzer="ben"))
    # When the area is consolidated as a dry run
    outcome = consolidate(ctx, "dups", dry_run=True)
    # Then it lists one cluster: the paraphrase into the oldest; the update and ben's stay
    summary = outcome.summary()
    assert summary["cluster"] == [
        {"bereich": "users/anna", "behalten": first, "zusammengefuehrt": [second]}
    ]
    assert summary["entfernt"] == 0 and summary["trockenlauf"] is True
    # And nothing changed
    assert stored(ctx, second).memory == PARAPHRASE
    assert stored(ctx, first).tags == ["deploy"]
    assert {update, bens} <= {str(i) for i in _all(ctx)}


def test_consolidation_merges_tags_provenance_and_ratings_exactly(storage: StoragePort) -> None:
    # Given a memory and two paraphrases stored as copies, each rated
    ctx = context(storage)
    first, second, third = copies(
        ctx,
        entry(TEXT, ["deploy"]),
        entry(PARAPHRASE, ["release"]),
        entry(TEXT + " ", ["Deploy", "ops"]),
    )
    (other,) = copies(ctx, entry(OTHER, ["lager"]))
    rate(ctx, first, 8)
    rate(later(ctx, 5), second, 3)
    rate(later(ctx, 9), third, 6)
    rate(later(ctx, 2), second, 4)
    # When the tenant is consolidated (only anna's area)
    outcome = consolidate(ctx, "dups", areas=["users/anna"])
    # Then the oldest memory survives with every tag and the others' provenance
    assert [(c.survivor, c.members) for c in outcome.clusters] == [
        (_id(first), (_id(second), _id(third)))
    ]
    survivor = stored(ctx, first)
    assert survivor.memory == TEXT
    assert [tag.casefold() for tag in survivor.tags] == ["deploy", "release", "ops"]
    assert len(survivor.referenzfelder[SOURCES_KEY]) == 1  # both wrote as anna/bot
    # And its ratings are all four: counts and sums add, the average is recomputed, the
    # last call is the latest of them
    assert survivor.score_count == 4 and survivor.score_sum == Decimal(21)
    assert survivor.score_avg == Decimal(21) / 4
    assert survivor.last_call == NOW + timedelta(minutes=9)
    assert outcome.ratings_moved == 3
    assert len(storage.get_ratings("dups", _id(first))) == 4
    # And the others are gone from every index (the deletion walk checks each path)
    live = {str(i) for i in _all(ctx)}
    assert second not in live and third not in live and {first, other} <= live
    assert storage.get_ratings("dups", _id(second)) == []
    # And a second run finds nothing more
    again = consolidate(ctx, "dups")
    assert again.clusters == [] and again.ratings_moved == 0


def test_a_rerun_after_a_cut_off_run_moves_no_rating_twice(storage: StoragePort) -> None:
    # Given a cluster whose ratings a cut-off run already moved (the member still there)
    ctx = context(storage)
    first, second = copies(ctx, entry(TEXT, []), entry(PARAPHRASE, []))
    rate(ctx, second, 5)
    (cluster,) = consolidate(ctx, "dups", dry_run=True).clusters
    assert consolidation._move_ratings(ctx, "dups", cluster, NOW) == 1
    # When consolidation runs again
    outcome = consolidate(ctx, "dups")
    # Then the rating is on the survivor once, and the member is removed
    assert outcome.ratings_moved == 0 and outcome.removed == [_id(second)]
    assert stored(ctx, first).score_count == 1


def test_a_run_out_of_budget_names_the_areas_it_left_and_the_next_run_begins_there(
    storage: StoragePort,
) -> None:
    # Given a cluster in anna's area and one in ben's
    ctx = context(storage)
    anna_first, anna_copy = copies(ctx, entry(TEXT, []), entry(PARAPHRASE, []))
    ben_first, ben_copy = copies(
        ctx, entry(TEXT, [], nutzer="ben"), entry(PARAPHRASE, [], nutzer="ben")
    )
    # When a run's budget is spent after its first area
    asked: list[bool] = []

    def after_one_area() -> bool:
        asked.append(True)
        return len(asked) > 1

    outcome = consolidate(ctx, "dups", stop=after_one_area)
    # Then it merged anna's cluster, left ben's whole and says so
    assert outcome.removed == [_id(anna_copy)]
    summary = outcome.summary()
    assert summary["vollstaendig"] is False
    assert summary["nicht_erreicht"] == ["longterm:users/ben"]
    assert {_id(ben_first), _id(ben_copy)} <= set(_all(ctx))
    # And a run rotated by one begins with ben's area, in the same budget
    asked.clear()
    second = consolidate(ctx, "dups", stop=after_one_area, start=1)
    assert second.removed == [_id(ben_copy)]
    assert second.summary()["nicht_erreicht"] == ["longterm:users/anna"]
    assert _id(anna_first) in set(_all(ctx)) and _id(ben_first) in set(_all(ctx))


def test_rotated_begins_at_the_start_modulo_the_length() -> None:
    assert consolidation.rotated(["a", "b", "c"], 4) == ["b", "c", "a"]
    assert consolidation.rotated([], 3) == []


def _id(raw: str) -> MemoryId:
    parsed = MemoryId.parse(raw)
    assert parsed is not None
    return parsed


def _all(ctx: ServiceContext) -> list[MemoryId]:
    wanted = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, 50)]
    return list(ctx.storage.get_memories("dups", wanted, NOW))
