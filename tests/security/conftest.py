"""Fixtures of the security suite: the real HTTP app on each storage adapter, tokens, and a
read-only snapshot of everything stored, to prove that a refused call wrote nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import ALL_SCOPES
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.storage.port import StoragePort
from tests.conftest import InProcessServer, running_app
from tests.contract.conftest import STORAGE_FACTORIES

TENANT_A = "acme"
TENANT_B = "globex"


@pytest.fixture(params=sorted(STORAGE_FACTORIES))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoragePort]:
    factory: Callable[[Path], AbstractContextManager[StoragePort]] = STORAGE_FACTORIES[
        request.param
    ]
    store = tmp_path / "store"
    store.mkdir()
    with factory(store) as storage:
        yield storage


@pytest.fixture
async def secure_server(
    settings: Settings, backend: StoragePort, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    async with running_app(backend, settings, issuer) as running:
        yield running


@dataclass
class Tokens:
    issuer: LocalTokenIssuer

    def make(
        self,
        *,
        tenant: str = TENANT_A,
        nutzer: tuple[str, ...] = ("anna",),
        agents: tuple[str, ...] = ("bot",),
        scopes: frozenset[str] = ALL_SCOPES,
        ttl: int = 600,
    ) -> str:
        return self.issuer.issue(
            tenant=tenant,
            subject=f"{tenant}:{'+'.join(nutzer)}",
            nutzer=nutzer,
            agents=agents,
            scopes=scopes,
            ttl_seconds=ttl,
        )


@pytest.fixture
def tokens(issuer: LocalTokenIssuer) -> Tokens:
    return Tokens(issuer)


def stored_state(storage: StoragePort, tenants: tuple[str, ...] = (TENANT_A, TENANT_B)) -> Any:
    """Everything a tool could have written, read through the port (adapter-agnostic)."""
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    ids = [MemoryId(typ, n) for typ in MemoryType for n in range(1, 21)]
    state: dict[str, Any] = {}
    for tenant in tenants:
        memories = storage.get_memories(tenant, ids, now)
        state[tenant] = {
            "memories": {
                str(k): (v.memory, v.score_count, str(v.score_sum)) for k, v in memories.items()
            },
            "ratings": {str(k): len(storage.get_ratings(tenant, k)) for k in memories},
            "brain": [(e.id, e.titel) for e in storage.list_brain_entries(tenant, 100)],
            "stats": storage.brain_stats(tenant),
            "ledger": sorted(storage.get_ledger(tenant, range(1, 21))),
        }
    return state
