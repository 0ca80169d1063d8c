"""One request to the console: its session, its language, the REST client of the signed-in
person, and how pages, redirects and refusals are answered.

Invariants:
- Pages are rendered by Jinja2 with autoescaping; every answer carries a strict Content
  Security Policy (only Brain's own scripts and styles, no inline code), `no-store` caching
  (pages show personal data) and no referrer to other sites (a search text in the URL stays here).
- A POST is read only after `session.same_origin` and the session's CSRF token passed.
- REST answers are interpreted here once: 401 ends the session (sign in again), 404 is the
  console's one "not found" page — the same for a memory or team that is missing and one
  the person may not see, since the REST API already answers both alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from typing import Any, Final
from urllib.parse import parse_qs, urlencode

from fastapi import Request
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse, RedirectResponse, Response

from shared.console import i18n, oauth_client
from shared.console.rest import Answer, RestClient
from shared.console.session import (
    LANGUAGES,
    Session,
    SessionCipher,
    csrf_valid,
    same_origin,
    session_cipher,
    store,
)
from shared.rest.common import public_base, service_context
from shared.server.auth_middleware import public_base_url

CONSOLE_PATH: Final = "/console"
CIPHER_STATE: Final = "console_session_cipher"
FORM_MAX_BYTES: Final = 512 * 1024
CSRF_REFUSED: Final = (
    "Die Anfrage kam nicht aus dieser Konsole (Sicherheitsprüfung). Bitte die Seite neu "
    "laden und erneut senden."
)
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Cache-Control": "no-store",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


class Exit(Exception):
    """Ends the request with `response` (a redirect, the not-found page, a refusal)."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


