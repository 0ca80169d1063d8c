"""Memory OS tools (seed 004): remember, search_memory, recall, recall_context.

They take identity only from the token: the stored memory's author, account and device are
the principal's, and reserved identity metadata inside the content is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from shared.auth.principal import Principal, Scope
from shared.calls import CallRecord, CallState
from shared.domain import (
    SCOPE_OF_NAMESPACE,
    BrainEntry,
    CounterName,
    EntryFailure,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    VkTyp,
)
from shared.ledger.classify import ledger_hinweis
from shared.scrubbing import ScrubPolicy
from shared.services import duplicates, hybrid, responses
from shared.services.areas import (
    Visibility,
    acting_agent,
    acting_nutzer,
    authorize_write,
    unread_by_token_hint,
)
from shared.services.context import ServiceContext
from shared.services.duplicates import duplicate_hinweis
from shared.services.duplicates_ahead import NOTHING_READ, Prefetched, probe, read_ahead
from shared.services.embeddings import with_server_embeddings
from shared.services.hybrid import SearchHit
from shared.services.identity import reserved_identity_keys
from shared.services.memories import (
    memory_terms,
    memory_view,
    storage_failure,
    stored_before,
)
from shared.services.secrets import clean_value, hinweis, name_errors, rejection
from shared.services.summary import summary_of
from shared.services.supersede import Replaced
from shared.services.word_search import WordHits, rank_words
from shared.services.word_search import memory_path as memory_path
from shared.services.writes import Refs, Stored, run_plain, stamp
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import ContextRequest, RememberRequest, SearchRequest
from shared.validation.supersede import ERSETZT_FIELD

EXCERPT_LEN: Final = 200
BRAIN_PER_REFERENCE: Final = 3  # recall_context: brain entries per entity of a memory


@dataclass(frozen=True)
class Target:
    """Where a `remember` path points: namespace, owner name and the rest of the path."""

    path: str
    namespace: str
    name: str
    rest: list[str]

    @classmethod
    def of(cls, path: str) -> Target:
        namespace, name, *rest = path.split("/")
        return cls(path, namespace, name, rest)

    @property
    def scope(self) -> str:
        return SCOPE_OF_NAMESPACE[self.namespace]

    @property
    def area(self) -> str:
        return f"{self.namespace}/{self.name}"


def _author(principal: Principal, target: Target) -> str:
    """The nutzer a remember acts as: the token's own; a `users/<n>` path names n when the
    token may act as n (tokens for several nutzer)."""
    if target.namespace == "users" and principal.may_act_as_nutzer(target.name):
        return target.name
    return acting_nutzer(principal)


@dataclass
class RememberWrite:
    """remember between the retry layer's phases: the area's authorization (membership
    read, `create_project`) and the path's tag record run side by side with the claim; the
    content is scrubbed and stored after it."""

    ctx: ServiceContext
    principal: Principal
    request: RememberRequest
    target: Target
    nutzer: str
    agent: str
    replaced: Replaced
    tags: dict[str, str] = field(default_factory=dict)
    postings: Prefetched = NOTHING_READ  # read in `ahead` for the duplicate check

    def wants(self) -> dict[CounterName, list[int]]:
        return {CounterName.LONGTERM: [0]}

    def ahead(self) -> None:
        ctx, principal, target = self.ctx, self.principal, self.target
        names = target.rest[-1:]

        def authorize() -> None:
            authorize_write(
                ctx,
                principal,
                self.nutzer,
                target.area,
                create_project=self.request.create_project,
                now=ctx.clock(),
            )

        def tags() -> None:
            self.tags = ctx.storage.ensure_tags(principal.tenant, names) if names else {}

        def postings() -> None:
            # the duplicate check's reads (services/duplicates_ahead.py), of what `store` keeps
            content = clean_value(self.request.content).value
            found = probe(ctx, target.area, MemoryType.LONGTERM, summary_of(content), content)
            self.postings = read_ahead(ctx, principal.tenant, [found], ctx.clock())

        ctx.storage.side_by_side(
            [authorize, tags, self.replaced.read, *([postings] if self._checked else [])]
        )
        if 0 in self.replaced.refused:
            raise RequestRejected([self.replaced.refused[0]])

    @property
    def _checked(self) -> bool:
        """The duplicate check runs: no copy asked for, nothing replaced (`ersetzt` states
        the relation, nothing is merged)."""
        return not self.request.duplikat_erlaubt and not self.request.ersetzt

    def only(self, indexes: set[int]) -> RememberWrite:
        return self

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        principal, target, nutzer = self.principal, self.target, self.nutzer
        cleaned = clean_value(self.request.content)
        if cleaned.kinds and ctx.settings.remember_scrub_policy is ScrubPolicy.REJECT:
            raise RequestRejected([rejection("content", cleaned.kinds)])
        content = cleaned.value
        now = ctx.clock()
        number = call.id_of(CounterName.LONGTERM, 0)
        memory = Memory(
            tenant=principal.tenant,
            id=MemoryId(MemoryType.LONGTERM, number),
            kurzbeschreibung=summary_of(content),
            memory=content,
            tags=[self.tags.get(tag.casefold(), tag) for tag in target.rest[-1:]],
            scope=target.scope,
            scope_vk=target.name,
            nutzer=nutzer,
            agent=self.agent,
            created_at=now,
            updated_at=now,
            referenzfelder={"pfad": target.path, "quelle": "remember"},
            area=target.area,
        )
        memory.terms, memory.doc_len = memory_terms(memory)
        resumed = call.state is CallState.RESUMED
        # A resend of a remember a crash cut off: what it stored is not stored again.
        before = (
            stored_before(ctx, principal.tenant, MemoryType.LONGTERM, {0: number}, now)
            if resumed
            else {}
        )
        refused = self.replaced.check(0, memory.id)
        if refused is not None:
            raise RequestRejected([refused])
        marked: dict[int, FieldError] = {}
        if 0 in before:
            memory = before[0]
            marked = self.replaced.mark({0: memory.id}, now)
        else:
            (new,) = with_server_embeddings(ctx, [NewMemory(memory)], self.postings.embedded)
            merged = self._merged(ctx, new, now)
            if merged is not None:
                stamped: Refs = {0: (str(merged.id), stamp(merged.updated_at))}
                return Stored(self._answer(merged, cleaned.kinds, True), stamped)

            def put() -> EntryFailure | None:
                (failure,) = ctx.storage.put_memories([new])
                return failure

            def mark() -> EntryFailure | None:
                marked.update(self.replaced.mark({0: memory.id}, now))
                return None

            # The successor and the marks of what it replaces: one stage.
            failure, _ = ctx.storage.side_by_side([put, mark])
            raced = (
                stored_before(ctx, principal.tenant, MemoryType.LONGTERM, {0: number}, now)
                if failure is not None
                else {}
            )
            if failure is not None and 0 not in raced:
                self.replaced.unmark({0: memory.id}, now)
                raise RequestRejected([storage_failure("content", failure)])
            memory = raced.get(0, memory)
        refs: Refs = {0: (str(memory.id), stamp(memory.updated_at))}
        answer = self._answer(memory, cleaned.kinds)
        if 0 in marked:  # stored; what it replaces stays current (said, not hidden)
            answer["daten"]["ersetzt_fehler"] = marked[0].as_dict()
            answer["daten"].pop("ersetzt", None)
        return Stored(answer, refs)

    def _merged(self, ctx: ServiceContext, new: NewMemory, now: datetime) -> Memory | None:
        """The stored memory of the target area this one duplicates, merged with it
        (services/duplicates.py); None: store it. Not for a copy asked for, nor for a memory
        that replaces others (`ersetzt` states the relation)."""
        if not self._checked:
            return None
        own = frozenset({new.memory.id})
        tenant = self.principal.tenant
        found = duplicates.merge_duplicates(ctx, tenant, [(0, new)], now, own, self.postings)
        return found.get(0)

    def _answer(
        self, memory: Memory, kinds: tuple[str, ...], duplikat: bool = False
    ) -> dict[str, Any]:
        principal, target = self.principal, self.target
        daten: dict[str, Any] = {
            "ID": str(memory.id),
            "pfad": target.path,
            "bereich": target.area,
            "autor": principal.subject,
            "nutzer": self.nutzer,
            "agent": self.agent,
            "konto": principal.account,
            "geraet": principal.device,
        }
        if self.replaced:
            daten["ersetzt"] = self.replaced.replaced_ids(0)
        notes = [
            hinweis(kinds) if kinds else None,
            ledger_hinweis(self.request.content),
            unread_by_token_hint(principal, target.area),
        ]
        if duplikat:
            daten["duplikat_von"] = str(memory.id)
            notes.insert(0, duplicate_hinweis(memory.id))
        if any(notes):
            daten["hinweis"] = " ".join(note for note in notes if note)
        stored = (
            f"Schon gespeichert als {memory.id}" if duplikat else f"Gespeichert als {memory.id}"
        )
        text = (
            f"{stored} unter {target.path}. Autor: {principal.subject} "
            f"(nutzer {self.nutzer}), Konto: {principal.account or '-'}, "
            f"Gerät: {principal.device or '-'}."
        )
        return {**responses.success(daten, {}), "text": text}


def prepare_remember(
    ctx: ServiceContext, principal: Principal, request: RememberRequest
) -> RememberWrite:
    """The token's checks of a remember (no storage read)."""
    # The path becomes a tag, the pfad and scope_vk: it cannot hold a marker, so a secret in
    # any segment refuses the call.
    refused = name_errors([("path", request.path)])
    if refused:
        raise RequestRejected(refused)
    target = Target.of(request.path)
    reserved = reserved_identity_keys(request.content)
    if reserved:
        named = ", ".join(f"'{key}'" for key in reserved)
        raise RequestRejected(
            [
                FieldError(
                    "content",
                    f"Sicherheitsablehnung: reservierte Identitätsmetadaten ({named}) im "
                    "Inhalt, als Front Matter oder Schlüssel-Wert-Angabe. Autor, Konto, Gerät, "
                    "Mandant und Subjekt kommen aus dem Token; den Inhalt ohne diese Angaben "
                    "senden.",
                )
            ]
        )
    nutzer, agent = _author(principal, target), acting_agent(principal)
    replaced = Replaced.of(ctx, principal, nutzer, {0: (ERSETZT_FIELD, request.ersetzt)})
    return RememberWrite(ctx, principal, request, target, nutzer, agent, replaced)


