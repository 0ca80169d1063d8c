"""Who a `client_id` is: the built-in console, a client metadata document (CIMD), or a
client registered by DCR (RFC 7591) and kept in the state.

- The console (`CONSOLE_CLIENT_ID`) is a public first-party client whose only redirect is
  `<this server's origin>/console/callback`; it needs no consent page.
- A CIMD client's record is built from its fetched document on every resolution (cached by
  the fetcher), never stored: the document stays the authority.
- A DCR registration is validated (redirect URIs, grant types, auth method), stored with a
  random id, and expires unless a connection is made with it (`UNUSED_CLIENT_TTL_S`).
The profile (`claude`, `chatgpt`) comes from `redirects.profile_of`, never from a name the
client gives itself.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from typing import Any, Final

import anyio.to_thread
from mcp.shared.auth import OAuthClientMetadata
from pydantic import ValidationError

from shared.auth.oauth.cimd import CimdFetcher, CimdRefused, is_cimd_client_id
from shared.auth.oauth.records import AuthMethod, ClientRecord, digest
from shared.auth.oauth.redirects import RedirectRefused, check_registrable_list, profile_of
from shared.auth.oauth.state import OAuthState
from shared.auth.oauth.tokens import new_secret

CONSOLE_CLIENT_ID: Final = "brain-console"
CONSOLE_NAME: Final = "Brain Console"
CONSOLE_CALLBACK_PATH: Final = "/console/callback"
UNUSED_CLIENT_TTL_S: Final = 24 * 3600
MAX_CLIENT_NAME: Final = 120
_GRANTS: Final = frozenset({"authorization_code", "refresh_token"})
_METHODS: Final = frozenset({"none", "client_secret_post", "client_secret_basic"})


class RegistrationRefused(ValueError):
    """RFC 7591 `invalid_redirect_uri` / `invalid_client_metadata`, German, echoing nothing."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


def _clean_name(name: str | None, fallback: str) -> str:
    text = " ".join((name or "").split())[:MAX_CLIENT_NAME]
    return text or fallback


def console_client(root: str) -> ClientRecord:
    return ClientRecord(
        client_id=CONSOLE_CLIENT_ID,
        kind="builtin",
        client_name=CONSOLE_NAME,
        redirect_uris=(f"{root}{CONSOLE_CALLBACK_PATH}",),
        created_at=0,
    )


class ClientDirectory:
    def __init__(
        self,
        state: OAuthState,
        fetcher: CimdFetcher,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.state = state
        self.fetcher = fetcher
        self.clock = clock

    async def resolve(self, client_id: str, root: str) -> ClientRecord | None:
        """The client, or None when unknown (CimdRefused: a CIMD id whose document fails)."""
        if not client_id or len(client_id) > 2000:
            return None
        if client_id == CONSOLE_CLIENT_ID:
            return console_client(root)
        if is_cimd_client_id(client_id):
            document = await self.fetcher.document(client_id)
            uris = tuple(document.redirect_uris)
            return ClientRecord(
                client_id=client_id,
                kind="cimd",
                client_name=_clean_name(document.client_name, client_id),
                redirect_uris=uris,
                created_at=int(self.clock()),
                grant_types=tuple(document.grant_types),
                profile=profile_of(client_id, uris, cimd=True),
                client_uri=str(document.client_uri or ""),
            )
        now = int(self.clock())
        return await anyio.to_thread.run_sync(self.state.get_client, client_id, now)

    def register(self, body: Any) -> tuple[ClientRecord, str, dict[str, Any]]:
        """A DCR registration from the parsed JSON body: the record, the client secret ("" for
        a public client) and the RFC 7591 response. RegistrationRefused otherwise."""
        if not isinstance(body, dict):
            raise RegistrationRefused("invalid_client_metadata", "Der Rumpf ist ein JSON-Objekt.")
        uris = body.get("redirect_uris")
        if not isinstance(uris, list) or not all(isinstance(uri, str) for uri in uris):
            raise RegistrationRefused(
                "invalid_redirect_uri", "redirect_uris: eine Liste von URIs ist Pflicht."
            )
        try:
            check_registrable_list(uris)
        except RedirectRefused as exc:
            raise RegistrationRefused("invalid_redirect_uri", str(exc)) from exc
        try:
            metadata = OAuthClientMetadata.model_validate(body)
        except ValidationError as exc:
            fields = sorted({str(error["loc"][0]) for error in exc.errors() if error["loc"]})
            raise RegistrationRefused(
                "invalid_client_metadata",
                f"Ungültige Client-Metadaten in: {', '.join(fields) or 'Rumpf'}.",
            ) from exc
        grants = set(metadata.grant_types or ["authorization_code", "refresh_token"])
        if not grants <= _GRANTS or "authorization_code" not in grants:
            raise RegistrationRefused(
                "invalid_client_metadata",
                "grant_types: nur authorization_code und refresh_token.",
            )
        if metadata.response_types and set(metadata.response_types) != {"code"}:
            raise RegistrationRefused("invalid_client_metadata", "response_types: nur code.")
        method = metadata.token_endpoint_auth_method or "client_secret_basic"
        if method not in _METHODS:
            raise RegistrationRefused(
                "invalid_client_metadata",
                "token_endpoint_auth_method: none, client_secret_post oder client_secret_basic.",
            )
        now = int(self.clock())
        secret = "" if method == "none" else new_secret("bcs_")
        auth_method: AuthMethod = method  # type: ignore[assignment]
        record = ClientRecord(
            client_id=new_secret("brc_")[:40],
            kind="dcr",
            client_name=_clean_name(metadata.client_name, "Unbenannter Client"),
            redirect_uris=tuple(uris),
            created_at=now,
            expires_at=now + UNUSED_CLIENT_TTL_S,
            grant_types=tuple(sorted(grants | {"refresh_token"})),
            token_endpoint_auth_method=auth_method,
            secret_hash=digest(secret) if secret else "",
            profile=profile_of("", uris, cimd=False),
            client_uri=str(metadata.client_uri or ""),
        )
        self.state.put_client(record)
        response: dict[str, Any] = {
            "client_id": record.client_id,
            "client_id_issued_at": now,
            "client_name": record.client_name,
            "redirect_uris": list(record.redirect_uris),
            "grant_types": list(record.grant_types),
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
        }
        if metadata.scope:
            response["scope"] = metadata.scope
        if secret:
            response["client_secret"] = secret
            response["client_secret_expires_at"] = 0
        return record, secret, response


def secret_matches(client: ClientRecord, presented: str | None) -> bool:
    """Whether a confidential client presented its secret (public clients: none needed)."""
    if not client.secret_hash:
        return True
    if not presented:
        return False
    return hmac.compare_digest(client.secret_hash, digest(presented))


__all__ = ["CimdRefused", "ClientDirectory", "RegistrationRefused", "console_client"]
