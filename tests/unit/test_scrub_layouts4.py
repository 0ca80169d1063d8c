"""The rows of the fourth round (issue 20, session 4, after held-out3 became development data):
Wi-Fi keys of digit groups after a router's name with `!` in it, passphrases after a long
parenthesis (`GPG passphrase (fingerprint …):`), several words after a plain `Passwort ist` on
a line that names a Wi-Fi, a lock named before its code (`Tresor im Keller: Code 4711`), a
password table under a frame line (`Aus dem Chat kopiert:`), and a hex id named as a database
or table that stays content even beside a token. Each removes its secret and leaves the
look-alikes of ordinary text alone (`SECRETS4`/`CONTENT4`, run by `test_scrub_layouts.py`). The
texts are written here, none is a corpus text."""

from __future__ import annotations

from shared.scrubbing import scrub

_FP = "0A1B 2C3D 4E5F 6071 8293 A4B5 C6D7 E8F9 0A1B 2C3D"

SECRETS4 = [
    ("Der WLAN-Key der Speedport!Plus im Flur: 3819 2274 6650 1938 4471", "2274 6650"),
    ("WiFi key of the Yahoo!Box upstairs: 48213 99102 57731 20468", "99102 57731"),
    ("WLAN-Schlüssel vom Router: 91827364 55019283 74650192", "55019283"),
    (
        f"GPG passphrase of the release key (fingerprint {_FP}): amber falcon tulip ridge",
        "falcon tulip",
    ),
    (
        f"Passphrase für den Signierschlüssel (Fingerprint {_FP}): birke-kran-ofen-wolke",
        "kran-ofen",
    ),
    (f"signing passphrase (key {_FP}): otter.lime.cedar.quartz", "lime.cedar"),
    ("Im Büro-WLAN „Hof-5G“, das Passwort ist tiger ampel kiesel moor", "ampel kiesel"),
    ("Hotspot im Café, das Kennwort lautet Sofa Regen Kompass Mond", "Regen Kompass"),
    ("guest wifi: CafeNet, the password is orbit maple canyon drift", "maple canyon"),
    ("Tresor im Keller: Code 839201, nach Gebrauch drehen", "839201"),
    ("Spind in der Halle: Code 4826", "4826"),
    ("Garage am Haus, Code: 73915", "73915"),
    ("Schlüsselkasten am Eingang: Zahlencode 5519", "5519"),
    ("The locker at the gym: combination 2857", "2857"),
    (
        "Kopiert aus Slack:\n| Gerät | Login | Passwort |\n|---|---|---|\n"
        "| Drucker | root | Lampe_47 |",
        "Lampe_47",
    ),
    (
        "From the thread:\n| host | user | pw |\n|---|---|---|\n| db1 | ops | Tk9!vQ2zLm |",
        "Tk9!vQ2zLm",
    ),
]

_DB = "3f9a1c7e5b2d4e6f8a0b1c2d3e4f5a6b"
CONTENT4 = [
    f"Datenbank {_DB} im Workspace Vertrieb",
    f"database id {_DB}, see the wiki",
    f"Tabelle: {_DB}",
    f"DB-ID {_DB} (Notion)",
    "Gäste-WLAN: das Passwort ist egal, es gibt ein Portal",
    "WLAN im Hof: das Passwort ist seit Montag ein anderes",
    "Das Passwort ist auf dem Zettel unter dem Router",
    "Das Passwort ist nicht mehr gültig seit gestern",
    "The password is stored in the vault for the team",
    "Tresor im Keller: Code folgt per Post",
    "Tor 3: Code geändert, siehe Aushang",
    "Garage: Code 2 Minuten gültig",
    "Spind 12, Code 4 Stellen",
    "Aus dem Chat kopiert:\n| SKU | Menge | Preis |\n|---|---|---|\n| AB-1234-XY | 12 | 19,90 € |",
    "Kopiert:\n| Dienst | Passwort |\n|---|---|\n| NAS | siehe Vault |",
    f"GPG key (fingerprint {_FP}): expires in 2027",
    "WLAN der FRITZ!Box im Keller: Kanal 36, 5 GHz",
]


def test_a_database_id_beside_a_token_stays_and_the_token_goes() -> None:
    token = "ntn_" + "4kQ9zVb2Lm7Xc1Rt8Yp3Wd6Hs0Fg5Jn2Ke9Ua7Zq4Ib"
    text = f"Integration Export – Secret {token}; Datenbank {_DB}"
    out = scrub(text).text
    assert token[4:20] not in out
    assert _DB in out
