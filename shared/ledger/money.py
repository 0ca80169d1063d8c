"""Amounts, currencies and the payment data the ledger must not show in clear.

- `parse_betrag`: a decimal *string* (never a float) -> exact Decimal, with at most the
  currency's minor units (ISO 4217: EUR 2, JPY 0, KWD 3, CLF 4).
- `valid_iban` / `normalize_iban`: ISO 13616 shape and the mod-97 check (ISO 7064).
- `mask_payment_data`: IBANs and Luhn-valid card numbers in free text keep only their last
  four characters (`DE89 **** ... 3000` -> `**** **** **** **** **30 00`); runs before the
  secret scrubber, which then sees no card number any more.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Final

# Active ISO 4217 codes -> minor units (decimal places). Codes without minor units (precious
# metals, XDR, XXX, ...) are not currencies one books in.
_MINOR_UNITS_0: Final = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_MINOR_UNITS_3: Final = "BHD IQD JOD KWD LYD OMR TND"
_MINOR_UNITS_4: Final = "CLF UYW"
_MINOR_UNITS_2: Final = (
    "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP "
    "BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR "
    "FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR "
    "KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV "
    "MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR "
    "SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH "
    "USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG"
)
MINOR_UNITS: Final[dict[str, int]] = {
    code: digits
    for digits, codes in (
        (0, _MINOR_UNITS_0),
        (2, _MINOR_UNITS_2),
        (3, _MINOR_UNITS_3),
        (4, _MINOR_UNITS_4),
    )
    for code in codes.split()
}

BETRAG_MAX_DIGITS: Final = 15  # before the decimal point: sums stay far inside 38 digits
BETRAG_PATTERN: Final = r"^[+-]?[0-9]{1,15}(\.[0-9]{1,4})?$"
_BETRAG_RE: Final = re.compile(BETRAG_PATTERN)


class AmountError(ValueError):
    """A German message naming the rule the amount broke."""


def parse_betrag(text: str, waehrung: str | None, *, signed: bool) -> Decimal:
    """An exact amount. `signed=False`: no sign allowed, must be > 0 (the `art` gives the
    sign); `signed=True` (umbuchung): a sign is allowed, the amount must not be 0."""
    if not _BETRAG_RE.fullmatch(text):
        raise AmountError(
            "Betrag muss eine Dezimalzahl als Zeichenkette sein, mit Punkt und höchstens "
            f'{BETRAG_MAX_DIGITS} Stellen vor dem Komma, z. B. "1234.50".'
        )
    if not signed and text[0] in "+-":
        raise AmountError(
            "Betrag ohne Vorzeichen angeben: das Vorzeichen ergibt sich aus art "
            "(ausgabe zieht ab, einnahme zählt hinzu; nur umbuchung darf ein Vorzeichen haben)."
        )
    try:
        amount = Decimal(text)
    except InvalidOperation as exc:  # unreachable after the pattern, kept for safety
        raise AmountError("Betrag ist keine Dezimalzahl.") from exc
    if amount == 0:
        raise AmountError("Betrag darf nicht 0 sein.")
    digits = MINOR_UNITS.get(waehrung or "")
    places = -int(amount.as_tuple().exponent)
    if digits is not None and places > digits:
        raise AmountError(f"{waehrung} hat {digits} Nachkommastellen; der Betrag hat {places}.")
    return amount


def currency_error(code: str) -> str | None:
    if code in MINOR_UNITS:
        return None
    if code.upper() in MINOR_UNITS:
        return f"Währungscode in Großbuchstaben angeben: {code.upper()}."
    return "Kein gültiger ISO-4217-Währungscode (z. B. EUR, USD, CHF, JPY)."


# --- IBAN --------------------------------------------------------------------------------

_IBAN_SHAPE: Final = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}")


def normalize_iban(text: str) -> str:
    return re.sub(r"[\s-]", "", text).upper()


def iban_checksum_ok(iban: str) -> bool:
    rearranged = iban[4:] + iban[:4]
    digits = "".join(str(int(char, 36)) for char in rearranged)
    return int(digits) % 97 == 1


def iban_error(text: str) -> str | None:
    """None if `text` is a valid IBAN (spaces allowed), else the German reason."""
    iban = normalize_iban(text)
    if not _IBAN_SHAPE.fullmatch(iban):
        return (
            "IBAN muss mit Ländercode und zwei Prüfziffern beginnen und 15 bis 34 "
            "Buchstaben/Ziffern haben, z. B. DE89 3704 0044 0532 0130 00."
        )
    if not iban_checksum_ok(iban):
        return "IBAN-Prüfsumme (Modulo 97) stimmt nicht; bitte die IBAN prüfen."
    return None


def mask(text: str, keep: int = 4) -> str:
    """Every letter/digit but the last `keep` replaced by `*`; separators stay."""
    total = sum(char.isalnum() for char in text)
    seen = 0
    out = []
    for char in text:
        if char.isalnum():
            seen += 1
            out.append(char if seen > total - keep else "*")
        else:
            out.append(char)
    return "".join(out)


# --- free text -----------------------------------------------------------------------------

# An IBAN as people write it: grouped by 4 with spaces, or in one block.
_IBAN_IN_TEXT: Final = re.compile(
    r"(?<![A-Za-z0-9])(?P<iban>[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]){11,30})(?![A-Za-z0-9])"
)
_IBAN_LABEL: Final = re.compile(r"iban\W{0,3}$", re.IGNORECASE)
_CARD_IN_TEXT: Final = re.compile(r"(?<![0-9])(?:[0-9][ -]?){12,18}[0-9](?![0-9])")


def _luhn_ok(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def mask_payment_data(text: str) -> tuple[str, int]:
    """`text` with IBANs and card numbers masked, and how many were masked.

    An IBAN counts if its mod-97 check holds, or if the text labels it (`IBAN: ...`), so
    that a mistyped IBAN is masked too. A card number: 13-19 digits (spaces or dashes
    between), Luhn-valid.
    """
    count = 0

    def iban(match: re.Match[str]) -> str:
        nonlocal count
        value = match.group("iban")
        labelled = _IBAN_LABEL.search(text[: match.start()]) is not None
        if labelled or iban_checksum_ok(normalize_iban(value)):
            count += 1
            return mask(value)
        return value

    def card(match: re.Match[str]) -> str:
        nonlocal count
        digits = re.sub(r"[ -]", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            count += 1
            return mask(match.group(0))
        return match.group(0)

    masked = _IBAN_IN_TEXT.sub(iban, text)
    return _CARD_IN_TEXT.sub(card, masked), count
