"""Helpers of the storage contract tests (tests/contract/test_storage_contract*.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from shared.domain import (
    EntryFailure,
    EntryFailureCode,
    MemoryId,
    Posting,
    RatingOutcome,
)
from shared.storage.port import StoragePort
from tests.contract.builders import (
    TENANT,
    new_memory,
)


def posting(
    entry_id: int, tf: int, doc_len: int, vk_typ: str = "kunde", ref: str = "K-1"
) -> Posting:
    """A posting of an entry built by make_entry (vk defaults kunde / K-1)."""
    return Posting(entry_id, tf, doc_len, vk_typ, ref)


def postings_of(storage: StoragePort, tenant: str, terms: list[str]) -> dict[str, list[Posting]]:
    return storage.lookup_terms(tenant, terms).postings


def assert_failure(result: object, code: EntryFailureCode) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code == code


def assert_utc(value: datetime | None) -> None:
    assert value is not None
    assert value.tzinfo is not None
    assert value.utcoffset() == timedelta(0)


def outcome(result: RatingOutcome | EntryFailure) -> RatingOutcome:
    assert isinstance(result, RatingOutcome), result
    return result


def put_ok(storage: StoragePort, *ids: MemoryId, tenant: str = TENANT) -> None:
    results = storage.put_memories([new_memory(i, tenant=tenant) for i in ids])
    assert results == [None] * len(ids)