def remember(ctx: ServiceContext, principal: Principal, request: RememberRequest) -> dict[str, Any]:
    """remember outside the retry layer (services/writes.py `run_plain`)."""
    return run_plain(ctx, principal.tenant, prepare_remember(ctx, principal, request))


def _search(
    ctx: ServiceContext,
    principal: Principal,
    request: SearchRequest | ContextRequest,
    visibility: Visibility,
    only: MemoryType | None = None,
) -> list[SearchHit]:
    """Ranked memories the caller may read (under `request.path`), not expired, best first:
    the word ranking (`word_search.rank_words`) fused with the vector ranking when the
    request has (or the server computes) a query vector."""
    hits = _word_hits(ctx, principal, request, visibility, only)
    return hybrid.search(ctx, principal, request, visibility, hits)


def _word_hits(
    ctx: ServiceContext,
    principal: Principal,
    request: SearchRequest | ContextRequest,
    visibility: Visibility,
    only: MemoryType | None,
    recent: int = 0,
) -> WordHits:
    """The word lookup of a search: its top k as deep as the fusion needs, with the vector
    query (the request's or the server's) and `recent` short-term memories alongside."""
    vector = hybrid.vector_query(ctx, principal.tenant, request, only)
    return rank_words(
        ctx,
        principal,
        visibility,
        request.query,
        depth=hybrid.candidate_depth(
            request, vector is not None, ctx.settings.ranking_signals.enabled
        ),
        path=request.path,
        only=only,
        recent=recent,
        vector=vector,
    )


