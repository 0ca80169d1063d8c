"""Forms a value can have that make it no secret, whatever credential word stands before it:
public key formats published as such (and the publishable keys of Stripe and Mapbox), a
field's own name standing in as its value, and filler (a long run of one character or a
stretch of the alphabet: `glc_1111…`, `AIzaSyabcdefghij…`).
Pure functions of the value (and, for `names_its_field`, of its key).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["FIELD_WORDS", "filler", "filler_run", "names_its_field", "public_form"]

_PUBLIC_FORM = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)"
    r"(?:-cert-v01)?@openssh\.com|ssh-(?:rsa|ed25519)-cert-v01@openssh\.com)[,;.]?"
    r"|AAAA(?:B3NzaC1yc2E|B3NzaC1kc3M|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTIt|GnNrLXNzaC1|CHNrLWVjZHNh)"
    r"[A-Za-z0-9+/]*={0,2}[,;.]?|age1[02-9ac-hj-np-z]{58}|npub1[02-9ac-hj-np-z]{58}"
    r"|pk_(?:live|test)_[A-Za-z0-9]{20,247}|pk\.eyJ[A-Za-z0-9_.\-]{20,400}",
)


def public_form(value: str) -> bool:
    """A value in a published format that is public by design: an OpenSSH public key (its
    algorithm name `ssh-ed25519` or its base64 body `AAAAC3NzaC1lZDI1NTE5…`), an age recipient,
    a Nostr public key, a Stripe publishable key (`pk_live_…`) or a Mapbox public token
    (`pk.eyJ…`): made to be shipped to browsers. A credential word before it (`Deploy key:
    ssh-ed25519 AAAA…`) names a public key, not a secret."""
    return bool(_PUBLIC_FORM.fullmatch(value.strip()))


FIELD_WORDS: Final = frozenset(
    {"password", "passwort", "passwd", "pass", "pwd", "pw", "kennwort", "secret", "token"}
)
"""Names of a credential field. As the value of that field they name it, they fill no
template: `postgres://user:password@localhost`, `PGPASSWORD=password`, `--password PASSWORD`."""


def names_its_field(value: str, key: str) -> bool:
    """The value is the name of its own field: a field word in a URL's user info (`key` is
    ''), in capitals, or the word its key ends with (`POSTGRES_PASSWORD=password`)."""
    low = value.lower()
    if low not in FIELD_WORDS:
        return False
    return not key or value.isupper() or key.lower().rstrip("\"' :=").endswith(low)


_SAME_RUN = re.compile(r"(.)\1{15}")
_ORDER: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_ASCENDING: Final = 14
"""An ascending stretch this long (`abcdefghijklmn`, `0123456789abcd`) is typed, not drawn:
a random value of base62 has one with odds of about 62**-13 per position."""
_STRETCH = re.compile(
    "|".join(_ORDER[i : i + _ASCENDING] for i in range(len(_ORDER) - _ASCENDING + 1))
)


def filler_run(value: str) -> bool:
    """16 or more of one character making up 30 % of the value or more (`glc_1111…=`,
    `0000…TUVWXYZ`, `xoxp-…-####…`): filler in every row's value, a provider's prefix before it
    or not. A shorter share is a format's padding (a Twitter bearer token opens with 21 `A`)."""
    found = _SAME_RUN.search(value) if len(value) >= 16 else None
    if found is None:
        return False
    char = found.group(1)
    end = found.end()
    while end < len(value) and value[end] == char:
        end += 1
    return (end - found.start()) * 10 >= len(value) * 3


def filler(value: str) -> bool:
    """The value holds filler a person typed into a documentation or test value: a long run of
    one character (`filler_run`) or an ascending stretch of the
    alphabet (`ABCDEFGHIJKLMNOP…`, `AIzaSyabcdefghijklmnopqrstuvwxyz1234567`). No generated
    credential has either; a password typed by a person may (`123456789a`), so the stretch is
    long (`_ASCENDING`) and digits alone never reach it. For values after a secret word
    (`checks.generic_value`); a provider-prefixed token with an alphabet stretch (gitleaks'
    own `sk-ant-api03-abc123xyz-…klmnopqrstuvwx…`) is still removed: the prefix outweighs."""
    if len(value) < 16:
        return False
    return filler_run(value) or bool(_STRETCH.search(value.lower()))
