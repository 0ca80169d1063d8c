"""The REST app: one FastAPI application for `brain serve` (mounted next to `/mcp`) and for
the REST Lambda (under Mangum). Routers are added per resource; each resource serves its
own OpenAPI 3.1 document and documentation page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from fastapi import FastAPI
from starlette.datastructures import Headers, URLPath
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import ASGIApp, Receive, Scope, Send

from shared.console import app as console
from shared.rest import ledger_routes, memory_resource, project_routes, team_routes
from shared.rest.common import BASE_PATH_STATE, CONTEXT_STATE, Resource
from shared.rest.docs_page import assets_router, docs_router, index_router
from shared.rest.problems import install_problem_handlers, problem_response
from shared.rest.security import RESOLVER_STATE
from shared.server.auth_middleware import PrincipalResolver, read_body_within, replay_body
from shared.services.context import ServiceContext
from shared.validation.errors import FieldError
from shared.validation.json_body import MAX_BODY_BYTES, BodyRejected

# The paths the REST app owns next to /mcp in `brain serve` (the console included), and
# the exact paths: `/` leads to the console.
REST_PREFIXES: Final = ("/api/", "/docs/api/", "/console")
REST_PATHS: Final = ("/", "/docs")

MEMORY_INTRO = (
    "<p>Erinnerungen über REST speichern, filtern, seitenweise lesen, ändern und löschen — "
    "dieselben Daten wie die MCP-Tools. Oben rechts <b>Authorize</b>: das Bearer-Token "
    "eintragen (z. B. das von <code>brain serve</code>), dann bei einer Operation "
    "<b>Try it out</b>.</p>"
    "<p>Store, filter, page through, change and delete memories over REST — the same data "
    "as the MCP tools. Click <b>Authorize</b>, paste your bearer token, then "
    "<b>Try it out</b>.</p>"
)
PROJECTS_INTRO = (
    "<p>Projekte (Bereiche <code>projects/&lt;projekt&gt;</code>) und ihre Mitglieder: "
    "Mitglieder lesen die Liste, der Eigentümer fügt Mitglieder hinzu. Oben rechts "
    "<b>Authorize</b>: das Bearer-Token eintragen, dann <b>Try it out</b>.</p>"
    "<p>Projects and their members: members read the list, the owner adds members.</p>"
)
LEDGER_INTRO = (
    "<p>Das Hauptbuch über REST, wie das MCP-Tool <code>ledger</code>: buchen, stornieren, "
    "bezahlen, abfragen — Beträge als exakte Dezimaltexte. Oben rechts <b>Authorize</b>: das "
    "Bearer-Token eintragen, dann <b>Try it out</b>.</p>"
    "<p>The ledger over REST, as the <code>ledger</code> MCP tool: book, reverse, pay, "
    "query.</p>"
)

TEAMS_INTRO = (
    "<p>Wer ein Aufruf ist (handelnder <code>nutzer</code>, Scopes, lesbare Bereiche) und "
    "in welchen Teams (Claim <code>teams</code> des Tokens). Oben rechts <b>Authorize</b>: "
    "das Bearer-Token eintragen, dann <b>Try it out</b>.</p>"
    "<p>Who a call acts as, and the token's teams.</p>"
)

# Each resource: its routes and OpenAPI document, and its page /docs/api/<page>.
RESOURCES: Final[tuple[tuple[Resource, str, str], ...]] = (
    (memory_resource.RESOURCE, "memory", MEMORY_INTRO),
    (project_routes.RESOURCE, "projects", PROJECTS_INTRO),
    (ledger_routes.RESOURCE, "ledger", LEDGER_INTRO),
    (team_routes.RESOURCE, "teams", TEAMS_INTRO),
)


def build_rest_app(
    context: ServiceContext | Callable[[], ServiceContext],
    resolver: PrincipalResolver,
    base_path: str = "",
) -> FastAPI:
    """`context` is the services' context, or what returns the current one (Lambda: the
    container, renewed after a SnapStart restore). `base_path`: the API Gateway stage path
    that is stripped before the app sees a request (published as the document's server)."""
    app = FastAPI(
        title="Brain REST API",
        max_body_size=MAX_BODY_BYTES,  # the MCP endpoint's limit: larger bodies get 413
        openapi_url=None,  # each resource publishes its own document
        docs_url=None,
        redoc_url=None,
    )
    setattr(app.state, RESOLVER_STATE, resolver)
    setattr(app.state, BASE_PATH_STATE, base_path)
    provider = context if callable(context) else (lambda: context)
    setattr(app.state, CONTEXT_STATE, provider)
    install_problem_handlers(app)
    for resource, page, intro in RESOURCES:
        # Before the router: `/api/memory/openapi.json` must not match `/api/memory/{id}`.
        app.add_api_route(
            resource.openapi_path,
            resource.openapi_route(),
            methods=["GET"],
            include_in_schema=False,
        )
        app.include_router(resource.router)
        spec_url = "../.." + resource.openapi_path
        app.include_router(docs_router(page, resource.title, spec_url, intro))
    app.include_router(assets_router())
    app.include_router(
        index_router([(page, r.title, r.summary, r.openapi_path) for r, page, _ in RESOURCES])
    )
    console.install(app)
    return app


class DeclaredSizeLimit:
    """Wraps the REST app (outside FastAPI's own stack): a body whose Content-Length exceeds
    the limit gets the 413 as a problem document at once; bodies without a length are cut
    by FastAPI's `max_body_size` (plain 413). With `body_timeout_s` (`brain serve`) a body
    must arrive within that time, else 408 (a slow client holds no connection for long)."""

    def __init__(self, app: ASGIApp, body_timeout_s: float | None = None) -> None:
        self.app = app
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            declared = Headers(scope=scope).get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
                message = f"Anfrage zu groß: höchstens {MAX_BODY_BYTES} Bytes."
                response = problem_response(413, [FieldError("", message)])
                await response(scope, receive, send)
                return
            if self.body_timeout_s is not None and scope["method"] in _WITH_BODY:
                try:
                    body = await read_body_within(scope, receive, self.body_timeout_s)
                except BodyRejected as rejected:
                    problem = problem_response(rejected.status, [FieldError("", rejected.message)])
                    await problem(scope, receive, send)
                    return
                receive = replay_body(body, receive)
        await self.app(scope, receive, send)


_WITH_BODY: Final = frozenset({"POST", "PUT", "PATCH"})


class PrefixRoute(BaseRoute):
    """Hands every request whose path starts with one of `prefixes` (or is one of `paths`)
    to `app`, path unchanged
    (a Mount would strip it): the REST app routes on full paths, locally and on Lambda."""

    def __init__(
        self,
        app: ASGIApp,
        prefixes: tuple[str, ...] = REST_PREFIXES,
        body_timeout_s: float | None = None,
        paths: tuple[str, ...] = REST_PATHS,
    ) -> None:
        self.app = DeclaredSizeLimit(app, body_timeout_s)
        self.prefixes = prefixes
        self.paths = paths

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and (
            scope["path"].startswith(self.prefixes) or scope["path"] in self.paths
        ):
            return Match.FULL, {}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