def _visibility(ctx: ServiceContext, principal: Principal, verlauf: bool = False) -> Visibility:
    """The Memory OS tools act as the token's own nutzer; `verlauf` shows superseded
    memories too."""
    return Visibility(ctx, principal, acting_nutzer(principal), verlauf=verlauf)


def search_memory(
    ctx: ServiceContext, principal: Principal, request: SearchRequest
) -> dict[str, Any]:
    hits = [
        {
            **memory_view(hit.memory, ctx),
            "pfad": memory_path(hit.memory),
            "bereich": hit.memory.area,
            "relevanz": round(hit.score, 4),
            "rangwert": round(hit.rank_value, 4),
            "treffer_durch": list(hit.signals),
        }
        for hit in _search(ctx, principal, request, _visibility(ctx, principal, request.verlauf))
    ]
    return responses.success({"treffer": hits, "anzahl": len(hits)}, {})


def _short(memory: Memory, hit: SearchHit | None = None) -> dict[str, Any]:
    excerpt = (
        memory.memory if len(memory.memory) <= EXCERPT_LEN else memory.memory[:EXCERPT_LEN] + "…"
    )
    item: dict[str, Any] = {
        "ID": str(memory.id),
        "kurzbeschreibung": memory.kurzbeschreibung,
        "auszug": excerpt,
        "scope": memory.scope,
        "scope_vk": memory.scope_vk,
        "pfad": memory_path(memory),
        "bereich": memory.area,
    }
    if hit is not None:
        item["relevanz"] = round(hit.score, 4)
        item["rangwert"] = round(hit.rank_value, 4)
        item["treffer_durch"] = list(hit.signals)
    return item


