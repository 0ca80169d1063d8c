"""What every REST resource (`/api/memory`, `/api/projects`, `/api/ledger`) shares: the
services' context and the public base path from the app's state, the JSON body check, the
acting-nutzer parameter, the scope dependencies, and the resource's own OpenAPI 3.1
document (built from its router alone, with the problem schema and bearer security)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Query, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from shared.auth.principal import Scope
from shared.rest.problems import ApiProblem, Problem
from shared.rest.security import require
from shared.services.context import ServiceContext
from shared.validation import rules
from shared.validation.errors import FieldError
from shared.validation.json_body import NOT_JSON, BodyRejected, check_document

CONTEXT_STATE: Final = "service_context"
BASE_PATH_STATE: Final = "public_base_path"
AUTH_PROBLEMS: Final = (401, 403)
READ: Final = Depends(require(Scope.MEMORY_READ))
WRITE: Final = Depends(require(Scope.MEMORY_WRITE))

SURROGATE: Final = re.compile("[\ud800-\udfff]")

NutzerParam = Annotated[
    str | None,
    Query(
        max_length=rules.IDENTITY_MAX_LEN,
        description=(
            "Als welcher nutzer handeln (das Token muss es dürfen); Standard: der eigene "
            "nutzer des Tokens. The nutzer to act as."
        ),
    ),
]


def service_context(request: Request) -> ServiceContext:
    context = getattr(request.app.state, CONTEXT_STATE)()
    if not isinstance(context, ServiceContext):
        raise TypeError("REST app built without a service context")
    return context


def _unicode(value: Any) -> bool:
    """Whether every string (and key) of a parsed document is valid Unicode: JSON escapes
    can spell lone surrogates (`"\\ud800"`), which no UTF-8 text can hold."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def json_body(body: Any) -> Any:
    """A parsed JSON body; bytes mean FastAPI did not read it as JSON (wrong media type).
    The MCP endpoint's depth and number limits apply, and text must be valid Unicode."""
    if isinstance(body, bytes):
        message = "Content-Type application/json (bzw. application/merge-patch+json) senden."
        raise ApiProblem(415, [FieldError("Content-Type", message)])
    try:
        check_document(body)
    except BodyRejected as rejected:
        raise ApiProblem(rejected.status, [FieldError("", rejected.message)]) from rejected
    if not _unicode(body):
        raise ApiProblem(400, [FieldError("", NOT_JSON)])
    return body


def request_body(
    model: type[BaseModel], examples: dict[str, Any], *media_types: str
) -> dict[str, Any]:
    """`openapi_extra` documenting a body that the shared field rules validate."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {
        "requestBody": {
            "required": True,
            "content": {media: {"schema": schema, "examples": examples} for media in media_types},
        }
    }


def public_base(request: Request) -> str:
    """The path prefix clients use: the ASGI root path, or the API Gateway stage that Mangum
    stripped (`BASE_PATH_STATE`, e.g. "/prod"); "" at the root."""
    stage = str(getattr(request.app.state, BASE_PATH_STATE, "")).rstrip("/")
    return str(request.scope.get("root_path", "")) or stage


@dataclass(frozen=True)
class Resource:
    """One REST resource: its router, its OpenAPI document's texts and body models."""

    prefix: str
    router: APIRouter
    title: str
    summary: str
    description: str
    tag: str
    tag_description: str
    models: Sequence[type[BaseModel]]

    @property
    def openapi_path(self) -> str:
        return self.prefix + "/openapi.json"

    def document(self, root_path: str = "") -> dict[str, Any]:
        """The OpenAPI 3.1 document of this resource (its router's routes only)."""
        document = get_openapi(
            title=self.title,
            version="1.0.0",
            openapi_version="3.1.0",
            summary=self.summary,
            description=self.description,
            routes=self.router.routes,
            servers=[{"url": root_path or "/"}],
            tags=[{"name": self.tag, "description": self.tag_description}],
        )
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        models: list[type[BaseModel]] = [*self.models, Problem]
        for model in models:
            schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(schema.pop("$defs", {}))
            schemas[model.__name__] = schema
        document["security"] = [{"HTTPBearer": []}]
        return document

    def openapi_route(self) -> Callable[[Request], JSONResponse]:
        def route(request: Request) -> JSONResponse:
            return JSONResponse(self.document(public_base(request)))

        return route