@cache
def _environment() -> Environment:
    environment = Environment(
        loader=PackageLoader("shared.console", "templates"),
        autoescape=select_autoescape(default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return environment


@cache
def asset(name: str) -> bytes:
    return (files("shared.console") / "static" / name).read_bytes()


def _cipher(request: Request) -> SessionCipher | None:
    state = request.app.state
    if not hasattr(state, CIPHER_STATE):
        setattr(state, CIPHER_STATE, session_cipher(service_context(request).settings))
    cipher: SessionCipher | None = getattr(state, CIPHER_STATE)
    return cipher


def _local_target(value: str | None, base: str) -> str:
    """A path inside the console to return to; anything else is the console's start."""
    if value and value.startswith(base + "/") and "//" not in value and "\\" not in value:
        return value
    return base + "/"


@dataclass
class Visit:
    request: Request
    cipher: SessionCipher
    session: Session
    changed: bool = False

    @classmethod
    def of(cls, request: Request) -> Visit:
        cipher = _cipher(request)
        if cipher is None:
            text = i18n.translate("Die Konsole ist nicht eingerichtet", "de")
            raise Exit(HTMLResponse(text, status_code=503, headers=SECURITY_HEADERS))
        opened = cipher.open(request.cookies.get("brain_console"))
        if opened is None:
            return cls(request, cipher, Session.fresh(), changed=True)
        return cls(request, cipher, opened)

    # --- addresses and words ---------------------------------------------------------------

    @property
    def base(self) -> str:
        return public_base(self.request) + CONSOLE_PATH

    def url(self, path: str = "/", **params: Any) -> str:
        query = urlencode({k: v for k, v in params.items() if v not in (None, "", [])}, doseq=True)
        return self.base + path + (f"?{query}" if query else "")

    def here(self) -> str:
        query = self.request.url.query
        return self.request.url.path + (f"?{query}" if query else "")

    def t(self, text: str, **values: Any) -> str:
        return i18n.translate(text, self.session.lang, **values)

    def back_to(self, value: str | None) -> str:
        return _local_target(value, self.base)

    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES and lang != self.session.lang:
            self.session = replace(self.session, lang=lang)
            self.changed = True

    # --- the person ------------------------------------------------------------------------

    def client(self, token: str) -> RestClient:
        """The REST client with `token`, addressing the API as this request's browser did;
        with a refresh token in the session, a 401 renews the access token once."""
        renew = self._renew if self.session.refresh and token == self.session.token else None
        return RestClient(
            self.request.app,
            token,
            origin=public_base_url(self.request.scope),
            root_path=str(self.request.scope.get("root_path", "")),
            renew=renew,
        )

    def rest(self) -> RestClient:
        """The REST client as the signed-in person; to the sign-in page if there is none."""
        if not self.session.token:
            raise Exit(self.redirect("/anmelden", zurueck=self.here()))
        return self.client(self.session.token)

    async def _renew(self) -> str | None:
        """A new access token from the refresh token (which rotates), kept in the session.
        None when the authorization server refuses it (then the 401 ends the session)."""
        answer = await oauth_client.tokens(
            self.request, {"grant_type": "refresh_token", "refresh_token": self.session.refresh}
        )
        if answer is None:
            return None
        access = str(answer["access_token"])
        refresh = str(answer.get("refresh_token") or "")
        self.begin(replace(self.session, token=access, refresh=refresh))
        return access

    def begin(self, session: Session) -> None:
        self.session = session
        self.changed = True

    def expect(self, answer: Answer, *, not_found: str = "") -> Answer:
        """`answer` if the REST API accepted the call or refused the input (to show in the
        form); the end of the request for an expired session or something not found."""
        if answer.status == 401:
            self.begin(Session.fresh(self.session.lang))
            raise Exit(self.redirect("/anmelden", hinweis="abgelaufen"))
        if answer.status == 404:
            raise Exit(self.page("nicht_gefunden.html", status=404, gesucht=not_found))
        if answer.status == 403:
            raise Exit(self.page("verweigert.html", status=403, fehler=answer.field_errors()))
        if answer.status >= 500:
            raise Exit(self.page("stoerung.html", status=503, fehler=answer.field_errors()))
        return answer

    def one(self, answer: Answer, name: str) -> Any:
        """The body of a read of one thing (a memory, project, team) named by the person in
        the URL; a name the API refuses as malformed is "not found" like a missing one."""
        if answer.status == 422:
            answer = Answer(404, answer.body)
        return self.expect(answer, not_found=name[:60]).body

    # --- forms -----------------------------------------------------------------------------

    async def form(self) -> dict[str, list[str]]:
        """The posted form, once its origin and CSRF token passed (403 page otherwise)."""
        body = await self.request.body()
        fields = parse_qs(body[:FORM_MAX_BYTES].decode("utf-8", "replace"), keep_blank_values=True)
        sent = fields.get("csrf", [""])[0]
        if (
            len(body) > FORM_MAX_BYTES
            or not same_origin(self.request.scope)
            or not csrf_valid(self.session, sent)
        ):
            raise Exit(
                self.page("verweigert.html", status=403, fehler=[("", self.t(CSRF_REFUSED))])
            )
        return fields

    # --- answers ---------------------------------------------------------------------------

    def finish(self, response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        if self.changed:
            store(response, self.cipher, self.session, self.request.scope, self.base + "/")
        return response

    def page(self, template: str, *, status: int = 200, **context: Any) -> Response:
        other = "en" if self.session.lang == "de" else "de"
        values: Mapping[str, Any] = {
            "t": self.t,
            "url": self.url,
            "root": public_base(self.request),
            "static": lambda name: f"{self.base}/static/{name}",
            "lang": self.session.lang,
            "other_lang": other,
            "lang_url": self.url("/sprache", zu=other, zurueck=self.here()),
            "csrf": self.session.csrf,
            "signed_in": self.session.signed_in,
            "nutzer": self.session.nutzer,
            "section": "",
            "notice": "",
            **context,
        }
        html = _environment().get_template(template).render(values)
        return self.finish(HTMLResponse(html, status_code=status))

    def redirect(self, path: str, **params: Any) -> Response:
        return self.finish(RedirectResponse(self.url(path, **params), status_code=303))

    def redirect_to(self, target: str) -> Response:
        return self.finish(RedirectResponse(self.back_to(target), status_code=303))
