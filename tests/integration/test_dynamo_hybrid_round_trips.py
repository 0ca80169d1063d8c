"""AWS calls and waves per hybrid search for a caller in 5 teams and 10 projects (issues 12
and 15), through the real services with the botocore call recorder, on the production pool
behind the simulated network. QueryVectors is answered from moto's vectors (moto lacks it;
tests/contract/s3vectors_query.py); its own ListVectors reads are the emulation's, not the
adapter's, and are left out of the counts (one round trip inside the QueryVectors: it
stands in for that call's own)."""

from __future__ import annotations

from collections import Counter

import pytest

from shared.domain import Project
from shared.embedding.hashed import HashedEmbedder
from shared.services.context import ServiceContext
from shared.services.memory_os import recall_context, remember, search_memory
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.validation.memory_requests import parse_recall_context, parse_remember, parse_search
from tests.integration.conftest import CallRecorder, record_query_vectors
from tests.integration.test_dynamo_area_round_trips import ALICE, NOW, PROJECTS, TEAMS

EMBEDDER = HashedEmbedder(64)


def hybrid_context(storage: DynamoStorage) -> ServiceContext:
    from shared.config import Settings

    return ServiceContext(storage, Settings(), lambda: NOW, embedder=EMBEDDER)


@pytest.fixture
def alice_areas(
    pooled: DynamoStorage, clients: AwsClients, recorder: CallRecorder
) -> ServiceContext:
    """Alice's 16 areas with one memory each, embedded by the server, on the production
    pool behind the simulated network; QueryVectors emulated and recorded with its
    interval (the emulation answers before the recorder sees the call)."""
    ctx = hybrid_context(pooled)
    for name in PROJECTS:
        assert pooled.create_project(Project(ALICE.tenant, name, "alice", NOW))
    paths = [
        "users/alice/n",
        *(f"teams/{t}/n" for t in TEAMS),
        *(f"projects/{p}/n" for p in PROJECTS),
    ]
    for path in paths:
        content = f"Quarterly planning notes for {path}"
        assert remember(ctx, ALICE, parse_remember({"content": content, "path": path}))["erfolg"]
    record_query_vectors(clients, recorder)
    return ctx


def test_hybrid_search_of_a_caller_in_5_teams_and_10_projects(
    alice_areas: ServiceContext, recorder: CallRecorder
) -> None:
    # Given alice's 16 areas with one memory each, embedded by the server
    recorder.start()
    # When alice searches with a server-side query vector
    query = parse_search({"query": "quarterly plans", "limit": 20})
    answer = search_memory(alice_areas, ALICE, query)
    # Then all 16 memories come, found by words and by vectors
    hits = answer["daten"]["treffer"]
    assert len(hits) == 16
    assert {tuple(h["treffer_durch"]) for h in hits} == {("woerter", "vektor")}
    # And it took 2 waves: the postings of the 3 analysed terms in each of her 16 areas
    # (48), the stats, her memberships and one QueryVectors over her 16 areas side by
    # side, then one BatchGetItem of the fused candidates (the emulation's own ListVectors,
    # inside the QueryVectors it answers, left out)
    recorder.calls = [c for c in recorder.calls if c.operation != "ListVectors"]
    assert recorder.stages() == [
        Counter({"Query": 3 * 16 + 2, "QueryVectors": 1}),
        Counter({"BatchGetItem": 1}),
    ]
    assert recorder.waves() == 2


def test_hybrid_recall_context_takes_3_waves(
    alice_areas: ServiceContext, recorder: CallRecorder
) -> None:
    # Given alice's 16 areas with one memory each, embedded by the server
    recorder.start()
    # When she recalls the context of a task
    request = parse_recall_context({"task": "quarterly plans", "limit": 20})
    answer = recall_context(alice_areas, ALICE, request)
    # Then her memories come, found by words and vectors, in 3 waves: the postings, stats,
    # memberships, the recent short-term Query per area and the QueryVectors side by side;
    # the BatchGetItem of the fused candidates; one by_reference Query per linked entity
    assert answer["erfolg"], answer
    assert len(answer["daten"]["erinnerungen"]) == 16
    recorder.calls = [c for c in recorder.calls if c.operation != "ListVectors"]
    stages = recorder.stages()
    assert stages[0] == Counter({"Query": 3 * 16 + 2 + 16, "QueryVectors": 1})
    assert stages[1] == Counter({"BatchGetItem": 1})
    assert stages[2:] == [Counter({"Query": len(PROJECTS)})]  # one per project: an entity
    assert recorder.waves() == 3
