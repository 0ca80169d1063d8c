"""Amazon Bedrock embedders: Titan Text Embeddings V2 and Cohere Embed Multilingual v3.

Both call `bedrock-runtime` InvokeModel with a JSON body; one client per process (built by
the caller, thread-safe). Titan embeds one text per call, so a batch runs its calls side by
side (at most `max_parallel`); Cohere takes up to 96 texts per call. Texts longer than the
model accepts are cut at the model's limit (Titan 50,000 characters, Cohere 2,048), as the
models would truncate anyway. Provider errors become `EmbeddingFailed`; texts are never
logged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from shared.embedding.port import EmbeddingFailed, EmbeddingProfile, Purpose, normalised

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

TITAN_V2: Final = "amazon.titan-embed-text-v2:0"
TITAN_DIMENSIONS: Final = (256, 512, 1024)
TITAN_MAX_CHARS: Final = 50_000
COHERE_MULTILINGUAL: Final = "cohere.embed-multilingual-v3"
COHERE_DIMENSION: Final = 1024
COHERE_MAX_TEXTS: Final = 96
COHERE_MAX_CHARS: Final = 2048
_COHERE_INPUT: Final = {Purpose.DOCUMENT: "search_document", Purpose.QUERY: "search_query"}


def _invoke(client: BedrockRuntimeClient, model_id: str, body: dict[str, Any]) -> Any:
    try:
        response = client.invoke_model(
            modelId=model_id,
            body=json.dumps(body).encode(),
            contentType="application/json",
            accept="application/json",
        )
        return json.loads(response["body"].read())
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "ClientError")
        raise EmbeddingFailed(f"{model_id}: {code}") from exc
    except (BotoCoreError, ValueError) as exc:
        raise EmbeddingFailed(f"{model_id}: {type(exc).__name__}") from exc


def _vector(values: Any, dimension: int, model_id: str) -> list[float]:
    if not isinstance(values, list) or len(values) != dimension:
        raise EmbeddingFailed(f"{model_id}: answer is not a vector of {dimension} numbers")
    floats: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EmbeddingFailed(f"{model_id}: answer holds a non-number")
        if not math.isfinite(value):
            raise EmbeddingFailed(f"{model_id}: answer holds a non-finite number")
        floats.append(float(value))
    return normalised(floats)


class TitanEmbedder:
    """Titan Text Embeddings V2 (`amazon.titan-embed-text-v2:0`), 256, 512 or 1024 dims."""

    def __init__(
        self, client: BedrockRuntimeClient, dimension: int = 1024, max_parallel: int = 8
    ) -> None:
        if dimension not in TITAN_DIMENSIONS:
            raise ValueError(f"Titan V2 dimension must be one of {TITAN_DIMENSIONS}")
        self._client = client
        self._profile = EmbeddingProfile(TITAN_V2, dimension)
        self._max_parallel = max(1, max_parallel)

    @property
    def profile(self) -> EmbeddingProfile:
        return self._profile

    def _one(self, text: str) -> list[float]:
        body = {
            "inputText": text[:TITAN_MAX_CHARS],
            "dimensions": self._profile.dimension,
            "normalize": True,
        }
        answer = _invoke(self._client, TITAN_V2, body)
        values = answer.get("embedding") if isinstance(answer, dict) else None
        return _vector(values, self._profile.dimension, TITAN_V2)

    def embed(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        if len(texts) <= 1:
            return [self._one(text) for text in texts]
        with ThreadPoolExecutor(min(self._max_parallel, len(texts))) as pool:
            return list(pool.map(self._one, texts))


class CohereEmbedder:
    """Cohere Embed Multilingual v3 (`cohere.embed-multilingual-v3`), 1024 dims, up to 96
    texts per call; documents and queries embedded as `search_document` / `search_query`."""

    def __init__(self, client: BedrockRuntimeClient) -> None:
        self._client = client
        self._profile = EmbeddingProfile(COHERE_MULTILINGUAL, COHERE_DIMENSION)

    @property
    def profile(self) -> EmbeddingProfile:
        return self._profile

    def embed(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), COHERE_MAX_TEXTS):
            chunk = [text[:COHERE_MAX_CHARS] for text in texts[start : start + COHERE_MAX_TEXTS]]
            body = {"texts": chunk, "input_type": _COHERE_INPUT[purpose], "truncate": "END"}
            answer = _invoke(self._client, COHERE_MULTILINGUAL, body)
            values = answer.get("embeddings") if isinstance(answer, dict) else None
            if not isinstance(values, list) or len(values) != len(chunk):
                raise EmbeddingFailed(f"{COHERE_MULTILINGUAL}: answer has the wrong count")
            vectors += [_vector(v, COHERE_DIMENSION, COHERE_MULTILINGUAL) for v in values]
        return vectors
