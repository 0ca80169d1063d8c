"""Who is calling: resolved from the bearer token, never from tool arguments."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

ANY = "*"


class Scope(StrEnum):
    MEMORY_READ = "memory:read"
    MEMORY_WRITE = "memory:write"
    BRAIN_READ = "brain:read"
    BRAIN_WRITE = "brain:write"


ALL_SCOPES = frozenset(Scope)


@dataclass(frozen=True)
class Principal:
    tenant: str
    subject: str
    nutzer: frozenset[str]
    agents: frozenset[str]
    scopes: frozenset[str]
    teams: frozenset[str] = frozenset()
    account: str = ""
    device: str = ""
    # Projects the IdP says the token's nutzer belongs to (besides the project records).
    projects: frozenset[str] = frozenset()
    # Client profile: "" = the generic public profile; "chatgpt"/"claude" = plugin profiles.
    profile: str = ""

    def may_act_as_nutzer(self, nutzer: str) -> bool:
        return ANY in self.nutzer or nutzer in self.nutzer

    def may_act_as_agent(self, agent: str) -> bool:
        return ANY in self.agents or agent in self.agents

    def has_scope(self, scope: Scope) -> bool:
        return scope.value in self.scopes
