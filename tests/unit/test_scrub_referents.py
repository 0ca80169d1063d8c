"""A password given in a later sentence by a word that refers back to it or as the answer to a
question that asks for it, and three layouts
of round 10 (texts written fresh for these tests, not from any corpus): a list of recovery codes
ending in a conjunction, a type after a field's colon, base64 of a file.
"""

from __future__ import annotations

import base64

import pytest

from tests.unit.scrub_cases import assert_kept, assert_removed

SECRETS = [
    ("Das Kennwort fürs NAS wurde getauscht. Die neue lautet {}, gilt ab sofort.", "Tx4!mQ9zLw"),
    ("The VPN password changed again; the one IT sent this morning is {}.", "Rq7-bNv2Xk8"),
    ("Passwort vom Router: im Safe, aktueller Wert {}", "Haus#Garten71"),
    ("Login for the kiosk was reset. That's {} until Friday.", "kP3zV9wQx2"),
    ("Zugangsdaten vom Drucker: wir fanden es, es lautet jetzt {}.", "Mond+Stern84"),
    ("Hast du das WLAN-Kennwort vom Lager?\n\nJa: {}\nGruß", "Ast7#Kiefer"),
    ("»Welche PIN hat die Tankkarte?« – »{}, wie immer«", "70431"),
    ("Backup-Codes des Kontos: 7fq2k-9xm1p, 3hz8w-1tb6c und 0pl4v-6rn2s.", "0pl4v-6rn2s"),
]
CONTENT = [
    "The password policy was tightened; the one rule that matters is PLAT-4821.",
    "Passwort-Reset erledigt. Der Server ist db07.intern, das Ticket SUP-4471.",
    "The password is in the vault; it is 2026-04-01 when it expires.",
    "Kennwort geändert. Es ist jetzt erledigt.",
    "Wie lautet das Passwort? – Steht im Tresor, frag Lea.",
    "Was ist die Ticketnummer für den Passwort-Reset?\nSUP-4471\n",
    "class SignupIn(BaseModel):\n    email: str\n    password: SecretStr\n",
    'Anhang im Webhook: "file": "'
    + base64.b64encode(b"%PDF-1.7\n" + bytes(range(40, 120))).decode()
    + '" (Rechnung, zwei Seiten)',
]


@pytest.mark.parametrize(("layout", "value"), SECRETS)
def test_the_value_is_removed(layout: str, value: str) -> None:
    assert_removed(layout, value)


@pytest.mark.parametrize("text", CONTENT)
def test_content_stays(text: str) -> None:
    assert_kept(text)
