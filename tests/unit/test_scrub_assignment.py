"""The context tier removes only a value its credential word is *given* (issue 20, session 6:
`shared/scrubbing/context_guards.py`): not a value near the word, after a clause break or
before it, not an identifier shape, not the rest of a sentence. Texts written fresh here; none
is taken from an evaluation set."""

from __future__ import annotations

import pytest

from shared.scrubbing import scrub

KEPT = {
    "near_not_assigned": 'db_url = os.getenv("DB_URL")  # do not hard-code, see SEC-4410',
    "clause_break": (
        "Der Schlüssel ist verloren, darum seit gestern gesperrt – neuer Schlüssel kommt per Post."
    ),
    "phone_after_code_word": "Der SMS-Code kam nicht an, bitte Rückruf unter +44 7700 900123.",
    "phone_local_form": "Code kommt per Anruf an Frau Weber 0151 2345678 morgen früh.",
    "pgp_fingerprint": (
        "Import the signing key 5A2C 11B0 9D3E 7F41 C0A8 2B6D 44E1 93F7 0C5E 8D21 first."
    ),
    "key_name_not_value": "Den Stripe-Schlüssel habe ich so abgelegt: stripe_secret_ref = vault",
    "label_not_value": "Token zurückgesetzt? Status: erledigt, Ticket: geschlossen",
    "sentence_goes_on": "Das Passwort geändert am Montag, danach ging der Login wieder.",
    "weak_word_bare": "Login admin über die Web-Konsole, Zugang Ferienwohnung über den Hof.",
    "value_before_word": "Kunde 48213 meldet, der Code sei falsch gewesen.",
    "imei_label": "App-PIN für das Diensthandy (IMEI 490154203237518) bitte beim Support holen.",
    "openpgp_key_id": "Sign the release tags with key 9C4D2E7A1B3F5068.",
    "openpgp_short_id": "The keyserver lists key 0x5D8E1A2C since Tuesday.",
    "registry_path": "Key: HKEY_CURRENT_USER\\Software\\Acme\\Sync",
    "weak_word_plain_word": "Zugang ist wieder freigeschaltet.",
    "env_call_reference": "password: env(SMTP_PASS)",
    "home_path": "pwd: /srv/builds/nightly/artifacts",
    "number_of_a_noun_before": "Room 2040 is your key pickup point.",
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_not_given_a_value_stays(name: str) -> None:
    text = KEPT[name]
    assert scrub(text).text == text


REMOVED = {
    "relative_clause": (
        "Das WLAN-Passwort, das ich dir gestern gab, lautet Kiefer!2024.",
        "Kiefer!2024",
    ),
    "copula_adverb": (
        "Sie meint, ihr Passwort sei immer noch Lerche77 – bitte ändern.",
        "Lerche77",
    ),
    "set_to": ("Yesterday I set the root password to Wz7qPa2m for the lab box.", "Wz7qPa2m"),
    "adjacent": ("Neue PIN 5821 für die Garage.", "5821"),
    "weak_word_colon": ("Zugang: 8812, danach links.", "8812"),
    "parenthesis": (
        "API-Token (Lieferantenportal) 6f1c2b9e-3d4a-4b5c-9e8f-0a1b2c3d4e5f",
        "6f1c2b9e",
    ),
    "recovery_list_heading": (
        "Backup codes, store them offline:\n3f9a2-77c1d\n9b0e4-1a2f3\n5c7d1-0e9f8",
        "9b0e4-1a2f3",
    ),
    "otp_message_value_first": ("482913 is your verification code.", "482913"),
    "otp_message_german": ("Hinweis: 730155 ist dein Anmeldecode.", "730155"),
    "seed_phrase_own_line": (
        "Recovery phrase:\nocean tiger maple river stone cloud apple grape lemon horse"
        " piano eagle\n",
        "ocean tiger maple",
    ),
    "cvc_pruefziffer": ("Visa 4111 1111 1111 1111, gültig bis 11/27, Prüfziffer 381", "381"),
}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_an_assigned_value_is_removed(name: str) -> None:
    text, secret = REMOVED[name]
    assert secret not in scrub(text).text


def test_a_call_argument_is_no_settings_tuple() -> None:
    text = "smtp_password: \"{{ lookup('community.general.onepassword', 'Mail Relay') }}\""
    assert scrub(text).text == text
    row = "INSERT INTO settings VALUES ('smtp_password', 'Pq7#vL2m');"
    assert "Pq7#vL2m" not in scrub(row).text


def test_every_lexicon_form_holds_a_needle() -> None:
    # The tier skips texts, lines and tokens without a needle: no credential word may lack one
    from shared.scrubbing.context_lexicon import CODE_STEM, LEXICON, STEMS
    from shared.scrubbing.context_tier import _NEEDLE

    forms = [*LEXICON, *(stem for stem, _ in STEMS), CODE_STEM]
    assert [f for f in forms if not _NEEDLE.search(f)] == []
