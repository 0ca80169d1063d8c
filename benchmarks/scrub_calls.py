"""The scrubber's figures through whole calls, as a client meets them: every corpus text stored
as one memory on a SQLite store in a temporary data directory, by one of three ways in —

* `dispatcher` (default): `insert_brain_longterm_memory` through the tool dispatcher
  (`call_tool`: validation, authorization, the retry layer, scrubbing, storage);
* `mcp`: the same tool over MCP Streamable HTTP through the real app (bearer token, auth
  middleware, Host checks, fastmcp, JSON on the wire), read back with `fetch_brain_memories`;
* `rest`: `POST /api/memory` through the real app, read back with `GET /api/memory/{id}` —

and the stored row read back from the storage (`get_memories`): recall, false positives and
kept content are computed on what the store holds, with `benchmarks/scrub.py`'s rules. With
`mcp` and `rest` the client's read-back must equal the stored row (counted as `client view
differs`). After all texts are stored, every file of the data directory (the SQLite file and
its journals: memories, word index, retry records) is searched for every labelled secret of 12
or more characters, as written and lowercased (`secrets in data dir`): no secret may reach any
file, not only the memory row.

Run: .venv/bin/python benchmarks/scrub_calls.py --corpus tests/data/scrub_eval_heldout2.jsonl
     [--via dispatcher|mcp|rest]
A measurement, not a test: it prints the aggregate figures only (a held-out set's misses
are not shown, so that nobody tunes on them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import anyio.from_thread  # noqa: E402
import httpx2  # noqa: E402
from fastmcp import Client  # noqa: E402
from fastmcp.client.transports import StreamableHttpTransport  # noqa: E402

from benchmarks.scrub import evaluate, load  # noqa: E402
from shared.auth.principal import ALL_SCOPES, Principal  # noqa: E402
from shared.auth.verifiers import local_issuer  # noqa: E402
from shared.config import Settings  # noqa: E402
from shared.domain import MemoryId  # noqa: E402
from shared.server.app import build_app  # noqa: E402
from shared.services.context import ServiceContext  # noqa: E402
from shared.storage.sqlite import SqliteStorage  # noqa: E402
from shared.tools.dispatch import call_tool  # noqa: E402
from shared.validation.rules import DUPLICATE_FLAG  # noqa: E402

NUTZER = "bench"
PRINCIPAL = Principal(
    tenant="bench",
    subject="bench",
    nutzer=frozenset({NUTZER}),
    agents=frozenset({"bench"}),
    scopes=frozenset(ALL_SCOPES),
)
CALLER = {"nutzer": NUTZER, "agent": "bench"}
VIAS = ("dispatcher", "mcp", "rest")
BASE_URL = "http://127.0.0.1:8787"
SCANNED_MIN_LEN = 12  # shorter values (PINs, codes) occur in other bytes by chance
Sent = tuple[MemoryId, list[str | None]]  # the stored memory, what the client was shown of it


def insert_arguments(text: str) -> dict[str, Any]:
    """One memory per call. Every text is a sample of its own: stored even where the
    near-duplicate check would answer with an earlier, similar text (read back instead)."""
    entry = {"kurzbeschreibung": "Notiz", "memory": text, "tags": [], "scope": "", "scope_vk": ""}
    entry.update(CALLER)
    return {"inhalt": {"memories": [entry], **CALLER}, "referenzfelder": {DUPLICATE_FLAG: True}}


def stored_id(answer: dict[str, Any]) -> MemoryId | None:
    results = answer.get("daten") or []
    if not answer.get("erfolg") or not results or not results[0].get("erfolg"):
        return None
    return MemoryId.parse(results[0]["ID"])


class Stored:
    """Stores a text as one memory by `send` (text → the memory id and what the client was
    shown of it, or None when refused) and returns the stored row's text."""

    def __init__(self, ctx: ServiceContext, send: Callable[[str], Sent | None]) -> None:
        self.ctx = ctx
        self.send = send
        self.refused = 0
        self.client_differs = 0
        self.rows: list[str | None] = []  # per text: the stored row, None when refused

    def __call__(self, text: str) -> str:
        sent = self.send(text)
        if sent is None:
            self.refused += 1
            self.rows.append(None)
            return ""  # nothing stored: no secret leaked, and no content kept
        memory_id, seen = sent
        stored = self.ctx.storage.get_memories(PRINCIPAL.tenant, [memory_id], self.ctx.clock())
        row = stored[memory_id].memory
        self.client_differs += any(view != row for view in seen)
        self.rows.append(row)
        return row


def through_dispatcher(ctx: ServiceContext) -> Callable[[str], Sent | None]:
    def send(text: str) -> Sent | None:
        memory_id = stored_id(
            call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert_arguments(text))
        )
        return None if memory_id is None else (memory_id, [])

    return send


def _token(settings: Settings) -> str:
    return local_issuer(settings).issue(
        tenant=PRINCIPAL.tenant,
        subject=PRINCIPAL.subject,
        nutzer=PRINCIPAL.nutzer,
        agents=PRINCIPAL.agents,
        scopes=ALL_SCOPES,
        ttl_seconds=24 * 3600,
    )


