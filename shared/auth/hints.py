"""The German refusals of authorization, each with the way to the right it lacks.

One place for every surface (MCP tools, the HTTP middleware, REST): a refusal names what is
missing and how to get it — a token with the scope, with the team, or the project's owner —
and never echoes a value the caller was refused for (only scope and tool names).
"""

from __future__ import annotations

WAY_TO_THE_RIGHT = (
    "Lokal stellt 'brain token --data-dir <daten> --tenant <t> --nutzer <n> --agent <a> "
    '--scopes "…" [--teams …] [--projects …]\' ein solches Token aus; mit OIDC (z. B. Cognito) '
    "kommen Scopes und Teams aus den Claims des Identity Providers."
)


def missing_scope_message(scope: str, tool: str | None = None) -> str:
    where = f" für {tool}" if tool else ""
    return (
        f"nicht berechtigt: Dem Token fehlt der Scope '{scope}'{where}. Ein Token mit diesem "
        f'Scope verwenden (--scopes "{scope} …"). {WAY_TO_THE_RIGHT}'
    )


def not_team_member_message() -> str:
    # The team is not named: a refusal never repeats a value the caller was refused for.
    return (
        "nicht berechtigt: kein Mitglied dieses Teams. Teams kommen aus dem Token (Claim "
        f"'teams'): ein Token mit --teams <team> verwenden. {WAY_TO_THE_RIGHT}"
    )


def not_as_message(role: str) -> str:
    """A call naming a nutzer or agent its token may not act as (`role`: nutzer, agent)."""
    return (
        f"nicht berechtigt: Das Token darf nicht als dieser {role} handeln. Den {role} des "
        f"Tokens angeben oder ein Token für diesen {role} verwenden (--{role} <{role}>). "
        f"{WAY_TO_THE_RIGHT}"
    )


def not_own_area_message() -> str:
    return (
        "nicht berechtigt: Das ist nicht der Bereich des handelnden Nutzers; nur der eigene "
        "Bereich users/<nutzer> ist erlaubt. In den eigenen Bereich schreiben, über Teams "
        "(teams/<team>) oder Projekte (projects/<projekt>) teilen, oder als dieser nutzer "
        "handeln: ein Token mit --nutzer <nutzer>, REST ?nutzer=<nutzer> (wenn das Token als "
        f"er handeln darf). {WAY_TO_THE_RIGHT}"
    )


def not_project_member_message() -> str:
    # Same answer whether the project exists or not: names must not leak.
    return (
        "nicht berechtigt: In dieses Projekt darf der handelnde Nutzer nicht schreiben (es "
        "existiert nicht, oder er ist kein Mitglied). Ein neues Projekt mit "
        "create_project=true anlegen; in bestehende Projekte schreiben nur Mitglieder: der "
        "Eigentümer nimmt sie auf (REST POST /api/projects/<projekt>/mitglieder), oder ein "
        "Token mit --projects <projekt>."
    )
