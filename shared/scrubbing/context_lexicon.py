"""The words of the context tier: which words name a credential, which of their uses do not,
and the small function-word lists its features read (de/en, written from general knowledge of
the two languages and of credential vocabulary, not from any corpus).

Invariant: every list is lowercase; `lexicon_class` (and `word_class`, which adds camel-case
compounds) are the only readers of the lexicon itself.
"""

from __future__ import annotations

import re
from typing import Final

OPENERS: Final = "\"'„“‚‘«([{`"
CLOSERS: Final = "\"'“”‘’»)]}`.,;:"

# fmt: off
PW: Final = "pw"
PIN: Final = "pin"
CODE: Final = "code"
KEY: Final = "key"
KIND: Final = {PW: "password", PIN: "pin", CODE: "pin", KEY: "generic_secret"}

LEXICON: Final = {
    **dict.fromkeys(
        [
            "passwort", "passworte", "passwörter", "password", "passwords", "passwd", "pwd",
            "pw", "kennwort", "kennworte", "passphrase", "passphrasen", "passphrases",
            "losung", "losungswort", "masterpasswort", "phrase", "zugangsdaten",
            "credentials", "credential", "login", "anmeldedaten", "logindaten",
            "app-passwort", "anwendungspasswort",
        ],
        PW,
    ),
    **dict.fromkeys(
        ["pin", "pins", "puk", "tan", "tans", "otp", "mtan", "pushtan", "smstan", "pincode"], PIN
    ),
    **dict.fromkeys(
        [
            "code", "codes", "passcode", "zugangscode", "einmalcode", "bestätigungscode",
            "verifizierungscode", "sicherheitscode", "zahlencode", "türcode", "tuercode",
            "freischaltcode", "aktivierungscode", "anmeldecode", "kombination",
            "zahlenkombination", "combination", "2fa", "mfa",
        ],
        CODE,
    ),
    **dict.fromkeys(
        [
            "key", "schlüssel", "schluessel", "psk", "secret", "secrets", "geheimnis",
            "token", "apikey", "api-key", "accesskey", "secretkey", "masterkey",
            "netzwerkschlüssel", "wlan-schlüssel", "seed", "seeds", "zugang", "access",
        ],
        KEY,
    ),
}
STEMS: Final = (("passwort", PW), ("kennwort", PW), ("schlüssel", KEY), ("token", KEY))
"""German compounds ending in these are credential words (`Gastpasswort`, `Refresh-Token`)."""
CODE_STEM: Final = "code"
NOT_SECRET: Final = frozenset(
    [
        "quellcode", "sourcecode", "barcode", "postcode", "zipcode", "unicode", "opcode",
        "bytecode", "shortcode", "qrcode", "qr-code", "gutscheincode", "rabattcode",
        "promocode", "fehlercode", "errorcode", "statuscode", "exitcode", "ländercode",
        "countrycode", "buchungscode", "vorwahlcode", "farbcode", "colorcode", "hexcode",
        "iata-code", "programmcode", "maschinencode", "pseudocode", "produktcode",
        "artikelcode", "hausschlüssel", "autoschlüssel", "ersatzschlüssel",
        "zweitschlüssel", "fahrradschlüssel", "briefkastenschlüssel", "schlüsseldienst",
    ]
)
NEIGHBOUR_GUARD: Final = frozenset(
    [
        "source", "qr", "status", "error", "exit", "country", "area", "promo", "discount",
        "coupon", "voucher", "booking", "postal", "zip", "airport", "product", "color",
        "colour", "hex", "python", "java", "review", "reviews", "freeze", "owner", "owners",
        "base", "style", "quality", "coverage", "smell", "block", "snippet", "of-conduct",
        "quell",
    ]
)
"""A `code`/`key` next to one of these is about content (`code review`, `QR code`, `key
owner`), not a secret."""
NOT_CREDENTIAL_PREFIX: Final = frozenset(
    [
        "idempotency", "idempotenz", "public", "öffentlich", "öffentlicher", "öffentliche",
        "öffentlichen", "host", "page", "next_page", "nextpage", "pagination",
        "continuation", "primary", "foreign", "partition", "sort", "range", "cache",
        "object", "s3", "kms", "gpg-key", "ssh-host", "license-id", "key-id", "keyid",
        "bucket", "schema", "lookup", "shard", "dedup", "row", "column", "index",
        "öffentliches", "routing", "hot", "license", "lizenz", "ssh", "gpg", "pgp",
        "composite", "unique",
    ]
)
"""A `key`/`token`/`Schlüssel` with one of these before it (in the compound or as the word
before) names an identifier, not a secret: idempotency and page tokens, public and host keys,
database keys. Read by the context tier and by `checks.generic_value` (a bare "key")."""
AFTER_GUARD: Final = frozenset(
    [
        "fingerprint", "fingerabdruck", "id", "ids", "hash", "prüfsumme", "checksum",
        "länge", "length", "format", "rotation", "policy", "richtlinie", "manager",
        "wechsel", "reset", "zurückgesetzt", "limit", "limits", "budget", "count", "usage",
        "expiry", "expires", "lifetime", "ttl", "laufzeit", "gültigkeit",
    ]
)
"""A credential word followed by one of these is about the credential, not its value."""
GENERIC_HEADERS: Final = frozenset({
    "key", "schlüssel", "name", "feld", "field", "wert", "value", "login", "zugang", "access",
    "credentials",
})  # fmt: skip
"""A column or attribute named only `Key` or `Login` holds names, not secrets."""
TOOLS: Final = frozenset(
    [
        "1password", "bitwarden", "keepass", "keepassxc", "lastpass", "vault", "hashicorp",
        "dashlane", "passbolt", "keychain", "schlüsselbund", "tresor", "safe",
    ]
)
"""Where a credential is kept is not the credential (`the new one is in 1Password`)."""
NOT_VALUE: Final = re.compile(
    r"hash|bcrypt|argon2|scrypt|pbkdf2|sha-?256|md5|^(your|my|dein|ihr|example)[-_]|[-_]here$"
    r"|placeholder|example|dummy|redacted|changeit_later|stellig|digits?$|zeichen$",
    re.IGNORECASE,
)
NEEDLES: Final = (
    "pass", "kennwort", "pw", "pin", "puk", "tan", "otp", "code", "kombination",
    "combination", "2fa", "mfa", "key", "schlüssel", "schluessel", "psk", "secret",
    "geheim", "token", "losung", "phrase", "zugang", "credential", "login", "anmelde",
    "seed", "access",
)  # fmt: skip
COPULA: Final = frozenset(
    [
        "ist", "is", "lautet", "lauten", "lautete", "war", "was", "sind", "are", "heißt",
        "heisst", "=", ":", "-", "–", "->", "→", "lautet:", "sei", "bleibt", "remains", "stays",
    ]
)
ARTICLE: Final = frozenset(
    [
        "der", "die", "das", "den", "dem", "dein", "deine", "deinen", "ihr", "ihre",
        "ihren", "ihr", "your", "the", "my", "mein", "meine", "meinen", "our", "unser",
        "unsere", "a", "an", "ein", "eine", "einen", "neue", "neuer", "neues", "new",
    ]
)
PREPOSITION: Final = frozenset(
    [
        "für", "fuer", "for", "of", "von", "vom", "zum", "zur", "des", "im", "in", "am",
        "an", "at", "on", "auf", "to", "from", "bei", "beim", "with", "mit", "als", "as",
        "wie", "like", "via", "per", "über", "unter", "under", "into", "ins",
    ]
)
FUNCTION: Final = frozenset(
    [
        "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer",
        "und", "oder", "aber", "nicht", "kein", "keine", "ist", "sind", "war", "wird",
        "werden", "wurde", "hat", "haben", "habe", "ich", "du", "er", "sie", "es", "wir",
        "ihr", "mir", "dir", "uns", "euch", "the", "a", "an", "and", "or", "but", "not",
        "no", "is", "are", "was", "were", "be", "been", "has", "have", "had", "will",
        "would", "can", "could", "should", "this", "that", "these", "those", "it", "its",
        "you", "your", "we", "our", "they", "their", "he", "she", "his", "her", "to", "of",
        "in", "on", "at", "for", "from", "with", "by", "as", "if", "then", "than", "so",
        "also", "noch", "schon", "auch", "nur", "mal", "bitte", "please", "hier", "here",
        "there", "dort", "da", "wie", "was", "wer", "wo", "wann", "why", "how", "what",
        "when", "where", "which", "who", "neu", "new", "alt", "old", "gleich", "same",
    ]
)
UNITS: Final = frozenset(
    [
        "minuten", "minute", "min", "minutes", "sekunden", "seconds", "sec", "stellen",
        "stellig", "digits", "digit", "zeichen", "characters", "chars", "tage", "days",
        "day", "tagen", "stunden", "hours", "hour", "uhr", "mal", "times", "versuche",
        "attempts", "monate", "months", "wochen", "weeks", "jahre", "years", "gb", "mb",
        "kb", "%", "prozent",
    ]
)
NAME_LABELS: Final = frozenset(
    [
        "account", "konto", "user", "username", "benutzer", "benutzername", "nutzer",
        "login", "host", "hostname", "server", "rechner", "gerät", "device", "ssid",
        "netzwerk", "network", "mailbox", "postfach", "email", "e-mail", "mail",
        "fingerprint", "fingerabdruck", "key-id", "keyid", "imei", "iban", "bic", "tel",
        "telefon", "phone", "handy", "mobil", "mobile", "fax", "whatsapp", "signal",
    ]
)


