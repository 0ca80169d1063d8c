"""Layouts of code and config found in public scanners' fixtures (round 10; texts written fresh
for these tests, not copied from any corpus): make's and Go's assignments and code comparisons
name a value like `=`; a password word inside a longer code identifier names a quoted value;
typed filler (a long run of one character, an alphabet stretch) is no secret.
"""

from __future__ import annotations

import re

import pytest

from shared.scrubbing import scrub
from shared.scrubbing.value_forms import filler, filler_run

MARKER = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")

SECRETS = [
    ('DEPLOY_TOKEN ?= "{}"', "Wq7tYb3KzP9mRx2LcV8nHs4DfG6jTe1A"),
    ('API_SECRET ::= "{}"', "Zt5pLq8WmR2xKc7VbN4sJd9HfG3yTe6U"),
    ("service_token := '{}'", "Hb4nMz8QwE2rTy6UiO1pAs5DfG9hJk3L"),
    ('if (client_secret != "{}") {{', "Pk3mXn7BvC1zQw5ErT9yUi2OpAs6DfGh"),
    ('my_password_for_staging = "{}"', "Lu7#kQ2!wZ"),
    ("db_pass_prod: '{}'", "Rv3$mN8%xT"),
    ('backup_passphrase_main = "{}"', "four quiet lanterns drifting"),
]
CONTENT = [
    'password_min_length = "12"',
    'password_reset_url = "https://portal.example.org/reset"',
    'password_hint_text = "Ihr Geburtsort"',
    'ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"',
    'signing_key = "0000000000000000000000000000000000000000"',
    "REGISTRY_TOKEN=glx_1111111111111111111111111111111111111111",
    "api_key: demo_abcdefghijklmnopqrstuvwxyz012345",
]


@pytest.mark.parametrize(("layout", "value"), SECRETS)
def test_the_value_is_removed(layout: str, value: str) -> None:
    text = "Aus dem Repo: " + layout.format(value)
    out = scrub(text).text
    assert value not in out and MARKER.search(out), out


@pytest.mark.parametrize("text", CONTENT)
def test_settings_and_filler_stay(text: str) -> None:
    assert scrub(text).text == text


def test_filler_forms() -> None:
    assert filler_run("glc_" + "1" * 40 + "=") and filler_run("#" * 20)
    # a format's padding is no filler: a long value with a short run of one character
    assert not filler_run("A" * 21 + "pY7JQx0tXdQdjimjLDVndUdMjAWoztQ4rJKCBxvGFkAFqdAYpPBeueRS")
    assert filler("key_abcdefghijklmnopq") and filler("0123456789abcdefXYZ0")
    assert not filler("123456789a1234") and not filler("Kx9#mP2qLw7!Zr4T")
