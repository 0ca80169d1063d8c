"""Binding of the nutzer/agent claims in a call to what the token allows (contract §2)."""

from __future__ import annotations

from collections.abc import Iterable

from shared.auth.hints import not_as_message
from shared.auth.principal import Principal
from shared.services.areas import acting_agent, acting_nutzer
from shared.services.secrets import name_errors
from shared.validation.errors import Art, FieldError, RequestRejected
from shared.validation.parsed import Caller

# The refused identity is never repeated (it may be anything, a secret too).
NOT_AS_NUTZER = not_as_message("nutzer")
NOT_AS_AGENT = not_as_message("agent")


def identity_errors(
    principal: Principal, *, nutzer: Iterable[tuple[str, str]], agents: Iterable[tuple[str, str]]
) -> list[FieldError]:
    """Errors for every (field path, value) the principal may not act as. Its own default
    identity (`areas.acting_nutzer`/`acting_agent`, what the Memory OS tools and REST act as)
    is always allowed, also for a token that names several nutzer."""
    own_nutzer, own_agent = acting_nutzer(principal), acting_agent(principal)
    errors = [
        FieldError(path, NOT_AS_NUTZER, Art.FORBIDDEN)
        for path, value in nutzer
        if value != own_nutzer and not principal.may_act_as_nutzer(value)
    ]
    errors += [
        FieldError(path, NOT_AS_AGENT, Art.FORBIDDEN)
        for path, value in agents
        if value != own_agent and not principal.may_act_as_agent(value)
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