# fmt: on


def lexicon_class(low: str) -> tuple[str, str] | None:
    """The credential class of a lowered word, and its lexicon form (None: no credential)."""
    low = low.strip(OPENERS + CLOSERS + "!?*#")
    if not low or low in NOT_SECRET:
        return None
    found = LEXICON.get(low)
    if found:
        return found, low
    for part in reversed(re.split(r"[-_./]", low)):
        if part:
            if part in LEXICON and len(part) >= 2:
                return LEXICON[part], part
            break
    for stem, cls in STEMS:
        if low.endswith(stem) and len(low) > len(stem) + 2:
            if low[: -len(stem)].rstrip("-_") in NOT_CREDENTIAL_PREFIX:
                return None  # `publictoken`, `bucketkey`: the compound names no secret
            return cls, stem
    if low.endswith(CODE_STEM) and len(low) > 6 and low.isalpha():
        return CODE, "code-compound"
    return None


_CAMEL_LAST: Final = re.compile(r"(?P<head>[A-Za-z]*?[a-z0-9])(?P<last>[A-Z][a-z]+|[A-Z]{2,})$")
_CAMEL_PART: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def word_class(word: str) -> tuple[str, str] | None:
    """`lexicon_class` of a token as written: also a camel-case compound whose last part is a
    credential word (`chipTAN`, `photoTAN`, `dbPassword`, `authToken`)."""
    found = lexicon_class(word.lower())
    camel = None if found else _CAMEL_LAST.search(word.strip(OPENERS + CLOSERS + "!?*#"))
    if camel is not None:
        last = camel.group("last").lower()
        head = [p.lower() for p in _CAMEL_PART.findall(camel.group("head"))]
        prefixed = any(p in NOT_CREDENTIAL_PREFIX for p in head)  # `PublicKey`, `cacheKey`
        if last in LEXICON and last not in NOT_SECRET and not prefixed:
            return LEXICON[last], last
    return found


def guarded_key(word: str) -> bool:
    """The key of a `key=value` names an identifier (`next_page_token`, `Idempotency-Key`)."""
    parts = re.split(r"[-_.]", word.strip(OPENERS + CLOSERS))
    return any(p in NOT_CREDENTIAL_PREFIX for p in parts[:-1]) or (
        "_".join(parts[:-1]) in NOT_CREDENTIAL_PREFIX
    )


def guarded(word: str, before: str, after: str, lexword: str) -> bool:
    """The credential word (lowered, with the lowered words around it) names no secret here
    (`code review`, `public key`, `Idempotency-Key`, `password policy`)."""
    word, before, after = (w.strip(OPENERS + CLOSERS) for w in (word, before, after))
    if after in AFTER_GUARD or before in NOT_CREDENTIAL_PREFIX or guarded_key(word):
        return True
    if lexword not in ("code", "codes", "key", "schlüssel", "code-compound"):
        return False
    return before in NEIGHBOUR_GUARD or after in NEIGHBOUR_GUARD