@asynccontextmanager
async def _app_client(ctx: ServiceContext, via: str) -> AsyncIterator[Any]:
    """The real app (auth middleware, Host checks, MCP transport, REST) in this process,
    started with its lifespan, and a client of it: fastmcp's for `mcp`, httpx for `rest`."""
    app: Any = build_app(ctx, local_issuer(ctx.settings), ctx.settings)
    token = _token(ctx.settings)
    async with app.router.lifespan_context(app):
        if via == "rest":
            async with httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app),
                base_url=BASE_URL,
                headers={"Authorization": f"Bearer {token}"},
            ) as http:
                yield http
            return

        def factory(**kwargs: Any) -> httpx2.AsyncClient:
            kwargs.pop("verify", None)
            kwargs.pop("base_url", None)
            return httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app), base_url=BASE_URL, **kwargs
            )

        transport = StreamableHttpTransport(
            f"{BASE_URL}/mcp", auth=token, httpx_client_factory=factory
        )
        async with Client(transport) as client:
            yield client


async def _mcp_send(client: Any, text: str) -> Sent | None:
    answer = await client.call_tool(
        "insert_brain_longterm_memory", insert_arguments(text), raise_on_error=False
    )
    memory_id = stored_id(answer.structured_content or {})
    if memory_id is None:
        return None
    fetch = {"inhalt": {"memories": {"longterm": [str(memory_id)]}, **CALLER}}
    fetched = await client.call_tool("fetch_brain_memories", fetch, raise_on_error=False)
    found = (fetched.structured_content or {}).get("daten", {}).get("longterm") or [{}]
    return memory_id, [found[0].get("memory")]


async def _rest_send(http: httpx2.AsyncClient, text: str) -> Sent | None:
    body = {"kurzbeschreibung": "Notiz", "memory": text, "duplikat_erlaubt": True}
    created = await http.post("/api/memory", json=body)
    if created.status_code != 201:
        return None
    memory_id = MemoryId.parse(created.json()["ID"])
    assert memory_id is not None
    read = await http.get(f"/api/memory/{memory_id}")
    shown = read.json().get("memory") if read.status_code == 200 else None
    return memory_id, [created.json()["memory"], shown]


@contextmanager
def way_in(ctx: ServiceContext, via: str) -> Iterator[Callable[[str], Any]]:
    if via == "dispatcher":
        yield through_dispatcher(ctx)
        return
    send = _rest_send if via == "rest" else _mcp_send
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(_app_client(ctx, via)) as client,
    ):
        yield lambda text: portal.call(send, client, text)


def secrets_in(data_dir: Path, entries: list[dict[str, Any]]) -> int:
    """Labelled secrets (of SCANNED_MIN_LEN or more characters) found, as written or
    lowercased, in any file under `data_dir`."""
    blob = b"".join(p.read_bytes() for p in sorted(data_dir.rglob("*")) if p.is_file())
    values = {s["value"] for e in entries for s in e["secrets"]}
    return sum(
        v.encode() in blob or v.lower().encode() in blob
        for v in values
        if len(v) >= SCANNED_MIN_LEN
    )


def measure(
    entries: list[dict[str, Any]], via: str = "dispatcher", scan: dict[str, Any] | None = None
) -> tuple[dict[str, Any], int]:
    """(scrub.evaluate's result on the stored rows, refused calls); `scan`, if given,
    receives `in_data_dir` (secrets found in the data directory's files), `client_differs`
    (read-backs that differ from the stored row) and `rows` (the stored rows in order)."""
    with tempfile.TemporaryDirectory(prefix="scrub-calls-") as tmp:
        data_dir = Path(tmp)
        storage = SqliteStorage.in_data_dir(data_dir)
        try:
            ctx = ServiceContext(storage, Settings(data_dir=data_dir))
            with way_in(ctx, via) as send:
                stored = Stored(ctx, send)
                result = evaluate(entries, stored)
        finally:
            storage.close()
        if scan is not None:
            scan["in_data_dir"] = secrets_in(data_dir, entries)
            scan["client_differs"] = stored.client_differs
            scan["rows"] = stored.rows
        return result, stored.refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--via", choices=VIAS, default="dispatcher")
    args = parser.parse_args()
    entries = load(args.corpus)
    scan: dict[str, Any] = {}
    result, refused = measure(entries, args.via, scan)
    scanned = len(
        {s["value"] for e in entries for s in e["secrets"] if len(s["value"]) >= SCANNED_MIN_LEN}
    )
    print(f"corpus: {len(entries)} texts, stored one by one via {args.via} on SQLite")
    print(f"recall              {result['recall']:.4f}  ({result['caught']}/{result['total']})")
    print(
        f"false-positive rate {result['fp_rate']:.4f}  "
        f"({len(result['false_positives'])}/{result['negatives']} negative texts changed)"
    )
    print(f"content kept        {result['kept']}/{result['keep_total']} marked values survive")
    print(f"refused calls       {refused}")
    misses = sum(1 for v in result["per_kind"].values() if v[0] < v[1])
    print(f"kinds with misses   {misses} of {len(result['per_kind'])}")
    print(f"secrets in data dir {scan['in_data_dir']} of {scanned} (>= 12 characters, any file)")
    if args.via != "dispatcher":
        print(f"client view differs {scan['client_differs']} read-backs from the stored row")


if __name__ == "__main__":
    main()
