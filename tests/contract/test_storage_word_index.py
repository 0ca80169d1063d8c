"""Storage contract for the memory word index by area (issue 12): a lookup reads only the
postings of the areas it is given (plus the member's project areas), per (area, term) at
most the cut-off, highest impact first. Runs unchanged on every adapter."""

from __future__ import annotations

from dataclasses import replace

from shared.domain import Memory, MemoryId, MemoryReplace, NewMemory, Project
from shared.search.postings import posting_impact
from shared.storage.port import StoragePort
from tests.contract.builders import T0, TENANT, lt, make_memory


def put(storage: StoragePort, *memories: Memory) -> None:
    assert storage.put_memories([NewMemory(m) for m in memories]) == [None] * len(memories)


def ids(storage: StoragePort, term: str, areas: list[str], **kwargs: object) -> set[MemoryId]:
    lookup = storage.lookup_memory_terms(TENANT, [term], areas, **kwargs)  # type: ignore[arg-type]
    return {p.entry_id for p in lookup.postings.get(term, [])}


def test_lookup_reads_only_the_given_areas(storage: StoragePort) -> None:
    # Given the same word in a private area of anna, one of bruno, a team and a project
    put(
        storage,
        make_memory(lt(1), nutzer="anna", terms={"plan": 1}, doc_len=1),
        make_memory(lt(2), nutzer="bruno", terms={"plan": 1}, doc_len=1),
        make_memory(lt(3), nutzer="anna", area="teams/ops", terms={"plan": 1}, doc_len=1),
        make_memory(lt(4), nutzer="carla", area="projects/x", terms={"plan": 1}, doc_len=1),
    )
    # When anna's own and team areas are looked up, Then bruno's and the project's postings
    # are not among them (they were never read)
    assert ids(storage, "plan", ["users/anna", "teams/ops"]) == {lt(1), lt(3)}
    assert ids(storage, "plan", ["users/bruno"]) == {lt(2)}
    assert ids(storage, "plan", []) == set()


def test_member_project_areas_join_the_lookup_within_the_path(storage: StoragePort) -> None:
    # Given anna is a member of project x (by record), not of project y
    assert storage.create_project(Project(TENANT, "x", "carla", T0, frozenset({"anna"})))
    assert storage.create_project(Project(TENANT, "y", "carla", T0))
    put(
        storage,
        make_memory(lt(1), nutzer="anna", terms={"plan": 1}, doc_len=1),
        make_memory(lt(2), nutzer="carla", area="projects/x", terms={"plan": 1}, doc_len=1),
        make_memory(lt(3), nutzer="carla", area="projects/y", terms={"plan": 1}, doc_len=1),
    )
    own = ["users/anna"]
    # When the lookup names anna as member, Then project x's postings come too, not y's
    assert ids(storage, "plan", own, member="anna") == {lt(1), lt(2)}
    # And a path below another area excludes project x
    assert ids(storage, "plan", [], member="anna", path="projects/y") == set()
    assert ids(storage, "plan", [], member="anna", path="projects/x/notes") == {lt(2)}
    # And twice in a row (a speculating adapter reads the same)
    assert ids(storage, "plan", own, member="anna") == {lt(1), lt(2)}
    # And a member added later is seen at once
    assert storage.add_project_members(TENANT, "y", ["anna"])
    assert ids(storage, "plan", own, member="anna") == {lt(1), lt(2), lt(3)}


def test_a_common_term_is_read_only_up_to_the_cut_off_highest_impact_first(
    storage: StoragePort,
) -> None:
    # Given 30 memories of one area with the term at different weights: tf 1..3 in texts
    # of 1..10 terms
    memories = [
        make_memory(lt(i), nutzer="anna", terms={"plan": 1 + i % 3}, doc_len=1 + i % 10)
        for i in range(1, 31)
    ]
    put(storage, *memories)

    def impact(m: Memory) -> int:
        return posting_impact(m.terms["plan"], m.doc_len)

    # When the lookup is cut at 7 postings per (area, term)
    lookup = storage.lookup_memory_terms(TENANT, ["plan"], ["users/anna"], per_area_term=7)
    found = lookup.postings["plan"]
    # Then exactly 7 come back, and no memory left out has a higher impact than one read
    assert len(found) == 7
    read = {p.entry_id for p in found}
    weakest_read = min(impact(m) for m in memories if m.id in read)
    assert all(impact(m) <= weakest_read for m in memories if m.id not in read)
    # And without the cut all 30 come back
    assert len(ids(storage, "plan", ["users/anna"], per_area_term=1000)) == 30


