"""The value itself decides, after any credential word: public and identifier forms are no
secrets (`shared.scrubbing.value_forms.public_form`, `names_its_field`, `context_guards`'s
setting and login-name forms, `value_shape.DECLARED_TYPE`), while a secret of the same
layout is still removed. Texts written fresh for these tests (not from any corpus).
"""

from __future__ import annotations

import re

import pytest

from shared.scrubbing import scrub

MARKER = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")

CONTENT = [
    # OpenSSH public keys and their algorithm names after a credential word
    "Deploy-Key hinterlegt: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq3bWz0mK9sVtR2yLpX8cNf4dJ7"
    "aGe1oUiQw5rTzYxB jenkins@ci",
    "authorized key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vQk2m9Lx0pZ4rTqWnYsB3cJ8 ops@bastion",
    # a setting of its own after a credential word in a log line
    'audit: msg="invalid password" user=k.weber3 host=10.2.3.4',
    # a weak word's value in a login-name form
    "Zugang: p.schulze4, das Kennwort kommt per Post.",
    # field declarations: the type follows the word
    "class Settings(BaseModel):\n    db_password: str = Field(min_length=16)",
    'type Cfg struct {\n\tToken string `json:"token"`\n}',
    # the field's own name as its value: a template, not a password
    "docker run -e MYSQL_PASSWORD=password -e MYSQL_USER=app mysql:8",
    "Beispiel-URL: mysql://user:password@127.0.0.1:3306/shop",
    "tool login --username USERNAME --password PASSWORD",
    # references and locations in a credential's place
    'oidc:\n  clientSecret: "urn:k8s:secret:sso-app:clientSecret"',
    "    clientSecret: $sso-config:oidc.okta.clientSecret",
    "export GOOGLE_CREDENTIALS=~/.config/gcloud/legacy_credentials.json",
    # a camel-case compound with a public prefix names a public key
    "[Peer]\nPublicKey = Qx7mB2vLk9pR4tZw8nY3cF6hJ1sD5gA0eU2iO9rT4kM=\nAllowedIPs = 10.9.0.0/24",
    # a word ending its line names no heading's next line, nor a public key's body
    "## Neues Passwort\nDonnerstag",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq7Lm2Vx9pR4tZw8nY3cF6hJ1sD5g\n"
    "-----END PUBLIC KEY-----",
    # a name/value record whose name is no credential
    '{"name":"theme","value":"dark-blue-2024"}',
]

SECRETS = [
    ("Deploy-Key (privat): Ht7#kQ2!vLm9xZp4", "Ht7#kQ2!vLm9xZp4"),
    ('audit: msg="password set" password=Wq8!rTz2Lp account=k.weber3', "Wq8!rTz2Lp"),
    ("Zugang: p.schulze4 / Kennwort: Fichte#2291", "Fichte#2291"),
    ("db_password: str = 'Vn4$kP9!qRz2'", "Vn4$kP9!qRz2"),
    ("docker run -e MYSQL_PASSWORD=Lm3#vQ8zR2 mysql:8", "Lm3#vQ8zR2"),
    ("mysql://shop:K7v!pQ2mZr@127.0.0.1:3306/shop", "K7v!pQ2mZr"),
    ("Das Passwort ist password.", "password"),
    # a parenthesis between the word and its value is no distance
    ("Die PIN der Kreditkarte (IBAN DE12 5001 0517 0648 4898 90) lautet 8316.", "8316"),
    # a camel-case compound names the credential
    (
        "SMS der Sparkasse: pushTAN für die Zahlung an Jonas Weber (DE12 5001 0517): 804417",
        "804417",
    ),
    ("photoTAN ist 553018", "553018"),
    # a list of codes separated by marks is removed whole
    ("Notfall-Codes fürs Mailkonto: 5190 3382 · 7741 2065 · 9023 6618", "9023 6618"),
    # the value on the next line, alone or after a prompt label
    (
        "In [7]: os.environ['STRIPE_WEBHOOK_SECRET']\nOut[7]: '4be1c09d7f3a2e58b6d0c9a7e3f1b2d4'",
        "4be1c09d7f3a2e58b6d0c9a7e3f1b2d4",
    ),
    # name/value records: cookies in JSON, container env in YAML
    (
        '{"name":"sessionid","value":"k2v9x7qpz3m8w1r6t4y0u5n2b8c7d3fa"}',
        "k2v9x7qpz3m8w1r6t4y0u5n2b8c7d3fa",
    ),
    ("env:\n  - name: SMTP_PASSWORD\n    value: Tz6!qPw3Lm9x", "Tz6!qPw3Lm9x"),
    # a seed phrase after a copula
    (
        "Die Seed-Phrase der Ledger lautet orbit velvet cannon whisper lemon tiger "
        "ocean marble pilot candle forest ember.",
        "orbit velvet cannon whisper lemon tiger ocean marble pilot candle forest ember",
    ),
]


@pytest.mark.parametrize("text", CONTENT)
def test_public_and_identifier_forms_stay(text: str) -> None:
    assert scrub(text).text == text


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_in_the_same_layout_is_removed(text: str, secret: str) -> None:
    out = scrub(text).text
    assert secret not in MARKER.sub("", out), out
