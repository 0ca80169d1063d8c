"""All routes of the authorization server, for `brain serve` and the OAuth Lambda alike."""

from __future__ import annotations

from starlette.routing import BaseRoute

from shared.auth.oauth.api_routes import ApiRoutes
from shared.auth.oauth.browser_routes import BrowserRoutes
from shared.auth.oauth.server import OAuthServer


def oauth_routes(server: OAuthServer) -> list[BaseRoute]:
    return [*ApiRoutes(server).routes(), *BrowserRoutes(server).routes()]
