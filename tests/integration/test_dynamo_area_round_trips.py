"""AWS calls per read for a caller in 5 teams and 10 projects (issues 9 and 12), measured
through the real service functions with the botocore call recorder.

Teams come from the token and cost nothing; project memberships are one Query of the
nutzer's membership partition, made only when a project area the token's `projects` claim
does not grant is in question. A search reads the postings of the caller's 16 areas only:
one Query per (area, term), side by side with the membership Query — the project areas
come from the adapter's membership hint, confirmed by that Query (a cold adapter pays one
more stage for the project areas it learns of).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, Project
from shared.services.context import ServiceContext
from shared.services.memories import fetch_memories
from shared.services.memory_os import recall, recall_context, remember, search_memory
from shared.services.reindex import reindex
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.memory_items import posting_keys
from shared.validation.memory_requests import (
    parse_recall,
    parse_recall_context,
    parse_remember,
    parse_search,
)
from shared.validation.requests import parse_fetch
from tests.integration.conftest import TABLE, CallRecorder, Sleeps, make_storage

NOW = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
TEAMS = [f"team-{i}" for i in range(5)]
PROJECTS = [f"proj-{i}" for i in range(10)]


def caller(nutzer: str, teams: tuple[str, ...] = ()) -> Principal:
    return Principal(
        tenant="tenant-areas",
        subject=nutzer,
        nutzer=frozenset({nutzer}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
        teams=frozenset(teams),
    )


ALICE = caller("alice", tuple(TEAMS))
BOB = caller("bob")


def context(storage: DynamoStorage) -> ServiceContext:
    return ServiceContext(storage, Settings(), lambda: NOW)


def given_areas(storage: DynamoStorage) -> list[str]:
    """alice in 5 teams (token) and 10 projects (records); one memory per area, plus one
    of bob that alice may not see. Returns the IDs of alice's readable memories."""
    for name in PROJECTS:
        assert storage.create_project(Project(ALICE.tenant, name, "alice", NOW))
    ids = []
    paths = [
        "users/alice/notes",
        *(f"teams/{t}/notes" for t in TEAMS),
        *(f"projects/{p}/notes" for p in PROJECTS),
    ]
    for path in paths:
        stored = remember(
            context(storage),
            ALICE,
            parse_remember({"content": f"Quarterly planning notes for {path}", "path": path}),
        )
        ids.append(stored["daten"]["ID"])
    remember(
        context(storage),
        BOB,
        parse_remember({"content": "Quarterly planning notes of bob", "path": "users/bob/x"}),
    )
    return ids


def measure(recorder: CallRecorder, action: object) -> tuple[list[Counter[str]], int]:
    recorder.reset()
    assert callable(action)
    action()
    return recorder.stages(), recorder.sequential_round_trips()


