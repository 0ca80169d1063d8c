"""Latency of the local server: start-up time and per-tool call latency over loopback HTTP.

Calls are plain JSON-RPC `tools/call` POSTs on one keep-alive connection (stateless server, no
session), so the numbers are the server's, not an MCP client library's own overhead.

Run: .venv/bin/python benchmarks/local_server.py [--calls 200]
A measurement, not a test: it prints numbers and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx2


def start(data_dir: Path) -> tuple[subprocess.Popen[str], str, str, float]:
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "serve", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "BRAIN_LOG_LEVEL": "WARNING"},
    )
    assert process.stdout is not None
    url = process.stdout.readline().split(": ", 1)[1].strip()
    token = process.stdout.readline().split(": ", 1)[1].strip()
    return process, url, token, time.perf_counter() - started


async def timed(label: str, calls: int, make_call: Callable[[int], Awaitable[Any]]) -> None:
    samples = []
    for number in range(calls):
        began = time.perf_counter()
        await make_call(number)
        samples.append((time.perf_counter() - began) * 1000)
    samples.sort()
    p95 = samples[int(len(samples) * 0.95) - 1]
    print(f"{label:<34} p50 {statistics.median(samples):6.1f} ms   p95 {p95:6.1f} ms")


class JsonRpcTools:
    def __init__(self, http: httpx2.AsyncClient, url: str) -> None:
        self.http, self.url = http, url

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        response = await self.http.post(self.url, json=body)
        response.raise_for_status()
        result = response.json()["result"]
        if result.get("isError"):
            raise RuntimeError(f"{name} failed: {result['structuredContent']['fehler'][:1]}")
        return result


def memory(number: int) -> dict[str, Any]:
    return {
        "kurzbeschreibung": f"Notiz {number}",
        "memory": f"Kunde K-{number % 50} bevorzugt Rückruf am Vormittag, Vertrag {number}.",
        "tags": ["kunde", f"t{number % 7}"],
        "scope": "kunde",
        "scope_vk": f"K-{number % 50}",
        "agent": "bench",
        "nutzer": 1,
    }


async def run(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        process, url, token, startup = start(Path(tmp))
        print(f"{'brain serve start-up (to URL)':<34} {startup * 1000:6.0f} ms")
        try:
            headers = {
                "Authorization": f"Bearer {token}",
                "Accept": "application/json, text/event-stream",
            }
            async with httpx2.AsyncClient(headers=headers) as http:
                client = JsonRpcTools(http, url)
                envelope = {"nutzer": 1, "agent": "bench"}

                async def insert_one(n: int) -> Any:
                    args = {"inhalt": {"memories": [memory(n)], **envelope}}
                    return await client.call_tool("insert_brain_longterm_memory", args)

                async def insert_batch(n: int) -> Any:
                    batch = [memory(n * 100 + i) for i in range(100)]
                    args = {"inhalt": {"memories": batch, **envelope}}
                    return await client.call_tool("insert_brain_longterm_memory", args)

                async def fetch(n: int) -> Any:
                    ids = [f"longterm_{i}" for i in range(1 + n % 50, 101 + n % 50)]
                    args = {"inhalt": {"memories": {"longterm": ids}, **envelope}}
                    return await client.call_tool("fetch_brain_memories", args)

                async def rate(n: int) -> Any:
                    ratings = [
                        {
                            "typ": "longterm",
                            "parameter": {
                                "memory_ID": f"longterm_{1 + (n + i) % 100}",
                                "agent": "bench",
                                "score": (n + i) % 11,
                            },
                        }
                        for i in range(100)
                    ]
                    return await client.call_tool(
                        "rate_brain_memories", {"inhalt": {"memories": ratings, **envelope}}
                    )

                async def upsert(n: int) -> Any:
                    entry = {
                        "titel": f"Kunde {n}",
                        "inhalt": memory(n)["memory"],
                        "vk_typ": "kunde",
                        "vk_referenz_id": f"K-{n}",
                    }
                    return await client.call_tool(
                        "upsert_brain", {"inhalt": {"eintraege": [entry], **envelope}}
                    )

                async def select(n: int) -> Any:
                    return await client.call_tool(
                        "select_brain",
                        {
                            "nutzer": 1,
                            "agent": "bench",
                            "query": f"Rückruf Vertrag {n}",
                            "detailgrad": "stammdaten,texte,erinnerungen",
                        },
                    )

                await timed("insert longterm (1 entry)", calls, insert_one)
                await timed("insert longterm (100 entries)", max(calls // 10, 5), insert_batch)
                await timed("fetch (100 IDs)", calls, fetch)
                await timed("rate (100 ratings)", max(calls // 10, 5), rate)
                await timed("upsert_brain (1 entry)", calls, upsert)
                await timed("select_brain (query, all details)", calls, select)
        finally:
            process.terminate()
            process.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    asyncio.run(run(parser.parse_args().calls))


if __name__ == "__main__":
    main()
