"""The browser's part of the authorization code flow: /authorize → sign-in → consent → the
client's redirect URI with `code`, `state` and `iss` (RFC 9207).

Until the client and its redirect URI are known to be valid, errors are an HTML page (never a
redirect); after that, an error redirects to the client with `error`, `state` and `iss`. The
pending authorization is bound to the browser that started it (an HttpOnly cookie whose
hash it stores) and every form carries its CSRF token.
"""

from __future__ import annotations

import dataclasses
import hmac
import secrets
from typing import Final

from fastmcp.server.auth.redirect_validation import build_client_redirect
from starlette.datastructures import FormData, QueryParams
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from shared.auth.oauth.cimd import CimdRefused
from shared.auth.oauth.clients import CONSOLE_CLIENT_ID
from shared.auth.oauth.grants import (
    AuthorizeRequest,
    OAuthError,
    check_pkce_challenge,
    check_state,
    requested_scopes,
)
from shared.auth.oauth.login import LoginRefused, local_user_login, token_login
from shared.auth.oauth.pages import (
    TEXT,
    ConsentView,
    Lang,
    consent_page,
    error_page,
    language,
    login_page,
)
from shared.auth.oauth.records import ClientRecord, Identity, PendingAuthorization
from shared.auth.oauth.redirects import origin, redirect_allowed, redirect_host
from shared.auth.oauth.resource import resources_of
from shared.auth.oauth.server import (
    BROWSER_COOKIE,
    BROWSER_COOKIE_S,
    MAX_FORM_BYTES,
    OAuthServer,
    issuer_of,
)
from shared.auth.oauth.upstream import CALLBACK_PATH

_PARAMS: Final = (
    "client_id",
    "redirect_uri",
    "response_type",
    "code_challenge",
    "code_challenge_method",
    "state",
    "scope",
    "resource",
)
EXPIRED: Final = (
    "Diese Anmeldung ist abgelaufen oder gehört zu einem anderen Browser. Bitte im Client "
    "erneut verbinden."
)


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303, headers={"Cache-Control": "no-store"})


def _single(params: QueryParams | FormData, name: str) -> str | None:
    values = params.getlist(name)
    if len(values) > 1:
        raise OAuthError("invalid_request", f"{name}: höchstens einmal angeben.")
    value = values[0] if values else None
    return value if isinstance(value, str) else None


async def _form(request: Request) -> FormData:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        raise OAuthError("invalid_request", "Anfrage zu groß.", status=413)
    return await request.form(max_files=0, max_fields=50)


def client_redirect(pending: PendingAuthorization, **params: str) -> RedirectResponse:
    if pending.state is not None:
        params["state"] = pending.state
    return _redirect(build_client_redirect(pending.redirect_uri, params, iss=pending.issuer))


