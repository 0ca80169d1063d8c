"""The memory resource (`/api/memory`) as one document: its routes in the order they must
match — the fixed paths (`/suche`, `/loeschvorschau`, `/loeschungen`) and the sub-resources
(`/{id}/bewertungen`, `/{id}/brain`) before `/{memory_id}`, which would take any segment."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from fastapi import APIRouter

from shared.rest import memory_detail_routes, memory_routes, memory_search_routes

router = APIRouter()
router.include_router(memory_search_routes.router)
router.include_router(memory_detail_routes.router)
router.include_router(memory_routes.router)

RESOURCE: Final = replace(
    memory_routes.RESOURCE,
    router=router,
    models=(*memory_routes.RESOURCE.models, *memory_search_routes.MODELS),
)


def openapi_document(root_path: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 document of `/api/memory` with every route of the resource."""
    return RESOURCE.document(root_path)
