"""Shared fixtures: settings on a temporary data dir, the in-process MCP app and a client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.verifiers import local_issuer
from shared.config import Settings
from shared.embedding.port import Embedder
from shared.server.app import build_app
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage

BASE_URL = "http://127.0.0.1:8787"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def sqlite_storage(settings: Settings) -> Iterator[SqliteStorage]:
    storage = SqliteStorage.in_data_dir(settings.data_dir)
    yield storage
    storage.close()


@pytest.fixture
def issuer(settings: Settings) -> LocalTokenIssuer:
    return local_issuer(settings)


@pytest.fixture
def dev_token(issuer: LocalTokenIssuer) -> str:
    return issuer.development_token(3600)


class InProcessServer:
    """The real ASGI app (auth, Host checks, MCP transport) reached through httpx in-process."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def http(self) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=self.app), base_url=BASE_URL)

    @asynccontextmanager
    async def client(self, token: str) -> AsyncIterator[Client[Any]]:
        def factory(**kwargs: Any) -> httpx2.AsyncClient:
            kwargs.pop("verify", None)
            kwargs.pop("base_url", None)
            return httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=self.app), base_url=BASE_URL, **kwargs
            )

        transport = StreamableHttpTransport(
            f"{BASE_URL}/mcp", auth=token, httpx_client_factory=factory
        )
        async with Client(transport) as client:
            yield client


@asynccontextmanager
async def running_app(
    storage: StoragePort,
    settings: Settings,
    issuer: LocalTokenIssuer,
    embedder: Embedder | None = None,
) -> AsyncIterator[InProcessServer]:
    """The real app on `storage` (with a server-side `embedder`, if given), started
    (lifespan) and stopped around the block."""
    app = build_app(ServiceContext(storage, settings, embedder=embedder), issuer, settings)
    async with app.router.lifespan_context(app):  # type: ignore[attr-defined]
        yield InProcessServer(app)


@pytest.fixture
async def server(
    settings: Settings, sqlite_storage: SqliteStorage, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    async with running_app(sqlite_storage, settings, issuer) as running:
        yield running


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop DynamoDB Local if a test of this session (or xdist worker) started it."""
    import sys

    engine = sys.modules.get("tests.dynamodb_local")
    if engine is not None:
        engine.stop()


# Tests of more than ~5 s each on the CI machine (`--durations`): `-m "not slow"` skips them.
SLOW = (
    "tests/conformance/",
    "tests/e2e/test_aws_backend.py",
    "tests/e2e/test_docs_page_browser.py",
    "tests/e2e/test_rest_schemathesis.py",
    "tests/integration/test_dynamo_ledger_concurrency.py::test_twelve_writers",
    "tests/integration/test_dynamo_rating_concurrency.py::test_12_clients",
    "tests/lambda_functions/test_fuzz_handlers.py",
    "tests/lambda_functions/test_router.py::test_hundred_warm_invocations",
    "tests/security/test_fuzz_http.py",
    "tests/security/test_time_budget.py",
    "tests/unit/test_scale_benchmark.py",
    "tests/unit/test_scrub_hardening.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
