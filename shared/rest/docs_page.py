"""Interactive API pages (`/docs/api/<resource>`): Swagger UI over a resource's OpenAPI 3.1
document, with every script and style served by Brain itself (no CDN, works offline), and
`/docs`: the list of those pages (title and summary from each resource's own document), the
console, the MCP endpoint — a static page without any script.

The assets come from the installed `fastapi-offline` package (Swagger UI 5, which reads
OpenAPI 3.1). URLs in the page are relative, so it also works under an API Gateway stage.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from html import escape
from importlib.resources import files
from typing import Final

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from shared.rest.problems import ApiProblem
from shared.validation.errors import FieldError

DOCS_PREFIX: Final = "/docs/api"
ASSETS: Final = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}
INDEX_PATH: Final = "/docs"
INDEX_SECURITY_POLICY: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"
)
# The page itself: strict enough that nothing but Brain's own assets can load.
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"
)


@cache
def _asset(name: str) -> bytes:
    return (files("fastapi_offline") / "static" / name).read_bytes()


def _page(title: str, spec_url: str, intro: str) -> str:
    config = {
        "url": spec_url,
        "dom_id": "#swagger-ui",
        "deepLinking": True,
        "persistAuthorization": True,
        "tryItOutEnabled": True,
        "displayRequestDuration": True,
        "defaultModelsExpandDepth": 1,
        "docExpansion": "list",
        "filter": True,
    }
    return f"""<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title}</title>
<link rel="stylesheet" href="assets/swagger-ui.css">
<link rel="icon" type="image/png" href="assets/favicon.png">
<style>
  body {{ margin: 0; font-family: sans-serif; }}
  .brain-intro {{ max-width: 1400px; margin: 0 auto; padding: 16px 20px 0; }}
  .brain-intro p {{ margin: 4px 0; }}
</style>
</head>
<body>
<div class="brain-intro">{intro}</div>
<div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script>
<script>
  window.ui = SwaggerUIBundle({json.dumps(config)});
</script>
</body>
</html>
"""


def docs_router(resource: str, title: str, spec_url: str, intro: str) -> APIRouter:
    """The page for one resource plus the shared assets (`/docs/api/assets/...`)."""
    router = APIRouter(include_in_schema=False)
    html = _page(title, spec_url, intro)
    headers = {"Content-Security-Policy": CONTENT_SECURITY_POLICY}

    @router.get(f"{DOCS_PREFIX}/{resource}", response_class=HTMLResponse)
    def page() -> HTMLResponse:
        return HTMLResponse(html, headers=headers)

    return router


def assets_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get(DOCS_PREFIX + "/assets/{name}")
    def asset(name: str) -> Response:
        media_type = ASSETS.get(name)
        if media_type is None:
            raise ApiProblem(404, [FieldError("name", f"Unbekannte Datei '{name[:60]}'.")])
        return Response(
            _asset(name),
            media_type=media_type,
            headers={"Cache-Control": "public, max-age=86400"},
        )

    return router


def _index(entries: Sequence[tuple[str, str, str, str]]) -> str:
    """Links are relative to `/docs` (its base is the root), so a stage prefix stays."""
    items = "".join(
        f'<li><a href="docs/api/{escape(page)}">{escape(title)}</a> — {escape(summary)} '
        f'(<a href="{escape(spec.lstrip("/"))}">OpenAPI</a>)</li>'
        for page, title, summary, spec in entries
    )
    return f"""<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Brain – Dokumentation</title>
<style>body {{ max-width: 50rem; margin: 2rem auto; padding: 0 1rem; font: 1rem/1.5 sans-serif;
color: #1a1a1a; }} a {{ color: #0b4f9c; }}</style>
</head>
<body>
<main>
<h1>Brain – Dokumentation</h1>
<p><a href="console/">Brain-Konsole</a>: Erinnerungen suchen, lesen, korrigieren und löschen,
Projektmitglieder verwalten, das Ledger ansehen (im Browser, mit Ihrem Konto).</p>
<h2>REST-API</h2>
<ul>{items}</ul>
<h2>MCP</h2>
<p>Agenten verbinden sich über Streamable HTTP mit <code>/mcp</code>; Claude und ChatGPT finden
die Anmeldung über <a href=".well-known/oauth-protected-resource/mcp">die Metadaten</a>.</p>
</main>
</body>
</html>
"""


def index_router(entries: Sequence[tuple[str, str, str, str]]) -> APIRouter:
    """`/docs`: (page, title, summary, OpenAPI path) of every resource."""
    router = APIRouter(include_in_schema=False)
    html = _index(entries)
    headers = {"Content-Security-Policy": INDEX_SECURITY_POLICY, "Cache-Control": "no-cache"}

    @router.get(INDEX_PATH, response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return HTMLResponse(html, headers=headers)

    return router
