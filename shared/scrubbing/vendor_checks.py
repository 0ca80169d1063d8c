"""Structure checks of vendor token formats: checksums and decodable bodies (no network).

Each check is a validator `(value, match) -> bool` of a row in `vendor_rows`. A format whose
structure can be verified cheaply is verified: base58check (Bitcoin WIF keys, BIP-32 extended
private keys), the JSON inside a Cloudflare tunnel token. A verified value is a secret
wherever it stands; a value of the same shape that fails its checksum (typed by hand, or
made up for a test) counts only with a word of its own kind right before it on its line
(`wallet`, `WIF`, `private key`): the shape alone then says "an id", not "a key".
Placeholders (`checks.token_body`) are never secrets.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from typing import Final

from shared.scrubbing.checks import token_body

__all__ = [
    "B58_ALPHABET", "b58check_payload", "cloudflare_tunnel", "extended_private_key",
    "snmp_community", "wif_key",
]  # fmt: skip

B58_ALPHABET: Final = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX: Final = {ch: k for k, ch in enumerate(B58_ALPHABET)}
_WIF_VERSIONS: Final = (0x80, 0xEF)  # mainnet, testnet private keys
_WALLET_WORD = re.compile(
    r"(?i:\bwif\b|wallet|private[ _-]?key|priv(?:at)?key|privat|bitcoin|btc|litecoin|"
    r"schlüssel|seed|sweep|import|paper|electrum)"
)
_LINE_BEFORE: Final = 80


def b58check_payload(value: str) -> bytes | None:
    """The payload of a base58check string (version byte first), or None if the checksum (the
    first 4 bytes of a double SHA-256) does not hold."""
    n = 0
    for ch in value:
        k = _B58_INDEX.get(ch)
        if k is None:
            return None
        n = n * 58 + k
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    body, check = raw[:-4], raw[-4:]
    if hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] != check:
        return None
    return body


def _named_on_its_line(match: re.Match[str]) -> bool:
    text, start = match.string, match.start()
    line_start = text.rfind("\n", 0, start) + 1
    return bool(_WALLET_WORD.search(text, max(line_start, start - _LINE_BEFORE), start))


def wif_key(value: str, match: re.Match[str]) -> bool:
    """A Bitcoin-style WIF private key: base58check with a private key's version byte and 32
    bytes of key (+ 0x01 when compressed); unverified, only after a wallet word on its line."""
    if not token_body(value, match):
        return False
    body = b58check_payload(value)
    if body is not None:
        return body[0] in _WIF_VERSIONS and len(body) in (33, 34)
    return _named_on_its_line(match) and len(set(value)) > 20


def extended_private_key(value: str, match: re.Match[str]) -> bool:
    """A BIP-32 extended private key (`xprv…`, `tprv…`): 78 bytes under base58check; an
    unverified one only after a wallet word on its line."""
    if not token_body(value, match):
        return False
    body = b58check_payload(value)
    if body is not None:
        return len(body) == 78
    return _named_on_its_line(match)


def cloudflare_tunnel(value: str, match: re.Match[str]) -> bool:
    """A Cloudflare tunnel token: base64 of a JSON object holding the account tag `a`, the
    tunnel id `t` and the tunnel secret `s`."""
    try:
        decoded = json.loads(base64.b64decode(value + "=" * (-len(value) % 4), validate=True))
    except (binascii.Error, ValueError):  # not base64, not UTF-8, not JSON
        return False
    if not isinstance(decoded, dict) or not {"a", "t", "s"} <= decoded.keys():
        return False
    secret = decoded["s"]
    return isinstance(secret, str) and token_body(secret, match) and len(secret) >= 16


_DEFAULT_COMMUNITIES: Final = frozenset({"public", "private"})


def snmp_community(value: str, match: re.Match[str]) -> bool:
    """An SNMP community string in a device's configuration or a tool's `-c`: a password
    unless it is a placeholder or one of the well-known defaults (`public`/`private`, which
    every device ships with and every scanner tries: no secret, and a reminder to change)."""
    v = value.strip("\"'")
    if len(v) < 4 or v.lower() in _DEFAULT_COMMUNITIES or v.lower() in ("ro", "rw"):
        return False
    return token_body(v, match)
