"""The idempotency fields of the contract, without the machinery (`shared.tools.retry`):
the transports map an in-progress answer to HTTP 409 without loading the retry layer."""

from __future__ import annotations

# The field of the error a duplicate gets while the first call still runs (HTTP: 409).
IN_PROGRESS_FIELD = "idempotenz"
# The caller's own key of a logical write (`referenzfelder.idempotenz_schluessel`).
KEY_FIELD = "idempotenz_schluessel"
