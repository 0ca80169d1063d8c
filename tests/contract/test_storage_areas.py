"""Storage contract for areas: the area of memories and postings, and project records with
their members (both directions), on every adapter."""

from __future__ import annotations

from shared.domain import MemoryPosting, Project
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, T0, TENANT, lt, new_memory, st


def project(name: str, owner: str, *members: str, tenant: str = TENANT) -> Project:
    return Project(tenant=tenant, name=name, owner=owner, created_at=T0, members=frozenset(members))


def test_memories_and_their_postings_carry_their_area(storage: StoragePort) -> None:
    # Given a team memory and a user memory
    team = new_memory(lt(1), area="teams/core", terms={"deploy": 1}, doc_len=1)
    own = new_memory(st(1), nutzer="anna", terms={"deploy": 2}, doc_len=2)
    assert storage.put_memories([team, own]) == [None, None]
    # Then reads return the stored area, and a memory without one is its nutzer's
    found = storage.get_memories(TENANT, [lt(1), st(1)], T0)
    assert found[lt(1)].area == "teams/core"
    assert found[st(1)].area == "users/anna"
    # And each posting names the area, so search can filter before loading
    areas = ["teams/core", "users/anna"]
    postings = storage.lookup_memory_terms(TENANT, ["deploy"], areas).postings["deploy"]
    assert {(p.entry_id, p.area) for p in postings} == {
        (lt(1), "teams/core"),
        (st(1), "users/anna"),
    }
    assert all(isinstance(p, MemoryPosting) for p in postings)


def test_remember_memories_without_a_stored_area_read_as_their_path_area(
    storage: StoragePort,
) -> None:
    # Given a memory as `remember` wrote it before areas (path in referenzfelder)
    legacy = new_memory(
        lt(1),
        scope="projekt",
        scope_vk="memory-os",
        referenzfelder={"pfad": "projects/memory-os/decisions", "quelle": "remember"},
    )
    storage.put_memories([legacy])
    # Then its area is the path's area
    assert storage.get_memories(TENANT, [lt(1)], T0)[lt(1)].area == "projects/memory-os"


def test_create_project_makes_the_owner_its_first_member(storage: StoragePort) -> None:
    # When anna creates memory-os
    assert storage.create_project(project("memory-os", "anna")) is True
    # Then the record names her as owner and member, and she is found as a member
    stored = storage.get_project(TENANT, "memory-os")
    assert stored is not None
    assert (stored.owner, stored.members, stored.created_at) == ("anna", {"anna"}, T0)
    assert storage.projects_of(TENANT, "anna") == {"memory-os"}


def test_create_project_is_refused_when_it_exists_and_changes_nothing(
    storage: StoragePort,
) -> None:
    storage.create_project(project("memory-os", "anna"))
    # When bruno tries to create the same project
    assert storage.create_project(project("memory-os", "bruno")) is False
    # Then anna stays the only member and owner
    stored = storage.get_project(TENANT, "memory-os")
    assert stored is not None and (stored.owner, stored.members) == ("anna", {"anna"})
    assert storage.projects_of(TENANT, "bruno") == frozenset()


def test_added_members_are_found_in_both_directions(storage: StoragePort) -> None:
    storage.create_project(project("memory-os", "anna"))
    storage.create_project(project("billing", "carla", "bruno"))
    # When the owner adds bruno (twice: idempotent) and dora
    assert storage.add_project_members(TENANT, "memory-os", ["bruno", "dora", "bruno"]) is True
    assert storage.add_project_members(TENANT, "memory-os", ["bruno"]) is True
    # Then the project lists them and each nutzer finds its projects
    stored = storage.get_project(TENANT, "memory-os")
    assert stored is not None and stored.members == {"anna", "bruno", "dora"}
    assert storage.projects_of(TENANT, "bruno") == {"memory-os", "billing"}
    assert storage.projects_of(TENANT, "dora") == {"memory-os"}


def test_adding_members_to_a_missing_project_writes_nothing(storage: StoragePort) -> None:
    assert storage.add_project_members(TENANT, "ghost", ["bruno"]) is False
    assert storage.get_project(TENANT, "ghost") is None
    assert storage.projects_of(TENANT, "bruno") == frozenset()


def test_removed_members_are_gone_in_both_directions(storage: StoragePort) -> None:
    storage.create_project(project("memory-os", "anna", "bruno", "dora"))
    storage.create_project(project("billing", "carla", "bruno"))
    # When bruno is removed (twice: idempotent), with a nutzer who never was a member
    assert storage.remove_project_members(TENANT, "memory-os", ["bruno", "erik"]) is True
    assert storage.remove_project_members(TENANT, "memory-os", ["bruno"]) is True
    # Then the project no longer lists him, and he finds only his other project
    stored = storage.get_project(TENANT, "memory-os")
    assert stored is not None and stored.members == {"anna", "dora"}
    assert storage.projects_of(TENANT, "bruno") == {"billing"}
    assert storage.projects_of(TENANT, "dora") == {"memory-os"}
    # And adding him again works
    assert storage.add_project_members(TENANT, "memory-os", ["bruno"]) is True
    assert storage.projects_of(TENANT, "bruno") == {"memory-os", "billing"}


def test_removing_from_a_missing_project_writes_nothing(storage: StoragePort) -> None:
    storage.create_project(project("billing", "carla", "bruno"))
    assert storage.remove_project_members(TENANT, "ghost", ["bruno"]) is False
    assert storage.get_project(TENANT, "ghost") is None
    assert storage.projects_of(TENANT, "bruno") == {"billing"}


def test_projects_are_per_tenant(storage: StoragePort) -> None:
    storage.create_project(project("memory-os", "anna"))
    # Then another tenant neither sees it nor is blocked from its own of that name
    assert storage.get_project(OTHER_TENANT, "memory-os") is None
    assert storage.projects_of(OTHER_TENANT, "anna") == frozenset()
    assert storage.create_project(project("memory-os", "eve", tenant=OTHER_TENANT)) is True


def test_many_members_and_many_projects(storage: StoragePort) -> None:
    # Given a project created with 60 members (more than one transaction holds)
    members = [f"n{i:02d}" for i in range(60)]
    assert storage.create_project(project("big", "owner", *members)) is True
    for index in range(12):
        storage.create_project(project(f"p{index}", "n07"))
    # Then all are members, and n07 finds all its 13 projects
    stored = storage.get_project(TENANT, "big")
    assert stored is not None and stored.members == {"owner", *members}
    assert storage.projects_of(TENANT, "n07") == {"big", *(f"p{i}" for i in range(12))}


def test_term_lookup_brings_the_members_projects_when_asked(storage: StoragePort) -> None:
    storage.create_project(project("memory-os", "anna"))
    storage.create_project(project("billing", "carla", "anna"))
    storage.put_memories([new_memory(lt(1), terms={"plan": 1}, doc_len=1)])
    # When the lookup names a member, Then her projects come along; otherwise None
    own = ["users/anna"]
    assert storage.lookup_memory_terms(TENANT, ["plan"], own, "anna").projects == {
        "memory-os",
        "billing",
    }
    assert storage.lookup_memory_terms(TENANT, ["plan"], own, "eve").projects == frozenset()
    assert storage.lookup_memory_terms(TENANT, ["plan"], own).projects is None
    found = storage.lookup_memory_terms(TENANT, [], own, "anna").projects
    assert found == {"memory-os", "billing"}
