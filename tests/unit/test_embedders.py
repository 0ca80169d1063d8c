"""The embedder port: the deterministic test embedder and the Bedrock adapters (botocore's
Stubber validates every request and response against the real bedrock-runtime model)."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from shared.config import Settings
from shared.embedding.bedrock import (
    COHERE_MAX_TEXTS,
    COHERE_MULTILINGUAL,
    TITAN_V2,
    CohereEmbedder,
    TitanEmbedder,
)
from shared.embedding.factory import build_embedder
from shared.embedding.hashed import HashedEmbedder
from shared.embedding.port import EmbeddingFailed, EmbeddingProfile, Purpose
from tests.stubs import stubbed_client


def cosine(a: list[float], b: list[float]) -> float:
    return math.sumprod(a, b) / math.sqrt(math.sumprod(a, a) * math.sumprod(b, b))


def test_profile_hash_names_model_and_dimension() -> None:
    titan = EmbeddingProfile(TITAN_V2, 1024).hash
    assert titan.startswith("amazon-titan-embed-text-v2-1024-")
    assert titan != EmbeddingProfile(TITAN_V2, 512).hash
    assert titan != EmbeddingProfile(COHERE_MULTILINGUAL, 1024).hash
    assert titan == EmbeddingProfile(TITAN_V2, 1024).hash


def test_hashed_embedder_is_deterministic_normalised_and_meaningful() -> None:
    embedder = HashedEmbedder(256)
    a, b, c, d = embedder.embed(
        [
            "Die Kundendatenbank läuft auf PostgreSQL.",
            "Welche Datenbank nutzen wir?",
            "Urlaubsplanung im August",
            "",
        ],
        Purpose.DOCUMENT,
    )
    assert embedder.embed(["Die Kundendatenbank läuft auf PostgreSQL."], Purpose.QUERY) == [a]
    assert len(a) == 256 and math.isclose(math.sumprod(a, a), 1.0)
    assert d == [0.0] * 256  # no features: a zero vector, never NaN
    # A compound shares trigrams with its part; an unrelated text does not
    assert cosine(a, b) > 0.1 > cosine(a, c)


class Body(StreamingBody):
    def __init__(self, answer: Any) -> None:
        raw = json.dumps(answer).encode()
        super().__init__(io.BytesIO(raw), len(raw))


@pytest.fixture
def runtime() -> Iterator[tuple[Any, Stubber]]:
    with stubbed_client("bedrock-runtime") as stub:
        yield stub


def invoke(model: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "modelId": model,
        "body": json.dumps(body).encode(),
        "contentType": "application/json",
        "accept": "application/json",
    }


def test_titan_sends_one_invoke_per_text_with_its_dimension(
    runtime: tuple[Any, Stubber],
) -> None:
    client, stubber = runtime
    for text, value in (("erster", 3.0), ("zweiter", 4.0)):
        stubber.add_response(
            "invoke_model",
            {
                "body": Body({"embedding": [value] * 256, "inputTextTokenCount": 2}),
                "contentType": "application/json",
            },
            invoke(TITAN_V2, {"inputText": text, "dimensions": 256, "normalize": True}),
        )
    embedder = TitanEmbedder(client, 256, max_parallel=1)
    vectors = embedder.embed(["erster", "zweiter"], Purpose.DOCUMENT)
    assert [len(v) for v in vectors] == [256, 256]
    assert math.isclose(math.sumprod(vectors[0], vectors[0]), 1.0)
    assert embedder.profile == EmbeddingProfile(TITAN_V2, 256)


def test_cohere_batches_96_texts_per_call_as_documents_or_queries(
    runtime: tuple[Any, Stubber],
) -> None:
    client, stubber = runtime
    texts = [f"text {i}" for i in range(COHERE_MAX_TEXTS + 1)]
    for chunk in (texts[:COHERE_MAX_TEXTS], texts[COHERE_MAX_TEXTS:]):
        stubber.add_response(
            "invoke_model",
            {
                "body": Body({"embeddings": [[0.5] * 1024] * len(chunk), "id": "x"}),
                "contentType": "application/json",
            },
            invoke(
                COHERE_MULTILINGUAL,
                {"texts": chunk, "input_type": "search_document", "truncate": "END"},
            ),
        )
    stubber.add_response(
        "invoke_model",
        {"body": Body({"embeddings": [[0.5] * 1024]}), "contentType": "application/json"},
        invoke(
            COHERE_MULTILINGUAL,
            {"texts": ["frage"], "input_type": "search_query", "truncate": "END"},
        ),
    )
    embedder = CohereEmbedder(client)
    assert len(embedder.embed(texts, Purpose.DOCUMENT)) == COHERE_MAX_TEXTS + 1
    assert len(embedder.embed(["frage"], Purpose.QUERY)[0]) == 1024


@pytest.mark.parametrize(
    "answer",
    [{"embedding": [1.0] * 3}, {"embedding": [1.0] * 255 + ["x"]}, {"nothing": 1}, [1, 2]],
)
def test_a_malformed_answer_is_embedding_failed(runtime: tuple[Any, Stubber], answer: Any) -> None:
    client, stubber = runtime
    stubber.add_response("invoke_model", {"body": Body(answer), "contentType": "application/json"})
    with pytest.raises(EmbeddingFailed):
        TitanEmbedder(client, 256).embed(["text"], Purpose.QUERY)


def test_a_throttled_call_is_embedding_failed(runtime: tuple[Any, Stubber]) -> None:
    client, stubber = runtime
    stubber.add_client_error("invoke_model", "ThrottlingException", http_status_code=429)
    with pytest.raises(EmbeddingFailed, match="ThrottlingException"):
        CohereEmbedder(client).embed(["text"], Purpose.DOCUMENT)


def test_factory_builds_the_configured_embedder(runtime: tuple[Any, Stubber]) -> None:
    client, _ = runtime
    assert build_embedder(Settings()) is None  # default: model-free
    test = build_embedder(Settings(embedder="test", embedding_dimension=64))
    assert isinstance(test, HashedEmbedder) and test.profile.dimension == 64
    titan = build_embedder(Settings(embedder="bedrock-titan", embedding_dimension=512), client)
    assert isinstance(titan, TitanEmbedder) and titan.profile.dimension == 512
    assert isinstance(build_embedder(Settings(embedder="bedrock-cohere"), client), CohereEmbedder)
    with pytest.raises(ValueError, match="256, 512 or 1024"):
        Settings(embedder="bedrock-titan", embedding_dimension=384)
