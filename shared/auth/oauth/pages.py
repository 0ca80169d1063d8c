"""The authorization server's HTML pages (login, consent, error), German and English.

Every value shown is HTML-escaped; no script runs (CSP `default-src 'none'`, one inline style
by nonce); the pages are not framed (`frame-ancestors 'none'`), not cached, and forms post only
to this server (and, after consent, its redirect to the client's origin). The language is the
`lang` parameter's, else the first of de/en in Accept-Language, else German.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from html import escape
from typing import Final, Literal

from starlette.requests import Request
from starlette.responses import HTMLResponse

Lang = Literal["de", "en"]

SCOPE_TEXT: Final[dict[str, dict[Lang, str]]] = {
    "memory:read": {"de": "Erinnerungen lesen und suchen", "en": "Read and search memories"},
    "memory:write": {
        "de": "Erinnerungen speichern, bewerten, ändern und löschen",
        "en": "Store, rate, change and delete memories",
    },
    "brain:read": {"de": "Kontextwissen (Brain) lesen", "en": "Read context knowledge (brain)"},
    "brain:write": {
        "de": "Kontextwissen (Brain) anlegen und pflegen",
        "en": "Create and maintain context knowledge (brain)",
    },
}

TEXT: Final[dict[str, dict[Lang, str]]] = {
    "consent_title": {"de": "Zugriff erlauben?", "en": "Allow access?"},
    "consent_lead": {
        "de": "<b>{client}</b> möchte als <b>{user}</b> auf Brain zugreifen.",
        "en": "<b>{client}</b> wants to access Brain as <b>{user}</b>.",
    },
    "client_id": {"de": "Client-ID", "en": "Client ID"},
    "origin": {"de": "Herkunft", "en": "Origin"},
    "origin_cimd": {
        "de": "Metadaten-Dokument auf {host} (geprüft)",
        "en": "Metadata document on {host} (verified)",
    },
    "origin_dcr": {
        "de": "selbst registriert (Name nicht geprüft)",
        "en": "self-registered (name not verified)",
    },
    "origin_builtin": {"de": "eingebaut", "en": "built in"},
    "redirect": {"de": "Zurück an", "en": "Returns to"},
    "profile": {"de": "Profil", "en": "Profile"},
    "profile_note": {
        "de": "Plugin-Profil {profile}: create_project ist nicht erlaubt.",
        "en": "Plugin profile {profile}: create_project is not allowed.",
    },
    "scopes": {"de": "Berechtigungen", "en": "Permissions"},
    "areas": {"de": "Bereiche", "en": "Areas"},
    "areas_projects": {
        "de": "sowie die Projekte, in denen Sie Mitglied sind",
        "en": "and the projects you are a member of",
    },
    "allow": {"de": "Erlauben", "en": "Allow"},
    "deny": {"de": "Ablehnen", "en": "Deny"},
    "revoke_hint": {
        "de": "Verbindungen trennen: <code>brain oauth revoke</code> oder "
        "<code>DELETE /api/oauth/connections/&lt;id&gt;</code>.",
        "en": "Disconnect at any time: <code>brain oauth revoke</code> or "
        "<code>DELETE /api/oauth/connections/&lt;id&gt;</code>.",
    },
    "login_title": {"de": "Bei Brain anmelden", "en": "Sign in to Brain"},
    "login_lead": {
        "de": "<b>{client}</b> bittet um Zugriff. Melden Sie sich zuerst an.",
        "en": "<b>{client}</b> asks for access. Please sign in first.",
    },
    "username": {"de": "Nutzername", "en": "User name"},
    "password": {"de": "Passwort", "en": "Password"},
    "sign_in": {"de": "Anmelden", "en": "Sign in"},
    "token_title": {"de": "… oder mit einem Brain-Token", "en": "… or with a Brain token"},
    "token_hint": {
        "de": "Das Token, das <code>brain serve</code> oder <code>brain token</code> ausgibt.",
        "en": "The token printed by <code>brain serve</code> or <code>brain token</code>.",
    },
    "token": {"de": "Token", "en": "Token"},
    "error_title": {"de": "Anmeldung nicht möglich", "en": "Sign-in not possible"},
    "other_lang": {"de": "English", "en": "Deutsch"},
}

_STYLE: Final = (
    "body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}"
    "main{max-width:34rem;margin:3rem auto;background:#fff;border-radius:12px;"
    "padding:2rem 2.2rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}"
    "h1{font-size:1.4rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;"
    "gap:.3rem 1rem;font-size:.92rem}dt{color:#5b6475}dd{margin:0;word-break:break-all}"
    "ul{padding-left:1.2rem}li{margin:.25rem 0}label{display:block;margin:.6rem 0 .2rem}"
    "input[type=text],input[type=password],textarea{width:100%;box-sizing:border-box;"
    "padding:.5rem;border:1px solid #c6cbd6;border-radius:6px;font:inherit}"
    ".row{display:flex;gap:.8rem;margin-top:1.4rem}button{flex:1;padding:.65rem;"
    "border-radius:6px;border:1px solid #2456d6;font:inherit;cursor:pointer}"
    ".allow{background:#2456d6;color:#fff}.deny{background:#fff;color:#2456d6}"
    ".note{color:#5b6475;font-size:.85rem}.error{color:#b3261e}code{font-size:.85em}"
    "nav{text-align:right;font-size:.85rem}h2{font-size:1rem;margin:1.4rem 0 .4rem}"
)


def language(request: Request, chosen: str | None = None) -> Lang:
    wanted = (chosen or request.query_params.get("lang") or "").lower()
    if wanted in ("de", "en"):
        return "de" if wanted == "de" else "en"
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in ("de", "en"):
            return "de" if tag == "de" else "en"
    return "de"


def t(key: str, lang: Lang, **values: str) -> str:
    """The text `key` in `lang`, with `values` escaped into it."""
    return TEXT[key][lang].format(**{name: escape(value) for name, value in values.items()})


@dataclass(frozen=True)
class Page:
    title: str
    body: str
    lang: Lang
    form_targets: tuple[str, ...] = ()
    status: int = 200

    def response(self) -> HTMLResponse:
        nonce = secrets.token_urlsafe(16)
        targets = " ".join(("'self'", *self.form_targets))
        policy = (
            f"default-src 'none'; style-src 'nonce-{nonce}'; img-src 'self' data:; "
            f"form-action {targets}; frame-ancestors 'none'; base-uri 'none'"
        )
        html = (
            f'<!doctype html><html lang="{self.lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            '<meta name="referrer" content="same-origin">'
            '<link rel="icon" href="data:,">'  # no /favicon.ico request (a 404)
            f"<title>{escape(self.title)} · Brain</title>"
            f'<style nonce="{nonce}">{_STYLE}</style></head>'
            f"<body><main>{self.body}</main></body></html>"
        )
        return HTMLResponse(
            html,
            status_code=self.status,
            headers={
                "Content-Security-Policy": policy,
                "X-Frame-Options": "DENY",
                "Cache-Control": "no-store",
                "Referrer-Policy": "same-origin",
                "X-Content-Type-Options": "nosniff",
            },
        )


def hidden(name: str, value: str) -> str:
    return f'<input type="hidden" name="{name}" value="{escape(value)}">'


def error_page(message: str, lang: Lang, status: int = 400) -> Page:
    body = f'<h1>{t("error_title", lang)}</h1><p class="error">{escape(message)}</p>'
    return Page(t("error_title", lang), body, lang, status=status)


def language_switch(path: str, tx_id: str, lang: Lang) -> str:
    other = "en" if lang == "de" else "de"
    href = f"{escape(path)}?tx={escape(tx_id)}&amp;lang={other}"
    return f'<nav><a href="{href}">{t("other_lang", lang)}</a></nav>'


def login_page(
    tx_id: str, csrf: str, client_name: str, lang: Lang, *, failed: str = "", passwords: bool = True
) -> Page:
    parts = [
        language_switch("/oauth/login", tx_id, lang),
        f"<h1>{t('login_title', lang)}</h1>",
        f"<p>{t('login_lead', lang, client=client_name)}</p>",
    ]
    if failed:
        parts.append(f'<p class="error" id="login-error">{escape(failed)}</p>')
    common = hidden("tx", tx_id) + hidden("csrf", csrf) + hidden("lang", lang)
    if passwords:
        parts.append(
            '<form method="post" action="/oauth/login" id="password-login">'
            f"{common}{hidden('method', 'password')}"
            f'<label for="username">{t("username", lang)}</label>'
            '<input type="text" id="username" name="username" autocomplete="username" required>'
            f'<label for="password">{t("password", lang)}</label>'
            '<input type="password" id="password" name="password" '
            'autocomplete="current-password" required>'
            f'<div class="row"><button class="allow" type="submit">{t("sign_in", lang)}</button>'
            "</div></form>"
        )
    parts.append(
        f"<h2>{t('token_title', lang)}</h2>"
        '<form method="post" action="/oauth/login" id="token-login">'
        f"{common}{hidden('method', 'token')}"
        f'<p class="note">{t("token_hint", lang)}</p>'
        f'<label for="token">{t("token", lang)}</label>'
        '<textarea id="token" name="token" rows="3" required></textarea>'
        f'<div class="row"><button class="allow" type="submit">{t("sign_in", lang)}</button>'
        "</div></form>"
    )
    return Page(t("login_title", lang), "".join(parts), lang)


@dataclass(frozen=True)
class ConsentView:
    tx_id: str
    csrf: str
    client_name: str
    client_id: str
    origin_text: str
    redirect_host: str
    redirect_origin: str
    profile: str
    user: str
    scopes: tuple[str, ...]
    areas: tuple[str, ...]


def consent_page(view: ConsentView, lang: Lang) -> Page:
    scope_items = "".join(
        f'<li><label><input type="checkbox" name="scope" value="{escape(scope)}" checked> '
        f"<code>{escape(scope)}</code> — {escape(SCOPE_TEXT[scope][lang])}</label></li>"
        for scope in view.scopes
    )
    area_items = "".join(f"<li><code>{escape(area)}</code></li>" for area in view.areas)
    area_items += f'<li class="note">{t("areas_projects", lang)}</li>'
    profile = (
        f"<dt>{t('profile', lang)}</dt><dd>{t('profile_note', lang, profile=view.profile)}</dd>"
        if view.profile
        else ""
    )
    body = (
        language_switch("/oauth/consent", view.tx_id, lang)
        + f"<h1>{t('consent_title', lang)}</h1>"
        + f"<p>{t('consent_lead', lang, client=view.client_name, user=view.user)}</p>"
        + f"<dl><dt>{t('client_id', lang)}</dt><dd><code>{escape(view.client_id)}</code></dd>"
        + f"<dt>{t('origin', lang)}</dt><dd>{escape(view.origin_text)}</dd>"
        + f"<dt>{t('redirect', lang)}</dt><dd><code>{escape(view.redirect_host)}</code></dd>"
        + f"{profile}</dl>"
        + '<form method="post" action="/oauth/consent" id="consent">'
        + hidden("tx", view.tx_id)
        + hidden("csrf", view.csrf)
        + hidden("lang", lang)
        + f"<h2>{t('scopes', lang)}</h2><ul>{scope_items}</ul>"
        + f"<h2>{t('areas', lang)}</h2><ul>{area_items}</ul>"
        + '<div class="row">'
        + _button("deny", t("deny", lang))
        + _button("allow", t("allow", lang))
        + "</div></form>"
        + f'<p class="note">{t("revoke_hint", lang)}</p>'
    )
    targets = (view.redirect_origin,) if view.redirect_origin else ()
    return Page(t("consent_title", lang), body, lang, form_targets=targets)


def _button(decision: str, label: str) -> str:
    return (
        f'<button class="{decision}" type="submit" name="decision" value="{decision}" '
        f'id="{decision}">{label}</button>'
    )
