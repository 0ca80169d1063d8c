"""Binding of the nutzer/agent claims in a call to what the token allows (contract §2)."""

from __future__ import annotations

from collections.abc import Iterable

from shared.auth.principal import Principal
from shared.services.secrets import name_errors
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import Caller


def identity_errors(
    principal: Principal, *, nutzer: Iterable[tuple[str, str]], agents: Iterable[tuple[str, str]]
) -> list[FieldError]:
    """Errors for every (field path, value) the principal may not act as."""
    errors = [
        FieldError(path, f"nicht berechtigt: Das Token darf nicht als nutzer '{value}' handeln.")
        for path, value in nutzer
        if not principal.may_act_as_nutzer(value)
    ]
    errors += [
        FieldError(path, f"nicht berechtigt: Das Token darf nicht als agent '{value}' handeln.")
        for path, value in agents
        if not principal.may_act_as_agent(value)
    ]
    if errors:
        return errors
    # Allowed identities are stored as they are (a wildcard token may name any): they cannot
    # hold a [ENTFERNT:…] marker, so one that contains a secret refuses the call or entry.
    return name_errors([*nutzer, *agents])


def require_caller(principal: Principal, caller: Caller) -> None:
    """The envelope's nutzer/agent must be allowed, otherwise the whole call fails."""
    errors = identity_errors(
        principal,
        nutzer=[("inhalt.nutzer", caller.nutzer)],
        agents=[("inhalt.agent", caller.agent)],
    )
    if errors:
        raise RequestRejected(errors)
