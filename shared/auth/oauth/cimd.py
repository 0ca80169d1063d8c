"""Client ID metadata documents (CIMD, draft-ietf-oauth-client-id-metadata-document, MCP
2025-11-25): a client whose id is an https URL publishes its metadata there.

Fetched safely: https only, through fastmcp's SSRF-safe fetch (DNS resolved once and pinned,
no loopback, private, link-local or multicast address, no redirects), at most
`MAX_DOCUMENT_BYTES` within `FETCH_TIMEOUT_S`; validated with fastmcp's `CIMDDocument`; the
document's `client_id` must equal the URL exactly. Cached per process for the response's
max-age, clamped to [`MIN_CACHE_S`, `MAX_CACHE_S`]; failures are not cached.

Tests serve documents from loopback: `BRAIN_OAUTH_CIMD_TEST_DOCUMENTS` maps a client id to a
loopback URL to fetch it from instead (refused for anything but a loopback address; `brain
serve` warns when it is set). Production never sets it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

import httpx2
from fastmcp.server.auth.cimd import CIMDDocument
from fastmcp.server.auth.redirect_validation import is_loopback_host
from fastmcp.server.auth.ssrf import SSRFError, SSRFFetchError, ssrf_safe_fetch_response
from pydantic import ValidationError

from shared.auth.oauth.redirects import RedirectRefused, check_registrable_list

MAX_DOCUMENT_BYTES: Final = 5120
FETCH_TIMEOUT_S: Final = 3.0
OVERALL_TIMEOUT_S: Final = 5.0
MIN_CACHE_S: Final = 60
MAX_CACHE_S: Final = 3600
DEFAULT_CACHE_S: Final = 600
MAX_CACHED: Final = 500


class CimdRefused(Exception):
    """The document could not be fetched or is not acceptable (German, echoes nothing)."""


def is_cimd_client_id(client_id: str) -> bool:
    """An https URL with a path beyond `/` (the client id form CIMD defines)."""
    try:
        parts = urlsplit(client_id)
    except ValueError:
        return False
    return (
        parts.scheme == "https"
        and bool(parts.hostname)
        and parts.path not in ("", "/")
        and not parts.fragment
        and parts.username is None
        and len(client_id) <= 2000
    )


@dataclass(frozen=True)
class _Cached:
    document: CIMDDocument
    until: float


def _max_age(headers: Mapping[str, str]) -> int:
    control = {k.lower(): v for k, v in headers.items()}.get("cache-control", "")
    for directive in control.split(","):
        name, _, value = directive.strip().lower().partition("=")
        if name == "no-store":
            return MIN_CACHE_S
        if name == "max-age" and value.isdigit():
            return max(MIN_CACHE_S, min(MAX_CACHE_S, int(value)))
    return DEFAULT_CACHE_S


def check_loopback_override(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not is_loopback_host(parts.hostname):
        raise ValueError("BRAIN_OAUTH_CIMD_TEST_DOCUMENTS: only loopback URLs are allowed")


class CimdFetcher:
    def __init__(self, test_documents: Mapping[str, str] | None = None) -> None:
        self._overrides = dict(test_documents or {})
        for url in self._overrides.values():
            check_loopback_override(url)
        self._cache: dict[str, _Cached] = {}

    async def document(self, client_id: str) -> CIMDDocument:
        cached = self._cache.get(client_id)
        if cached is not None and cached.until > time.monotonic():
            return cached.document
        content, headers = await self._fetch(client_id)
        document = _validated(client_id, content)
        if len(self._cache) >= MAX_CACHED:
            self._cache.pop(next(iter(self._cache)))
        self._cache[client_id] = _Cached(document, time.monotonic() + _max_age(headers))
        return document

    async def _fetch(self, client_id: str) -> tuple[bytes, Mapping[str, str]]:
        override = self._overrides.get(client_id)
        if override is not None:
            return await _fetch_loopback(override)
        try:
            response = await ssrf_safe_fetch_response(
                client_id,
                require_path=True,
                max_size=MAX_DOCUMENT_BYTES,
                timeout=FETCH_TIMEOUT_S,
                overall_timeout=OVERALL_TIMEOUT_S,
                request_headers={"Accept": "application/json"},
            )
        except SSRFError as exc:
            raise CimdRefused(
                "Client-Metadaten: die Adresse der client_id ist nicht erlaubt (nur https auf "
                "öffentliche Adressen)."
            ) from exc
        except SSRFFetchError as exc:
            raise CimdRefused(
                "Client-Metadaten: das Dokument der client_id ist nicht abrufbar (Status, "
                f"Größe über {MAX_DOCUMENT_BYTES} Bytes oder Zeitüberschreitung)."
            ) from exc
        return response.content, response.headers


async def _fetch_loopback(url: str) -> tuple[bytes, Mapping[str, str]]:
    try:
        async with (
            httpx2.AsyncClient(timeout=FETCH_TIMEOUT_S, follow_redirects=False) as client,
            client.stream("GET", url, headers={"Accept": "application/json"}) as response,
        ):
            if response.status_code != 200:
                raise CimdRefused("Client-Metadaten: das Dokument ist nicht abrufbar.")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_DOCUMENT_BYTES:
                    raise CimdRefused("Client-Metadaten: das Dokument ist zu groß.")
                chunks.append(chunk)
            return b"".join(chunks), dict(response.headers)
    except httpx2.HTTPError as exc:
        raise CimdRefused("Client-Metadaten: das Dokument ist nicht abrufbar.") from exc


def _validated(client_id: str, content: bytes) -> CIMDDocument:
    try:
        document = CIMDDocument.model_validate(json.loads(content))
    except (ValueError, ValidationError) as exc:
        raise CimdRefused(
            "Client-Metadaten: kein gültiges Dokument (JSON mit client_id und redirect_uris)."
        ) from exc
    if str(document.client_id) != client_id:
        raise CimdRefused("Client-Metadaten: client_id im Dokument ist nicht seine Adresse.")
    if document.token_endpoint_auth_method != "none":  # noqa: S105
        raise CimdRefused(
            "Client-Metadaten: nur öffentliche Clients (token_endpoint_auth_method none)."
        )
    try:
        check_registrable_list(document.redirect_uris, allow_port_wildcard=True)
    except RedirectRefused as exc:
        raise CimdRefused(f"Client-Metadaten: {exc}") from exc
    return document
