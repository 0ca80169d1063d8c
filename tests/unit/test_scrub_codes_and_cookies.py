"""The rows of the second development round (issue 20): codes of doors and cards, recovery
codes, session cookies, `.pgpass` and Oracle logins, symbol-rich secrets after a key, the
Alibaba and Teams-webhook shapes - each removes its secret and leaves the look-alikes of
ordinary text alone (error codes, talk about codes, linter lines, Twilio-style SIDs)."""

from __future__ import annotations

import pytest

from shared.scrubbing import scrub
from tests.unit.test_scrub_corpus import leaks

SECRETS = [
    ("Der Code der Alarmanlage ist 8395.", "8395"),
    ("the gate code is 23676", "23676"),
    ("Torcode: 4471", "4471"),
    ("Kartenprüfnummer (CVC) der Firmenkarte: 418", "418"),
    ("The CVV on the back of the travel card is 664.", "664"),
    ("Backup-Codes für 2FA: 2670 1046, LF1L-OPS0-6QO1-X1HG", "LF1L-OPS0-6QO1-X1HG"),
    ("Backup-Codes für 2FA: 2670 1046, LF1L-OPS0-6QO1-X1HG", "2670 1046"),
    ("recovery code for the GitHub org: ze6cq-wjsru", "ze6cq-wjsru"),
    ("Cookie: sessionid=duu6ci7bhxnttofrpariwy564lhrd94b; theme=dark", "duu6ci7bhxnttofrpariwy564"),
    ("connect.sid=s%3ARRXI-d_THNYYNpMoWWhK33xJNNySIZ9h.uAKCsJmF3a58bzcBNMplo6BGoL", "RRXI-d_THNYY"),
    ("~/.pgpass: db01.internal:5432:crm:svc_backup:JOOfB3fuUlgmAnD", "JOOfB3fuUlgmAnD"),
    ("sqlplus deploy/q7Oy.ypYc7lbqvHsz9O8SS@cache-2.lan:1521/ORCL", "q7Oy.ypYc7lbqvHsz9O8SS"),
    ("LDAP bind: binddn cn=deploy,dc=acme bindpw q8w2KSt2pG1I-jIiK7EzCN", "q8w2KSt2pG1I-jIiK7EzCN"),
    ("Login fürs Portal deploy / S0mmer45", "S0mmer45"),
    ("NEXTAUTH_SECRET=qRl3vAmxNN!LhKN5Cobk%kaGOtKXFRQ&Ru&b", "qRl3vAmxNN!LhKN5Cobk"),
    ("APP_KEY=base64:MzHJkcNn2M1bQytK/15QK556FRNPe06cC1tIv5DfbIs=", "MzHJkcNn2M1bQytK"),
    ("Alibaba AccessKey ID LTAIFkS3cNrkhca86ubp", "LTAIFkS3cNrkhca86ubp"),
    (
        "https://acme.webhook.office.com/webhookb2/a@b/IncomingWebhook/"
        "0123456789abcdef0123456789abcdef/c",
        "0123456789abcdef0123456789abcdef",
    ),
]

CONTENT = [
    "Der Fehlercode ist 5012.",
    "The error code is 4040.",
    "The gate code changes monthly.",
    "Der Sicherheitscode kommt per SMS.",
    "The CVV field must be 3 digits.",
    "Backup-Codes für 2FA liegen im Tresor.",
    "Backup-Codes 2024 erneuert.",
    "session timeout is 1800 seconds",
    "main.py:4242:10:E501:line-too-long",
    "sqlplus ist installiert",
    "Login fürs Portal geht über SSO / Okta",
    "Zugang für den Export: siehe Wiki",
    "Twilio account SMcd7c67815745007ebfe316a12bd938ad, API secret in the vault",
    '"private_key_id": "52ce45fa1be8d6a1b2c3d4e5f6a7b8c9"',
    "token=abc&x=1",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_the_secret_is_removed(text: str, secret: str) -> None:
    assert not leaks(secret, scrub(text).text), scrub(text).text


@pytest.mark.parametrize("text", CONTENT)
def test_look_alikes_of_ordinary_text_stay(text: str) -> None:
    assert scrub(text).text == text
