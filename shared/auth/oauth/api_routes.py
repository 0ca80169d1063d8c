"""The authorization server's machine endpoints: metadata (RFC 8414), token (RFC 6749 with
PKCE, RFC 8707), registration (RFC 7591), revocation (RFC 7009), and the user's connections
(`GET /api/oauth/connections`, `DELETE /api/oauth/connections/{id}`).

Token errors are JSON `{error, error_description}` with 400, or 401 `invalid_client` when the
client is unknown (a deleted registration) or fails authentication. Answers are
`Cache-Control: no-store`. A parameter sent twice is `invalid_request`.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Final
from urllib.parse import unquote

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from shared.auth.claims import InvalidToken
from shared.auth.oauth.cimd import CimdRefused
from shared.auth.oauth.clients import RegistrationRefused, secret_matches
from shared.auth.oauth.grants import OAuthError, TokenAnswer
from shared.auth.oauth.records import ClientRecord, GrantRecord
from shared.auth.oauth.resource import resources_of
from shared.auth.oauth.server import MAX_FORM_BYTES, OAuthServer, issuer_of
from shared.auth.principal import ALL_SCOPES
from shared.server.auth_middleware import MissingCredentials, unauthorized_challenge
from shared.services.outcomes import HTTP_STATUS
from shared.validation.errors import Art, FieldError

NO_STORE: Final = {"Cache-Control": "no-store", "Pragma": "no-cache"}
MAX_REGISTRATION_BYTES: Final = 16 * 1024
_TOKEN_PARAMS: Final = (
    "grant_type",
    "code",
    "redirect_uri",
    "code_verifier",
    "refresh_token",
    "scope",
    "resource",
    "client_id",
    "client_secret",
)


def metadata_document(root: str) -> dict[str, Any]:
    methods = ["none", "client_secret_post", "client_secret_basic"]
    return {
        "issuer": root,
        "authorization_endpoint": f"{root}/authorize",
        "token_endpoint": f"{root}/token",
        "registration_endpoint": f"{root}/register",
        "revocation_endpoint": f"{root}/revoke",
        "scopes_supported": sorted(ALL_SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": methods,
        "revocation_endpoint_auth_methods_supported": methods,
        "code_challenge_methods_supported": ["S256"],
        "client_id_metadata_document_supported": True,
        "authorization_response_iss_parameter_supported": True,
        "ui_locales_supported": ["de", "en"],
        "service_documentation": f"{root}/docs/api/memory",
    }


def oauth_error(error: OAuthError, basic: bool = False) -> JSONResponse:
    headers = dict(NO_STORE)
    if error.status == 401 and basic:
        headers["WWW-Authenticate"] = 'Basic realm="brain"'
    return JSONResponse(
        {"error": error.error, "error_description": error.description},
        status_code=error.status,
        headers=headers,
    )


def _single(form: FormData, name: str) -> str | None:
    values = form.getlist(name)
    if len(values) > 1:
        raise OAuthError("invalid_request", f"{name}: höchstens einmal angeben.")
    value = values[0] if values else None
    return value if isinstance(value, str) else None


def _basic(request: Request) -> tuple[str, str] | None:
    header = request.headers.get("authorization", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise OAuthError(
            "invalid_client", "Authorization: ungültige Basic-Anmeldung.", 401
        ) from exc
    client_id, sep, secret = decoded.partition(":")
    if not sep:
        raise OAuthError("invalid_client", "Authorization: ungültige Basic-Anmeldung.", 401)
    return unquote(client_id), unquote(secret)


def connection_view(grant: GrantRecord) -> dict[str, Any]:
    return {
        "id": grant.grant_id,
        "client_id": grant.client_id,
        "client_name": grant.client_name,
        "profile": grant.profile,
        "scopes": list(grant.scopes),
        "resource": grant.resource,
        "verbunden_seit": grant.created_at,
        "zuletzt_erneuert": grant.refreshed_at,
        "laeuft_ab": grant.expires_at,
    }


class ApiRoutes:
    def __init__(self, server: OAuthServer) -> None:
        self.server = server

    def routes(self) -> list[Route]:
        return [
            Route("/.well-known/oauth-authorization-server", self.metadata, methods=["GET"]),
            Route("/token", self.token, methods=["POST"]),
            Route("/register", self.register, methods=["POST"]),
            Route("/revoke", self.revoke, methods=["POST"]),
            Route("/api/oauth/connections", self.connections, methods=["GET"]),
            Route("/api/oauth/connections/{grant_id}", self.disconnect, methods=["DELETE"]),
        ]

    async def metadata(self, request: Request) -> Response:
        return JSONResponse(
            metadata_document(issuer_of(request)), headers={"Cache-Control": "max-age=300"}
        )

    async def _form(self, request: Request) -> FormData:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
            raise OAuthError("invalid_request", "Anfrage zu groß.", status=413)
        if "application/x-www-form-urlencoded" not in request.headers.get("content-type", ""):
            raise OAuthError(
                "invalid_request", "Content-Type: application/x-www-form-urlencoded ist Pflicht."
            )
        return await request.form(max_files=0, max_fields=50)

    async def _client(self, request: Request, form: FormData) -> ClientRecord:
        basic = _basic(request)
        client_id = _single(form, "client_id")
        secret = _single(form, "client_secret")
        if basic is not None:
            if client_id and client_id != basic[0]:
                raise OAuthError("invalid_client", "client_id passt nicht zur Anmeldung.", 401)
            client_id, secret = basic
        if not client_id:
            raise OAuthError("invalid_client", "client_id fehlt.", 401)
        try:
            client = await self.server.directory.resolve(client_id, issuer_of(request))
        except CimdRefused as refused:
            raise OAuthError("invalid_client", str(refused), 401) from refused
        if client is None:
            raise OAuthError(
                "invalid_client", "client_id: dieser Client ist nicht (mehr) registriert.", 401
            )
        if not secret_matches(client, secret):
            raise OAuthError("invalid_client", "client_secret fehlt oder stimmt nicht.", 401)
        return client

    async def token(self, request: Request) -> Response:
        basic = request.headers.get("authorization", "").lower().startswith("basic ")
        try:
            form = await self._form(request)
            values = {name: _single(form, name) for name in _TOKEN_PARAMS}
            client = await self._client(request, form)
            grant_type = values["grant_type"]
            service = self.server.service
            answer: TokenAnswer
            if grant_type == "authorization_code":
                answer = await self.server.run(
                    service.exchange_code,
                    client,
                    values["code"],
                    values["redirect_uri"],
                    values["code_verifier"],
                    values["resource"],
                )
            elif grant_type == "refresh_token":
                answer = await self.server.run(
                    service.refresh,
                    client,
                    values["refresh_token"],
                    values["scope"],
                    values["resource"],
                )
            elif not grant_type:
                raise OAuthError("invalid_request", "grant_type fehlt.")
            else:
                raise OAuthError(
                    "unsupported_grant_type",
                    "grant_type: nur authorization_code und refresh_token.",
                )
        except OAuthError as error:
            return oauth_error(error, basic)
        return JSONResponse(answer.body(), headers=NO_STORE)

    async def register(self, request: Request) -> Response:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_REGISTRATION_BYTES:
            return oauth_error(OAuthError("invalid_client_metadata", "Anfrage zu groß.", 413))
        raw = await request.body()
        try:
            if len(raw) > MAX_REGISTRATION_BYTES:
                raise RegistrationRefused("invalid_client_metadata", "Anfrage zu groß.")
            try:
                body = json.loads(raw)
            except (ValueError, RecursionError) as exc:
                raise RegistrationRefused(
                    "invalid_client_metadata", "Der Rumpf ist kein gültiges JSON."
                ) from exc
            _, _, answer = await self.server.run(self.server.directory.register, body)
        except RegistrationRefused as refused:
            return JSONResponse(
                {"error": refused.error, "error_description": refused.description},
                status_code=400,
                headers=NO_STORE,
            )
        return JSONResponse(answer, status_code=201, headers=NO_STORE)

    async def revoke(self, request: Request) -> Response:
        basic = request.headers.get("authorization", "").lower().startswith("basic ")
        try:
            form = await self._form(request)
            token = _single(form, "token")
            client = await self._client(request, form)
            if not token:
                raise OAuthError("invalid_request", "token fehlt.")
        except OAuthError as error:
            return oauth_error(error, basic)
        root = issuer_of(request)
        await self.server.run(
            self.server.service.revoke_token, client, token, (root,), resources_of(root)
        )
        return Response(status_code=200, headers=NO_STORE)

    # --- the caller's connections ---------------------------------------------------------

    def _caller(self, request: Request) -> tuple[str, str] | Response:
        resolver = self.server.resolver
        error, description = "invalid_request", "Bearer-Token fehlt."
        if resolver is not None:
            try:
                principal = resolver.resolve(request.scope)
            except MissingCredentials:
                pass
            except InvalidToken:
                error, description = "invalid_token", "Token ungueltig oder abgelaufen."
            else:
                return principal.tenant, principal.subject
        challenge = unauthorized_challenge(request.scope, "/mcp", error, description)
        return JSONResponse(
            {"error": error, "error_description": description},
            status_code=401,
            headers={"WWW-Authenticate": challenge, **NO_STORE},
        )

    async def connections(self, request: Request) -> Response:
        caller = self._caller(request)
        if isinstance(caller, Response):
            return caller
        grants = await self.server.run(self.server.service.connections, *caller)
        return JSONResponse(
            {"verbindungen": [connection_view(grant) for grant in grants]}, headers=NO_STORE
        )

    async def disconnect(self, request: Request) -> Response:
        caller = self._caller(request)
        if isinstance(caller, Response):
            return caller
        grant_id = str(request.path_params.get("grant_id", ""))[:100]
        removed = await self.server.run(self.server.service.disconnect, *caller, grant_id)
        if not removed:
            error = FieldError("id", "nicht_gefunden: keine solche Verbindung.", Art.NOT_FOUND)
            return JSONResponse(
                {"fehler": [error.as_dict()]}, status_code=HTTP_STATUS[error.art], headers=NO_STORE
            )
        return Response(status_code=204, headers=NO_STORE)
