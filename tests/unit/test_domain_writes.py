"""The write requests of the storage port refuse what no adapter may apply (domain.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.domain import BrainWrite, EmbeddingChange, MemoryReplace
from tests.contract.builders import OTHER_TENANT, lt, make_entry, make_memory


def test_a_replace_must_keep_tenant_and_id() -> None:
    # Given a stored memory and a brain entry
    memory, entry = make_memory(lt(1)), make_entry(1)
    # When a replace names another ID or tenant, then it is refused before any write
    with pytest.raises(ValueError, match="keep tenant and ID"):
        MemoryReplace(make_memory(lt(2)), memory)
    with pytest.raises(ValueError, match="keep tenant and ID"):
        MemoryReplace(replace(memory, tenant=OTHER_TENANT), memory)
    with pytest.raises(ValueError, match="keep tenant and ID"):
        BrainWrite(make_entry(2), previous=entry)
    # And the same tenant and ID are accepted (a create has no previous)
    assert MemoryReplace(replace(memory, memory="neu"), memory).previous is memory
    assert BrainWrite(make_entry(2)).previous is None


def test_a_new_embedding_needs_its_vector() -> None:
    memory = make_memory(lt(1))
    with pytest.raises(ValueError, match="without an embedding"):
        MemoryReplace(memory, memory, EmbeddingChange.SET)
    assert MemoryReplace(memory, memory, EmbeddingChange.SET, b"\0" * 16).embedding
