"""Validators of bare credentials: a random-looking value with no key word right before it.

Invariants: such a value is a secret only by its shape (length, alphabet, entropy), its
guards (a digest, a public key, a URL or path, a crypt hash, an identifier's shape such as
a Twilio-style SID, base64 of a file: `JVBERi0…` is a PDF, a JWT's header alone, a value the
clause names a public key) and a credential word near it
(`credential_context`); without one it is an identifier - content, and it stays (CONTRACT §8).
Pure functions, safe in any thread.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Final

from shared.scrubbing.checks import UUID, decodes_to_prose, is_placeholder, shannon_entropy

_HEXISH = re.compile(r"[0-9a-f]+|[0-9A-F]+")
# Named digests and identifiers in front of a value: `sha256:`, `commit`, `ETag`, `integrity`.
_DIGEST_CONTEXT = re.compile(
    r"(?:sha-?(?:1|224|256|384|512)|md5|hash|checksum|prüfsumme|pruefsumme|digest|commit"
    r"|revision|\brev\b|etag|fingerprint|fingerabdruck|oid|integrity|git|merge|cherry|revert"
    r"|head|build|object|blob|tree|signature of|uuid|guid|request[-_ ]?id|trace|span|address"
    r"|adresse|wallet|tx|transaction|öffentliche|public|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2"
    r"|base64 von|base64 of)[^\n]{0,24}$",
    # matched against lowercased text: case-insensitive alternations are ~4x slower in `re`
)
_PUBLIC_PREFIX = re.compile(
    r"(?:sha(?:1|256|384|512)[-:]|0x|ssh-(?:rsa|ed25519|dss) |ecdsa-sha2-nistp\d+ |base64,|@)$",
    # matched against lowercased text: case-insensitive alternations are ~4x slower in `re`
)
_DIGEST_AFTER = re.compile(  # in the value's clause: `(<hex>); Commit …` names another value
    r"(?:[^\n;).]|\.(?!\s)){0,40}?(?:hash|checksum|prüfsumme|digest|commit|sha-?\d|fingerprint"
    r"|revision)",
    # matched against lowercased text: case-insensitive alternations are ~4x slower in `re`
)
_FILE_AFTER = re.compile(r"\s{1,4}\*?[\w./-]{1,200}\.[A-Za-z0-9]{1,8}\b")  # sha256sum output
_WORD_RUN = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{2,}(?![a-z])")
_VOWELS = frozenset("aeiouyAEIOUY")
_DIGEST_HEX = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_CLAUSE_BREAK = re.compile(r".*(?:#|;|--|//|\n)", re.DOTALL)
_CREDENTIAL_NEAR = re.compile(
    r"key|token|secret|webhook|credential|api|passw|kennwort|zugang|schl(?:ü|ue)ssel|auth",
    re.IGNORECASE,
)
# Two capital letters and 32 hex digits: a Twilio-style SID (account `AC…`, message `SM…`,
# number `PN…`) - an identifier; the vendors' secrets have rows of their own.
_PREFIXED_HEX_ID = re.compile(r"[A-Z]{2}[0-9a-f]{32}")
_DIGEST_LABEL = re.compile(r"(?:sha-?(?:1|224|256|384|512)|md5|blake2[bs]?)[-:]", re.IGNORECASE)


def _named_in_clause(text: str, start: int) -> bool:
    """A credential word in the 60 characters before `start`, within its clause (after the last
    line break, `#`, `--`, `//` or `;`): `token = getpass(…)  # dataset <sha256>` names none."""
    head = text[max(0, start - 60) : start]
    brk = _CLAUSE_BREAK.match(head)
    return bool(_CREDENTIAL_NEAR.search(head, brk.end() if brk else 0))


def _in_url_or_path(text: str, start: int) -> bool:
    """The value is part of a URL or path (`https://docs.google.com/d/<id>/edit`, `/var/x`)."""
    word_start = max(text.rfind(c, 0, start) for c in " \t\n\"'(<[{,;=")
    head = text[word_start + 1 : start]
    return "://" in head or head.startswith(("/", "~/", "./")) or "/d/" in head


def _public_block(text: str, start: int) -> bool:
    """Inside a PEM block that is not a private key (a certificate, a public key)."""
    begin = text.rfind("-----BEGIN ", max(0, start - 8192), start)
    if begin < 0:
        return False
    label_end = text.find("-----", begin + 11)
    return "PRIVATE" not in text[begin:label_end] and "-----END" not in text[begin:start]


# The head of a password hash in crypt format (bcrypt, argon2, sha-crypt, pbkdf2): the value
# after it is a digest of a password, not the password.
_CRYPT_HEAD = re.compile(
    r"\$(?:2[abxy]?\$\d{2}|argon2(?:id|i|d)(?:\$[^\s$]{0,60}){1,4}|[156]\$(?:rounds=\d+\$)?"
    r"[^\s$]{0,16}|pbkdf2[^\s$]{0,20}\$\d+\$[^\s$]{0,40})\$$"
)


_FILE_MAGIC: Final = (
    b"%PDF-", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b", b"RIFF",
    b"OggS", b"ID3", b"<?xml", b"<svg", b"\xd0\xcf\x11\xe0", b"7z\xbc\xaf",
)  # fmt: skip
"""The first bytes of file formats: base64 that starts with one is an attachment (a PDF, an
image, an archive) pasted into the text, not a credential."""


def _encodes_a_file(value: str) -> bool:
    """The base64 value opens with a file format's magic bytes (`JVBERi0…` is `%PDF-…`)."""
    head = value[:12]
    try:
        raw = base64.b64decode(
            head + "=" * (-len(head) % 4), altchars=b"-_" if "-" in head or "_" in head else None
        )
    except (binascii.Error, ValueError):
        return False
    return raw.startswith(_FILE_MAGIC)


