"""Unit tests of the secret scrubber (shared.scrubbing): every pattern row, hard negatives by
category, the marker format, password/URL/key details, merging, idempotence, API contract."""

from __future__ import annotations

import dataclasses
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from shared.scrubbing import KINDS, ScrubPolicy, ScrubResult, marker, scan, scrub
from shared.scrubbing.patterns import PATTERNS, SecretPattern

MARKER_RE = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")
ROW_IDS = [f"{i:02d}-{row.kind}" for i, row in enumerate(PATTERNS)]


def leaks(value: str, text: str) -> bool:
    """The value or any 8-character piece of it is in `text` (our markers not counted)."""
    text = MARKER_RE.sub("\0", text)
    return value in text or any(value[i : i + 8] in text for i in range(len(value) - 7))


# --- every row of the table --------------------------------------------------------------


@pytest.mark.parametrize("row", PATTERNS, ids=ROW_IDS)
def test_each_sample_is_caught_and_fully_removed(row: SecretPattern) -> None:
    # Given a row's sample text with its fake secret
    assert row.secret in row.sample
    # When it is scrubbed
    result = scrub(row.sample)
    # Then no piece of the secret survives, the row's kind is reported and marked
    assert not leaks(row.secret, result.text), result.text
    assert row.kind in result.kinds
    assert marker(row.kind) in result.text


@pytest.mark.parametrize("row", PATTERNS, ids=ROW_IDS)
def test_each_row_finds_its_own_sample_by_itself(row: SecretPattern) -> None:
    # Given one row on its own (not helped by another row catching the same text)
    spans = []
    for match in row.regex.finditer(row.sample):
        group = next((g for g in row.groups if match.start(g) >= 0), None)
        start, end = match.span(group) if group else match.span()
        if row.validator is None or row.validator(row.sample[start:end], match):
            spans.append((start, end))
    # Then one accepted match covers the whole secret
    at = row.sample.index(row.secret)
    assert any(s <= at and at + len(row.secret) <= e for s, e in spans), spans


def test_table_has_many_kinds_with_plain_identifiers() -> None:
    assert len(KINDS) >= 40
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", kind) for kind in KINDS)


# --- hard negatives: left alone, byte for byte -------------------------------------------

NEGATIVES: dict[str, list[str]] = {
    "uuid": [
        "Request-ID 3f2b8c1e-9d4a-4e6f-b2c7-8a1d5e9f0b3c failed at 14:02.",
        "client_secret_id: 550e8400-e29b-41d4-a716-446655440000",
    ],
    "commit_sha": [
        "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8, see PR #412.",
        "git rev-parse HEAD -> 1a410efbd13591db07496601ebc7a059dd55cfe9",
    ],
    "checksum": [
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "MD5 der Datei: 9e107d9d372bb6826bd81d3542a419d6",
        "Docker digest sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
        "token_hash: 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
        'ETag: "9e107d9d372bb6826bd81d3542a419d6"',
    ],
    "ids_and_numbers": [
        "Memory longterm_42 merged into longterm_1042.",
        "Kunde K-1001 bestellt Artikel ART-2024-0042 nach.",
        "Bestellnummer 302-4417261-8821737, Rechnung R-20931.",
        "Bestellnummer: 4539578763621486",
        "Sendungsnummer 00340434161094042557",
        "IMEI 490154203237518",
        "Kartennummer endet auf 4242.",
    ],
    "iban": [
        "IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX",
        "Refund to DE89370400440532013000 approved.",
        "AT61 1904 3002 3457 3201 ist das Konto der Filiale Wien.",
    ],
    "dates_versions": [
        "Deployed v2.14.3 on 2024-06-12T14:30:00Z (build 20240612.3).",
        "Python 3.11.7, pip 24.0, Termin am 12.06.2024 um 09:30.",
    ],
    "urls": [
        "Portal: https://portal.firma.de/login?next=/dashboard&lang=de",
        "git@github.com:firma/brain.git and ssh://git@git.firma.de:2222/brain.git",
        "https://user@example.com/repo is the clone URL",
        "http://localhost:8787/mcp",
    ],
    "password_talk": [
        "Passwort wurde zurückgesetzt.",
        "Hinweis: das Passwort muss 12 Zeichen haben.",
        "Das Passwort ist abgelaufen.",
        "Das Passwort ist jetzt 16-stellig.",
        "The password is stored in the vault.",
        "password is required",
        "Passwort-Reset erledigt, Passwortmanager: Bitwarden.",
        "Password hint: name of first pet",
        "Die PIN muss 6 Stellen haben.",
        "Token abgelaufen, das Token ist 24 Stunden gültig.",
        "token_type: bearer, expires_in: 3600, max_tokens: 4096",
        "Schlüssel: liegt beim Hausmeister",
        "Login: erfolgreich um 12:30",
    ],
    "placeholders": [
        "API_KEY=<YOUR_API_KEY>",
        "STRIPE_KEY=sk_live_xxx",
        "DB_PASSWORD=${DB_PASSWORD}",
        "Passwort: ****",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "apiToken: {{ .Values.apiToken }}",
        "postgres://app:${PGPASSWORD}@db:5432/app",
        "Authorization: Bearer <token>",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "Example: AKIAIOSFODNN7EXAMPLE",
        "OPENAI_API_KEY=sk-your-openai-api-key-here",
        "Passwort: siehe op://Private/Portal/password",
        "The password has been redacted: [REDACTED]",
    ],
    "words_and_paths": [
        "Die Donaudampfschifffahrtsgesellschaftskapitänsmütze liegt im Fundbüro.",
        "Pfad: /var/lib/brain/exports/2024-06-12.csv",
        r"C:\Users\max\AppData\Local\Brain\logs",
        "tokenProvider: DefaultAzureCredential",
        "secret_name: prod/db/credentials",
    ],
    "encodings_and_hashes": [
        "base64 von 'Hallo Welt' ist SGFsbG8gV2VsdA==",
        "secret: SGFsbG8gV2VsdCwgd2llIGdlaHQncz8=",
        "pHash a3f1c2d4e5b60718, blurhash LEHV6nWB2yk8pyo0adR*.7kCMdnj",
        "SSH fingerprint SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
    ],
    "phones": ["Telefon +49 30 1234567, mobil 0151 23456789, Fax +49 (0)89 123 4567-0"],
    "public_material": [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHbN8Qk3t0Hf2nJv9w7m1vZ8q3p4R5s6T7u8V9w0X1y2 max@lap",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq7HF1QwW6hFqjBQOLlnfm5k\n"
        "-----END PUBLIC KEY-----",
        "Die Datei beginnt mit -----BEGIN PRIVATE KEY----- und liegt im Vault.",
        "Stripe test card 4242 4242 4242 4242 works in staging.",
    ],
}
NEGATIVE_CASES = [(cat, text) for cat, texts in NEGATIVES.items() for text in texts]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a hard negative before issue 20
        ("token: 550e8400-e29b-41d4-a716-446655440000", "550e8400-e29b-41d4-a716-446655440000"),
        ("HEROKU_API_KEY=3f2b8c1e9d4a4e6fb2c78a1d5e9f0b3c", "3f2b8c1e9d4a4e6fb2c78a1d5e9f0b3c"),
        ("Client-Secret der App: 3f2b8c1e-9d4a-4e6f-b2c7-8a1d5e9f0b3c", "3f2b8c1e-9d4a"),
    ],
)
def test_a_uuid_under_a_credential_key_is_a_secret(text: str, value: str) -> None:
    """A UUID is an identifier, but under a secret's key it is that secret (Heroku API keys and
    many vendors' client secrets are UUIDs): the key is the credential context of §8."""
    assert not leaks(value, scrub(text).text)


