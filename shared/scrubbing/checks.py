"""Validators of the secret patterns: they see a candidate value (and its match) and say yes/no.

A regex finds a candidate; a validator decides whether it is a secret. Every validator has the
signature `(value, match) -> bool`; `match.string` is the whole text, for rules that look at the
words around the value (a key named `sha256`, a `Bestellnummer` before a card number).

Placeholders are never secrets: template shapes (`<...>`, `${...}`, `{{...}}`, `%(x)s`,
`$ALL_CAPS`), runs of one filler character (`xxx`, `****`, `•••`), documentation values
(`...EXAMPLE`, `your-api-key-here`, `dein-passwort`), secret-store references (`op://...`,
`vault:...`, `env:DB_PASSWORD`, `arn:aws:secretsmanager:...`) and the scrubber's own marker
`[ENTFERNT:...]`.
"changeme", "geheim" or "password" are NOT placeholders: they are real, weak passwords.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import operator
import re
from collections import Counter
from collections.abc import Callable
from typing import Final

from shared.scrubbing.context_lexicon import NOT_CREDENTIAL_PREFIX
from shared.scrubbing.value_forms import filler, filler_run, names_its_field, public_form
from shared.scrubbing.value_position import (
    crosses_line,
    declares_a_type,
    inside_path,
    prose_after_prompt,
    variable_before,
)
from shared.scrubbing.value_shape import DATE

Validator = Callable[[str, "re.Match[str]"], bool]

MARKER_PREFIX: Final = "[ENTFERNT:"

_FILLER_ONLY = re.compile(r"[xX*•●·._#?\-\s]+|(.)\1+")
_TEMPLATE = re.compile(
    r"""<[^<>]*>?|\$\{|\$\(|\{\{|\{%|%\(|%[A-Z_]+%|\$[A-Z_][A-Z0-9_]*\}?\)?$|\[|\(|\{
    |(?:op|vault|ssm|secretsmanager|keyvault|env|file)://|arn:aws:secretsmanager:|vault:
    |\$\d$
    |env:[A-Za-z_][A-Za-z0-9_]*$
    |urn:[a-z0-9][a-z0-9-]{0,31}:|\$[A-Za-z_][\w-]*(?:[.:][\w-]+)+["']?$
    |(?:os\.)?environ\b|process\.env\.|getenv\(|secrets\.
    |(?:var|local|data|module|each|self)\.[A-Za-z_]|--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$
    |![A-Za-z][A-Za-z_]*(?:\s|$)|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(|[A-Za-z_]\w*\((?:["'`)]|$)
    |[A-Za-z_]\w*\([A-Za-z_]\w*=
    |:['"]?[A-Za-z_]\w*['"]?[;,)]?$|\$[a-z_]+\)?$|&[A-Za-z_][\w.]*\{|[+-]@?[a-z][a-z|]*$
    |`?[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)+`?$|[a-z_]\w*\([A-Z_][A-Z0-9_]*\)?[,;]?$
    |[A-Za-z_]\w{0,40}(?:\.\w{1,40}){0,6}\.(?:\w{0,40}?(?:_|(?<=[a-z])(?=[A-Z])))?
    (?i:passw|secret|token|key|pwd|credential)\w{0,30}[,;)]?$""",
    re.VERBOSE,
)
# Whole segments of a value (split at - _ . / : and spaces) that mark a documentation value.
# The weak ones only count in values without a digit: "Hier-2024!" may be a real password.
# fmt: off
_PLACEHOLDER_WORDS: Final = frozenset({
    "beispiel", "changeit", "dein", "deine", "deinen", "dummy", "entfernt", "ersetzen",
    "example", "examples", "insert", "ihre", "ihren", "placeholder", "platzhalter", "redacted",
    "replace", "your", "yours", "xxxx", "xxxxx", "xxxxxx",
})
_WEAK_PLACEHOLDER_WORDS: Final = frozenset({
    "bar", "baz", "fixme", "foo", "foobar", "here", "hier", "ipsum", "lorem", "sample",
    "someone", "tbd", "todo",
})
# fmt: on
_PLACEHOLDER_SUFFIX = re.compile(r"(?:example|_here|-here)$")  # on the lowercased value
_SEGMENTS = re.compile(r"[-_.\s/:]+")


def is_placeholder(value: str) -> bool:
    """True for template, filler, documentation and reference values and public key forms
    (`public_form`): never secrets."""
    v = value.strip()
    if not v or v.startswith(MARKER_PREFIX) or _FILLER_ONLY.fullmatch(v):
        return True
    low = v.lower()
    if _TEMPLATE.match(v) or "…" in v or "..." in v or "xxxx" in low or "****" in v:
        return True
    if _PLACEHOLDER_SUFFIX.search(low) or public_form(v) or filler_run(v):
        return True
    segments = _SEGMENTS.split(low)
    if any(seg in _PLACEHOLDER_WORDS for seg in segments):
        return True
    return not any(map(str.isdigit, v)) and any(seg in _WEAK_PLACEHOLDER_WORDS for seg in segments)


_C_LOG_C: Final = tuple(c * math.log2(c) if c else 0.0 for c in range(4097))


def shannon_entropy(value: str) -> float:
    """Bits per character of the value's own character distribution."""
    n = len(value)
    if not n or n >= len(_C_LOG_C):
        return 0.0 if not n else -sum(c / n * math.log2(c / n) for c in Counter(value).values())
    # `str.count` per distinct character: C loops only (a Counter costs more on short values)
    counts = map(value.count, set(value))
    return math.log2(n) - sum(map(_C_LOG_C.__getitem__, counts)) / n


_HEX = re.compile(r"[0-9a-fA-F]+")
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_SLUG = re.compile(r"[a-z0-9]+(?:[-_./][a-z0-9]+)+")
_WORDY_SLUG_PART = re.compile(r"[a-z]{3,}|v?\d{1,4}")
_B64_TEXT = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# A key named like a digest or an identifier holds no secret, whatever its value looks like
# (Telegram's `api_hash` is its API secret, no digest).
# (Matched against the lowercased key: case-insensitive alternations are ~4x slower in `re`.)
_NON_SECRET_KEY = re.compile(
    r"(?<!api[-_])(?<!api)hash|checksum|prüfsumme|pruefsumme|sha\d*|md5|crc|digest|commit"
    r"|fingerprint|etag"
    r"|uuid|guid|(?:^|[-_. ])ids?$|[a-z]id$|name$|_?names?$|url$|uri$|endpoint|type$|count"
    r"|limit|length|länge|expir|ttl|version|nonce|format|path|file$|ref$|public|pub_?key"
    r"|öffentlich|provider|endpoint|header|type|policy|rotation|arn:|idempoten|page_?token"
    r"|pagination|cursor|continuation|accessor",
)


def decodes_to_prose(value: str) -> bool:
    """Base64 of ordinary text ('SGFsbG8gV2VsdA==' is 'Hallo Welt'), not a key."""
    if len(value) % 4 or not _B64_TEXT.fullmatch(value):
        return False
    try:
        raw = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return " " in raw and ":" not in raw and all(c.isprintable() for c in raw)


def looks_random(value: str) -> bool:
    """High-entropy token shape: long enough, mixed charset, no UUID, date, slug or prose."""
    n = len(value)
    if n < 16 or n > 4096 or UUID.fullmatch(value) or DATE.fullmatch(value):
        return False
    if _HEX.fullmatch(value):
        return n >= 32 and shannon_entropy(value) >= 3.0 and not is_placeholder(value)
    if shannon_entropy(value) < 3.3:
        return False
    if _SLUG.fullmatch(value) and all(
        _WORDY_SLUG_PART.fullmatch(p) for p in _SEGMENTS.split(value)
    ):
        return False
    if decodes_to_prose(value):
        return False
    upper_flags = list(map(str.isupper, value))
    upper = sum(upper_flags)
    lower = sum(map(str.islower, value))
    if not (any(map(str.isdigit, value)) and (lower or upper)):
        switches = sum(map(operator.ne, upper_flags, upper_flags[1:]))
        if not (upper >= 3 and lower >= 3 and switches >= n / 3 and n >= 20):
            return False
    return not is_placeholder(value)  # the regex-heavy check last: most values fail earlier


_KEY_SPLIT = re.compile(r"[\s,;(?&/\"'{]")


def key_before(match: re.Match[str], width: int = 40) -> str:
    """The key-ish word(s) in front of the value: the group 'key' and the word it ends."""
    start = match.start("key") if "key" in match.re.groupindex else match.start()
    end = match.end("key") if "key" in match.re.groupindex else match.start()
    head = match.string[max(0, start - width) : end]
    return _KEY_SPLIT.split(head)[-1] if head else ""


# Words in front of a bare "key" that make it a database, cache or public key (one list,
# context_lexicon.NOT_CREDENTIAL_PREFIX).
_NON_SECRET_KEY_WORD = re.compile(
    "(?:"
    + "|".join(re.escape(word) for word in sorted(NOT_CREDENTIAL_PREFIX, key=len, reverse=True))
    + r")[\s_-]*$"
)


_TRAILING_PUNCT = re.compile(r"[\W_]+$")


def _inside_colon_chain(match: re.Match[str]) -> bool:
    """`arn:aws:secretsmanager:...:secret:prod/db`: the key is one segment of an identifier."""
    if "key" not in match.re.groupindex:
        return False
    start = match.start("key")
    return start > 0 and match.string[start - 1] == ":"


def generic_value(value: str, match: re.Match[str]) -> bool:
    """Value after a secret-ish key: random-looking, no typed filler (`value_forms.filler`: an
    alphabet stretch), and the key is not a digest or id."""
    key = key_before(match)
    if _NON_SECRET_KEY.search(key.lower()) or _inside_colon_chain(match):
        return False
    if "key" in match.re.groupindex and match.group("key").lower().startswith("key"):
        before = match.string[max(0, match.start("key") - 20) : match.start("key")]
        if _NON_SECRET_KEY_WORD.search(before.lower()):
            return False
    return (looks_random(value) or bool(UUID.fullmatch(value))) and not filler(value)


def token_body(value: str, _match: re.Match[str]) -> bool:
    """Prefixed provider token: anything but a placeholder or a one-character filler."""
    body = value[-16:]
    return not is_placeholder(value) and len(set(body)) > 3


def token_random(value: str, match: re.Match[str]) -> bool:
    """Prefix shared with ordinary words (`sk-`): the token must also look random."""
    return token_body(value, match) and looks_random(value)


# --- passwords -------------------------------------------------------------------------------

# fmt: off
STOPWORDS: Final = frozenset({
    "siehe", "see", "im", "in", "wie", "per", "via", "unverändert", "unchanged", "gleich", "same",
    "bekannt", "known", "unbekannt", "unknown", "hinterlegt", "stored", "gespeichert", "saved",
    "leer", "empty", "none", "null", "nil", "n/a", "na", "keins", "kein", "keine", "no", "nein",
    "ja", "yes", "true", "false", "ok", "okay", "gesetzt", "set", "unset", "geändert", "changed",
    "zurückgesetzt", "reset", "vergessen", "forgotten", "abgelaufen", "expired", "falsch",
    "wrong", "invalid", "ungültig", "ungueltig", "korrekt", "correct", "richtig", "erforderlich",
    "required", "optional", "pflicht", "mandatory", "benötigt", "needed", "muss", "must", "soll",
    "should", "sollte", "wird", "will", "wurde", "was", "ist", "is", "has", "hat", "of", "des",
    "der", "die", "das", "den", "dem", "für", "fuer", "for", "from", "aus", "bei", "mit", "with",
    "und", "and", "oder", "or", "nicht", "not", "noch", "still", "nur", "only", "auch", "also",
    "bitte", "please", "erfragen", "ask", "fragen", "mindestens", "minimum", "min", "at", "least",
    "maximal", "max", "höchstens", "zeichen", "characters", "chars", "stellen", "digits", "neu",
    "new", "alt", "old", "aktuell", "current", "identisch", "identical", "wie_immer", "as_usual",
    "steht", "liegt", "lies", "vorhanden", "available", "verschlüsselt", "encrypted", "gehasht",
    "hashed", "rotiert", "rotated", "sicher", "secure", "schwach", "weak", "stark", "strong",
    "zu", "too", "sehr", "very", "ein", "eine", "a", "an", "the", "this", "dieses", "diese",
    "that", "nächste", "next", "letzte", "last", "angefragt", "requested", "beantragt", "gültig",
    "valid", "aktiv", "active", "sent", "gesendet", "verschickt", "geschickt", "per_mail", "mail",
    "e-mail", "email", "sms", "separat", "separately",
    # predicates of prose about a password, not a value (`'password' is deprecated`)
    "are", "sind", "being", "been", "and/or", "und/oder", "deprecated", "veraltet", "ignored",
    "ignoriert", "incorrect", "missing", "fehlt", "disabled", "enabled", "supported",
    "unsupported", "accepted", "rejected", "specified", "provided", "configured", "prompted",
    "masked", "hidden", "removed", "entfernt", "warning", "warnung", "error", "fehler", "debug",
    "deprecation", "notice", "fatal",
    # type names of CLI help and schemas (`--password string`, `password: string`)
    "string", "strings", "stringarray", "int", "integer", "bool", "boolean", "duration",
})
# fmt: on


def prose_word(word: str) -> bool:
    """A word that prose around a password has and a password does not (`siehe`, `ist`)."""
    return word.lower() in STOPWORDS


_MEASURE = re.compile(r"\d+[-‑ ]?[A-Za-zÄÖÜäöüß]+(?:-[A-Za-zÄÖÜäöüß]+)?")
_PATHLIKE = re.compile(r"(?:/|~/|\./|[A-Za-z]:\\)\S*")
_SYMBOL = re.compile(r"[^\w\s]")
# fmt: off
WEAK_PASSWORDS: Final = frozenset({
    "password", "toor", "passwort", "hallo", "willkommen", "welcome", "master", "changeme",
    "secret", "qwerty", "test", "root", "qwertz", "admin", "default", "guest", "letmein",
})
# fmt: on


def password_value(value: str, match: re.Match[str]) -> bool:
    """Value after `Passwort:`/`pw=`/`lautet`: anything but placeholders, words of prose, paths."""
    v = value.strip()
    low = v.lower().strip("()[]{}.,;:!?\"'")
    if len(v) < 4 or len(v) > 200 or is_placeholder(v) or low in STOPWORDS:
        return False
    if names_its_field(v, key_before(match)):
        return False
    if variable_before(match) or prose_after_prompt(value, match) or inside_path(match):
        return False  # psql `:'new_password'`; `Password:⏎Login succeeded`: the next line
    if declares_a_type(v, match):
        return False  # `password: SecretStr` in a class body: declared, not given
    if _NEXT_LINE_KEY.match(v) and crosses_line(value, match):
        return False  # `password=` empty, the next line `host=db01` is not its value
    if (
        v[0] in "([{<"
        or _PATHLIKE.fullmatch(v)
        or _NON_SECRET_KEY.search(key_before(match).lower())
    ):
        return False
    return not (v.isdigit() and len(v) < 6)


_NEXT_LINE_KEY = re.compile(r"[\w.\-]{1,40}[ \t]{0,8}[=:]")


def password_like(value: str, match: re.Match[str]) -> bool:
    """Value after a weak verb (`ist`, `is`, `mit Passwort`): must look like a password."""
    if not password_value(value, match):
        return False
    if value.lower() in WEAK_PASSWORDS:
        return True
    if _MEASURE.fullmatch(value):  # "12-stellig", "2FA-protected", "90days"
        return False
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    if value.isdigit():
        return len(value) >= 6
    inner_upper = any(c.isupper() for c in value[1:])
    return has_letter and (has_digit or bool(_SYMBOL.search(value)) or inner_upper)


_STRONG_SYMBOL = re.compile(r"[!@#$%^&*+=?~/\\|§€<>]")


_JOINED_WORDS = re.compile(
    r"[A-Za-zÄÖÜäöüß]{3,}(?:([-.])[A-Za-zÄÖÜäöüß]{3,})(?:\1[A-Za-zÄÖÜäöüß]{3,}){1,6}"
)


_WORD_PATH = re.compile(r"[a-z][a-z0-9_-]*+(?:/[a-z0-9_.-]++){2,8}+/?")
"""Lowercase words joined by slashes: a store's or a repository's path (`secret/brain/db`
after `vault kv get -field=password`), not a password."""


def password_bare(value: str, match: re.Match[str]) -> bool:
    """Value right after the keyword (`Passwort Sommer2024!`): digit or symbol required, or
    three or more words joined by `-` or `.` (a passphrase: `birke-cobalt-falke`); a path of
    lowercase words is none."""
    if _JOINED_WORDS.fullmatch(value):
        return password_value(value, match)
    if _WORD_PATH.fullmatch(value):
        return False
    return password_like(value, match) and bool(
        _STRONG_SYMBOL.search(value) or any(c.isdigit() for c in value)
    )


def strong_password(value: str, match: re.Match[str]) -> bool:
    """Without a key word: upper and lower case letters, a digit and a symbol - a password's
    shape, not a word, path, date or fraction."""
    v = _TRAILING_PUNCT_SENTENCE.sub("", value)
    if len(v) < 8 or not _STRONG_SYMBOL.search(v) or _PATHLIKE.fullmatch(v):
        return False
    if not (any(map(str.isupper, v)) and any(map(str.islower, v)) and any(map(str.isdigit, v))):
        return False
    return password_value(v, match)


_TRAILING_PUNCT_SENTENCE = re.compile(r"[.,;:)]+$")
_WIFI_WORD = re.compile(r"ssid|wlan|wi-?fi|wpa|hotspot|netzwerk|network")


def wifi_value(value: str, match: re.Match[str]) -> bool:
    """`SSID Gast, key X`: a password-like value after `key`, on a line that names a Wi-Fi;
    `psk` (a pre-shared key: `wpa_supplicant.conf`'s `psk="…"`) names one itself."""
    start = match.start("key")
    line_start = match.string.rfind("\n", 0, start) + 1
    named = match.group("key") in ("psk", "PSK") and not match.string[start - 1 : start].isalnum()
    if not named and not _WIFI_WORD.search(
        match.string[max(line_start, start - 80) : start].lower()
    ):
        return False
    return password_bare(value, match)


def pin_value(value: str, _match: re.Match[str]) -> bool:
    """A PIN: 4 to 8 digits, not one digit repeated (`0000` is a filler, not a PIN)."""
    return len(set(value)) > 1


def passphrase_value(value: str, match: re.Match[str]) -> bool:
    """A multi-word passphrase: a password value whose first word is not prose."""
    words = value.lower().split()
    if not words or (words[0] in STOPWORDS and len(words) < 4):
        return False
    return password_value(value, match)


# --- structured values --------------------------------------------------------------------------


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_CARD_PREFIX = re.compile(
    r"4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)\d{12}"
    r"|3[47]\d{13}"
    r"|3(?:0[0-5]|[68]\d)\d{11}|6(?:011|5\d\d)\d{12}(?:\d{3})?|35(?:2[89]|[3-8]\d)\d{12}"
)
_NOT_A_CARD_CONTEXT = re.compile(
    r"(?:bestell|order|auftrag|tracking|sendung|rechnung|invoice|imei|kunden|customer|ticket"
    r"|vertrag|contract|konto|account|iban|referenz|reference|artikel|article|serien|serial"
    r"|beleg|receipt|telefon|phone|tel|fax|mobil)[\w-]*\.?"
    r"(?:\s*(?:no|nr|number|nummer|id)\.?)?\s*[:#]?\s*$",
    re.IGNORECASE,
)


_CARD_WORD = re.compile(
    r"(?:kredit|credit|debit|firmen|corporate|company|visa|master|amex|bank|ec-)[\w-]{0,12}?"
    r"(?:karte|card)|\b(?:karte|card)\b|\b(?:visa|mastercard|amex|american express)\b",
    re.IGNORECASE,
)


_PAYMENT_WORD = re.compile(
    r"\b(?:cvc|cvv|cvv2|exp|expires|expiry|gültig bis|valid thru|ablauf|bezahlt|paid|pay"
    r"|zahlung|payment|charge|kartennummer|card number)\b",
    re.IGNORECASE,
)


def credit_card(value: str, match: re.Match[str]) -> bool:
    """A Luhn-valid number with a card issuer's prefix that is written like a card (in groups
    of four) or named as one (a card or payment word before or after it). A bare run of
    digits without such a word is an identifier - a phone number, an IMEI, a contract
    number, of which one in ten passes Luhn - and stays (CONTRACT §8)."""
    digits = re.sub(r"[ -]", "", value)
    if not (13 <= len(digits) <= 19 and _CARD_PREFIX.fullmatch(digits) and luhn(digits)):
        return False
    if len(set(digits)) < 4:
        return False
    text, start = match.string, match.start()
    if start and text[start - 1] == "+":
        return False  # `+4915…`: a phone number in E.164
    if _CARD_WORD.search(text, max(0, start - 48), start):
        return True  # "Firmenkreditkarte für AWS-Rechnungen: 4…": named as a card, it is one
    if _NOT_A_CARD_CONTEXT.search(text[max(0, start - 25) : start]):
        return False
    if digits != value:
        return True  # grouped like a card: `4111 1111 1111 1111`
    near = text[max(0, start - 48) : start] + " " + text[match.end() : match.end() + 40]
    return bool(_PAYMENT_WORD.search(near) or _CARD_WORD.search(near))


def _b64url_json(part: str) -> object:
    padded = part + "=" * (-len(part) % 4)
    try:
        return json.loads(base64.urlsafe_b64decode(padded))
    except (binascii.Error, ValueError):
        return None


def jwt_value(value: str, _match: re.Match[str]) -> bool:
    header = _b64url_json(value.split(".", 1)[0])
    return isinstance(header, dict) and ("alg" in header or "typ" in header or "enc" in header)


def _b64_text(value: str) -> str | None:
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return text if text.isprintable() else None


def user_colon_password_b64(value: str, _match: re.Match[str]) -> bool:
    """Base64 of `user:password` (HTTP Basic, docker config `auth`)."""
    text = _b64_text(value)
    return text is not None and ":" in text and not is_placeholder(text.split(":", 1)[1])


def discord_value(value: str, _match: re.Match[str]) -> bool:
    """Discord tokens start with the base64 of the numeric user id."""
    text = _b64_text(value.split(".", 1)[0])
    return text is not None and text.isdigit() and 15 <= len(text) <= 21


_PORT_QUERY = re.compile(r"\d{1,5}[?#]")


def url_password(value: str, _match: re.Match[str]) -> bool:
    """A URL's password: no placeholder, not its field's name (`<user:password>` too), not a
    port and a query (`https://host:8443?next=a@b.org`)."""
    if _PORT_QUERY.match(value):
        return False
    return bool(value) and not is_placeholder(value) and not names_its_field(value.rstrip(">"), "")
