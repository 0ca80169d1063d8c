"""The duplicate check's vector read ahead is an optimisation: a vector store that does not
answer (the port's `VectorSearchUnavailable`) leaves it without hits, so `find_duplicates`
queries again where words are shared; the first vector of a profile has nothing to compare
with. Both are port-level errors: the service knows no store's client errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from shared.config import Settings
from shared.search.vectors import (
    VectorHit,
    VectorProfileError,
    VectorQuery,
    VectorSearchUnavailable,
)
from shared.services.context import ServiceContext
from shared.services.duplicates_ahead import _ahead_hits, vector_hits
from shared.storage.sqlite import SqliteStorage
from tests.contract.builders import T0


class Unanswered(SqliteStorage):
    """A real store whose vector search fails as the port says an unreachable one does."""

    def __init__(self, path: Path, error: Exception) -> None:
        super().__init__(path)
        self.error = error

    def search_vectors(self, query: VectorQuery) -> list[VectorHit]:
        raise self.error


@contextmanager
def ctx_with(tmp_path: Path, error: Exception) -> Iterator[ServiceContext]:
    storage = Unanswered(tmp_path / "brain.sqlite3", error)
    try:
        yield ServiceContext(storage, Settings(data_dir=tmp_path))
    finally:
        storage.close()


QUERY = VectorQuery("acme", "p", (1.0, 0.0), frozenset({"users/anna"}), T0, 5, None)


def test_an_unanswered_vector_query_leaves_the_read_ahead_without_hits(tmp_path: Path) -> None:
    with ctx_with(tmp_path, VectorSearchUnavailable("ThrottlingException")) as ctx:
        assert _ahead_hits(ctx, QUERY) is None


def test_the_first_vector_of_a_profile_has_no_neighbours(tmp_path: Path) -> None:
    with ctx_with(tmp_path, VectorProfileError("p", 2, [])) as ctx:
        assert _ahead_hits(ctx, QUERY) == []
        assert vector_hits(ctx, QUERY) == []


def test_any_other_error_is_not_swallowed(tmp_path: Path) -> None:
    with ctx_with(tmp_path, RuntimeError("bug")) as ctx, pytest.raises(RuntimeError):
        _ahead_hits(ctx, QUERY)
