"""Signing in to the console with a Brain account: the console is the public first-party
client `brain-console` of Brain's own authorization server (issue 23) — authorization code
with PKCE (S256), redirect `<root>/console/callback`, no consent page for it.

Invariants:
- `<root>` is this server's public root as the authorization server derives its issuer
  (`public_root`): the redirect URI, the resource `<root>/api` and the expected `iss` agree
  with what the server checks and signs.
- The PKCE verifier, the `state` and the root the flow started at live only in the sealed
  session. The callback is accepted only with that state, from that issuer (`iss`, RFC 9207,
  required: the server always sends it), and once: the pending flow is cleared whatever the
  callback brings.
- The code is exchanged on the server side (`oauth_client`, this deployment's own token
  endpoint); the access and refresh tokens go into the sealed session only, and only after
  the REST API accepted the access token (`GET /api/identitaet`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import replace
from typing import Final
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from shared.console import oauth_client
from shared.console.people_pages import sign_in_page
from shared.console.visit import Visit
from shared.server.auth_middleware import public_root

REFUSED: Final = "Die Anmeldung mit dem Brain-Konto hat nicht geklappt. Bitte erneut versuchen."
STATE_MAX: Final = 200

router = APIRouter()


def challenge_of(verifier: str) -> str:
    """RFC 7636 S256: BASE64URL(SHA256(verifier)) without padding."""
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _refused(visit: Visit, back: str) -> Response:
    return sign_in_page(visit, [("", visit.t(REFUSED))], back, 400)


@router.get("/anmelden/konto")
async def start(request: Request) -> Response:
    visit = Visit.of(request)
    back = visit.back_to(request.query_params.get("zurueck"))
    if oauth_client.endpoint(request) is None:
        return visit.redirect("/anmelden", zurueck=back)
    root = public_root(request.scope)
    verifier, state = secrets.token_urlsafe(48), secrets.token_urlsafe(24)
    pending = {"state": state, "verifier": verifier, "root": root, "zurueck": back}
    visit.begin(replace(visit.session, oauth=pending))
    query = urlencode(
        {
            "response_type": "code",
            "client_id": oauth_client.CLIENT_ID,
            "redirect_uri": root + oauth_client.CALLBACK_PATH,
            "state": state,
            "code_challenge": challenge_of(verifier),
            "code_challenge_method": "S256",
            "scope": oauth_client.SCOPES,
            "resource": root + "/api",
        }
    )
    return visit.finish(RedirectResponse(f"{root}/authorize?{query}", status_code=303))


@router.get("/callback")
async def callback(request: Request) -> Response:
    visit = Visit.of(request)
    pending = dict(visit.session.oauth)
    visit.begin(replace(visit.session, oauth={}))  # a callback is used once
    back = visit.back_to(pending.get("zurueck"))
    params = request.query_params
    code, state, root = params.get("code", ""), params.get("state", ""), pending.get("root", "")
    if (
        not pending
        or params.get("error")
        or not code
        or len(state) > STATE_MAX
        or not hmac.compare_digest(pending.get("state", "").encode(), state.encode())
        or params.get("iss") != root
    ):
        return _refused(visit, back)
    answer = await oauth_client.tokens(
        request,
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": root + oauth_client.CALLBACK_PATH,
            "code_verifier": pending.get("verifier", ""),
        },
    )
    if answer is None:
        return _refused(visit, back)
    access, refresh = str(answer["access_token"]), str(answer.get("refresh_token") or "")
    me = await visit.client(access).get("/api/identitaet")
    if not me.ok:
        await oauth_client.revoke(request, refresh)
        return _refused(visit, back)
    visit.begin(visit.session.signed_in_with(access, str(me.body["nutzer"]), refresh))
    return visit.redirect_to(back)
