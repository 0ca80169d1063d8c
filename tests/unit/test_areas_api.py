"""The areas API others build on (`shared/services/areas.py`) and the claims behind it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.auth.claims import ClaimMapping, principal_from_claims
from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.services.areas import (
    AREA_NAMESPACES,
    acting_nutzer,
    area_of_path,
    authorize_write,
    readable_areas,
    user_area,
)
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.validation.errors import RequestRejected


def principal(*nutzer: str, **extra: object) -> Principal:
    fields: dict[str, object] = {
        "tenant": "acme",
        "subject": "sub-1",
        "nutzer": frozenset(nutzer),
        "agents": frozenset({"bot"}),
        "scopes": ALL_SCOPES,
    }
    fields.update(extra)
    return Principal(**fields)  # type: ignore[arg-type]


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[ServiceContext]:
    with SqliteStorage(tmp_path / "areas.sqlite3") as storage:
        yield ServiceContext(storage, Settings(data_dir=tmp_path))


def test_area_names() -> None:
    assert AREA_NAMESPACES == ("users", "teams", "projects")
    assert area_of_path("projects/memory-os/decisions") == "projects/memory-os"
    assert area_of_path("teams/core") == "teams/core"
    assert user_area("42") == "users/42"
    with pytest.raises(ValueError, match="not an area path"):
        area_of_path("elsewhere/x")


def test_acting_nutzer_is_the_tokens_own() -> None:
    assert acting_nutzer(principal("alice")) == "alice"
    assert acting_nutzer(principal("*")) == "sub-1"
    assert acting_nutzer(principal("7", "42")) == "sub-1"
    assert acting_nutzer(principal("*", "alice")) == "alice"


def test_readable_areas_are_the_nutzers_teams_and_projects(ctx: ServiceContext) -> None:
    caller = principal("alice", teams=frozenset({"core"}), projects=frozenset({"billing"}))
    authorize_write(ctx, caller, "alice", "projects/memory-os", create_project=True)
    assert readable_areas(ctx, caller, "alice") == {
        "users/alice",
        "teams/core",
        "projects/billing",
        "projects/memory-os",
    }
    # A nutzer of the same token without project records reads only the token's grants
    assert readable_areas(ctx, caller, "bob") == {"users/bob", "teams/core", "projects/billing"}


def test_authorize_write_rules(ctx: ServiceContext) -> None:
    caller = principal("alice", teams=frozenset({"core"}))
    authorize_write(ctx, caller, "alice", "users/alice")
    authorize_write(ctx, caller, "alice", "teams/core")
    for area in ("users/bob", "teams/sales", "projects/nope"):
        with pytest.raises(RequestRejected) as refused:
            authorize_write(ctx, caller, "alice", area)
        assert refused.value.errors[0].feld == "path"
        assert "nicht berechtigt" in refused.value.errors[0].meldung
    # create_project makes alice the owner and member, with the project's brain entry
    authorize_write(ctx, caller, "alice", "projects/nope", create_project=True)
    project = ctx.storage.get_project("acme", "nope")
    assert project is not None and (project.owner, project.members) == ("alice", {"alice"})
    assert ctx.storage.find_brain_by_reference("acme", "projekt", "nope", 5)
    authorize_write(ctx, caller, "alice", "projects/nope/deeper/path")


def test_claims_map_projects_and_profile() -> None:
    mapping = ClaimMapping(projects="custom:projects", profile="custom:profile")
    claims = {
        "tenant": "acme",
        "sub": "u1",
        "custom:projects": "[memory-os billing]",
        "custom:profile": " ChatGPT ",
    }
    mapped = principal_from_claims(claims, mapping)
    assert mapped.projects == {"memory-os", "billing"}
    assert mapped.profile == "chatgpt"
    assert principal_from_claims({"tenant": "a", "sub": "b"}, ClaimMapping()).profile == ""


def test_settings_name_the_new_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAIN_CLAIM_PROJECTS", "cognito:groups")
    monkeypatch.setenv("BRAIN_CLAIM_PROFILE", "client_profile")
    mapping = Settings().claim_mapping
    assert (mapping.projects, mapping.profile) == ("cognito:groups", "client_profile")