class BrowserRoutes:
    def __init__(self, server: OAuthServer) -> None:
        self.server = server

    def routes(self) -> list[Route]:
        return [
            Route("/authorize", self.authorize, methods=["GET", "POST"]),
            Route("/oauth/login", self.login_form, methods=["GET"]),
            Route("/oauth/login", self.login_submit, methods=["POST"]),
            Route(CALLBACK_PATH, self.upstream_callback, methods=["GET"]),
            Route("/oauth/consent", self.consent_form, methods=["GET"]),
            Route("/oauth/consent", self.consent_submit, methods=["POST"]),
        ]

    # --- /authorize ------------------------------------------------------------------------

    async def authorize(self, request: Request) -> Response:
        lang = language(request)
        try:
            params: QueryParams | FormData = (
                request.query_params if request.method == "GET" else await _form(request)
            )
            values = {name: _single(params, name) for name in _PARAMS}
        except OAuthError as error:
            return error_page(error.description, lang, error.status).response()
        root = issuer_of(request)
        client_id = values["client_id"] or ""
        try:
            client = await self.server.directory.resolve(client_id, root)
        except CimdRefused as refused:
            return error_page(str(refused), lang).response()
        if client is None:
            return error_page("client_id: dieser Client ist nicht registriert.", lang).response()
        redirect_uri = values["redirect_uri"] or ""
        if not redirect_allowed(redirect_uri, client.redirect_uris):
            return error_page(
                "redirect_uri: keine der registrierten Adressen dieses Clients.", lang
            ).response()
        state = values["state"]
        try:
            state = check_state(state)
            if values["response_type"] != "code":
                raise OAuthError("unsupported_response_type", "response_type: nur code.")
            challenge = check_pkce_challenge(
                values["code_challenge"], values["code_challenge_method"]
            )
            resource = values["resource"] or resources_of(root)[0]
            if resource not in resources_of(root):
                raise OAuthError(
                    "invalid_target", "resource: nur die Ressourcen dieses Servers (/mcp, /api)."
                )
        except OAuthError as error:
            params_out = {"error": error.error, "error_description": error.description}
            if state is not None and len(state) <= 1000:
                params_out["state"] = state
            return _redirect(build_client_redirect(redirect_uri, params_out, iss=root))
        browser = request.cookies.get(BROWSER_COOKIE, "")
        if len(browser) != 43:
            browser = secrets.token_urlsafe(32)
        pending = await self.server.run(
            self.server.service.begin,
            AuthorizeRequest(
                client=client,
                redirect_uri=redirect_uri,
                code_challenge=challenge,
                scopes=requested_scopes(values["scope"], client),
                resource=resource,
                state=state,
            ),
            root,
            browser,
        )
        response = await self._after_start(request, pending, client, lang)
        self.server.set_cookie(request, response, BROWSER_COOKIE, browser, BROWSER_COOKIE_S)
        return response

    async def _after_start(
        self, request: Request, pending: PendingAuthorization, client: ClientRecord, lang: Lang
    ) -> Response:
        identity = self.server.session_identity(request)
        if identity is not None:
            return await self._signed_in(request, pending, identity, lang)
        if self.server.upstream is not None:
            try:
                start = await self.server.upstream.start(
                    pending.tx_id, issuer_of(request) + CALLBACK_PATH
                )
            except LoginRefused as refused:
                return error_page(str(refused), lang, 502).response()
            await self.server.run(
                self.server.state.put_pending,
                dataclasses.replace(
                    pending, upstream_verifier=start.verifier, upstream_nonce=start.nonce
                ),
            )
            return _redirect(start.url)
        return _redirect(f"/oauth/login?tx={pending.tx_id}&lang={lang}")

    async def _signed_in(
        self, request: Request, pending: PendingAuthorization, identity: Identity, lang: Lang
    ) -> Response:
        pending = await self.server.run(self.server.service.signed_in, pending, identity)
        if pending.client_id == CONSOLE_CLIENT_ID:  # first party: no consent page
            return await self._approve(pending, pending.scopes)
        response = _redirect(f"/oauth/consent?tx={pending.tx_id}&lang={lang}")
        self.server.remember_session(request, response, identity)
        return response

    async def _pending(self, request: Request, tx_id: str | None) -> PendingAuthorization | None:
        browser = request.cookies.get(BROWSER_COOKIE, "")
        result: PendingAuthorization | None = await self.server.run(
            self.server.service.pending, tx_id or "", browser
        )
        return result

    # --- sign-in ---------------------------------------------------------------------------

    async def login_form(self, request: Request) -> Response:
        lang = language(request)
        pending = await self._pending(request, request.query_params.get("tx"))
        if pending is None:
            return error_page(EXPIRED, lang).response()
        client = await self._client_of(request, pending)
        return login_page(
            pending.tx_id,
            pending.csrf,
            client.client_name if client else pending.client_id,
            lang,
            passwords=self.server.local_users,
        ).response()

    async def _submitted(
        self, request: Request, *, signed_in: bool
    ) -> tuple[FormData, PendingAuthorization, Lang] | Response:
        """A posted form of this browser's pending authorization with its CSRF token (and,
        for the consent, its signed-in identity), or the error page."""
        try:
            form = await _form(request)
            tx_id, csrf = _single(form, "tx"), _single(form, "csrf")
            lang = language(request, _single(form, "lang"))
        except OAuthError as error:
            return error_page(error.description, language(request), error.status).response()
        pending = await self._pending(request, tx_id)
        if (
            pending is None
            or (signed_in and pending.identity is None)
            or not hmac.compare_digest(pending.csrf, csrf or "")
        ):
            return error_page(EXPIRED, lang).response()
        return form, pending, lang

    async def login_submit(self, request: Request) -> Response:
        submitted = await self._submitted(request, signed_in=False)
        if isinstance(submitted, Response):
            return submitted
        form, pending, lang = submitted
        try:
            if _single(form, "method") == "token" and self.server.token_login is not None:
                identity = await self.server.run(
                    token_login, self.server.token_login, _single(form, "token") or ""
                )
            elif self.server.local_users:
                identity = await self.server.run(
                    local_user_login,
                    self.server.state,
                    _single(form, "username") or "",
                    _single(form, "password") or "",
                )
            else:
                raise LoginRefused("Anmeldung fehlgeschlagen.")
        except LoginRefused as refused:
            client = await self._client_of(request, pending)
            page = login_page(
                pending.tx_id,
                pending.csrf,
                client.client_name if client else pending.client_id,
                lang,
                failed=str(refused),
                passwords=self.server.local_users,
            )
            return dataclasses.replace(page, status=401).response()
        return await self._signed_in(request, pending, identity, lang)

    async def upstream_callback(self, request: Request) -> Response:
        lang = language(request)
        upstream = self.server.upstream
        pending = await self._pending(request, request.query_params.get("state"))
        if upstream is None or pending is None or not pending.upstream_verifier:
            return error_page(EXPIRED, lang).response()
        if request.query_params.get("error"):
            return client_redirect(
                pending,
                error="access_denied",
                error_description="Die Anmeldung beim Anmeldedienst wurde abgebrochen.",
            )
        try:
            identity = await upstream.finish(
                request.query_params.get("code", ""),
                pending.upstream_verifier,
                pending.upstream_nonce,
                issuer_of(request) + CALLBACK_PATH,
            )
        except LoginRefused as refused:
            return error_page(str(refused), lang, 401).response()
        return await self._signed_in(request, pending, identity, lang)

    # --- consent ---------------------------------------------------------------------------

    async def _client_of(
        self, request: Request, pending: PendingAuthorization
    ) -> ClientRecord | None:
        try:
            return await self.server.directory.resolve(pending.client_id, issuer_of(request))
        except CimdRefused:
            return None

    async def consent_form(self, request: Request) -> Response:
        lang = language(request)
        pending = await self._pending(request, request.query_params.get("tx"))
        if pending is None or pending.identity is None:
            return error_page(EXPIRED, lang).response()
        client = await self._client_of(request, pending)
        if client is None:
            return error_page(
                "client_id: dieser Client ist nicht mehr registriert.", lang
            ).response()
        scopes = self.server.service.grantable(pending)
        if not scopes:
            return client_redirect(
                pending,
                error="invalid_scope",
                error_description="Das Konto besitzt keinen der erbetenen Scopes.",
            )
        view = ConsentView(
            tx_id=pending.tx_id,
            csrf=pending.csrf,
            client_name=client.client_name,
            client_id=client.client_id,
            origin_text=_origin_text(client, lang),
            redirect_host=redirect_host(pending.redirect_uri),
            redirect_origin=origin(pending.redirect_uri) or redirect_host(pending.redirect_uri),
            profile=client.profile,
            user=pending.identity.label,
            scopes=scopes,
            areas=tuple(pending.identity.areas()),
        )
        return consent_page(view, lang).response()

    async def consent_submit(self, request: Request) -> Response:
        submitted = await self._submitted(request, signed_in=True)
        if isinstance(submitted, Response):
            return submitted
        form, pending, _ = submitted
        if _single(form, "decision") != "allow":
            await self.server.run(self.server.state.delete_pending, pending.tx_id)
            return client_redirect(
                pending, error="access_denied", error_description="Der Zugriff wurde abgelehnt."
            )
        chosen = [value for value in form.getlist("scope") if isinstance(value, str)]
        return await self._approve(pending, chosen)

    async def _approve(self, pending: PendingAuthorization, chosen: object) -> Response:
        try:
            code = await self.server.run(self.server.service.approve, pending, chosen)
        except OAuthError as error:
            return client_redirect(pending, error=error.error, error_description=error.description)
        return client_redirect(pending, code=code)


def _origin_text(client: ClientRecord, lang: Lang) -> str:
    """Plain text (the page escapes it)."""
    if client.kind == "cimd":
        return TEXT["origin_cimd"][lang].format(host=redirect_host(client.client_id))
    if client.kind == "builtin":
        return TEXT["origin_builtin"][lang]
    return TEXT["origin_dcr"][lang]
