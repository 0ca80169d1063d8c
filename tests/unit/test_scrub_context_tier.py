"""The context tier (`shared.scrubbing.context_tier`): a value a credential word names is
removed whatever its shape; what the word does not name, and references, stay.

Texts are written fresh for these tests (not from any corpus); each secret class has a
look-alike that must survive.
"""

from __future__ import annotations

import pytest

from shared.scrubbing import context_tier, scrub
from shared.scrubbing.context_weights import THRESHOLD, WEIGHTS

SECRETS = [
    # one-time codes, value after or before the word
    ("Ihr Bestätigungscode lautet 583920. Geben Sie ihn nicht weiter.", "583920"),
    ("Your one-time code is 771204, valid for 5 minutes.", "771204"),
    ("Der Freischaltcode für das Konto ist 66120418.", "66120418"),
    # PINs read out digit by digit, app passwords in groups
    ("Am Telefon: die Karten-PIN ist 3 9 0 2, bitte nicht notieren.", "3 9 0 2"),
    ("App-Passwort für Outlook: qwpe lzmt hrcs ybua", "qwpe lzmt hrcs ybua"),
    # door and key-box codes without a preposition
    ("Ferienhaus am See: Schlüsselkasten links, Code 4831, Licht rechts.", "4831"),
    # key=value whose key is a credential word
    ('network={\n  ssid="gastnetz"\n  psk="Birke&2290"\n}', "Birke&2290"),
    # a CSV export: the cell under the password column
    ("title,login,password\nNAS,admin,T7v!Qm2#Lp\n", "T7v!Qm2#Lp"),
]

CONTENT = [
    "Backup-Codes 2025 erneuert.",
    "Code review am Montag, der Quellcode liegt in git.",
    "The key is patience, and marketing is key for the studio.",
    "Pin 13 am Arduino ist die LED.",
    "Idempotenz-Schlüssel 3c1e9a7d2b0f4e6a8c5d7b9e1f3a5c7e doppelt verwendet",
    "next_page_token=eyJvZmZzZXQiOjQwfQ",
    "Host key fingerprint is SHA256:Qm9yZGVyLWZpbmdlcnByaW50LWhlcmU.",
    "Das Passwort ist jetzt 16-stellig.",
    "Token limit for the model is 8192.",
    "Der Zugang ist nur bis 17.09.2026 gültig.",
    "KMS key 1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b encrypts the bucket.",
    "I reset the password, the new one is in 1Password.",
    "| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Grafana | admin | (im Tresor) |",
    "| Key | Value |\n|---|---|\n| retention_days | 30 |",
    '<add key="SessionPolicy" value="strict" />',
    "Set API_KEY=your-api-key-here in the local .env",
    'resource "aws_db_instance" "main" {\n  password = var.db_password\n}',
    "ansible-playbook site.yml --ask-vault-pass --limit db01.internal",
    "Wir speichern Passwörter nur als Argon2id-Hash (SEC-1234).",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_value_the_credential_word_names_is_removed(text: str, secret: str) -> None:
    out = scrub(text).text
    assert secret not in out, out
    assert all(secret[i : i + 8] not in out for i in range(max(0, len(secret) - 7)))


@pytest.mark.parametrize("text", CONTENT)
def test_what_the_word_does_not_name_stays(text: str) -> None:
    assert scrub(text).text == text


@pytest.mark.parametrize(("text", "_secret"), SECRETS)
def test_scrubbing_twice_changes_nothing_more(text: str, _secret: str) -> None:
    once = scrub(text).text
    assert scrub(once).text == once


def test_a_word_names_one_value_and_a_found_one_ends_the_scan() -> None:
    # Given a password the table finds, followed by prose
    text = "The new VPN password: Kr4nich!Blau - don't paste it anywhere. Thanks!"
    out = scrub(text).text
    # Then only the password goes, and the words after it stay
    assert "Kr4nich!Blau" not in out and out.endswith("- don't paste it anywhere. Thanks!")


def test_the_shipped_model_keeps_a_margin_on_plain_prose() -> None:
    # Given prose full of credential words used in their ordinary sense
    prose = (
        "Honestly the key to the code of conduct is trust. My pin board is full, the pass was "
        "closed, and the access road to the cabin reopened in May."
    )
    scores = [context_tier.score(c.features, WEIGHTS) for c in context_tier.candidates(prose)]
    # Then no candidate comes near the threshold
    assert max(scores, default=0.0) < THRESHOLD / 2
