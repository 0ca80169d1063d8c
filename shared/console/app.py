"""The Brain console (`/console/…`, with `/` leading there): server-rendered pages (Jinja2)
with htmx for live search, every script and style served from this package.

Invariants:
- Built on the REST API alone (`console.rest`): the console holds no data path of its own.
- Installed into the REST app, so `brain serve` and the REST Lambda serve it alike; its
  routes are not part of any OpenAPI document.
- Static assets are a fixed set of files of this package (no path from the request reaches
  the file system).
"""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, FastAPI, Request
from starlette.responses import RedirectResponse, Response

from shared.console import memory_pages, oauth_pages, people_pages
from shared.console.visit import CONSOLE_PATH, SECURITY_HEADERS, Exit, asset
from shared.rest.common import public_base

ASSETS: Final = {
    "htmx.min.js": "text/javascript; charset=utf-8",
    "console.css": "text/css; charset=utf-8",
}
ASSET_CACHE: Final = "public, max-age=3600"


def _static(name: str) -> Response:
    media = ASSETS.get(name)
    if media is None:
        return Response("Nicht gefunden", status_code=404, headers=SECURITY_HEADERS)
    headers = {**SECURITY_HEADERS, "Cache-Control": ASSET_CACHE}
    return Response(asset(name), media_type=media, headers=headers)


async def _exit(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Exit)
    return exc.response


def install(app: FastAPI) -> None:
    """Add the console's routes and `/` (a redirect to the console) to the REST app."""
    assets = APIRouter()
    assets.add_api_route("/static/{name}", _static, methods=["GET"])
    for router in (assets, people_pages.router, oauth_pages.router, memory_pages.router):
        app.include_router(router, prefix=CONSOLE_PATH, include_in_schema=False)

    def root(request: Request) -> Response:
        target = f"{public_base(request)}{CONSOLE_PATH}/"
        return RedirectResponse(target, status_code=303, headers=SECURITY_HEADERS)

    app.add_api_route("/", root, methods=["GET"], include_in_schema=False)
    app.add_exception_handler(Exit, _exit)
