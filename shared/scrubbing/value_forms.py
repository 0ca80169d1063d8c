"""Forms a value can have that make it no secret, whatever credential word stands before it:
public key formats published as such, and a field's own name standing in as its value.
Pure functions of the value (and, for `names_its_field`, of its key).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["FIELD_WORDS", "names_its_field", "public_form"]

_PUBLIC_FORM = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)"
    r"(?:-cert-v01)?@openssh\.com|ssh-(?:rsa|ed25519)-cert-v01@openssh\.com)[,;.]?"
    r"|AAAA(?:B3NzaC1yc2E|B3NzaC1kc3M|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTIt|GnNrLXNzaC1|CHNrLWVjZHNh)"
    r"[A-Za-z0-9+/]*={0,2}[,;.]?|age1[02-9ac-hj-np-z]{58}|npub1[02-9ac-hj-np-z]{58}",
)


def public_form(value: str) -> bool:
    """A value in a published format that is public by design: an OpenSSH public key (its
    algorithm name `ssh-ed25519` or its base64 body `AAAAC3NzaC1lZDI1NTE5…`), an age recipient
    or a Nostr public key. A credential word before it (`Deploy key: ssh-ed25519 AAAA…`)
    names a public key, not a secret."""
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
