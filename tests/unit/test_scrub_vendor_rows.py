"""Session 12's vendor formats and SQL role syntax: each found in a sentence nobody tuned on,
and the look-alikes beside them kept (public keys, ids, default communities, hash verifiers).
The values are built here from random bodies, so no token literal sits in the source."""

from __future__ import annotations

import base64
import hashlib
import json
import random

import pytest

from shared.scrubbing import scrub
from shared.scrubbing.vendor_checks import b58check_payload

_RNG = random.Random(1205)
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_HEX = "0123456789abcdef"
_B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _r(chars: str, n: int) -> str:
    return "".join(_RNG.choice(chars) for _ in range(n))


def _b58encode(raw: bytes) -> str:
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, k = divmod(n, 58)
        out = _B58[k] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _wif() -> str:
    body = b"\x80" + _RNG.randbytes(32) + b"\x01"
    return _b58encode(body + hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4])


def _tunnel() -> str:
    data = {"a": _r(_HEX, 32), "t": f"{_r(_HEX, 8)}-{_r(_HEX, 4)}", "s": _r(_B64URL, 44)}
    return base64.b64encode(json.dumps(data).encode()).decode()


SECRETS = [
    ("Braintree prod: access_token$production${}${} (gateway)", (_r("abc123", 16), _r(_HEX, 32))),
    ("The pipeline calls the API with bkua_{} every night.", (_r(_HEX, 40),)),
    ("Auf dem Pi: cloudflared service install {}", (_tunnel(),)),
    ("npub is public, the other one: nsec1{}", (_r(_BECH, 58),)),
    ("Sweep this into the new wallet: {}", (_wif(),)),
    ("Paper wallet (WIF): K{}", (_r(_B58, 51),)),
    ("Trigger: https://fn-x.azurewebsites.net/api/run?code={}==", (_r(_B64URL, 54),)),
    ("Auf dem Core-Switch: snmp-server community {} RW", ("Ops" + _r(_HEX, 6),)),
    ("snmpwalk -v2c -c {} 10.1.0.1 system", ("mon" + _r(_HEX, 6),)),
    ("psql> CREATE ROLE etl LOGIN PASSWORD '{}';", ("".join(_r("abcdefXYZQW", 14)),)),
]


@pytest.mark.parametrize(("template", "parts"), SECRETS)
def test_a_vendor_format_or_role_password_is_removed(template: str, parts: tuple[str, ...]) -> None:
    text = template.format(*parts)
    out = scrub(text).text
    assert "[ENTFERNT:" in out
    assert all(p[:8] not in out for p in parts if len(p) >= 8)


KEPT = [
    f"Follow me on Nostr: npub1{_r(_BECH, 58)}",
    f"Transaction {_r(_HEX, 64)} confirmed, address 1{_r(_B58, 33)}",
    f"Upload id {_r(_B58, 52)} in the log",
    "snmp-server community public RO",
    f"https://fn-x.azurewebsites.net/api/status?page=2&id={_r(_HEX, 12)}",
]


@pytest.mark.parametrize("text", KEPT)
def test_look_alikes_stay(text: str) -> None:
    assert scrub(text).text == text


def test_a_wif_key_is_verified_by_its_checksum() -> None:
    good = _wif()
    assert b58check_payload(good) is not None
    assert b58check_payload(good[:-1] + ("2" if good[-1] != "2" else "3")) is None
