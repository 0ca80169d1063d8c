"""Embedding objects in S3: `<tenant>/embeddings/<memory id>/<write_id>.f32`, one fresh key
per write, SSE-S3. Helpers that report failures instead of raising, so that they can run
as tasks of a stage next to DynamoDB calls."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from shared.domain import MemoryId
from shared.storage.dynamo.calls import AWS_ERRORS, error_code

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_log = logging.getLogger(__name__)


class EmbeddingObjects:
    def __init__(self, s3: S3Client, bucket: str) -> None:
        self._s3 = s3
        self._bucket = bucket

    def put(self, memory_id: MemoryId, s3_key: str, body: bytes) -> str | None:
        """Store one object; None, or why it failed."""
        try:
            self._s3.put_object(
                Bucket=self._bucket,
                Key=s3_key,
                Body=body,
                ContentType="application/octet-stream",
                # No per-object override: the bucket's default (SSE-KMS, with the template's
                # customer-managed key when one is configured) applies.
            )
        except AWS_ERRORS as exc:
            _log.warning("embedding of %s: %s", memory_id, exc)
            return f"embedding of {memory_id}: {error_code(exc)}"
        return None

    def delete(self, s3_key: str) -> None:
        """Best effort: a left-over object is never referenced again (logged)."""
        try:
            self._s3.delete_object(Bucket=self._bucket, Key=s3_key)
        except AWS_ERRORS as exc:
            _log.error("orphan embedding object %s left: %s", s3_key, exc)
