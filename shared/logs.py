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
        if record.exc_info and record.exc_info[0] is not None:
            # The type only: exception messages of drivers may quote the data they refused.
            line["exception"] = record.exc_info[0].__name__
        return json.dumps(line, ensure_ascii=False, default=str)


# Libraries that log request and response bodies at DEBUG (botocore logs every DynamoDB item
# and S3 object it sends). They never log below WARNING in this service.
PAYLOAD_LOGGERS = ("botocore", "boto3", "s3transfer", "urllib3")


def silence_payload_loggers() -> None:
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


# Our loggers: "brain.*" (tools, auth, expiry) and the modules' own "shared.*" loggers; and
# the MCP layers', so that an unexpected exception is logged by its type, never its text.
OWN_LOGGERS = ("brain", "shared", "fastmcp", "mcp")


def configure_logging(level: str) -> None:
    silence_payload_loggers()
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in OWN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
