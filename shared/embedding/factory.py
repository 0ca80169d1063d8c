"""The configured embedder (`Settings.embedder`), built once per process."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.config import Settings
from shared.embedding.port import Embedder

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient


def bedrock_client(settings: Settings) -> BedrockRuntimeClient:
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=2,
        read_timeout=10,
        retries={"mode": "standard", "max_attempts": settings.aws_max_attempts},
        max_pool_connections=16,
    )
    return boto3.client("bedrock-runtime", config=config)


def build_embedder(
    settings: Settings, client: BedrockRuntimeClient | None = None
) -> Embedder | None:
    """None when no embedder is configured (the default: model-free)."""
    kind = settings.embedder
    if kind == "none":
        return None
    if kind in ("local", "auto"):
        from shared.embedding.local import build_local

        return build_local(settings, auto=kind == "auto")
    if kind == "test":
        from shared.embedding.hashed import DEFAULT_DIMENSION, HashedEmbedder

        return HashedEmbedder(settings.embedding_dimension or DEFAULT_DIMENSION)
    from shared.embedding.bedrock import CohereEmbedder, TitanEmbedder

    runtime = client if client is not None else bedrock_client(settings)
    if kind == "bedrock-titan":
        return TitanEmbedder(runtime, settings.embedding_dimension or 1024)
    return CohereEmbedder(runtime)
