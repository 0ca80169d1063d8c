"""Building the authorization server from the settings: its state (SQLite in the data
directory, or the DynamoDB table on the AWS backend), its signing key (the data directory's
`oauth-signing.key`, or a Secrets Manager secret on AWS), its login methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.auth.claims import TokenVerifier
from shared.auth.oauth.cimd import CimdFetcher
from shared.auth.oauth.clients import ClientDirectory
from shared.auth.oauth.grants import AuthorizationService, Lifetimes
from shared.auth.oauth.login import current_local_identity
from shared.auth.oauth.server import OAuthServer
from shared.auth.oauth.state import OAuthState
from shared.auth.oauth.tokens import KEY_FILE, MIN_KEY_BYTES, AccessTokenSigner, SessionSigner
from shared.auth.oauth.upstream import UpstreamConfig, UpstreamProvider
from shared.server.auth_middleware import PrincipalResolver

if TYPE_CHECKING:
    from shared.config import Settings


def signing_key(settings: Settings, secrets_client: Any = None) -> bytes:
    """The OAuth signing key: the Secrets Manager secret when configured, else the data
    directory's key file (created on first use, mode 0600)."""
    if settings.oauth_signing_secret_arn:
        if secrets_client is None:
            import boto3

            secrets_client = boto3.client("secretsmanager")
        value = secrets_client.get_secret_value(SecretId=settings.oauth_signing_secret_arn)
        key = str(value["SecretString"]).encode()
        if len(key) < MIN_KEY_BYTES:
            raise ValueError("the OAuth signing secret needs at least 32 characters")
        return key
    from shared.auth.local_tokens import load_or_create_key

    return load_or_create_key(settings.data_dir, KEY_FILE)


def open_state(settings: Settings, dynamodb_client: Any = None) -> OAuthState:
    if settings.backend == "aws":
        from shared.auth.oauth.dynamo_state import DynamoOAuthState

        if dynamodb_client is None:
            import boto3

            dynamodb_client = boto3.client("dynamodb")
        return DynamoOAuthState(dynamodb_client, settings.oauth_table)
    from shared.auth.oauth.sqlite_state import SqliteOAuthState

    return SqliteOAuthState.in_data_dir(settings.data_dir)


def lifetimes(settings: Settings) -> Lifetimes:
    return Lifetimes(
        access_s=settings.oauth_access_token_ttl_s,
        refresh_s=settings.oauth_refresh_token_ttl_s,
        grant_max_s=settings.oauth_grant_max_age_s,
    )


def upstream_provider(settings: Settings) -> UpstreamProvider | None:
    if not (settings.oauth_upstream_issuer and settings.oauth_upstream_client_id):
        return None
    config = UpstreamConfig(
        issuer=settings.oauth_upstream_issuer,
        client_id=settings.oauth_upstream_client_id,
        client_secret=settings.oauth_upstream_client_secret,
        scopes=settings.oauth_upstream_scopes,
    )
    return UpstreamProvider(config, settings.claim_mapping)


def build_oauth_server(
    settings: Settings,
    state: OAuthState,
    key: bytes,
    *,
    token_login: TokenVerifier | None,
    resolver: PrincipalResolver | None,
) -> OAuthServer:
    signer = AccessTokenSigner(key, settings.claim_mapping)
    upstream = upstream_provider(settings)
    service = AuthorizationService(
        state,
        signer,
        lifetimes(settings),
        current_identity=lambda identity: current_local_identity(state, identity),
    )
    return OAuthServer(
        state=state,
        directory=ClientDirectory(state, CimdFetcher(settings.oauth_cimd_test_documents)),
        service=service,
        sessions=SessionSigner(key),
        token_login=token_login if upstream is None else None,
        upstream=upstream,
        local_users=upstream is None,
        resolver=resolver,
        session_s=settings.oauth_session_ttl_s,
        on_close=[state.close],
    )