def test_reads_of_a_caller_in_5_teams_and_10_projects(
    storage: DynamoStorage, recorder: CallRecorder, clients: AwsClients
) -> None:
    ids = given_areas(storage)
    ctx = context(storage)
    results: dict[str, object] = {}

    def search() -> None:
        results["search"] = search_memory(
            ctx, ALICE, parse_search({"query": "quarterly planning", "limit": 20})
        )

    # 4 analysed terms of "quarterly planning" in each of alice's 16 areas, the stats, and
    # the projects of alice (one Query of her membership partition, no scan) side by side
    terms = Counter({"Query": 16 * 4 + 2})
    membership = Counter({"Query": 1})
    load = Counter({"BatchGetItem": 1})
    # When alice searches: Then all 16 of her areas' memories (not bob's) in 2 round trips
    stages, rounds = measure(recorder, search)
    hits = results["search"]["daten"]["treffer"]  # type: ignore[index]
    assert sorted(hit["ID"] for hit in hits) == sorted(ids)
    assert (stages, rounds) == ([terms, load], 2)

    # When the search is bounded to one team: Then no membership Query at all
    def search_team() -> None:
        search_memory(ctx, ALICE, parse_search({"query": "quarterly", "path": "teams/team-1"}))

    stages, rounds = measure(recorder, search_team)
    assert (stages, rounds) == ([Counter({"Query": 3}), load], 2)

    # recall: as search_memory
    stages, rounds = measure(
        recorder, lambda: recall(ctx, ALICE, parse_recall({"query": "quarterly planning"}))
    )
    assert (stages, rounds) == ([terms, load], 2)

    # recall_context: the search with one recent short-term Query per area in its first
    # stage, the load, the brain entries of the project entities its memories are about
    # (one by_reference Query each, side by side)
    stages, rounds = measure(
        recorder,
        lambda: recall_context(ctx, ALICE, parse_recall_context({"task": "quarterly planning"})),
    )
    assert stages[:2] == [terms + Counter({"Query": 16}), load]
    assert set(stages[2]) == {"Query"} and rounds == 3

    # A cold adapter (no membership hint yet) learns the 10 project areas from the
    # membership Query and reads their postings in one more stage
    cold = make_storage(clients, Sleeps())
    stages, rounds = measure(
        recorder,
        lambda: search_memory(
            context(cold), ALICE, parse_search({"query": "quarterly planning", "limit": 20})
        ),
    )
    assert (stages, rounds) == ([Counter({"Query": 6 * 4 + 2}), Counter({"Query": 40}), load], 3)
    # And the next search of the same caller is back to 2
    stages, rounds = measure(
        recorder,
        lambda: search_memory(
            context(cold), ALICE, parse_search({"query": "quarterly planning", "limit": 20})
        ),
    )
    assert (stages, rounds) == ([terms, load], 2)

    # fetch of 16 IDs across all areas: BatchGetItem, then the membership Query
    fetch = parse_fetch(
        {"inhalt": {"memories": {"longterm": ids}, "nutzer": "alice", "agent": "bot"}}
    )
    stages, rounds = measure(recorder, lambda: fetch_memories(ctx, ALICE, fetch))
    assert (stages, rounds) == ([load, membership], 2)
    # And a fetch of team and own memories only needs no membership Query
    own = parse_fetch(
        {"inhalt": {"memories": {"longterm": ids[:6]}, "nutzer": "alice", "agent": "bot"}}
    )
    stages, rounds = measure(recorder, lambda: fetch_memories(ctx, ALICE, own))
    assert (stages, rounds) == ([load], 1)

    # remember into one of her projects (outside the retry layer: serially here, side by
    # side with the claim through call_tool): the membership Query, the tag (the path's last
    # segment) and the near-duplicate check's postings of the text's 4 terms in the project
    # (and the stats: one lookup; nothing shares a word, so nothing is loaded), the ID
    # counter, then item, postings and stats side by side
    def write() -> None:
        stored = remember(
            ctx,
            ALICE,
            parse_remember({"content": "Budget approved", "path": "projects/proj-3/x"}),
        )
        assert stored["erfolg"], stored

    stages, rounds = measure(recorder, write)
    assert stages[:4] == [
        membership,
        Counter({"UpdateItem": 1}),
        Counter({"Query": 4 + 1}),
        Counter({"UpdateItem": 1}),
    ]
    assert rounds == 5  # serially here; beside the claim on the pool the check's is free


def test_memories_whose_postings_were_lost_are_found_again_after_a_reindex(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a team memory of alice and a private one whose postings were lost
    ids = []
    for path in ("teams/team-1/notes", "users/alice/notes"):
        stored = remember(
            context(storage), ALICE, parse_remember({"content": "Lost roadmap", "path": path})
        )
        memory_id = MemoryId.parse(stored["daten"]["ID"])
        assert memory_id is not None
        ids.append(memory_id)
        memory = storage.get_memories(ALICE.tenant, [memory_id], NOW)[memory_id]
        for pk, sk in posting_keys(memory):
            key = {"pk": {"S": pk}, "sk": {"S": sk}}
            clients.dynamodb.delete_item(TableName=TABLE, Key=key)
    ctx = context(storage)
    mate = caller("mate", ("team-1",))

    def hits(reader: Principal) -> int:
        answer = search_memory(ctx, reader, parse_search({"query": "lost roadmap"}))
        return int(answer["daten"]["anzahl"])

    assert hits(ALICE) == 0
    stats = storage.memory_stats(ALICE.tenant)
    # When the tenant is reindexed (the repair path)
    progress = reindex(ctx, ALICE.tenant)
    assert (progress.reindexed, progress.failed, progress.cursor) == (2, [], None)
    # Then search finds them for alice, the team memory for a team member, nothing for bob
    assert [hits(reader) for reader in (ALICE, mate, BOB)] == [2, 1, 0]
    # And the stats counted them once, before and after
    assert storage.memory_stats(ALICE.tenant) == stats
    # And a second run changes nothing that search sees
    assert reindex(ctx, ALICE.tenant).reindexed == 2
    assert [hits(reader) for reader in (ALICE, mate, BOB)] == [2, 1, 0]