# A public key named in the value's clause (`Our server public key for the tunnel is X`):
# the nearest key noun before the value, with no secret word after it.
_PUBLIC_KEY_NAMED = re.compile(
    r"(?:public[ _-]?key|pubkey|öffentliche[nr]?[ -]schlüssel)(?:(?!private|secret|passw|geheim"
    r"|privat)[^\n.;!?]){0,80}$"
    # matched against lowercased text: case-insensitive alternations are ~4x slower in `re`
)
_JOSE_HEADER: Final = frozenset(
    {"alg", "typ", "kid", "cty", "crit", "enc", "zip", "jku", "jwk", "x5u", "x5c", "x5t",
     "x5t#S256", "b64", "ppt", "url", "nonce"}
)  # fmt: skip
"""The parameters of a JOSE header (RFC 7515 §4, 7516 §4): a JWT's first segment names its
algorithm and key, and holds no secret; a token without its payload and signature is public."""


def _jose_header(value: str) -> bool:
    """The value is the base64url of a JOSE header alone (`eyJhbGciOiJIUzI1NiJ9`)."""
    if not value.startswith("eyJ") or len(value) > 400:
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        header = json.loads(raw)
    except (binascii.Error, ValueError):
        return False
    return isinstance(header, dict) and bool(header) and set(header) <= _JOSE_HEADER


def _bare_guarded(value: str, match: re.Match[str]) -> bool:
    """Context that makes a random-looking value public or an identifier, not a secret."""
    text, start, end = match.string, match.start("v"), match.end("v")
    if _encodes_a_file(value) or _jose_header(value):
        return True
    if _PUBLIC_KEY_NAMED.search(text[max(0, start - 120) : start].lower()):
        return True
    before = text[max(0, start - 48) : start].lower()
    if _PUBLIC_PREFIX.search(before) or _DIGEST_CONTEXT.search(before):
        return True
    if _CRYPT_HEAD.search(text, max(0, start - 120), start):
        return True
    if _HEXISH.fullmatch(value) and (
        _FILE_AFTER.match(text, end) or _DIGEST_AFTER.match(text[end : end + 80].lower())
    ):
        return True
    return _in_url_or_path(text, start) or _public_block(text, start)


def _wordy(value: str) -> bool:
    """Identifiers and words glued together (`getUserSettingsFromCache2`), not random: word-like
    runs cover most of it (in a random base62 string they cover about a quarter)."""
    words = (w for w in _WORD_RUN.findall(value) if _pronounceable(w))
    return sum(map(len, words)) >= 0.6 * len(value)


