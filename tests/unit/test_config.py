"""The settings read the BRAIN_* environment exactly as the pydantic-settings model they
replace did (shared/config.py): the reference below is that model, built from the same
fields, and both read the same environments."""

from __future__ import annotations

import os
from typing import Any

import pytest
from pydantic import ValidationError, create_model
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.config import Settings


class _ReferenceBase(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="BRAIN_", extra="ignore", frozen=True)


Reference: Any = create_model(  # type: ignore[call-overload]
    "Reference",
    __base__=_ReferenceBase,
    **{name: (field.annotation, field) for name, field in Settings.model_fields.items()},
)

ENVIRONMENTS = {
    "nothing set": {},
    "every kind of field": {
        "BRAIN_BACKEND": "aws",
        "BRAIN_DATA_DIR": "/tmp/brain-data",
        "BRAIN_SCORE_MAX": "5.5",
        "BRAIN_SHORTTERM_TTL_DEFAULT_S": "3600",
        "BRAIN_ALLOWED_HOSTS": '["brain.example", "api.brain.example"]',
        "BRAIN_SCRUB_POLICY": "reject",
        "BRAIN_OIDC_ISSUER": "https://issuer.example",
        "BRAIN_OIDC_AUDIENCE": "brain",
        "BRAIN_EMBEDDER": "bedrock-titan",
        "BRAIN_EMBEDDING_DIMENSION": "512",
        "BRAIN_TOOL_FUNCTIONS": '{"recall": "arn:aws:lambda:eu-central-1:1:function:r:live"}',
        "BRAIN_TOOL_TIME_BUDGET_S": "2.5",
    },
    "names in any case, unknown ones ignored": {
        "brain_table_name": "lower",
        "Brain_Bucket_Name": "mixed",
        "BRAIN_NO_SUCH_SETTING": "x",
        "TABLE_NAME": "no prefix",
    },
    "empty strings": {"BRAIN_OIDC_ISSUER": "", "BRAIN_API_BASE_PATH": ""},
}
INVALID = {
    "below a bound": {"BRAIN_AWS_MAX_PARALLEL": "0"},
    "not a number": {"BRAIN_EMBEDDING_DIMENSION": "many"},
    "not JSON": {"BRAIN_TOOL_FUNCTIONS": "recall=arn"},
    "JSON of the wrong type": {"BRAIN_ALLOWED_HOSTS": '{"a": 1}'},
    "not a choice": {"BRAIN_BACKEND": "postgres"},
}


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for key in list(os.environ):
        if key.upper().startswith("BRAIN_"):
            monkeypatch.delenv(key)
    return monkeypatch


@pytest.mark.parametrize("case", list(ENVIRONMENTS))
def test_settings_read_the_environment_like_pydantic_settings(
    environment: pytest.MonkeyPatch, case: str
) -> None:
    # Given an environment
    for key, value in ENVIRONMENTS[case].items():
        environment.setenv(key, value)
    # When the settings and the pydantic-settings reference read it
    settings, reference = Settings(), Reference()
    # Then every field has the same value
    assert settings.model_dump() == reference.model_dump()


@pytest.mark.parametrize("case", list(INVALID))
def test_invalid_environment_fails_like_pydantic_settings(
    environment: pytest.MonkeyPatch, case: str
) -> None:
    # Given an environment with one invalid value
    for key, value in INVALID[case].items():
        environment.setenv(key, value)
    # When either model reads it, Then both refuse it (SettingsError is a ValueError)
    with pytest.raises(ValueError):
        Reference()
    with pytest.raises(ValueError) as refused:
        Settings()
    # And the refusal names the variable's field
    name = next(iter(INVALID[case])).removeprefix("BRAIN_").lower()
    assert name in str(refused.value).lower()


def test_keyword_arguments_override_the_environment(environment: pytest.MonkeyPatch) -> None:
    # Given a table name and tool functions in the environment
    environment.setenv("BRAIN_TABLE_NAME", "from-env")
    environment.setenv("BRAIN_TOOL_FUNCTIONS", '{"recall": "r"}')
    # When the settings are built with other values
    settings = Settings(table_name="given", tool_functions={"remember": "m"})
    # Then the given values win, and the rest still comes from the environment
    assert settings.table_name == "given" and settings.tool_functions == {"remember": "m"}
    assert Settings().table_name == "from-env"


def test_settings_validators_still_apply_to_environment_values(
    environment: pytest.MonkeyPatch,
) -> None:
    # Given an environment the model's own validators refuse
    environment.setenv("BRAIN_SCORE_MIN", "10")
    # When the settings read it, Then the model validator refuses it
    with pytest.raises(ValidationError, match="score_min must be below score_max"):
        Settings()
    # And the settings stay immutable
    with pytest.raises(ValidationError):
        Settings(score_min=1).score_min = 2  # type: ignore[misc]