@pytest.mark.parametrize(("category", "text"), NEGATIVE_CASES)
def test_hard_negatives_are_left_alone(category: str, text: str) -> None:
    result = scrub(text)
    assert result.text == text, f"{category}: {result.text}"
    assert result.kinds == ()
    assert not result.found


# --- marker format and result contract --------------------------------------------------


def test_marker_format_replaces_exactly_the_value() -> None:
    assert scrub("Passwort: Sommer2024!").text == "Passwort: [ENTFERNT:password]"
    assert marker("jwt") == "[ENTFERNT:jwt]"


def test_kinds_are_sorted_unique_and_found_tells_it() -> None:
    text = "pw=Sommer2024! und pw=Winter2023# und Token ghp_" + "aB3dE5fG7hJ9kL1mN2" * 2
    result = scrub(text)
    assert result.kinds == ("github_pat", "password")
    assert result.found
    assert scan(text) == result.kinds


def test_nothing_found_returns_the_text_unchanged() -> None:
    text = "Kunde K-1001 bevorzugt Lieferung dienstags."
    assert scrub(text) == ScrubResult(text, ())
    assert scan(text) == ()
    assert scrub("") == ScrubResult("", ())


def test_policy_values_and_frozen_result() -> None:
    assert [p.value for p in ScrubPolicy] == ["redact", "reject"]
    result = scrub("pw=Sommer2024!")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "x"  # type: ignore[misc]


@pytest.mark.parametrize("row", PATTERNS, ids=ROW_IDS)
def test_secret_is_in_nothing_the_scrubber_returns(row: SecretPattern) -> None:
    result = scrub(row.sample)
    assert not leaks(row.secret, repr(result))
    assert all(kind in KINDS for kind in result.kinds)
    assert all(row.secret not in kind for kind in scan(row.sample))


@pytest.mark.parametrize("row", PATTERNS, ids=ROW_IDS)
def test_scrubbing_is_idempotent(row: SecretPattern) -> None:
    once = scrub(row.sample)
    twice = scrub(once.text)
    assert twice.text == once.text
    assert twice.kinds == ()


# --- passwords in prose and key=value forms ---------------------------------------------

