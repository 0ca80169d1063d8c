"""The rows of the third development round (issue 20, session 4): archive, Samba, htpasswd,
keytool, `net use`, `--password-stdin` and PowerShell command lines, quoted `-a`/`-p` values, a
Markdown table's password column or key cell, logins listed under a heading, Wi-Fi keys of words
and Wi-Fi QR texts, `auth=('u', 'X')`, `Geheimnis:`, BitLocker recovery keys, YAML block
scalars (`password: |`), XML settings (`<add key="ApiKey" value="X"/>`), a key's value as the
first line of a code block, a bare `Authorization: X`, `<password>`
elements that start with a bracket, keys wrapped over two lines, `PAT`, the
Tencent/GCP-HMAC/DeepL shapes, a bare value after `Notiz:` - each removes its secret and
leaves the look-alikes of ordinary text alone (mysql's port, a table's note, prose after
`lautet`, an empty `password=` before the next line, a name `Pat`, an env file's next line)."""

from __future__ import annotations

import pytest

from shared.scrubbing import scrub
from tests.unit.test_scrub_corpus import leaks
from tests.unit.test_scrub_layouts4 import CONTENT4, SECRETS4

_KEY = "sk-proj-Yd7JbKx2CsFO_zYfPQJStpl9zb2_iYZF4HgS7jDq"
_REST = "mld4BfcgzcFrayyGE7U7ghKj8ZXpW32hcdO3gduqyMVeb7-xTQb8w1O9F8MBm_mmz"
_TABLE = (
    "| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Grafana | admin | {a} |\n| NAS | y | {b} |"
)

SECRETS = [
    ("7z a -pKaffee74# backup.7z ./export", "Kaffee74#"),
    ("```\n7z a -pKaf_628X backup.7z ./export\n```", "Kaf_628X"),
    ("zip -P Geheim123 out.zip a.txt", "Geheim123"),
    ("smbclient //fileserver/share -U svc_backup%Zugspitze13#", "Zugspitze13#"),
    (_TABLE.format(a="Mau_411Y", b="K1r*Q7Onv9mGlV"), "Mau_411Y"),
    (_TABLE.format(a="Mau_411Y", b="K1r*Q7Onv9mGlV"), "K1r*Q7Onv9mGlV"),
    ("Notiz: " + _TABLE.format(a="MeinBorussiaIst2", b="^y1Z*N~*#!5Zy(R!kX%r"), "^y1Z*N~*#!5Zy"),
    ("| system | secret |\n|---|---|\n| Kaggle | 5f3a9c0d1e2b4a6f8c7d9e0a1b2c3d4e |", "5f3a9c0d"),
    ("Zugänge:\n- Router: admin / qwertz1975\n- Drucker: keins", "qwertz1975"),
    ("Unser WLAN-Schlüssel lautet Nudel blue Ampel Wolke", "blue Ampel Wolke"),
    ("<password>{nH)q[[$y0kl}us</password>", "{nH)q[[$y0kl}us"),
    ("<password>(#6IWeLo0~c7JhRK</password>", "(#6IWeLo0~c7JhRK"),
    (f"the key wrapped:\n{_KEY}\n{_REST}\nplease join it", _REST),
    ("Notiz: vault operator unseal eD4uTeNDH3FRRPhvG8BjpxRiCcaVh+gxzqLNs/k3E0Gy", "eD4uTeNDH3FR"),
    ("Azure DevOps PAT (read): ka6xks26u3xgjg3n5hhpqvckbqcjtnhqmlimjlzr6uebhynaaxm5", "ka6xks26"),
    ("Tencent SecretId AKID1gyiCnOb1zLRZRus40AExDopGOdGgLN2", "AKID1gyiCnOb"),
    ("access id GOOG1ENC2M7LJC2ZORHBB3U16J64GMKZE3VX02PX1GXDFQR0BH3DKXD1NXN4M", "GOOG1ENC2M7L"),
    ("DeepL auth key 279f8e22-807c-6af7-5c7d-b59ca78303cb:fx", "279f8e22-807c"),
    ("redis-cli -h cache -a 'Hq8#xZ2mL0' ping", "Hq8#xZ2mL0"),
    ("sshpass -p 'Hq8xZ2mL0pQ' ssh root@10.0.0.5", "Hq8xZ2mL0pQ"),
    ("Geheimnis: 9fK2mQ7xL4pV8nR1sT6wZ3yB", "9fK2mQ7xL4pV8nR1sT6wZ3yB"),
    ("requests.get(url, auth=('admin', 'Hq8#xZ2mL0'))", "Hq8#xZ2mL0"),
    ("htpasswd -b /etc/nginx/.htpasswd admin Hq8xZ2mL0pQ", "Hq8xZ2mL0pQ"),
    ("echo 'Hq8xZ2mL0pQ' | docker login -u admin --password-stdin", "Hq8xZ2mL0pQ"),
    ("keytool -storepass Hq8xZ2mL0pQ -keystore app.jks -list", "Hq8xZ2mL0pQ"),
    ("net use Z: \\\\fs01\\share Hq8xZ2mL0pQ /user:ACME\\jkoch", "Hq8xZ2mL0pQ"),
    ("WIFI:T:WPA;S:Buero;P:Sonnenblume77;;", "Sonnenblume77"),
    ('ConvertTo-SecureString "Winter2025!Acme" -AsPlainText -Force', "Winter2025!Acme"),
    ("BitLocker: 123456-234567-345678-456789-567890-678901-789012-890123", "345678-456789"),
    ("| Key | Value |\n|---|---|\n| DB_PASSWORD | Hq8xZ2mL0pQ |", "Hq8xZ2mL0pQ"),
    ("password: |\n  Hq8xZ2mL0pQ\nuser: app", "Hq8xZ2mL0pQ"),
    ("client_secret: >-\n  Zq8mK2xP9vL4nT7sW1yB3cD6eF0gH\n", "Zq8mK2xP9vL4nT7s"),
    ('<add key="ApiKey" value="Zq8mK2xP9vL4nT7sW1yB3cD6eF0gH" />', "Zq8mK2xP9vL4nT7s"),
    ('<add key="SmtpPassword" value="Hq8xZ2mL0pQ" />', "Hq8xZ2mL0pQ"),
    ('<property name="password" value="Hq8xZ2mL0pQ"/>', "Hq8xZ2mL0pQ"),
    ("Token (bitte nicht teilen):\n```\nZq8mK2xP9vL4nT7sW1yB3cD6eF0gH\n```", "Zq8mK2xP9vL4nT7s"),
    ("Authorization: Zq8mK2xP9vL4nT7sW1yB3cD6eF0gH", "Zq8mK2xP9vL4nT7s"),
]

