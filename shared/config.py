"""Configuration: one validated settings model, read once per process (env prefix BRAIN_).

The model is a pydantic model whose `__init__` reads the `BRAIN_*` environment the way
pydantic-settings' environment source does (`environment_values`): variable names
case-insensitive, list and dict fields as JSON, keyword arguments before the environment,
unknown variables ignored. Not pydantic-settings itself: importing it costs a Lambda
function ~30 ms of CPU in its cold start (its sources import asyncio, argparse and dotenv),
about a tenth of a bare boto3 + pydantic handler (benchmarks/cold_start.py, README).
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_origin
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from shared.auth.claims import ClaimMapping
from shared.scrubbing import ScrubPolicy

if TYPE_CHECKING:
    from shared.search.duplicates import DuplicateRule
    from shared.search.signals import RankingSignals
    from shared.validation.parsed import ParseOptions

DAY = 24 * 3600
ENV_PREFIX = "BRAIN_"
# Fields whose environment value is JSON (pydantic-settings' "complex" fields).
_JSON_ORIGINS = (list, dict)


def environment_values(model: type[BaseModel], environ: dict[str, str]) -> dict[str, Any]:
    """The values of `model`'s fields in `environ` (`BRAIN_<FIELD>`, any case): the raw
    string, or the parsed JSON for a list or dict field (invalid JSON: ValueError naming
    the variable)."""
    by_name = {key.lower(): value for key, value in environ.items()}
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        variable = f"{ENV_PREFIX}{name.upper()}"
        raw = by_name.get(variable.lower())
        if raw is None:
            continue
        if get_origin(field.annotation) in _JSON_ORIGINS:
            try:
                values[name] = json.loads(raw)
            except ValueError as exc:
                raise ValueError(f"{variable} is not valid JSON: {exc}") from exc
        else:
            values[name] = raw
    return values


class Settings(BaseModel):
    # validate_default as pydantic-settings: a default goes through the same validators.
    model_config = ConfigDict(extra="ignore", frozen=True, validate_default=True)

    def __init__(self, **values: Any) -> None:
        """The environment's values, overridden by the keyword arguments given."""
        super().__init__(**{**environment_values(type(self), dict(os.environ)), **values})

    backend: Literal["sqlite", "aws"] = "sqlite"
    data_dir: Path = Path(".brain")
    score_min: Decimal = Decimal(0)
    score_max: Decimal = Decimal(10)
    timezone: str = "Europe/Berlin"
    shortterm_ttl_default_s: int = Field(default=7 * DAY, ge=1, le=365 * DAY)
    shortterm_ttl_max_s: int = Field(default=365 * DAY, ge=1, le=365 * DAY)
    dev_token_ttl_s: int = Field(default=30 * DAY, ge=60)
    # Host names (besides localhost/127.0.0.1) the HTTP server accepts in the Host header.
    allowed_hosts: list[str] = Field(default_factory=list)
    allowed_origins: list[str] = Field(default_factory=list)
    log_level: str = "INFO"
    # Secret scrubbing before every write: redact (replace by [ENTFERNT:<art>]) or reject.
    scrub_policy: ScrubPolicy = ScrubPolicy.REDACT
    remember_scrub_policy: ScrubPolicy = ScrubPolicy.REJECT  # seed 004: block secrets
    # Tokens from an OIDC issuer (e.g. Cognito). Unset: the local signed tokens of `brain serve`.
    oidc_issuer: str | None = None
    oidc_audience: str | None = None
    oidc_jwks_url: str | None = None  # default: <issuer>/.well-known/jwks.json
    # The web console's session cookies are sealed with a key from this secret (at least 32
    # characters); unset: a random key in the data directory (local server only).
    console_session_key: SecretStr | None = Field(default=None, min_length=32)
    # Claim names of the principal, for every entry point (local, OIDC, API Gateway claims).
    claim_tenant: str = "tenant"
    claim_subject: str = "sub"
    claim_nutzer: str = "nutzer"
    claim_agent: str = "agent"
    claim_teams: str = "teams"
    claim_scope: str = "scope"
    claim_account: str = "account"
    claim_device: str = "device"
    claim_projects: str = "projects"
    claim_profile: str = "profile"
    # AWS backend (DynamoDB + S3). Endpoint, region and credentials come from the standard
    # AWS configuration (AWS_ENDPOINT_URL, AWS_REGION, profiles, ...), not from here.
    table_name: str = "brain"
    # The S3 Vectors bucket of the embeddings (name or ARN); one index per profile inside.
    bucket_name: str = "brain-embeddings"
    # Server-side embeddings (issue 12): none (default, model-free), test (deterministic
    # hashed trigrams, no model), bedrock-titan (Titan Text Embeddings V2: 256/512/1024),
    # bedrock-cohere (Cohere Embed Multilingual v3: 1024), local (a sentence-embedding model
    # in-process on the CPU, extra `local`: `embedding_model`, docs/search.md), auto (local
    # when the extra and a model are installed, else none: what `make serve` sets).
    # Model + dimension = the profile.
    embedder: Literal["none", "test", "bedrock-titan", "bedrock-cohere", "local", "auto"] = "none"
    # The local model: a Hugging Face name, and optionally the directory it is loaded from.
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    embedding_model_dir: Path | None = None
    embedding_dimension: int | None = Field(default=None, ge=16, le=4096)
    # Hybrid search (docs/search.md): how the word and vector candidates (equal depths) are
    # fused — convex (the mean of each signal's score over its list's best, default) or
    # rrf (reciprocal rank fusion, k = 60) — and the vector signal's weight in convex.
    search_fusion: Literal["convex", "rrf"] = "convex"
    search_vector_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    # Ranking signals on top of relevance (shared/search/signals.py, docs/search.md): the
    # rating's and the recency's weight, the recency's half-life; off: relevance only.
    rank_signals: bool = True
    rank_rating_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    rank_recency_weight: float = Field(default=0.3, ge=0.0, le=1.0)
    rank_recency_half_life_days: float = Field(default=30.0, gt=0.0, le=3650.0)
    rank_gate_power: float = Field(default=4.0, ge=0.0, le=8.0)
    # Near-duplicates on write and in `brain consolidate` (shared/search/duplicates.py): the
    # cosine and word-overlap thresholds and the longest a duplicate may be (x the stored).
    duplicate_vector_threshold: float = Field(default=0.71, ge=0.0, le=1.0)
    duplicate_word_threshold: float = Field(default=0.30, ge=0.0, le=1.0)
    duplicate_max_length_ratio: float = Field(default=1.40, ge=1.0, le=10.0)
    # The most AWS calls one round-trip stage runs side by side (threads start on demand:
    # a stage of 5 calls uses 5). Sized to the largest stage of a batch tool call, so
    # that a stage is one wave, not len/16 of them.
    aws_max_parallel: int = Field(default=256, ge=1, le=512)
    aws_max_attempts: int = Field(default=5, ge=1, le=20)
    rating_max_retries: int = Field(default=8, ge=1, le=50)
    # Retry-safe writes (shared/tools/retry.py, docs/tools.md "Wiederholen"). Without a key,
    # an identical write within `retry_window_s` answers with the first answer: a retry
    # follows a lost answer within seconds to a few minutes (client timeouts are 30-60 s,
    # backoff a few attempts). A write the caller names (`idempotenz_schluessel`, REST
    # `Idempotency-Key`) is recognised for `idempotency_key_window_s`.
    retry_window_s: int = Field(default=600, ge=30, le=DAY)
    idempotency_key_window_s: int = Field(default=DAY, ge=60, le=7 * DAY)
    # How long a running call's mark holds off its duplicates when no Lambda deadline bounds
    # it (local server, `serve --backend aws`): longer than the time budget, which is checked
    # once more right before storing (on Lambda: the function's remaining time).
    idempotency_in_progress_s: int = Field(default=120, ge=1, le=3600)
    # Lambda: the MCP router forwards each tools/call to that tool's function (tool -> name).
    tool_functions: dict[str, str] = Field(default_factory=dict)
    tool_invoke_timeout_s: float = Field(default=28.0, gt=0)
    # Attempts per tool invoke when Lambda throttles or answers 5xx (jittered backoff).
    tool_invoke_max_attempts: int = Field(default=3, ge=1, le=6)
    # Bounded work per request: a tool call's CPU budget, and `brain serve`'s HTTP limits
    # (headers and body must arrive in time; connections beyond the limit are closed).
    tool_time_budget_s: float = Field(default=20.0, gt=0)
    http_header_timeout_s: float = Field(default=10.0, gt=0)
    http_body_timeout_s: float = Field(default=30.0, gt=0)
    http_max_connections: int = Field(default=200, ge=1)
    # A connection without a request must send its first byte within this time, and one
    # client address holds at most this many connections (its oldest idle one makes room).
    http_idle_timeout_s: float = Field(default=5.0, gt=0)
    http_max_connections_per_client: int = Field(default=64, ge=1)
    # Addresses (IPs or CIDR networks) of reverse proxies whose X-Forwarded-Host, -Proto and
    # -For headers are believed; from anyone else they are dropped. Default: none.
    trusted_proxies: list[str] = Field(default_factory=list)
    # Lambda behind a named API Gateway stage: the path prefix to strip (e.g. "/prod").
    api_base_path: str = "/"
    # Brain as the OAuth 2.1 authorization server of its MCP endpoint and REST API
    # (docs/connect.md). Sign-in: the upstream OIDC provider when configured, else local
    # users (`brain user add`) and Brain tokens.
    oauth_enabled: bool = True
    oauth_access_token_ttl_s: int = Field(default=900, ge=60, le=3600)
    oauth_refresh_token_ttl_s: int = Field(default=30 * DAY, ge=3600, le=365 * DAY)
    oauth_grant_max_age_s: int = Field(default=90 * DAY, ge=3600, le=365 * DAY)
    oauth_session_ttl_s: int = Field(default=8 * 3600, ge=60, le=DAY)
    oauth_upstream_issuer: str | None = None
    oauth_upstream_client_id: str | None = None
    oauth_upstream_client_secret: str = ""
    oauth_upstream_scopes: str = "openid email profile"
    # DynamoDB table of the OAuth state (backend aws); empty: "<table_name>-oauth".
    oauth_table_name: str = ""
    # AWS: the Secrets Manager secret holding the token signing key (else the data dir's).
    oauth_signing_secret_arn: str = ""
    # Tests only: client id -> loopback URL its metadata document is fetched from.
    oauth_cimd_test_documents: dict[str, str] = Field(default_factory=dict)

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        import ipaddress

        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError as exc:
                raise ValueError(f"trusted_proxies: {entry!r} is no IP address or network") from exc
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.score_min >= self.score_max:
            raise ValueError("score_min must be below score_max")
        if bool(self.oidc_issuer) != bool(self.oidc_audience):
            raise ValueError("oidc_issuer and oidc_audience must be set together")
        if self.embedder == "bedrock-titan" and self.embedding_dimension not in (
            None,
            256,
            512,
            1024,
        ):
            raise ValueError("embedding_dimension of bedrock-titan must be 256, 512 or 1024")
        if self.embedder == "bedrock-cohere" and self.embedding_dimension not in (None, 1024):
            raise ValueError("embedding_dimension of bedrock-cohere must be 1024")
        if bool(self.oauth_upstream_issuer) != bool(self.oauth_upstream_client_id):
            raise ValueError("oauth_upstream_issuer and oauth_upstream_client_id go together")
        if self.shortterm_ttl_default_s > self.shortterm_ttl_max_s:
            raise ValueError("shortterm_ttl_default_s must not exceed shortterm_ttl_max_s")
        if self.idempotency_in_progress_s <= self.tool_time_budget_s:
            raise ValueError("idempotency_in_progress_s must exceed tool_time_budget_s")
        if self.idempotency_in_progress_s >= self.retry_window_s:
            raise ValueError("idempotency_in_progress_s must be below retry_window_s")
        return self

    @property
    def claim_mapping(self) -> ClaimMapping:
        return ClaimMapping(
            tenant=self.claim_tenant,
            subject=self.claim_subject,
            nutzer=self.claim_nutzer,
            agent=self.claim_agent,
            teams=self.claim_teams,
            scope=self.claim_scope,
            account=self.claim_account,
            device=self.claim_device,
            projects=self.claim_projects,
            profile=self.claim_profile,
        )

    @property
    def jwks_url(self) -> str | None:
        if self.oidc_jwks_url:
            return self.oidc_jwks_url
        if self.oidc_issuer:
            return self.oidc_issuer.rstrip("/") + "/.well-known/jwks.json"
        return None

    def retry_window(self, *, explicit: bool) -> int:
        """The window of a call record: with the caller's own key, or without."""
        return self.idempotency_key_window_s if explicit else self.retry_window_s

    @property
    def oauth_table(self) -> str:
        return self.oauth_table_name or f"{self.table_name}-oauth"

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def ranking_signals(self) -> RankingSignals:
        from shared.search.signals import RankingSignals

        return RankingSignals(
            enabled=self.rank_signals,
            rating_weight=self.rank_rating_weight,
            recency_weight=self.rank_recency_weight,
            recency_half_life_days=self.rank_recency_half_life_days,
            gate_power=self.rank_gate_power,
            score_min=self.score_min,
            score_max=self.score_max,
        )

    @property
    def duplicate_rule(self) -> DuplicateRule:
        from shared.search.duplicates import DuplicateRule

        return DuplicateRule(
            vector_threshold=self.duplicate_vector_threshold,
            word_threshold=self.duplicate_word_threshold,
            max_length_ratio=self.duplicate_max_length_ratio,
        )

    def parse_options(self) -> ParseOptions:
        from shared.validation.parsed import ParseOptions  # the validators' module: lazy

        return ParseOptions(
            score_min=self.score_min,
            score_max=self.score_max,
            timezone=self.timezone,
            max_ttl_sekunden=self.shortterm_ttl_max_s,
        )
