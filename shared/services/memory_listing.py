"""`GET /api/memory`: list and filter the memories a call may read, newest first.

Invariants:
- Only the areas the acting nutzer may read (`readable_areas`) are ever read; filters on
  area (pfad, team, projekt) narrow that set before storage is asked; the other filters
  apply to what storage returns (the same predicate for both adapters, here, once).
- Order: (created_at, ID type, ID number), newest first — a total order. The opaque cursor
  holds the position of the last memory handed out plus a fingerprint of the filters, so a
  page continues strictly after it: memories written meanwhile are newer and never shift
  or repeat a page; deleted ones simply do not appear.
- Each request reads at most `SCAN_BUDGET` memories. A page that ran out of budget before
  it was full ends with a cursor anyway, and the client continues from there.
- With `q`, a memory must contain every query word (any of its German/English forms); the
  candidates come from the memory search index, not from a scan.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any, Final

from shared.auth.principal import Principal
from shared.domain import Memory, MemoryId, MemoryPosition, MemoryType
from shared.search.analyzer import query_terms
from shared.search.ranking import terms_of
from shared.services.areas import area_may_match, readable_areas, within
from shared.services.context import ServiceContext
from shared.services.memory_api import (
    BUCKET_TYP,
    Bucket,
    acting_caller,
    rest_view,
)
from shared.services.memory_os import memory_path
from shared.services.outcomes import ApiRefused
from shared.validation.errors import Art, FieldError
from shared.validation.paths import PATH_NAMESPACES, bad_segment, normalise_path

SCAN_BUDGET: Final = 1000
QUERY_CANDIDATES_MAX: Final = 2000
CURSOR_VERSION: Final = 1
_BAD_CURSOR: Final = (
    "Ungültiger Cursor: nur naechster_cursor einer vorigen Antwort mit denselben Filtern "
    "unverändert senden."
)


def _prefix(value: str | None) -> str | None:
    """A path prefix: namespace, or namespace/name/…; segments [a-z0-9._-]."""
    if value is None:
        return None
    text = normalise_path(value)
    segments = text.split("/")
    valid = bool(text) and segments[0] in PATH_NAMESPACES and bad_segment(segments) is None
    if not valid:
        message = (
            f"Muss ein Bereich oder Pfad sein: {', '.join(PATH_NAMESPACES)} oder "
            "<namensraum>/<name>/…, Segmente aus a-z, 0-9, '.', '_', '-'."
        )
        raise ApiRefused(Art.INVALID, [FieldError("pfad", message)])
    return text


def _name(field: str, value: str | None) -> str | None:
    if value is None:
        return None
    text = normalise_path(value)
    if bad_segment([text]) is not None:
        message = "Muss ein Name aus a-z, 0-9, '.', '_', '-' sein."
        raise ApiRefused(Art.INVALID, [FieldError(field, message)])
    return text


@dataclass(frozen=True)
class ListFilters:
    pfad: str | None = None
    bucket: Bucket | None = None
    team: str | None = None
    projekt: str | None = None
    agent: str | None = None
    konto: str | None = None
    geraet: str | None = None
    quelle: str | None = None
    tags: tuple[str, ...] = ()
    erstellt_ab: datetime | None = None
    erstellt_bis: datetime | None = None
    q: str | None = None
    # History (issue 25): superseded memories too.
    verlauf: bool = False

    @classmethod
    def of(
        cls,
        *,
        pfad: str | None,
        bucket: Bucket | None,
        team: str | None,
        projekt: str | None,
        agent: str | None,
        konto: str | None,
        geraet: str | None,
        quelle: str | None,
        tags: Sequence[str],
        erstellt_ab: datetime | None,
        erstellt_bis: datetime | None,
        q: str | None,
        zone: tzinfo | None = None,
        verlauf: bool = False,
    ) -> ListFilters:
        """Normalised filters; a time without offset is read in `zone`."""

        def aware(moment: datetime | None) -> datetime | None:
            if moment is None or moment.tzinfo is not None or zone is None:
                return moment
            return moment.replace(tzinfo=zone)

        return cls(
            pfad=_prefix(pfad),
            bucket=bucket,
            team=_name("team", team),
            projekt=_name("projekt", projekt),
            agent=agent.strip() if agent else None,
            konto=konto.strip() if konto else None,
            geraet=geraet.strip() if geraet else None,
            quelle=quelle.strip() if quelle else None,
            tags=tuple(dict.fromkeys(tag.strip().casefold() for tag in tags if tag.strip())),
            erstellt_ab=aware(erstellt_ab),
            erstellt_bis=aware(erstellt_bis),
            q=q.strip() if q and q.strip() else None,
            verlauf=verlauf,
        )

    def area_allowed(self, area: str) -> bool:
        if self.team is not None and area != f"teams/{self.team}":
            return False
        if self.projekt is not None and area != f"projects/{self.projekt}":
            return False
        return area_may_match(area, self.pfad)

    def matches(self, memory: Memory) -> bool:
        ref = memory.referenzfelder
        tags = {tag.casefold() for tag in memory.tags}
        return (
            (self.verlauf or not memory.superseded)
            and (self.bucket is None or memory.id.typ is BUCKET_TYP[self.bucket])
            and within(memory_path(memory), self.pfad)
            and (self.agent is None or memory.agent == self.agent)
            and (self.konto is None or ref.get("konto") == self.konto)
            and (self.geraet is None or ref.get("geraet") == self.geraet)
            and (self.quelle is None or ref.get("quelle") == self.quelle)
            and all(tag in tags for tag in self.tags)
            and (self.erstellt_ab is None or memory.created_at >= self.erstellt_ab)
            and (self.erstellt_bis is None or memory.created_at < self.erstellt_bis)
        )

    def fingerprint(self, nutzer: str) -> str:
        canonical = json.dumps(
            [
                nutzer,
                self.pfad,
                self.bucket,
                self.team,
                self.projekt,
                self.agent,
                self.konto,
                self.geraet,
                self.quelle,
                list(self.tags),
                self.erstellt_ab.isoformat() if self.erstellt_ab else None,
                self.erstellt_bis.isoformat() if self.erstellt_bis else None,
                self.q,
                # Only when set: cursors of default listings stay what they were.
                *(["verlauf"] if self.verlauf else []),
            ],
            ensure_ascii=False,
        )
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# --- cursor --------------------------------------------------------------------------------


def encode_cursor(position: MemoryPosition, fingerprint: str) -> str:
    payload = {
        "v": CURSOR_VERSION,
        "f": fingerprint,
        "c": position.created_at.isoformat(),
        "i": str(position.memory_id),
    }
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, fingerprint: str) -> MemoryPosition:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        payload = json.loads(raw)
        memory_id = MemoryId.parse(str(payload["i"]))
        created_at = datetime.fromisoformat(str(payload["c"]))
        valid = (
            isinstance(payload, dict)
            and payload.get("v") == CURSOR_VERSION
            and payload.get("f") == fingerprint
            and memory_id is not None
            and created_at.tzinfo is not None
        )
    except (ValueError, TypeError, KeyError, binascii.Error, UnicodeDecodeError):
        valid = False
    if not valid or memory_id is None:
        raise ApiRefused(Art.INVALID, [FieldError("cursor", _BAD_CURSOR)])
    return MemoryPosition(created_at, memory_id)


def _position(memory: Memory) -> MemoryPosition:
    return MemoryPosition(memory.created_at, memory.id)


# --- listing -------------------------------------------------------------------------------


def _start(filters: ListFilters, cursor: MemoryPosition | None) -> MemoryPosition | None:
    """Where the page starts (exclusive): after the cursor, before erstellt_bis."""
    bound = None
    if filters.erstellt_bis is not None:
        bound = MemoryPosition(filters.erstellt_bis, MemoryId(MemoryType.LONGTERM, 0))
    candidates = [p for p in (cursor, bound) if p is not None]
    return min(candidates) if candidates else None


def _scan(
    ctx: ServiceContext,
    tenant: str,
    areas: list[str],
    filters: ListFilters,
    start: MemoryPosition | None,
    limit: int,
) -> tuple[list[Memory], MemoryPosition | None]:
    """Newest-first pages from storage, filtered, until the page is full, storage ends,
    erstellt_ab is passed or the budget is spent. Returns the hits and where to continue."""
    now = ctx.clock()
    hits: list[Memory] = []
    position = start
    scanned = 0
    while scanned < SCAN_BUDGET:
        want = min(max(limit * 2, 20), SCAN_BUDGET - scanned)
        page = ctx.storage.list_memories(tenant, areas, position, now, want)
        scanned += len(page)
        for memory in page:
            if filters.erstellt_ab is not None and memory.created_at < filters.erstellt_ab:
                return hits, None
            position = _position(memory)
            if filters.matches(memory):
                hits.append(memory)
                if len(hits) == limit:
                    return hits, position
        if len(page) < want:
            return hits, None
    return hits, position


def _query(
    ctx: ServiceContext,
    tenant: str,
    areas: list[str],
    filters: ListFilters,
    start: MemoryPosition | None,
    limit: int,
) -> tuple[list[Memory], MemoryPosition | None]:
    """Memories containing every query word, from the search index, newest first."""
    groups = query_terms(filters.q or "")
    if not groups:
        return [], None
    lookup = ctx.storage.lookup_memory_terms(
        tenant, terms_of(groups), areas, per_area_term=QUERY_CANDIDATES_MAX
    )
    allowed = set(areas)
    per_group: list[set[MemoryId]] = []
    for group in groups:
        ids = {
            posting.entry_id
            for term in group
            for posting in lookup.postings.get(term, [])
            if posting.area is None or posting.area in allowed
        }
        per_group.append(ids)
    candidates = sorted(set.intersection(*per_group), reverse=True)[:QUERY_CANDIDATES_MAX]
    found = ctx.storage.get_memories(tenant, candidates, ctx.clock())
    ordered = sorted(
        (
            m
            for m in found.values()
            if m.area in allowed and filters.matches(m) and (start is None or _position(m) < start)
        ),
        key=_position,
        reverse=True,
    )
    page = ordered[:limit]
    more = len(ordered) > limit
    return page, _position(page[-1]) if page and more else None


def list_memories(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str | None,
    filters: ListFilters,
    cursor: str | None,
    limit: int,
) -> dict[str, Any]:
    caller = acting_caller(principal, nutzer)
    fingerprint = filters.fingerprint(caller.nutzer)
    position = decode_cursor(cursor, fingerprint) if cursor else None
    readable = readable_areas(ctx, principal, caller.nutzer)
    areas = sorted(area for area in readable if filters.area_allowed(area))
    start = _start(filters, position)
    hits: list[Memory]
    following: MemoryPosition | None
    if not areas:
        hits, following = [], None
    elif filters.q is not None:
        hits, following = _query(ctx, principal.tenant, areas, filters, start, limit)
    else:
        hits, following = _scan(ctx, principal.tenant, areas, filters, start, limit)
    return {
        "eintraege": [rest_view(ctx, memory) for memory in hits],
        "anzahl": len(hits),
        "naechster_cursor": encode_cursor(following, fingerprint) if following else None,
    }
