"""Amounts, currencies, IBAN checks and the masking of payment data in free text."""

from __future__ import annotations

from decimal import Decimal

import pytest

from shared.ledger.model import LedgerArt, signed
from shared.ledger.money import (
    MINOR_UNITS,
    AmountError,
    currency_error,
    iban_error,
    mask,
    mask_payment_data,
    parse_betrag,
)


@pytest.mark.parametrize(
    ("text", "waehrung", "expected"),
    [
        ("0.10", "EUR", Decimal("0.10")),
        ("1234567890.99", "EUR", Decimal("1234567890.99")),
        ("500", "JPY", Decimal("500")),
        ("1.234", "KWD", Decimal("1.234")),
        ("0.0001", "CLF", Decimal("0.0001")),
    ],
)
def test_amounts_are_exact_decimals(text: str, waehrung: str, expected: Decimal) -> None:
    assert parse_betrag(text, waehrung, signed=False) == expected
    assert str(parse_betrag(text, waehrung, signed=False)) == text


@pytest.mark.parametrize(
    ("text", "waehrung", "signed_ok", "rule"),
    [
        ("1,50", "EUR", False, "Dezimalzahl"),
        ("1e3", "EUR", False, "Dezimalzahl"),
        ("", "EUR", False, "Dezimalzahl"),
        ("1234567890123456", "EUR", False, "15 Stellen"),
        ("-5.00", "EUR", False, "Vorzeichen"),
        ("0.00", "EUR", True, "nicht 0"),
        ("1.5", "JPY", False, "0 Nachkommastellen"),
        ("1.005", "EUR", False, "2 Nachkommastellen"),
    ],
)
def test_bad_amounts_name_their_rule(text: str, waehrung: str, signed_ok: bool, rule: str) -> None:
    with pytest.raises(AmountError, match=rule):
        parse_betrag(text, waehrung, signed=signed_ok)


def test_the_sign_comes_from_art_except_for_umbuchung() -> None:
    assert signed(LedgerArt.AUSGABE, Decimal("5")) == Decimal("-5")
    assert signed(LedgerArt.EINNAHME, Decimal("5")) == Decimal("5")
    assert signed(LedgerArt.UMBUCHUNG, Decimal("-5")) == Decimal("-5")
    assert parse_betrag("-5.00", "EUR", signed=True) == Decimal("-5.00")


def test_currencies_are_iso_4217_codes() -> None:
    assert {"EUR", "USD", "CHF", "JPY", "GBP", "KWD"} <= set(MINOR_UNITS)
    assert currency_error("EUR") is None
    assert currency_error("eur") == "Währungscode in Großbuchstaben angeben: EUR."
    assert currency_error("XAU") is not None  # gold: no currency one books in
    assert currency_error("EURO") is not None


@pytest.mark.parametrize(
    "iban",
    [
        "DE89 3704 0044 0532 0130 00",
        "GB82WEST12345698765432",
        "FR14 2004 1010 0505 0001 3M02 606",
        "ch9300762011623852957",
    ],
)
def test_valid_ibans_pass_the_mod_97_check(iban: str) -> None:
    assert iban_error(iban) is None


@pytest.mark.parametrize(
    ("iban", "rule"),
    [
        ("DE88 3704 0044 0532 0130 00", "Modulo 97"),
        ("DE89", "15 bis 34"),
        ("1234 5678 9012 3456", "Ländercode"),
    ],
)
def test_invalid_ibans_are_refused(iban: str, rule: str) -> None:
    problem = iban_error(iban)
    assert problem is not None and rule in problem


def test_masking_keeps_the_last_four_characters_and_the_layout() -> None:
    assert mask("DE89370400440532013000") == "******************3000"
    assert mask("4111-1111-1111-1111") == "****-****-****-1111"


@pytest.mark.parametrize(
    ("text", "masked", "count"),
    [
        (
            "Bitte an DE89 3704 0044 0532 0130 00 überweisen.",
            "Bitte an **** **** **** **** **30 00 überweisen.",
            1,
        ),
        (
            "IBAN: DE88370400440532013000 (Tippfehler)",
            "IBAN: ******************3000 (Tippfehler)",
            1,
        ),
        ("Karte 4111 1111 1111 1111 belastet", "Karte **** **** **** 1111 belastet", 1),
        (
            "Visa 4012888888881881, Amex 378282246310005",
            "Visa ************1881, Amex ***********0005",
            2,
        ),
        # not payment data: an order number (Luhn fails), an ID that only looks like an IBAN
        ("Bestellung 1234567890123456 vom Montag", "Bestellung 1234567890123456 vom Montag", 0),
        ("Ticket AB12CDEF3456789012 offen", "Ticket AB12CDEF3456789012 offen", 0),
    ],
)
def test_payment_data_in_free_text_is_masked(text: str, masked: str, count: int) -> None:
    assert mask_payment_data(text) == (masked, count)