def recall(ctx: ServiceContext, principal: Principal, request: SearchRequest) -> dict[str, Any]:
    visibility = _visibility(ctx, principal, request.verlauf)
    hits = [_short(hit.memory, hit) for hit in _search(ctx, principal, request, visibility)]
    return responses.success({"erinnerungen": hits, "anzahl": len(hits)}, {})


def recall_context(
    ctx: ServiceContext, principal: Principal, request: ContextRequest
) -> dict[str, Any]:
    """Relevant long-term memories, recent short-term memories, and the brain entries they
    are about — a package to read before a complex task."""
    visibility = _visibility(ctx, principal)
    # One lookup: the word hits (long-term) and the newest short-term memories of the
    # caller's areas (an index per area, newest first — never a tenant-wide read).
    hits = _word_hits(ctx, principal, request, visibility, MemoryType.LONGTERM, request.limit)
    relevant = hybrid.search(ctx, principal, request, visibility, hits)
    recent = hits.recent[: request.limit]
    vk_types = {typ.value for typ in VkTyp}
    references = list(
        dict.fromkeys(
            (memory.scope, memory.scope_vk)
            for memory in [*(hit.memory for hit in relevant), *recent]
            if memory.scope in vk_types and memory.scope_vk
        )
    )[: request.limit]
    # Brain entries only for tokens that may read the brain (contract §2). One batched lookup
    # for all entities (one round trip on DynamoDB), in memory order.
    if not principal.has_scope(Scope.BRAIN_READ):
        references = []
    found = (
        ctx.storage.find_brain_by_references(principal.tenant, references, BRAIN_PER_REFERENCE)
        if references
        else {}
    )
    brain: dict[int, BrainEntry] = {}
    for reference in references:
        for entry in found.get(reference, []):
            brain.setdefault(entry.id, entry)
    daten = {
        "aufgabe": request.task,
        "erinnerungen": [_short(hit.memory, hit) for hit in relevant],
        "kurzzeit": [_short(memory) for memory in recent],
        "brain": [
            {
                "ID": entry.id,
                "titel": entry.titel,
                "vk_typ": entry.vk_typ.value,
                "vk_referenz_id": entry.vk_referenz_id,
                "auszug": entry.inhalt[:EXCERPT_LEN],
            }
            for entry in brain.values()
        ],
    }
    return responses.success(daten, {})
