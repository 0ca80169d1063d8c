"""Does a memory text record a financial transaction? Then the answer points to `ledger`.

Seed 004: "Verwenden Sie den generischen Speicher nicht für finanzielle Aufzeichnungen;
nutzen Sie ledger für Transaktionen und Zahlungserinnerungen." A text counts as a
transaction only if it has both an amount with a currency (`49,90 €`, `EUR 1.200`,
`$15`, `300 CHF`) and a payment verb (bezahlt, überwiesen, abgebucht, paid, transferred,
refunded, ...) or a due payment (`fällig`, `due`). Money alone ("Budget 50.000 EUR", "costs
20 USD per seat") is an ordinary note. The result is advice only, never a refusal.
"""

from __future__ import annotations

import re
from typing import Final

_NUMBER: Final = r"[0-9]{1,3}(?:[.,' ][0-9]{3})+(?:[.,][0-9]{1,2})?|[0-9]+(?:[.,][0-9]{1,2})?"
_CURRENCY: Final = (
    r"€|\$|£|¥|EUR|USD|CHF|GBP|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|"
    r"Euro|Dollar|US-Dollar|Franken|Pfund|Cent|Rappen|Yen"
)
_AMOUNT: Final = re.compile(
    rf"(?:(?<![A-Za-z])(?:{_CURRENCY})\s?(?:{_NUMBER}))|(?:(?:{_NUMBER})\s?(?:{_CURRENCY})(?![A-Za-z]))",
    re.IGNORECASE,
)
_PAYMENT: Final = re.compile(
    r"\b(?:"
    # German: zahlen, überweisen, abbuchen, erstatten, kaufen, ausgeben, einnehmen, begleichen
    r"(?:be|ge|aus|ein|an|nach|zurück|rück)?zahl(?:t|te|ten|e|en|ung)"
    r"|überw(?:iesen|eise|eist|ies|iesen|eisung)"
    r"|ab(?:gebucht|buchung)|bucht(?:e|en)?\s+ab"
    r"|(?:rück)?erstatt(?:et|ete|ung)"
    r"|(?:ge)?kauft|kaufte|eingekauft"
    r"|ausgegeben|eingenommen|beglichen|lastschrift|quittung|fällig"
    # English
    r"|paid|pays?|paying|payment|transferred|wired|charged|refunded|reimbursed"
    r"|spent|bought|purchased|invoiced|billed|due(?!\s+to\b)"
    r")\b",
    re.IGNORECASE,
)

HINWEIS: Final = (
    "Der Text sieht nach einer Finanztransaktion aus (Betrag mit Währung und Zahlungsvorgang). "
    "Für Ausgaben, Einnahmen und Zahlungserinnerungen das Tool ledger verwenden "
    '(aktion "buchen"): exakte Beträge, Summen je Währung und Monat, Storno statt Überschreiben. '
    "Die Erinnerung wurde trotzdem gespeichert."
)


def looks_like_transaction(text: str) -> bool:
    return _AMOUNT.search(text) is not None and _PAYMENT.search(text) is not None


def ledger_hinweis(*texts: str) -> str | None:
    """The advice to use `ledger`, if any of the texts records a transaction."""
    return HINWEIS if any(looks_like_transaction(text) for text in texts) else None
