"""Secrets in records a tool prints or a dump holds, where the field, not a word, names them.

Each shape here is a place where a credential stands by the syntax of its format:
- SQL: `CREATE USER … IDENTIFIED BY '…'` and a settings row `('smtp_password', '…')`;
- a PEM private key carried as base64 (`client-key-data: LS0tLS1CRUdJTi…`, a Kubernetes
  `tls.key:`), known by what it decodes to, not by its key; a PEM block itself only with a
  key's body (an empty block or `anything` between the armor lines is a placeholder);
- OpenVPN's static key block (`-----BEGIN OpenVPN Static key V1-----`, hex lines);
- a card's verification number (`CVC 123`, `Prüfnummer 903`) right after a card;
- the line a decoding command prints (`… jsonpath="{.data.password}" | base64 -d`);
- `user:token` of an API call, the token random hex (`curl -u ops:11c19…`).
Validators are pure functions of the match; they refuse placeholders and digests.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from shared.scrubbing.checks import is_placeholder, password_value, shannon_entropy

SQL_IDENTIFIED: Final = (
    r"(?:\bIDENTIFIED\s{1,8}(?:WITH\s{1,8}\w{1,40}\s{1,8})?BY\s{1,8}(?:PASSWORD\s{1,8})?"
    r"|\b(?:CREATE|ALTER)\s{1,8}(?:ROLE|USER|LOGIN)\s[^;'\"\n]{0,120}?\bPASSWORD\s{0,8}=?\s{0,8})"
    r"(?P<q>['\"])(?P<v>[^'\"\n]{1,200})(?P=q)"
)
SQL_SETTING: Final = (
    r"\(\s{0,4}(?P<q>['\"])(?P<key>[\w.-]{0,60}(?:passw|secret|token|api_?key|kennwort)"
    r"[\w.-]{0,40})(?P=q)\s{0,4},\s{0,4}(?P<r>['\"])(?P<v>[^'\"\n]{1,200})(?P=r)"
)
PEM_BASE64: Final = r"(?<![A-Za-z0-9+/])(?P<v>LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,8192}={0,2})"
OPENVPN_STATIC: Final = (
    r"-----BEGIN OpenVPN Static key V1-----\s{1,8}"
    r"(?P<v>[0-9a-fA-F]{16,64}(?:\s{1,8}[0-9a-fA-F]{16,64}){1,64})"
)
CARD_CHECK: Final = (
    r"\b(?:CVC2?|CVV2?|CID|Prüfnummer|Kartenprüfnummer|Prüfziffer|Kartenprüfziffer|Sicherheitscode"
    r"|security code|verification code|card code)"
    r"\s{0,4}[:=]?\s{0,4}(?P<v>\d{3,4})(?!\d)"
)
DECODED_LINE: Final = (
    r"\|\s{0,4}base64\s{1,4}(?:-d|--decode|-D)\b[^\n]{0,40}\r?\n"
    r"(?P<v>[^\s$#>][^\s]{5,199})(?=\s{0,4}(?:\n|$))"
)
LOGIN_HEX: Final = (
    r"(?<![\w.@/:-])(?P<key>[a-z][a-z0-9._-]{1,30}):(?P<v>[0-9a-f]{32,64})(?![\w:/@.-])"
)

_CARD_BEFORE: Final = re.compile(
    r"karte|card|visa|master|amex|gültig bis|valid (?:thru|until)|exp(?:iry|ires)?\b|\d{4} \d{4}",
    re.IGNORECASE,
)
_CALL_BEFORE: Final = re.compile(r"([A-Za-z_][\w.]*)\($")
_CREDENTIAL_CMD: Final = re.compile(r"passw|secret|token|key|credential", re.IGNORECASE)
_DIGEST_KEY: Final = re.compile(
    r"sha\d*|md5|blake\w*|commit|git|rev|hash|digest|etag|oid|uuid|id|object|tree|blob|build"
)


def sql_password(value: str, match: re.Match[str]) -> bool:
    """`IDENTIFIED BY '…'` / a settings row's value: a password unless a placeholder. A tuple
    glued to a name is a call's arguments (`lookup('…onepassword', 'SMTP')`: a reference to
    where the secret is kept), unless the name is SQL's `VALUES`/`IN`."""
    call = _CALL_BEFORE.search(match.string, max(0, match.start() - 40), match.start() + 1)
    if match.group(0).startswith("(") and call and call.group(1).lower() not in ("values", "in"):
        return False
    return password_value(value, match)


def pem_base64(value: str, _match: re.Match[str]) -> bool:
    """Base64 that decodes to a PEM private key (a certificate or public key stays)."""
    head = value[: (min(len(value), 120) // 4) * 4]
    try:
        decoded = base64.b64decode(head, validate=True).decode("ascii", "replace")
    except (binascii.Error, ValueError):
        return False
    return "PRIVATE KEY" in decoded or "OpenVPN Static key" in decoded


_PEM_BODY = re.compile(r"[A-Za-z0-9+/=]{40}")


def pem_block(value: str, _match: re.Match[str]) -> bool:
    """A PEM private key block with a body: 40 base64 characters in a row between its armor
    lines (`-----BEGIN PRIVATE KEY-----⏎anything⏎-----END…` is a documentation stub)."""
    inner = value[value.find("-----", 5) + 5 : value.rfind("-----END")]
    return bool(_PEM_BODY.search(inner.replace("\\n", "").replace("\n", "")))


def openvpn_static(value: str, _match: re.Match[str]) -> bool:
    """The hex lines of a static key block (not a run of one repeated character)."""
    return len(set(value.replace("\n", "").replace(" ", ""))) > 8


def card_check(value: str, match: re.Match[str]) -> bool:
    """A verification number counts only right after a card (number, brand, expiry)."""
    before = match.string[max(0, match.start() - 120) : match.start()]
    return bool(_CARD_BEFORE.search(before))


def decoded_line(value: str, match: re.Match[str]) -> bool:
    """The output line of a decoding command that reads a secret field."""
    text, start = match.string, match.start()
    command = text[max(text.rfind("\n", 0, start) + 1, start - 300) : start]
    return bool(_CREDENTIAL_CMD.search(command)) and not is_placeholder(value)


def login_hex(value: str, match: re.Match[str]) -> bool:
    """`login:token` with a random hex token, not `sha256:<digest>` or `commit:<sha>`."""
    if _DIGEST_KEY.fullmatch(match.group("key").lower()) or len(value) in (40, 64):
        return False
    has_both = any(map(str.isdigit, value)) and any(map(str.isalpha, value))
    return has_both and shannon_entropy(value) >= 3.0
