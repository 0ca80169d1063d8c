"""The template, read once per module."""

from __future__ import annotations

from typing import Any

import pytest

from tests.infra.cfn import load_template


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()
