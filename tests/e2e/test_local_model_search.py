"""Meaning-based search on the local server with the real local model (all-MiniLM-L6-v2 from
its PyPI package, ONNX Runtime), through a real MCP client: memories stored without vectors
get the server's, and a query that shares no word with a memory finds it by its vector."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.embedding.local import DEFAULT_MODEL, LocalEmbedder, packaged_archive, resolve_model_dir
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer, running_app
from tests.e2e.helpers import call, insert_args, memory_entry
from tests.e2e.test_hybrid_search import token_for

pytestmark = [
    pytest.mark.skipif(packaged_archive(DEFAULT_MODEL) is None, reason="make install"),
]


@pytest.fixture(scope="session")
def local_embedder(tmp_path_factory: pytest.TempPathFactory) -> LocalEmbedder:
    settings = Settings(data_dir=tmp_path_factory.mktemp("local-model"))
    directory = resolve_model_dir(settings, fetch=None)
    assert directory is not None
    return LocalEmbedder(Path(directory), DEFAULT_MODEL)


@pytest.fixture
async def model_server(
    settings: Settings,
    sqlite_storage: SqliteStorage,
    issuer: LocalTokenIssuer,
    local_embedder: LocalEmbedder,
) -> AsyncIterator[InProcessServer]:
    async with running_app(sqlite_storage, settings, issuer, local_embedder) as running:
        yield running


@pytest.mark.anyio
async def test_a_query_without_shared_words_finds_by_meaning(
    model_server: InProcessServer, dev_token: str, issuer: LocalTokenIssuer
) -> None:
    texts = [
        "The orders live in a PostgreSQL cluster with two replicas.",
        "Lunch is served in the canteen on the second floor.",
        "The piano lessons start again after the summer holidays.",
    ]
    async with model_server.client(dev_token) as client:
        stored = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(*(memory_entry(kurzbeschreibung=t[:20], memory=t) for t in texts)),
        )
        assert stored["erfolg"], stored
    async with model_server.client(token_for(issuer, "42")) as client:
        found = await call(client, "search_memory", {"query": "which database do we run?"})
    hits = found["daten"]["treffer"]
    assert hits[0]["memory"] == texts[0]
    assert "vektor" in hits[0]["treffer_durch"]
    assert hits[0]["embedding_profil_hash"].startswith("all-minilm-l6-v2-384-")


def test_brain_serve_uses_the_installed_model_with_auto(tmp_path: Path) -> None:
    # Given the model package installed, When `brain serve` starts as `make serve` starts it
    env = {**os.environ, "BRAIN_EMBEDDER": "auto", "BRAIN_LOG_LEVEL": "WARNING"}
    command = [sys.executable, "-m", "shared.cli", "serve", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--data-dir", str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("REST-API"):
            line = process.stdout.readline()
            assert line, lines
            lines.append(line.strip())
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    # Then it embeds with the local model's profile, fetched from nowhere but the package
    assert any(line.startswith("Embeddings: auto, Profil all-minilm-l6-v2-384-") for line in lines)
    assert (
        tmp_path / "models" / "sentence-transformers__all-MiniLM-L6-v2" / "config.json"
    ).is_file()
