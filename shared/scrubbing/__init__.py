"""Secret scrubbing: find credentials in a text an agent wants stored, and take them out.

Local and fast (stdlib regexes, no network). Detects provider tokens (AWS, GitHub, GitLab,
Slack, Stripe, OpenAI, Anthropic, Google, Azure, ...), private keys (PEM, OpenSSH, PGP, PuTTY,
age, also with literal `\\n` inside one line), JWTs, credentials in URLs and connection strings,
Bearer/Basic headers, Luhn-valid card numbers, and - by their context in German or English -
passwords, PINs, passphrases and high-entropy values under secret-ish keys.

    >>> scrub("Passwort: Sommer2024!").text
    'Passwort: [ENTFERNT:password]'

Every secret is replaced by `[ENTFERNT:<kind>]`; scrubbing is idempotent. Results carry only
kind names, never a secret or a piece of one. The table of patterns is `patterns.PATTERNS`.

What is NOT treated as a secret (left alone on purpose):
* identifiers and digests: UUIDs, commit SHAs, checksums and hashes named as such, memory ids;
* IBANs, customer/order/invoice numbers, phone numbers (personal or business data, but not
  credentials), card-shaped numbers the text names as order/customer/invoice numbers, and
  documented test cards with fewer than four distinct digits (4242 4242 4242 4242);
* public keys, certificates, SSH fingerprints, base64 of prose;
* placeholders and references: `<YOUR_API_KEY>`, `${DB_PASSWORD}`, `{{ .Values.x }}`,
  `sk_live_xxx`, `****`, `op://...`, documentation keys ending in EXAMPLE, our own markers;
* talk about passwords without one ("Passwort wurde zurückgesetzt", "muss 12 Zeichen haben").
Weak but real passwords in an assignment ("Passwort: changeme", "pw: geheim") ARE secrets.
A random value without a provider prefix counts only in a credential context (CONTRACT §8): under
a secret-ish key (`secret=`, `token:`, `API-Key ist`, `Schlüssel:`; then a UUID is a secret too),
or with a credential word near it (`bare_checks.credential_context`: in the line before it or right
after it) and no identifier label right before it (`Datei-ID`, `upload id`, `trace`). Bare random
strings - hex digests, dash-less UUIDs, `token_urlsafe` ids, base64 images, product codes - are
content and stay. A card number counts when it is written in groups or named as a card or a
payment; a bare Luhn-valid run of digits (a phone number, an IMEI) stays.
What has no shape - an SMS code, a PIN read out digit by digit, `psk="..."`, app-password
groups, a password column of a CSV export - is found by the context tier (`context_tier`): a
value a de/en credential word names, scored by a small logistic model over generic features
(weights as plain data in `context_weights.py`; references and placeholders never count).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.scrubbing.scrubber import Check
    from shared.scrubbing.scrubber import marker as marker

    KINDS: frozenset[str]
    """Every kind a result can name."""

__all__ = ["KINDS", "ScrubPolicy", "ScrubResult", "marker", "scan", "scrub", "warm"]


# The pattern table is compiled on first use, not at import: `ScrubPolicy` (settings) must
# not cost a function's cold start the ~100 regexes. `warm()` compiles it ahead (SnapStart:
# before the snapshot).
def __getattr__(name: str) -> object:
    if name == "KINDS":
        from shared.scrubbing.patterns import PATTERNS

        value: object = frozenset(p.kind for p in PATTERNS)
    elif name == "marker":
        from shared.scrubbing.scrubber import marker as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def warm() -> None:
    """Compile the pattern table now instead of on the first scrub."""
    from shared.scrubbing import scrubber  # noqa: F401


class ScrubPolicy(StrEnum):
    """What the caller does with a text that contains secrets."""

    REDACT = "redact"  # store the scrubbed text
    REJECT = "reject"  # refuse the text


@dataclass(frozen=True, slots=True)
class ScrubResult:
    """The scrubbed text and the sorted, unique kinds of the secrets that were removed."""

    text: str
    kinds: tuple[str, ...]

    @property
    def found(self) -> bool:
        return bool(self.kinds)


def scrub(text: str, check: Check | None = None) -> ScrubResult:
    """Replace every detected secret in `text` by `[ENTFERNT:<kind>]`; `check` runs between
    the scan's steps (a time budget raises from it to stop)."""
    from shared.scrubbing.scrubber import find_spans, redact

    spans = find_spans(text, check)
    if not spans:
        return ScrubResult(text, ())
    return ScrubResult(redact(text, spans), tuple(sorted({s.kind for s in spans})))


def scan(text: str, check: Check | None = None) -> tuple[str, ...]:
    """The sorted, unique kinds of the secrets in `text` (the text itself is not changed)."""
    from shared.scrubbing.scrubber import find_spans

    return tuple(sorted({s.kind for s in find_spans(text, check)}))