def test_replace_moves_postings_to_the_new_area_and_weight(storage: StoragePort) -> None:
    # Given a memory in anna's area
    old = make_memory(lt(1), nutzer="anna", terms={"plan": 1, "alt": 1}, doc_len=2)
    put(storage, old)
    stored = storage.get_memories(TENANT, [lt(1)], T0)[lt(1)]
    # When it is replaced by a version in team ops with another weight
    new = replace(stored, area="teams/ops", terms={"plan": 3}, doc_len=5)
    assert storage.replace_memories([MemoryReplace(new, stored)], T0) == [None]
    # Then its postings are in the team area only, with the new weight, the old term gone
    assert ids(storage, "plan", ["users/anna"]) == set()
    lookup = storage.lookup_memory_terms(TENANT, ["plan", "alt"], ["teams/ops", "users/anna"])
    assert [(p.entry_id, p.tf, p.doc_len) for p in lookup.postings["plan"]] == [(lt(1), 3, 5)]
    assert "alt" not in lookup.postings
    assert storage.get_memories(TENANT, [lt(1)], T0)[lt(1)].area == "teams/ops"
    # And a delete removes them
    assert storage.delete_memories(TENANT, [lt(1)], T0) == [lt(1)]
    assert ids(storage, "plan", ["teams/ops"]) == set()


def test_highest_id_reads_the_sequence_without_reserving(storage: StoragePort) -> None:
    # Given a sequence that handed out 1..3
    from shared.domain import CounterName

    assert storage.highest_id(TENANT, CounterName.LONGTERM) == 0
    assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 3) == range(1, 4)
    # When it is read twice, Then it is 3 both times, and the next reservation gets 4
    assert storage.highest_id(TENANT, CounterName.LONGTERM) == 3
    assert storage.highest_id(TENANT, CounterName.LONGTERM) == 3
    assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(4, 5)
    assert storage.highest_id(TENANT, CounterName.SHORTTERM) == 0


def test_a_word_query_reads_pages_until_its_top_k_is_exact(storage: StoragePort) -> None:
    from shared.search.ranking import rank
    from shared.search.topk import ReadBudget, WordQuery

    # Given 40 memories in two areas: a common word in all, a rarer one in every third, an
    # expired short-term memory among them
    memories = [
        make_memory(
            lt(i),
            nutzer="anna",
            area="users/anna" if i % 2 else "teams/ops",
            terms={"plan": 1 + i % 4, **({"rar": 1 + i % 2} if i % 3 == 0 else {})},
            doc_len=2 + i % 9,
        )
        for i in range(1, 41)
    ]
    put(storage, *memories)
    areas = ["teams/ops", "users/anna"]
    full = storage.lookup_memory_terms(TENANT, ["plan", "rar"], areas, per_area_term=1000)
    groups = (frozenset({"plan"}), frozenset({"rar"}))
    expected = rank(list(groups), full.postings, full.stats)[:5]
    # When the top 5 is read with pages of 3 postings (the first step then the next ones)
    query = WordQuery(groups, 5, T0, None, ReadBudget(first_page=3, next_page=3, steps=50))
    lookup = storage.lookup_memory_terms(TENANT, [], areas, words=query)
    # Then it is the exhaustive ranking's top 5, found in more than one step
    assert lookup.words is not None
    assert [mid for mid, _ in lookup.words.ranked] == [mid for mid, _ in expected]
    assert lookup.words.steps > 1 and lookup.words.complete
    assert lookup.words.postings_read <= 40 + 14
