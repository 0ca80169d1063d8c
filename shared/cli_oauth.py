"""`brain user …` (local users of the built-in login) and `brain oauth …` (connected clients),
and the authorization server `brain serve` runs (docs/connect.md).

Passwords are read from stdin (`--password-stdin`) or asked for without echo, never taken
from the command line (shell history, process list).
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared.auth.claims import TokenVerifier
from shared.auth.oauth.factory import build_oauth_server, open_state, signing_key
from shared.auth.oauth.login import new_user
from shared.auth.oauth.resource import OAuthAwareResolver
from shared.auth.oauth.server import OAuthServer
from shared.auth.oauth.state import OAuthState
from shared.auth.oauth.tokens import AccessTokenSigner
from shared.auth.principal import ALL_SCOPES
from shared.config import Settings
from shared.server.auth_middleware import BearerTokenResolver, PrincipalResolver


def serving_auth(
    settings: Settings, verifier: TokenVerifier, bootstrap: bool
) -> tuple[PrincipalResolver, OAuthServer | None]:
    """The resolver of the MCP endpoint and REST API, and the authorization server (None when
    `oauth_enabled` is off: then only pasted tokens work)."""
    if not settings.oauth_enabled:
        return BearerTokenResolver(verifier), None
    if bootstrap and settings.backend == "aws":
        import boto3

        from shared.auth.oauth.dynamo_state import create_table

        create_table(boto3.client("dynamodb"), settings.oauth_table)
    state = open_state(settings)
    key = signing_key(settings)
    signer = AccessTokenSigner(key, settings.claim_mapping)
    resolver = OAuthAwareResolver(lambda: signer, verifier)
    server = build_oauth_server(settings, state, key, token_login=verifier, resolver=resolver)
    return resolver, server


def startup_lines(settings: Settings, server: OAuthServer | None, base: str) -> list[str]:
    if server is None:
        return []
    lines = [f"OAuth: {base}/.well-known/oauth-authorization-server (Claude, ChatGPT: nur die URL)"]
    if server.upstream is not None:
        lines.append(f"Anmeldung: über {server.upstream.config.issuer}")
    else:
        users = len(server.state.list_users())
        lines.append(f"Anmeldung: {users} lokale Nutzer (brain user add) oder mit dem Token oben")
    if settings.oauth_cimd_test_documents:
        lines.append("WARNUNG: BRAIN_OAUTH_CIMD_TEST_DOCUMENTS ist gesetzt (nur für Tests)")
    return lines


def _split(value: str) -> list[str]:
    return [part for part in value.replace(",", " ").split() if part]


def _state(
    args: argparse.Namespace, settings_of: Callable[[argparse.Namespace], Settings]
) -> OAuthState:
    return open_state(settings_of(args))


def _read_password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("Passwort: ")
    if getpass.getpass("Passwort wiederholen: ") != first:
        raise ValueError("Die Passwörter stimmen nicht überein.")
    return first


def _when(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC") if epoch else "-"


def register(commands: Any, settings_of: Callable[[argparse.Namespace], Settings]) -> None:
    """Add `user` and `oauth` to the `brain` parser (`commands`: its subparsers)."""

    def with_store(command: argparse.ArgumentParser) -> None:
        command.add_argument("--data-dir", default=None)
        command.add_argument("--backend", choices=["sqlite", "aws"], default=None)

    def user_add(args: argparse.Namespace) -> int:
        state = _state(args, settings_of)
        try:
            if state.get_user(args.username) is not None and not args.replace:
                print(
                    f"Nutzer {args.username} gibt es schon (--replace ersetzt ihn).",
                    file=sys.stderr,
                )
                return 2
            user = new_user(
                args.username,
                _read_password(args),
                tenant=args.tenant,
                nutzer=_split(args.nutzer or args.username),
                agents=_split(args.agent),
                scopes=args.scopes.split(),
                teams=_split(args.teams),
                projects=_split(args.projects),
            )
        except ValueError as exc:
            state.close()
            print(str(exc), file=sys.stderr)
            return 2
        state.put_user(user)
        state.close()
        print(
            f"Nutzer {user.username} angelegt: Mandant {user.tenant}, Nutzer "
            f"{','.join(user.nutzer)}, Scopes {' '.join(user.scopes)}"
        )
        return 0

    def user_list(args: argparse.Namespace) -> int:
        state = _state(args, settings_of)
        for user in state.list_users():
            print(
                f"{user.username}\t{user.tenant}\t{','.join(user.nutzer)}\t"
                f"{','.join(user.agents)}\t{' '.join(user.scopes)}"
            )
        state.close()
        return 0

    def user_remove(args: argparse.Namespace) -> int:
        state = _state(args, settings_of)
        removed = state.delete_user(args.username)
        state.close()
        print(f"Nutzer {args.username} entfernt." if removed else "Keinen solchen Nutzer.")
        return 0 if removed else 1

    def connections(args: argparse.Namespace) -> int:
        state = _state(args, settings_of)
        now = int(time.time())
        grants = (
            state.list_grants(args.tenant, args.subject, now)
            if args.subject
            else state.all_grants(now)
        )
        for grant in grants:
            print(
                f"{grant.grant_id}\t{grant.tenant}\t{grant.subject}\t{grant.client_name}\t"
                f"{grant.client_id}\t{' '.join(grant.scopes)}\t{_when(grant.refreshed_at)}"
            )
        if not grants:
            print("Keine verbundenen Clients.")
        state.close()
        return 0

    def revoke(args: argparse.Namespace) -> int:
        state = _state(args, settings_of)
        matches = [g for g in state.all_grants(int(time.time())) if g.grant_id == args.id]
        for grant in matches:
            state.delete_grant(grant.tenant, grant.subject, grant.grant_id)
        state.close()
        print(f"Verbindung {args.id} getrennt." if matches else "Keine solche Verbindung.")
        return 0 if matches else 1

    user = commands.add_parser("user", help="local users of the built-in OAuth login")
    user_commands = user.add_subparsers(dest="user_command", required=True)
    add = user_commands.add_parser("add", help="add (or --replace) a local user")
    add.add_argument("username")
    add.add_argument("--tenant", default="local")
    add.add_argument("--nutzer", default="", help="comma list; default: the user name")
    add.add_argument("--agent", default="*", help="comma list; * for any (default)")
    add.add_argument("--scopes", default=" ".join(sorted(ALL_SCOPES)))
    add.add_argument("--teams", default="")
    add.add_argument("--projects", default="")
    add.add_argument("--password-stdin", action="store_true", help="read the password from stdin")
    add.add_argument("--replace", action="store_true")
    with_store(add)
    add.set_defaults(handler=user_add)
    listing = user_commands.add_parser("list", help="list local users")
    with_store(listing)
    listing.set_defaults(handler=user_list)
    remove = user_commands.add_parser("remove", help="remove a local user (ends its connections)")
    remove.add_argument("username")
    with_store(remove)
    remove.set_defaults(handler=user_remove)

    oauth = commands.add_parser("oauth", help="clients connected by OAuth (Claude, ChatGPT, …)")
    oauth_commands = oauth.add_subparsers(dest="oauth_command", required=True)
    listed = oauth_commands.add_parser("connections", help="list connected clients")
    listed.add_argument("--tenant", default="local")
    listed.add_argument("--subject", default="", help="only this user's (e.g. local:anna)")
    with_store(listed)
    listed.set_defaults(handler=connections)
    cut = oauth_commands.add_parser("revoke", help="disconnect a client (its refresh token ends)")
    cut.add_argument("id", help="the connection id from `brain oauth connections`")
    with_store(cut)
    cut.set_defaults(handler=revoke)