PASSWORD_FORMS = [
    ("Passwort: Sommer2024!", "Sommer2024!"),
    ("Kennwort ist Hx7#pLm2", "Hx7#pLm2"),
    ("Das Passwort für den Admin-Account lautet Tr0ub4dor&3.", "Tr0ub4dor&3"),
    ("pw=geheim42", "geheim42"),
    ("pwd: Kx9#mP2q", "Kx9#mP2q"),
    ("the password is hunter2024, don't share it", "hunter2024"),
    ("Passphrase: correct horse battery staple.", "correct horse battery staple"),
    ("password: changeme", "changeme"),
    ('DB_PASSWORD="Sommer 2024!"', "Sommer 2024!"),
    ("WLAN-Passwort: „Sommer2024!“ (Gäste)", "Sommer2024!"),
    ("Das Passwort wurde auf Start123! zurückgesetzt.", "Start123!"),
    ("Password was reset to Welcome#99 for Max.", "Welcome#99"),
    ("Login mit dem Passwort Kx9#mP2q hat geklappt.", "Kx9#mP2q"),
    ("Hamburg#77 ist das neue Passwort", "Hamburg#77"),
    ("Zugangsdaten: admin / Sommer2024!", "Sommer2024!"),
    ("Die PIN der Firmenkarte ist 4711.", "4711"),
]


@pytest.mark.parametrize(("text", "secret"), PASSWORD_FORMS)
def test_password_forms_in_german_and_english(text: str, secret: str) -> None:
    result = scrub(text)
    assert not leaks(secret, result.text), result.text
    assert result.text == text.replace(secret, MARKER_RE.findall(result.text)[0], 1)


def test_password_value_keeps_sentence_punctuation_and_quotes() -> None:
    assert scrub("Das Passwort ist Sommer2024.").text == "Das Passwort ist [ENTFERNT:password]."
    assert scrub('password: "Sommer 2024!"').text == 'password: "[ENTFERNT:password]"'
    assert scrub("(Passwort: abc123)").text == "(Passwort: [ENTFERNT:password])"


# --- URLs, keys, cards, merging ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "postgres://app:p@ss!w0rd$*@db.example.com:5432/app",
            "postgres://app:[ENTFERNT:url_credentials]@db.example.com:5432/app",
        ),
        ("redis://:S3cr3t!@cache:6379/0", "redis://:[ENTFERNT:url_credentials]@cache:6379/0"),
        (
            "Server=db;User ID=sa;Password=Q7!x9Lm;Encrypt=True",
            "Server=db;User ID=sa;Password=[ENTFERNT:url_credentials];Encrypt=True",
        ),
    ],
)
def test_url_credentials_remove_only_the_password(text: str, expected: str) -> None:
    assert scrub(text).text == expected


def test_private_key_written_with_literal_backslash_n_in_one_line() -> None:
    body = "\\n".join(["MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + "Ab3dEf9h" * 4] * 3)
    key = f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----"
    result = scrub(f'{{"private_key": "{key}\\n", "client_email": "x@y.iam"}}')
    assert result.text == '{"private_key": "[ENTFERNT:private_key]\\n", "client_email": "x@y.iam"}'


@pytest.mark.parametrize("card", ["4556 7375 8689 9855", "4556-7375-8689-9855", "4556737586899855"])
def test_luhn_valid_cards_with_spaces_or_dashes(card: str) -> None:
    assert (
        scrub(f"Karte {card}, gültig bis 09/27").text
        == "Karte [ENTFERNT:credit_card], gültig bis 09/27"
    )


def test_luhn_invalid_card_shape_is_left_alone() -> None:
    assert not scrub("Karte 4556 7375 8689 9856").found


def test_overlapping_hits_merge_into_one_marker_longest_wins() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYXgifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
    result = scrub(f"Authorization: Bearer {jwt}")
    assert result.text == "Authorization: Bearer [ENTFERNT:jwt]"
    token = "ghp_" + "aB3dE5" * 6
    result = scrub(f"Passwort: {token}")
    assert result.text == "Passwort: [ENTFERNT:github_pat]"


# --- concurrency and pathological input ------------------------------------------------------


def test_thread_safe_results_equal_sequential_ones() -> None:
    samples = [row.sample for row in PATTERNS] * 3
    expected = [scrub(s) for s in samples]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(scrub, samples)) == expected


def _adversarial(n: int) -> list[str]:
    return [
        "a" * 20 * n,
        "-----BEGIN PRIVATE KEY-----\n" * n,
        "Passwort Passwort " * n,
        "token: " * 3 * n,
        "x://" + ":" * 20 * n + "@",
        "1 " * 10 * n,
        "PIN: " + "4 " * 10 * n,
    ]


def _cpu_seconds(text: str) -> float:
    best = 1e9
    for _ in range(3):
        started = time.thread_time()
        scrub(text)
        best = min(best, time.thread_time() - started)
    return best


def test_adversarial_inputs_take_linear_work() -> None:
    # Given dense inputs at two sizes, 16 times apart (CPU time ratios, not a time budget:
    # quadratic work would take 256 times as long, linear 16)
    for small, big in zip(_adversarial(100), _adversarial(1600), strict=True):
        # Then the large one takes at most 4 x 16 times the small one's time
        assert _cpu_seconds(big) <= 64 * max(_cpu_seconds(small), 0.003), big[:30]