CONTENT = [
    "mysql -P 3306 -h db01 orders",
    "7z a backup.7z ./export -mx9",
    "| Dienst | Benutzer | Passwort |\n|---|---|---|\n| Grafana | admin | (im Tresor) |\n"
    "| NAS | admin | keins |",
    "| Name | Version | Key |\n|---|---|---|\n| api | 1.2.3 | ENABLE_X |",
    "| Kunde | Passwort zurückgesetzt |\n|---|---|\n| Jana | 2026-11-30 |",
    "Zugänge: Haupteingang / Seiteneingang",
    "Der WLAN-Schlüssel lautet wie auf dem Router angegeben.",
    "WLAN-Passwort steht auf dem Aufkleber unter dem Router.",
    "[client]\nuser=report\npassword=\nhost=cache-2.lan",
    "<password>${env.DB_PASSWORD}</password>",
    "<password>(leer)</password>",
    "Pat: see you at 5",
    "Pat said the path is /var/lib/brain",
    f"NOTE_ID={_REST}\nLOG_LEVEL=debug",
    "Notiz: Commit 3f2a9c0d1e2b4a6f8c7d9e0a1b2c3d4e5f6a7b8c behebt den Fehler",
    "request id 279f8e22-807c-6af7-5c7d-b59ca78303cb",
    "net use Z: \\\\fs01\\share /persistent:yes /user:ACME\\jkoch",
    "echo $TOKEN | docker login -u ci --password-stdin ghcr.io",
    "auth=('admin', os.environ['PW'])",
    "WIFI:T:WPA;S:Buero;P:;;",
    "| Key | Value |\n|---|---|\n| password_policy | strict |\n| PASSWORD_MAX_AGE | 90days |",
    "| Key | Value |\n|---|---|\n| DB_PASSWORD | ${DB_PASSWORD} |",
    "Geheimnis: bleibt unter uns",
    "Das Geheimnis ist Geduld.",
    "htpasswd -c /etc/nginx/.htpasswd admin",
    "ConvertTo-SecureString $pw -AsPlainText -Force",
    "Phone: 123456-234567 ext 12",
    "password: |\n  siehe Tresor\nuser: app",
    '<add key="PasswordPolicy" value="strict" />',
    '<add key="ApiKeyHeader" value="X-Api-Key" />',
    '<property name="password" value="${db.password}"/>',
    "Token (bitte nicht teilen):\n```\nsiehe Vault\n```",
    "Authorization: Bearer",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS + SECRETS4)
def test_the_secret_is_removed(text: str, secret: str) -> None:
    assert not leaks(secret, scrub(text).text), scrub(text).text


@pytest.mark.parametrize("text", CONTENT + CONTENT4)
def test_the_look_alike_stays(text: str) -> None:
    assert scrub(text).text == text


def test_a_wrapped_key_loses_both_lines_and_keeps_the_sentence_after_it() -> None:
    text = f"Der Key ging über zwei Zeilen:\n{_KEY}\n{_REST}\nbitte zusammensetzen."
    assert scrub(text).text == (
        "Der Key ging über zwei Zeilen:\n[ENTFERNT:openai_key]\nbitte zusammensetzen."
    )


def test_an_env_file_line_after_a_key_is_not_part_of_it() -> None:
    text = f"OPENAI_API_KEY={_KEY}{_REST}\nLOG_LEVEL=debug\nREGION=eu-central-1"
    assert scrub(text).text == (
        "OPENAI_API_KEY=[ENTFERNT:openai_key]\nLOG_LEVEL=debug\nREGION=eu-central-1"
    )
