"""Structured log lines (JSON) for the local server: known keys only, never payloads."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# Only these `extra` keys are written; anything else a caller attaches is dropped, so that
# memory text, tokens or request bodies cannot leak into logs by accident.
ALLOWED_KEYS = ("tool", "tenant", "subject", "erfolg", "dauer_ms", "reason", "anzahl")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "zeit": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ALLOWED_KEYS:
            if key in record.__dict__:
                line[key] = record.__dict__[key]
        return json.dumps(line, ensure_ascii=False, default=str)


# Libraries that log request and response bodies at DEBUG (botocore logs every DynamoDB item
# and S3 object it sends). They never log below WARNING in this service.
PAYLOAD_LOGGERS = ("botocore", "boto3", "s3transfer", "urllib3")


def silence_payload_loggers() -> None:
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def configure_logging(level: str) -> None:
    silence_payload_loggers()
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("brain")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