def _pronounceable(run: str) -> bool:
    """Word-like: at least one vowel in four letters ('Settings', 'Cache'); random letter runs
    ('Xfbylciqx') rarely are. All-caps runs are acronyms and count as they are."""
    if run.isupper():
        return True
    return sum(c in _VOWELS for c in run) * 4 >= len(run)


# Words that make the text around a value about a credential (lowercased text). Without one
# of them near it, a random-looking value is an identifier - content, not a secret.
_CREDENTIAL_CONTEXT = re.compile(
    r"passw|kennw|\bpwd?\b|secret|geheim|token|credential|\bcreds?\b|zugang|schl(?:ü|ue)ssel"
    r"|\bkeys?\b|apikey|api-?key|\bauth|login|anmelde|bearer|signing|signier|vault|\b[2m]fa\b"
    r"|totp|\botp\b|passphrase|private|webhook",
)
# The words right before a value that name it an identifier: `Datei-ID`, `upload id`, `trace`.
IDENTIFIER_LABEL = re.compile(
    r"(?:\bids?\b|[a-z][-_]?id\b|nummer|\bnr(?:\.|\b)|\bno(?:\.|\b)|number|hash(?:wert)?|digest"
    r"|commit|link|url|record|datensatz|\bjobs?\b|upload|trace|span|request|anfrage|event|ticket"
    r"|vorgang|dokument|document|datei|\bfiles?\b|folder|ordner|message|nachricht|delivery|\bcid\b"
    r"|sku|artikel|idempotenc|idempotenz|page_?token|pagination|cursor|identifier|\bident\b|filename"
    r"|\border|bestellung|sendung|tracking|serial|serien|uuid|guid|etag|image|container|build"
    r"|release|version|kennung|referenz|reference|\bref\b|address|adresse|wallet|queued as"
    r"|pinned|payload|anhang|attachment|screenshot|avatar|thumbnail|bild|foto|photo)"
    r"\W{0,4}(?:\w+\W{1,4}){0,4}$",
)
# A store named right before a hex value (`Datenbank 2d5a…`, `database id: …`): its id.
_STORE_LABEL = re.compile(
    r"(?<![a-z])(?:datenbank|database|db|tabelle|table|workspace)(?:[-_ ]?ids?)?\W{0,4}$"
)
_HEX_OR_UUID = re.compile(r"[0-9a-f]{32}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
_CONTEXT_BEFORE: Final = 80
_CONTEXT_AFTER: Final = 40


def _unlabelled(match: re.Match[str]) -> bool:
    """No identifier label (`IDENTIFIER_LABEL`) in the few words before the value."""
    text, start = match.string, match.start("v")
    line_start = text.rfind("\n", 0, start) + 1
    return not IDENTIFIER_LABEL.search(text[max(line_start, start - 48) : start].lower())


def credential_context(text: str, start: int, end: int) -> bool:
    """The words around text[start:end] speak of a credential and do not name it an identifier:
    a credential word in the line before it (up to 80 characters, reaching into the previous
    line) or in the 40 characters after it on its line; the identifier test looks at the few
    words right before the value."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(0, start - _CONTEXT_BEFORE) : start].lower()
    label = text[max(line_start, start - 48) : start].lower()
    if IDENTIFIER_LABEL.search(label):
        return False
    if _STORE_LABEL.search(label) and _HEX_OR_UUID.fullmatch(text[start:end]):
        return False  # `Datenbank 2d5ac2…`, `database id …`: a hex id names a store
    line_end = text.find("\n", end)
    after = text[end : min(end + _CONTEXT_AFTER, len(text) if line_end < 0 else line_end)]
    return bool(_CREDENTIAL_CONTEXT.search(before) or _CREDENTIAL_CONTEXT.search(after.lower()))


# A vendor's token as most APIs issue them now: a short prefix naming the vendor and the kind
# (`pplx-`, `figd_`, `lin_api_`, `sk-or-v1-`, `PMAK-`), then a long random body.
_PREFIXED = re.compile(
    r"(?P<p>[a-z](?=[0-9]?[a-z])[a-z0-9]{1,7}|[A-Z]{3,8})(?:[_-][a-z0-9]{1,8}|[_-][A-Z0-9]{1,8}){0,2}[_-]"
    r"(?P<b>[A-Za-z0-9][A-Za-z0-9_-]{31,400})"
)
# Prefixes of identifiers, digests and object ids: their random body is an id, not a secret.
_ID_PREFIXES: Final = frozenset(
    {"id", "ids", "uid", "uuid", "guid", "sha", "md", "git", "commit", "build", "run", "job",
     "req", "request", "trace", "span", "evt", "event", "file", "img", "image", "msg", "tx",
     "txn", "order", "ord", "cus", "cust", "user", "usr", "acct", "obj", "doc", "node", "pod",
     "vm", "sg", "subnet", "vpc", "ami", "vol", "snap", "arn", "ref", "rev", "ver", "blob",
     "tree", "hash", "sum", "crc", "etag", "test", "demo", "sample", "example", "dummy", "fake",
     "mock", "pi", "ch", "in", "price", "prod", "sub", "inv", "pm", "seti", "src", "cs", "py",
     "tok", "ws", "conv", "thread", "chat", "call", "room", "sess", "trc", "log", "task",
     "step", "flow", "item", "list", "page", "post", "cmt", "pr", "issue", "ticket", "case"}
)  # fmt: skip


def _vendor_prefixed(core: str) -> bool:
    """A short prefix and a long random body (base62 with digits, not hex, not words glued
    together), the prefix not one of an identifier's."""
    found = _PREFIXED.fullmatch(core)
    if found is None or found.group("p").lower() in _ID_PREFIXES:
        return False
    body = found.group("b").replace("-", "").replace("_", "")
    if len(body) < 32:
        return False
    digits = any(map(str.isdigit, body))
    if _HEXISH.fullmatch(body):  # hex after a prefix is a digest or an id as often as a key
        return False  # (`linux-node-<sha256>`: a cache key, `lg-<md5>`: a log group)
    upper, lower = any(map(str.isupper, body)), any(map(str.islower, body))
    if not digits or not (upper or lower) or shannon_entropy(body) < 4.0:
        return False
    return not _wordy(body)


def bare_credential(value: str, match: re.Match[str]) -> bool:
    """A bare base64/base64url/base62/hex token of 32+ characters that looks random, in a
    credential context (`credential_context`): without one it is an identifier (a digest, a
    dash-less UUID, a `token_urlsafe` id, a piece of a base64 image) and stays.

    All conditions must hold; the cheap ones (length, shape, entropy) are tried first, the
    regex-heavy ones (placeholder, guards) last: most candidates fail early."""
    core = value.rstrip("=")
    if len(core) < 32 or UUID.search(core):
        return False
    if _PREFIXED_HEX_ID.fullmatch(core):
        return False
    if _DIGEST_LABEL.match(core):
        return False  # `sha512-…`: subresource integrity, a digest
    if _vendor_prefixed(core):  # a vendor's token is one wherever it stands
        return not is_placeholder(core) and not _bare_guarded(value, match) and _unlabelled(match)
    if _DIGEST_HEX.fullmatch(core) and not _named_in_clause(match.string, match.start()):
        return False  # SHA-1/SHA-256 shaped: a commit or digest unless its clause names a key
    if _HEXISH.fullmatch(core):
        has_letter = any(map(str.isalpha, core))
        if not (has_letter and any(map(str.isdigit, core))) or shannon_entropy(core) < 3.0:
            return False
    else:
        upper = any(map(str.isupper, core))
        lower = any(map(str.islower, core))
        digit = any(map(str.isdigit, core))
        if not (upper and lower and digit) or shannon_entropy(core) < 4.0 or _wordy(core):
            return False
        if decodes_to_prose(value):
            return False
    if is_placeholder(core) or _bare_guarded(value, match):
        return False
    return credential_context(match.string, match.start("v"), match.end("v"))


def bare_aws_secret(value: str, match: re.Match[str]) -> bool:
    """A bare 40-character AWS secret access key: base64 alphabet, random, not hex."""
    return not _HEXISH.fullmatch(value) and bare_credential(value, match)
