"""Issue 11, scrubber part: linear time on adversarial input, whole-span replacement,
normalisation before detection, bare high-entropy credentials (and their guards)."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.scrubbing import context as c
from shared.scrubbing import scan, scrub
from shared.scrubbing import scrubber as engine
from shared.scrubbing.model import bounded
from shared.scrubbing.patterns import PATTERNS, SecretPattern
from tests.unit.scrub_adversarial import adversarial_inputs

MB = 1_000_000
SCREEN = 65_536
SMALL = MB // 16
LINEAR = MB / SMALL
SLACK = 4
"""Work grows linearly: 16 times the input may take at most 4 x 16 times as long (quadratic
backtracking takes 256 times as long, exponential never ends). A ratio of two CPU times of
the same run, not a time budget: a slow or loaded machine slows both alike."""
FLOOR = 0.003
"""CPU seconds below which the small input's time is timer noise (taken as this much)."""
WORST_PER_ROW = 2


def reproductions(size: int) -> dict[str, str]:
    """The stalls of issue 11 (and the tier's own dense inputs), `size` characters long."""
    return {
        "password ist + spaces": "password ist" + " " * size + ";",
        "token= repeated": "token=" * (size // 6) + "#",
        "PIN ist + spaces": "PIN ist" + " " * size,
        "mysql repeated": "mysql " * (size // 6),
        "key=. repeated": "key=." * (size // 5),
        "PIN ist + digit groups": "PIN ist " + "1 " * (size // 2),
        "code words and digits": "Code 1234 " * (size // 10),
        "csv header and cells": "name,login,password\n" + "a,b,Xy7!pq9#\n" * (size // 13),
    }


ISSUE_REPRODUCTIONS = reproductions(MB)
SMALL_REPRODUCTIONS = reproductions(SMALL)


def linear(small: float, big: float, ratio: float = LINEAR) -> bool:
    """`big` (the input `ratio` times larger) took no more than linear time, with slack."""
    return big <= SLACK * ratio * max(small, FLOOR)


def row_seconds(row: SecretPattern, text: str, runs: int = 2) -> float:
    """Best of `runs` scans of one row over `text` (its candidate matches: the regex work)."""
    best = 1e9
    for _ in range(runs):
        started = time.thread_time()
        for _match in engine._matches(row, engine.TextScan(text)):
            pass
        best = min(best, time.thread_time() - started)
    return best


def worst_inputs(row: SecretPattern) -> list[str]:
    """The row's generated adversarial inputs that are slowest at 64 KB (one scan each)."""
    timed = sorted(
        (
            (row_seconds(row, text, runs=1), name)
            for name, text in adversarial_inputs(row, SCREEN).items()
        ),
        reverse=True,
    )
    return [name for _seconds, name in timed[:WORST_PER_ROW]]


@pytest.mark.parametrize("index", range(len(PATTERNS)), ids=lambda i: f"{i}-{PATTERNS[i].kind}")
def test_every_pattern_is_fast_on_one_megabyte_of_its_own_adversarial_inputs(index: int) -> None:
    # Given the row's adversarial inputs, generated from its regex (prefix + pumped repetition
    # + failing end, needles and literal prefix repeated), the slowest ones grown to 1 MB
    row = PATTERNS[index]
    big = adversarial_inputs(row, MB)
    small = adversarial_inputs(row, SCREEN)
    # When the row scans each of them, and the same input at 64 KB
    seconds = {
        name: (row_seconds(row, small[name]), row_seconds(row, big[name]))
        for name in worst_inputs(row)
    }
    # Then the work grew linearly with the input
    slow = {n: t for n, t in seconds.items() if not linear(t[0], t[1], MB / SCREEN)}
    assert not slow, slow


def test_the_adversarial_generator_finds_the_classic_stalls() -> None:
    # Given the generator and rows of the known shapes
    totp = next(r for r in PATTERNS if r.kind == "totp_secret")
    pw = next(r for r in PATTERNS if r.regex.pattern == bounded(c.PW_WEAK))
    # Then the pumped inputs are among what it builds: a needle repeated, key + whitespace run
    assert "otpauth://" * 3 in "".join(adversarial_inputs(totp, 4096).values())
    assert any(
        t.startswith("passwort") and "      " in t for t in adversarial_inputs(pw, 4096).values()
    )
    assert all(len(t) == 4096 for t in adversarial_inputs(pw, 4096).values())


@pytest.mark.parametrize("name", ISSUE_REPRODUCTIONS)
def test_the_issue_reproductions_are_fast_for_every_row(name: str) -> None:
    text, small = ISSUE_REPRODUCTIONS[name], SMALL_REPRODUCTIONS[name]
    slow = {
        f"{i}-{r.kind}": (round(a, 4), round(b, 4))
        for i, r in enumerate(PATTERNS)
        if not linear(a := row_seconds(r, small), b := row_seconds(r, text))
    }
    assert not slow, slow


def test_the_whole_scrubber_on_the_issue_reproductions_is_bounded() -> None:
    for name, text in ISSUE_REPRODUCTIONS.items():
        small = scrub_seconds(SMALL_REPRODUCTIONS[name])
        started = time.thread_time()
        result = scrub(text)
        assert linear(small, time.thread_time() - started), name
        assert scrub(result.text).text == result.text


def scrub_seconds(text: str, runs: int = 3) -> float:
    """Best of `runs` whole scrubs of `text` (the table, the context tier, the merge)."""
    best = 1e9
    for _ in range(runs):
        started = time.thread_time()
        scrub(text)
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Zugang: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "Zugang: [ENTFERNT:password]",
        ),
        ('{\\"password\\": \\"Qx7!vLm2#Rt9\\"}', '{\\"password\\": \\"[ENTFERNT:password]\\"}'),
        ("Passwort auf Qx7vLm2Rt9Zk geändert", "Passwort auf [ENTFERNT:password] geändert"),
        (
            "I changed the password to Qx7vLm2Rt9Zk.",
            "I changed the password to [ENTFERNT:password].",
        ),
        ("Passwort\uff1a Qx7vLm2Rt9", "Passwort\uff1a [ENTFERNT:password]"),
        ("Pass\u200bwort: Qx7vLm2Rt9", "Pass\u200bwort: [ENTFERNT:password]"),
        ("Passwort: Qx7v\u200bLm2Rt9", "Passwort: [ENTFERNT:password]"),
    ],
)
def test_issue_reproductions_are_removed_over_their_whole_span(text: str, expected: str) -> None:
    assert scrub(text).text == expected


@pytest.mark.parametrize(
    "secret",
    [
        "I5xhU2Q8dN0tRz+7Lk3Vb9Wq1Yc4Xe6Ff8Gg0Hh2",  # bare 40-character AWS secret key
        "7ysUahZjuogQZDT6PXTdZLuJ/QrBNyjfKNHhTfHfxfo=",  # base64 of 32 random bytes
        "cec895cc9d70bca25617b6647be86e21b8d9d8398b251762f7959e664f120d53",  # hex key
        "Fy5SdvQg6LZ5X6Txdpp1j8dIpYjaVBwyYbt3BGVt",  # base62 token
        "XfbylciqxSlvUZ/XRIpopcC+R7gjOk5t7ira0ldvinwu",  # random, with long letter runs
    ],
)
def test_bare_high_entropy_credentials_are_caught(secret: str) -> None:
    result = scrub(f"Von Lisa per Chat den Zugang bekommen: {secret} - bitte eintragen")
    assert secret[:8] not in result.text and result.found


@pytest.mark.parametrize(
    "secret",
    [
        "I5xhU2Q8dN0tRz+7Lk3Vb9Wq1Yc4Xe6Ff8Gg0Hh2",
        "7ysUahZjuogQZDT6PXTdZLuJ/QrBNyjfKNHhTfHfxfo=",
        "cec895cc9d70bca25617b6647be86e21b8d9d8398b251762f7959e664f120d53",
        "Fy5SdvQg6LZ5X6Txdpp1j8dIpYjaVBwyYbt3BGVt",
    ],
)
def test_random_values_without_credential_context_are_content(secret: str) -> None:
    """CONTRACT §8: an identifier without a credential word around it stays (issue 20: random
    ids, digests and token_urlsafe strings were redacted as secrets). This test used to expect
    the same values removed after "Von Lisa per Chat bekommen:", a sentence with no word of a
    credential in it."""
    text = f"Von Lisa per Chat bekommen: {secret} - bitte eintragen"
    assert scrub(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8, see PR #412.",
        "SHA-256 der Datei: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  brain.tar.gz",
        "Mandanten-ID 3f2b8c1e-9d4a-4e6f-b2c7-8a1d5e9f0b3c wurde migriert.",
        "Slides: https://docs.google.com/presentation/d/1Xk9fQ2mZp7LwR4tYb8NcV3sJh6GdE0aUq/edit",
        "Spenden an 0x52908400098527886e0f7030069857d2e4169ee7",
        "getUserAccountSettingsFromDatabaseCache",
        "Fixed in 6c2c62fcdde35f78b5d50a72339e7546cf496381; cherry-pick it to the release branch.",
        "npm integrity: sha512-g4IrVn+dFHNToiAZn28QVOnTefw7IT+FS6dZp3tuAe48er2+9A8q2Ei1mZ8R+"
        "bpv4i0Dzh8wKHmzWQfGZuDqkg==",
    ],
)
def test_hashes_ids_and_identifiers_are_not_bare_credentials(text: str) -> None:
    assert scrub(text).text == text


def test_scan_names_the_kind_without_changing_anything() -> None:
    assert scan("Zugang: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") == ("password",)


_SECRETS = st.sampled_from(
    ["Passwort: Sommer2024!", "ghp_" + "aB3dE5fG7hJ9kL1mN2" * 2, "pw=Qx7!vLm2#Rt9"]
)
_NOISE = st.lists(
    st.sampled_from([*"abcXYZ019 :=./+-_\"'\\\n", "pass", "token", "key", "PIN", "ist "]),
    max_size=120,
).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=_NOISE, secret=_SECRETS, after=_NOISE)
def test_random_text_bounded_idempotent_and_detected_secrets_gone(
    before: str, secret: str, after: str
) -> None:
    # Given random text, possibly around a known secret
    text = f"{before} {secret} {after}"
    # When it is scrubbed
    once = scrub(text)
    # Then it is idempotent, and nothing the scrubber still detects is left (its time is
    # bounded by the linear-work tests above)
    assert scrub(once.text).text == once.text
    assert scan(once.text) == ()
    assert not re.search(r"Sommer2024!|aB3dE5fG7hJ9kL1mN2|Qx7!vLm2", once.text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "Firmenkreditkarte für AWS-Rechnungen: 5588148662981527, Ablauf 11/28",
            "5588148662981527",
        ),
        (
            "Webhook secret for the integration: 2b91ef6164a416b1565d5b318d06d7b3c732c652",
            "2b91ef61",
        ),
    ],
)
def test_named_cards_and_sha1_shaped_keys_next_to_a_credential_word_are_caught(
    text: str, secret: str
) -> None:
    # Given a card named as one next to an invoice word / a 40-hex value named as a credential
    # When scrubbed / Then it is gone (an invoice word or the SHA-1 shape alone does not save it)
    assert secret not in scrub(text).text
