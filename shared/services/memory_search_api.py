"""`GET /api/memory/suche`: the ranked search of the Memory OS tools over REST, with the
listing's filters, paged.

Invariants:
- One search: the ranking is `search_memory`'s (`memory_os._search`: BM25 over the area
  postings, fused with the vector ranking when an embedder is configured or a vector is
  stored), over the areas the acting nutzer may read — acting as the REST call's nutzer
  (`acting_caller`), not only the token's own. Every hit names `treffer_durch`.
- Filters are the listing's (`memory_listing.ListFilters`): the area filters (pfad, team,
  projekt) bound the search itself; the others are applied to the ranked hits. At most
  `SEARCH_DEPTH` ranked hits are filtered and paged, so a filter that keeps few of many hits
  may end the pages early (`ende_der_rangliste` says so).
- Pages are positions in the ranking: the cursor holds the offset and a fingerprint of the
  filters and the query; memories written meanwhile may shift a later page by their rank.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Final

from shared.auth.principal import Principal
from shared.services.areas import Visibility
from shared.services.context import ServiceContext
from shared.services.memory_api import (
    BUCKET_TYP,
    acting_caller,
    rest_view,
)
from shared.services.memory_listing import ListFilters
from shared.services.memory_os import _search
from shared.services.outcomes import ApiRefused
from shared.validation.errors import Art, FieldError, RequestRejected
from shared.validation.parsed import SearchRequest

SEARCH_DEPTH: Final = 200
_BAD_CURSOR: Final = (
    "Ungültiger Cursor: nur naechster_cursor einer vorigen Suche mit derselben Anfrage und "
    "denselben Filtern unverändert senden."
)


def _area_path(filters: ListFilters) -> tuple[str | None, bool]:
    """The narrowest path the area filters allow, and whether they allow any area at all."""
    paths = [p for p in (filters.pfad,) if p]
    if filters.team is not None:
        paths.append(f"teams/{filters.team}")
    if filters.projekt is not None:
        paths.append(f"projects/{filters.projekt}")
    if not paths:
        return None, True
    narrowest = max(paths, key=len)
    consistent = all(narrowest == p or narrowest.startswith(p + "/") for p in paths)
    return narrowest, consistent


def _encode(offset: int, fingerprint: str) -> str:
    raw = json.dumps({"o": offset, "f": fingerprint}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str, fingerprint: str) -> int:
    try:
        payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        offset = payload["o"]
        valid = (
            payload["f"] == fingerprint and isinstance(offset, int) and 0 < offset < SEARCH_DEPTH
        )
    except (ValueError, TypeError, KeyError, binascii.Error, UnicodeDecodeError):
        valid = False
    if not valid:
        raise ApiRefused(Art.INVALID, [FieldError("cursor", _BAD_CURSOR)])
    return int(offset)


def search_memories(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str | None,
    filters: ListFilters,
    cursor: str | None,
    limit: int,
) -> dict[str, Any]:
    """Ranked hits (best first) of `filters.q` among the readable memories that match the
    filters; `limit` per page."""
    caller = acting_caller(principal, nutzer)
    fingerprint = filters.fingerprint(caller.nutzer)
    offset = _decode(cursor, fingerprint) if cursor else 0
    path, possible = _area_path(filters)
    hits = []
    if possible and filters.q:
        request = SearchRequest(query=filters.q, limit=SEARCH_DEPTH, path=path)
        only = BUCKET_TYP[filters.bucket] if filters.bucket is not None else None
        visibility = Visibility(ctx, principal, caller.nutzer, verlauf=filters.verlauf)
        try:
            ranked = _search(ctx, principal, request, visibility, only)
        except RequestRejected as rejected:
            raise ApiRefused(Art.INVALID, rejected.errors) from rejected
        hits = [
            hit
            for hit in ranked
            if filters.area_allowed(hit.memory.area) and filters.matches(hit.memory)
        ]
        depth_reached = len(ranked) >= SEARCH_DEPTH
    else:
        depth_reached = False
    page = hits[offset : offset + limit]
    following = offset + limit if len(hits) > offset + limit else None
    return {
        "treffer": [
            {
                **rest_view(ctx, hit.memory),
                "relevanz": round(hit.score, 4),
                "treffer_durch": list(hit.signals),
            }
            for hit in page
        ],
        "anzahl": len(page),
        "naechster_cursor": _encode(following, fingerprint) if following else None,
        "ende_der_rangliste": depth_reached and following is None,
    }
